import Foundation
import Testing
import CoreSeed
import CoreSeedTestSupport

/// `build --into STORE --mode upsert|insert` on existing stores, and per-configuration stores.
@Suite struct UpsertTests {
    static let model = BinaryRunner.repositoryRoot.appendingPathComponent("Inputs/FailedBanksCD.xcdatamodeld").path

    /// The FDIC list as the CSV spec reads it, into a store in `scratch`; returns the spec text for `csv`.
    static func spec(csv: String) -> String {
        """
        { "model": "\(model)", "output": "FailedBanksCD.sqlite", "timeZone": "America/New_York",
          "sources": { "banks": { "csv": "\(csv)" } },
          "entities": {
            "FailedBankInfo": { "from": "banks", "key": "CERT #", "attributes": { "name": "Bank Name", "city": "City", "state": "State" },
                                "relationships": { "details": { "key": "CERT #" } } },
            "FailedBankDetails": { "from": "banks", "key": "CERT #", "attributes": { "zip": "CERT #",
              "closeDate": { "field": "Closing Date", "date": "d-MMM-yy" }, "updatedDate": { "field": "Updated Date", "date": "d-MMM-yy" } } } } }
        """
    }

    static func prepare() throws -> Scratch {
        let scratch = try Scratch()
        let original = try String(contentsOfFile: BinaryRunner.repositoryRoot.appendingPathComponent("Inputs/fdic-2011/banklist.csv").path, encoding: .utf8)
        try scratch.write("banklist.csv", original)
        // The changed list: Desert Hills Bank's update date moves, a new bank appears, Key West Bank is gone.
        var lines = original.components(separatedBy: "\r\n")
        lines[1] = lines[1].replacingOccurrences(of: "26-Mar-10,26-Mar-10", with: "26-Mar-10,1-Apr-10")
        lines.insert("New Bank of Somewhere,Springfield,IL,99999,2-Apr-10,2-Apr-10", at: 2)
        lines.remove(at: 4)
        try scratch.write("changed.csv", lines.joined(separator: "\r\n"))
        try scratch.write("spec.json", spec(csv: "banklist.csv"))
        try scratch.write("changed.json", spec(csv: "changed.csv"))
        let build = try scratch.run(["build", "spec.json", "--quiet"])
        #expect(build.status == 0, "\(build.stderr)")
        return scratch
    }

    @Test func upsertUpdatesChangedRowsAddsNewOnesAndKeepsTheRest() throws {
        let scratch = try Self.prepare()
        let uuid = try scratch.query("FailedBanksCD.sqlite", "SELECT Z_UUID FROM Z_METADATA")
        let result = try scratch.run(["build", "changed.json", "--into", "FailedBanksCD.sqlite", "--mode", "upsert"])
        #expect(result.status == 0, "\(result.stderr)")
        // The summary says what happened to the store (issue 14): 466 rows before, 1 of them updated.
        #expect(result.stdout.hasPrefix("updated FailedBanksCD.sqlite: 2 added, 1 updated, 465 kept in "))
        #expect(try scratch.query("FailedBanksCD.sqlite", "SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT") == [["FailedBankDetails", "234"], ["FailedBankInfo", "234"]])
        // Changed: Z_OPT 2 and the new date (2010-04-01 in New York = 291787200); the rest Z_OPT 1.
        #expect(try scratch.query("FailedBanksCD.sqlite", "SELECT Z_PK, Z_OPT, ZUPDATEDDATE FROM ZFAILEDBANKDETAILS WHERE Z_OPT > 1") == [["1", "2", "291787200"]])
        #expect(try scratch.query("FailedBanksCD.sqlite", "SELECT count(*) FROM ZFAILEDBANKINFO WHERE Z_OPT = 1") == [["234"]])
        // New: fresh Z_PKs above the old Z_MAX, linked both ways.
        #expect(try scratch.query("FailedBanksCD.sqlite", """
            SELECT i.Z_PK, i.ZNAME, d.Z_PK, d.ZINFO FROM ZFAILEDBANKINFO i JOIN ZFAILEDBANKDETAILS d ON i.ZDETAILS = d.Z_PK WHERE i.Z_PK > 233
            """) == [["234", "New Bank of Somewhere", "234", "234"]])
        // Kept: Key West Bank is not in the changed list but stays. The store keeps its identity.
        #expect(try scratch.query("FailedBanksCD.sqlite", "SELECT count(*) FROM ZFAILEDBANKINFO WHERE ZNAME = 'Key West Bank'") == [["1"]])
        #expect(try scratch.query("FailedBanksCD.sqlite", "SELECT Z_UUID FROM Z_METADATA") == uuid)
        let verify = try scratch.run(["verify", "FailedBanksCD.sqlite", "--model", Self.model])
        #expect(verify.status == 0, "\(verify.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted()
                == ["FailedBanksCD.sqlite", "banklist.csv", "changed.csv", "changed.json", "spec.json"])
    }

    @Test func insertAddsOnlyNewRows() throws {
        let scratch = try Self.prepare()
        let result = try scratch.run(["build", "changed.json", "--into", "FailedBanksCD.sqlite", "--mode", "insert"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try scratch.query("FailedBanksCD.sqlite", "SELECT count(*) FROM ZFAILEDBANKDETAILS WHERE Z_OPT > 1") == [["0"]])
        #expect(try scratch.query("FailedBanksCD.sqlite", "SELECT ZUPDATEDDATE FROM ZFAILEDBANKDETAILS WHERE Z_PK = 1") == [["291268800"]])
        #expect(try scratch.query("FailedBanksCD.sqlite", "SELECT count(*), max(Z_PK) FROM ZFAILEDBANKINFO") == [["234", "234"]])
    }

    /// Two stored rows with one key: which to update would be a guess (issue 14), so nothing is.
    @Test func ambiguousStoredKeysAreRefusedAndTheStoreIsLeftAlone() throws {
        let scratch = try Self.prepare()
        do {
            let app = try SQLiteDatabase(path: scratch.path("FailedBanksCD.sqlite"), mode: .readWrite)
            try app.execute("UPDATE ZFAILEDBANKDETAILS SET ZZIP = (SELECT ZZIP FROM ZFAILEDBANKDETAILS WHERE Z_PK = 1) WHERE Z_PK = 5")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: scratch.path("FailedBanksCD.sqlite")))
        let zip = try scratch.query("FailedBanksCD.sqlite", "SELECT ZZIP FROM ZFAILEDBANKDETAILS WHERE Z_PK = 1")[0][0]
        let result = try scratch.run(["build", "changed.json", "--into", "FailedBanksCD.sqlite", "--mode", "upsert"])
        #expect(result.status != 0)
        #expect(result.stderr == "FailedBanksCD.sqlite: error: entities.FailedBankDetails: rows Z_PK 1 and 5 of ZFAILEDBANKDETAILS share the key '\(zip)', so records cannot be matched to one row; the key ('CERT #') must be unique in the store: remove the duplicate rows or key the entity by a unique field\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("FailedBanksCD.sqlite"))) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted()
                == ["FailedBanksCD.sqlite", "banklist.csv", "changed.csv", "changed.json", "spec.json"])
    }

    @Test(.needsCorpus) func aStoreOfAnotherModelIsRefusedAndLeftAlone() throws {
        let scratch = try Self.prepare()
        let corpus = StoreOps.corpus.appendingPathComponent("iqtodolist/store.sqlite")
        try FileManager.default.copyItem(atPath: corpus.path, toPath: scratch.path("other.sqlite"))
        let before = try Data(contentsOf: URL(fileURLWithPath: scratch.path("other.sqlite")))
        let result = try scratch.run(["build", "changed.json", "--into", "other.sqlite"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("other.sqlite: error: the store to update does not match model version 'FailedBanksCD': no version of the model matches the store's version hashes"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("other.sqlite"))) == before)
    }

    @Test func relationshipsResolveAgainstRowsAlreadyInTheStore() throws {
        let scratch = try Scratch()
        try scratch.writeModel("Geo", """
            <entity name="Country"><attribute name="code" attributeType="String"/>
              <relationship name="cities" optional="YES" toMany="YES" destinationEntity="City" inverseName="country" inverseEntity="City"/></entity>
            <entity name="City"><attribute name="name" attributeType="String"/>
              <relationship name="country" optional="YES" maxCount="1" destinationEntity="Country" inverseName="cities" inverseEntity="Country"/></entity>
            """)
        try scratch.write("countries.csv", "code\nfr\nde\n")
        try scratch.write("cities.csv", "name,country\nParis,fr\n")
        try scratch.write("more.csv", "name,country\nBerlin,de\nLyon,fr\nRoma,it\n")
        try scratch.write("more-countries.csv", "code\nit\nde\n")
        try scratch.write("spec.json", """
            { "model": "Geo.xcdatamodeld", "output": "geo.sqlite",
              "sources": { "countries": { "csv": "countries.csv" }, "cities": { "csv": "cities.csv" } },
              "entities": { "Country": { "from": "countries", "key": "code" },
                            "City": { "from": "cities", "key": "name", "relationships": { "country": { "key": "country" } } } } }
            """)
        try scratch.write("more.json", """
            { "model": "Geo.xcdatamodeld", "output": "geo.sqlite", "mode": "upsert",
              "sources": { "more": { "csv": "more.csv" }, "countries": { "csv": "more-countries.csv" } },
              "entities": { "Country": { "from": "countries", "key": "code" },
                            "City": { "from": "more", "key": "name", "relationships": { "country": { "key": "country" } } } } }
            """)
        #expect(try scratch.run(["build", "spec.json", "--quiet"]).status == 0)
        let result = try scratch.run(["build", "more.json", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try scratch.query("geo.sqlite", "SELECT c.ZNAME, k.ZCODE FROM ZCITY c JOIN ZCOUNTRY k ON c.ZCOUNTRY = k.Z_PK ORDER BY c.Z_PK")
                == [["Paris", "fr"], ["Berlin", "de"], ["Lyon", "fr"], ["Roma", "it"]])
        // "fr" is only in the store, "de" in both (unchanged), "it" new.
        #expect(try scratch.query("geo.sqlite", "SELECT Z_PK, ZCODE, Z_OPT FROM ZCOUNTRY ORDER BY Z_PK") == [["1", "fr", "1"], ["2", "de", "1"], ["3", "it", "1"]])
    }

    @Test func aConfigurationStoreHoldsOnlyItsEntities() throws {
        let scratch = try Scratch()
        try scratch.writeModel("Split", """
            <entity name="Bank"><attribute name="name" optional="YES" attributeType="String"/>
              <relationship name="branches" optional="YES" toMany="YES" destinationEntity="Branch" inverseName="bank" inverseEntity="Branch"/></entity>
            <entity name="Branch"><attribute name="city" optional="YES" attributeType="String"/>
              <relationship name="bank" optional="YES" maxCount="1" destinationEntity="Bank" inverseName="branches" inverseEntity="Bank"/></entity>
            <entity name="Note"><attribute name="text" optional="YES" attributeType="String"/>
              <relationship name="bank" optional="YES" maxCount="1" destinationEntity="Bank"/></entity>
            <configuration name="Seed"><memberEntity name="Bank"/><memberEntity name="Branch"/></configuration>
            <configuration name="User"><memberEntity name="Note"/></configuration>
            """)
        try scratch.write("banks.csv", "name\nFirst\nSecond\n")
        try scratch.write("branches.csv", "city,bank\nRome,First\nOslo,Second\n")
        try scratch.write("seed.json", """
            { "model": "Split.xcdatamodeld", "output": "seed.sqlite", "configuration": "Seed",
              "sources": { "banks": { "csv": "banks.csv" }, "branches": { "csv": "branches.csv" } },
              "entities": { "Bank": { "from": "banks", "key": "name" },
                            "Branch": { "from": "branches", "relationships": { "bank": { "key": "bank" } } } } }
            """)
        let result = try scratch.run(["build", "seed.json", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try scratch.query("seed.sqlite", "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
                == [["ZBANK"], ["ZBRANCH"], ["Z_METADATA"], ["Z_MODELCACHE"], ["Z_PRIMARYKEY"]])
        #expect(try scratch.query("seed.sqlite", "SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT") == [["Bank", "2"], ["Branch", "2"], ["Note", "0"]])
        let verify = try scratch.run(["verify", "seed.sqlite", "--model", "Split.xcdatamodeld", "--configuration", "Seed"])
        #expect(verify.status == 0, "\(verify.stderr)")
        // The User configuration's Note points at a Bank, which lives in the other store.
        try scratch.write("user.json", """
            { "model": "Split.xcdatamodeld", "output": "user.sqlite", "configuration": "User",
              "sources": { "banks": { "csv": "banks.csv" } }, "entities": {} }
            """)
        let crossing = try scratch.run(["build", "user.json"])
        #expect(crossing.status == 1)
        #expect(crossing.stderr == "user.json: error: relationship 'Note.bank' crosses from configuration 'User' to entity 'Bank', which is not in it\n")
    }

    /// A store migrated in place (§4b.8: `Z_PRIMARYKEY` names LuxuryCar by its renaming identifier) is
    /// matched as `verify` matches it; the upsert keeps its history and the result verifies.
    @Test(.needsCorpus) func upsertIntoAStoreMigratedInPlace() throws {
        let scratch = try Scratch()
        let store = try StoreOps.copyCorpusStore("coredataplus-2018-samplemodel-v2", into: scratch.url)
        let model = StoreOps.corpus.appendingPathComponent("coredataplus-2018-samplemodel-v2/model/SampleModel.xcdatamodeld").path
        try scratch.write("cars.csv", "maker,model,numberPlate,limited\nBMW,M8,300,yes\nAudi,R8,999,no\n")
        try scratch.write("spec.json", """
            { "model": "\(model)", "modelVersion": "SampleModel2", "output": "unused.sqlite",
              "sources": { "cars": { "csv": "cars.csv" } },
              "entities": { "LuxuryCar": { "from": "cars", "key": "numberPlate", "attributes": { "isLimitedEdition": "limited" } } } }
            """)
        let result = try scratch.run(["build", "spec.json", "--into", store, "--mode", "upsert"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try scratch.query("store.sqlite", "SELECT Z_PK, Z_ENT, Z_OPT, ZMAKER, ZMODEL, ZISLIMITEDEDITION FROM ZCAR WHERE ZNUMBERPLATE IN ('300', '999') ORDER BY Z_PK")
                == [["3", "3", "2", "BMW", "M8", "1"], ["126", "3", "1", "Audi", "R8", "0"]])
        #expect(try scratch.query("store.sqlite", "SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
                == [["Car", "126"], ["SportCar", "0"], ["ExpensiveSportCar", "0"], ["Person", "20"]])
        let verify = try scratch.run(["verify", store, "--model", model])
        #expect(verify.status == 0, "\(verify.stderr)")
        #expect(verify.stdout.contains("note: migrated in place: Z_PRIMARYKEY names entity LuxuryCar (Z_ENT 3) by its renaming identifier 'ExpensiveSportCar'"))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("unused.sqlite")))
    }

    /// `--into A --output B` writes the updated store to B and leaves A byte for byte as it was.
    @Test func intoWithOutputLeavesTheStoreItReadUntouched() throws {
        let scratch = try Self.prepare()
        let before = try Data(contentsOf: scratch.url.appendingPathComponent("FailedBanksCD.sqlite"))
        let result = try scratch.run(["build", "changed.json", "--into", "FailedBanksCD.sqlite", "--output", "v2.sqlite"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("updated v2.sqlite: 2 added, 1 updated, 465 kept in "))
        #expect(try Data(contentsOf: scratch.url.appendingPathComponent("FailedBanksCD.sqlite")) == before)
        #expect(try scratch.query("v2.sqlite", "SELECT count(*) FROM ZFAILEDBANKINFO") == [["234"]])
        #expect(try scratch.run(["verify", "v2.sqlite", "--model", Self.model]).status == 0)
        let same = try scratch.run(["build", "changed.json", "--into", "FailedBanksCD.sqlite", "--output", "./FailedBanksCD.sqlite"])
        #expect(same.status == 64)
        #expect(same.stderr == "./FailedBanksCD.sqlite: error: --output names the --into store; leave --output out to update it in place\n")
    }

    /// Forgetting `modelVersion` names the version that wrote the store and the key to set (issue 14).
    @Test(.needsCorpus) func aStoreOfAnotherModelVersionSaysWhichAndTheKeyToSet() throws {
        let scratch = try Scratch()
        let corpusModel = StoreOps.corpus.appendingPathComponent("objcio-moody1/model/Moody.xcdatamodeld")
        let store = try StoreOps.copyCorpusStore("objcio-moody1", into: scratch.url)
        try scratch.write("countries.csv", "numericISO3166Code\n36\n")
        try scratch.write("spec.json", """
            { "model": "\(corpusModel.path)", "output": "unused.sqlite", "sources": { "c": { "csv": "countries.csv" } },
              "entities": { "Country": { "from": "c", "key": "numericISO3166Code" } } }
            """)
        let result = try scratch.run(["build", "spec.json", "--into", store])
        #expect(result.status == 1)
        #expect(result.stderr.contains("the store to update was written by model version 'Moody', but the spec builds '"))
        #expect(result.stderr.contains("set \"modelVersion\": \"Moody\" in the spec"))
    }
}
