import Foundation
import Testing
import CoreSeed
import CoreSeedTestSupport

/// Issue 13: `externalAbove` stores large values of an external-storage Binary attribute as Core Data
/// does (DESIGN §4b.10): `0x02` + UUID + `0x00` in the column, the bytes in
/// `.<store>_SUPPORT/_EXTERNAL_DATA/<UUID>`, placed with the store; inspect, backup, export and verify
/// know the folder.
@Suite struct ExternalStorageTests {
    static func prepare(rows: String = "name,photo\nSmall,AAEC\nLarge,AAECAwQFBgcICQ==\nNone,\n") throws -> Scratch {
        let scratch = try Scratch()
        try scratch.writeModel("R", """
            <entity name="Recipe"><attribute name="name" attributeType="String"/>
              <attribute name="photo" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/></entity>
            """)
        try scratch.write("r.csv", rows)
        try scratch.write("spec.json", """
            { "model": "R.xcdatamodeld", "output": "out/R.sqlite", "externalAbove": 4, "sources": { "r": { "csv": "r.csv" } },
              "entities": { "Recipe": { "from": "r", "key": "name", "attributes": { "photo": { "field": "photo", "base64": true } } } } }
            """)
        return scratch
    }

    static func files(_ scratch: Scratch, _ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: scratch.path(folder))) ?? []).sorted()
    }

    @Test func largeValuesGoToFilesBesideTheStore() throws {
        let scratch = try Self.prepare()
        let build = try scratch.run(["build", "spec.json", "--quiet"])
        #expect(build.status == 0, "\(build.stderr)")
        let rows = try scratch.query("out/R.sqlite", "SELECT ZNAME, hex(ZPHOTO) FROM ZRECIPE ORDER BY Z_PK")
        #expect(rows[0] == ["Small", "01000102"])  // 3 bytes: inline, with the marker
        #expect(rows[2] == ["None", ""])
        let reference = rows[1][1]  // 10 bytes: 0x02 + 36-character UUID + 0x00
        #expect(reference.count == 76 && reference.hasPrefix("02") && reference.hasSuffix("00"))
        let uuid = String(decoding: stride(from: 2, to: 74, by: 2).map { offset -> UInt8 in
            UInt8(reference.dropFirst(offset).prefix(2), radix: 16)!
        }, as: UTF8.self)
        #expect(uuid.range(of: "^[0-9A-F]{8}-[0-9A-F]{4}-5[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$", options: .regularExpression) != nil)
        let folder = "out/.R_SUPPORT/_EXTERNAL_DATA"
        #expect(Self.files(scratch, folder) == [uuid])
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("\(folder)/\(uuid)"))) == Data([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]))
        #expect(Self.files(scratch, "out") == [".R_SUPPORT", "R.sqlite"])  // nothing staged is left
        #expect(try scratch.run(["verify", "out/R.sqlite", "--model", "R.xcdatamodeld"]).status == 0)
        // Identical inputs: the same store bytes and the same file.
        let first = try Data(contentsOf: URL(fileURLWithPath: scratch.path("out/R.sqlite")))
        #expect(try scratch.run(["build", "spec.json", "--quiet"]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("out/R.sqlite"))) == first)
        #expect(Self.files(scratch, folder) == [uuid])
        // inspect shows the folder; export gives the bytes back; backup carries the file.
        let inspect = try scratch.run(["inspect", "out/R.sqlite"])
        #expect(inspect.stdout.contains("\nexternal data: out/.R_SUPPORT/_EXTERNAL_DATA (1 files, 10 bytes)\n"))
        #expect(try scratch.run(["export", "out/R.sqlite", "--model", "R.xcdatamodeld", "--output", "ex"]).status == 0)
        #expect(try String(contentsOfFile: scratch.path("ex/Recipe.csv"), encoding: .utf8) == "pk,name,photo\r\n1,Small,AAEC\r\n2,Large,AAECAwQFBgcICQ==\r\n3,None,\r\n")
        #expect(try scratch.run(["backup", "out/R.sqlite", "copy/B.sqlite"]).status == 0)
        #expect(Self.files(scratch, "copy/.B_SUPPORT/_EXTERNAL_DATA") == [uuid])
        #expect(try scratch.run(["verify", "copy/B.sqlite", "--model", "R.xcdatamodeld"]).status == 0)
        // A build that keeps every value inline removes the replaced store's files.
        try scratch.write("spec.json", try String(contentsOfFile: scratch.path("spec.json"), encoding: .utf8)
            .replacingOccurrences(of: "\"externalAbove\": 4, ", with: ""))
        #expect(try scratch.run(["build", "spec.json", "--quiet"]).status == 0)
        #expect(Self.files(scratch, "out") == ["R.sqlite"])
    }

    /// `--into A --output B`: B gets the files its rows refer to (A's, copied; new ones, placed); A is untouched.
    @Test func anUpsertToAnotherStoreCarriesTheFiles() throws {
        let scratch = try Self.prepare()
        #expect(try scratch.run(["build", "spec.json", "--quiet"]).status == 0)
        let before = Self.files(scratch, "out/.R_SUPPORT/_EXTERNAL_DATA")
        let store = try Data(contentsOf: URL(fileURLWithPath: scratch.path("out/R.sqlite")))
        try scratch.write("r.csv", "name,photo\nSmall,AAECAw==\nHuge,AAECAwQFBgcICQoLDA0=\n")
        let update = try scratch.run(["build", "spec.json", "--into", "out/R.sqlite", "--output", "v2/R2.sqlite", "--quiet"])
        #expect(update.status == 0, "\(update.stderr)")
        #expect(Self.files(scratch, "out/.R_SUPPORT/_EXTERNAL_DATA") == before)
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("out/R.sqlite"))) == store)
        #expect(Self.files(scratch, "v2/.R2_SUPPORT/_EXTERNAL_DATA").count == 2)
        #expect(Self.files(scratch, "v2/.R2_SUPPORT/_EXTERNAL_DATA").contains(before[0]))
        #expect(try scratch.run(["verify", "v2/R2.sqlite", "--model", "R.xcdatamodeld"]).status == 0)
    }

    /// An upsert of the same values changes nothing: a value's file is named after its row and bytes.
    @Test func anUpsertOfTheSameValuesKeepsEveryRowAndFile() throws {
        let scratch = try Self.prepare()
        #expect(try scratch.run(["build", "spec.json", "--quiet"]).status == 0)
        let files = Self.files(scratch, "out/.R_SUPPORT/_EXTERNAL_DATA")
        let rows = try scratch.query("out/R.sqlite", "SELECT Z_PK, Z_OPT, hex(ZPHOTO) FROM ZRECIPE ORDER BY Z_PK")
        let update = try scratch.run(["build", "spec.json", "--into", "out/R.sqlite"])
        #expect(update.status == 0, "\(update.stderr)")
        #expect(update.stdout.contains("updated out/R.sqlite: 0 added, 0 updated, 3 kept"), "\(update.stdout)")
        #expect(try scratch.query("out/R.sqlite", "SELECT Z_PK, Z_OPT, hex(ZPHOTO) FROM ZRECIPE ORDER BY Z_PK") == rows)
        #expect(Self.files(scratch, "out/.R_SUPPORT/_EXTERNAL_DATA") == files)
        #expect(Self.files(scratch, "out") == [".R_SUPPORT", "R.sqlite"])
    }

    /// Builds of different inputs to one output at once: whichever store ends in place has every file
    /// it refers to (placing, renaming and removing old files is one locked step).
    @Test func concurrentBuildsToOneOutputKeepTheirFiles() throws {
        let scratch = try Self.prepare()
        let large = { (seed: Int) in Data((0..<200).map { UInt8(($0 * seed) % 251) }).base64EncodedString() }
        for index in 0..<6 {
            try scratch.write("r\(index).csv", "name,photo\nA,\(large(index + 1))\nB,\(large(index + 7))\n")
            try scratch.write("spec\(index).json", try String(contentsOfFile: scratch.path("spec.json"), encoding: .utf8)
                .replacingOccurrences(of: "\"r.csv\"", with: "\"r\(index).csv\""))
        }
        let runs = try (0..<6).map { try ChildRun(["build", "spec\($0).json", "--quiet"], in: scratch.url) }
        for run in runs {
            let result = try #require(run.wait(upTo: 120), "a build did not finish")
            #expect(result.status == 0, "\(result.stderr)")
        }
        let verify = try scratch.run(["verify", "out/R.sqlite", "--model", "R.xcdatamodeld"])
        #expect(verify.status == 0, "\(verify.stderr)")
        #expect(Self.files(scratch, "out/.R_SUPPORT/_EXTERNAL_DATA").count == 2)
        #expect(Self.files(scratch, "out") == [".R_SUPPORT", "R.sqlite"])
    }

    /// A build that fails leaves the store and its files as they were, and no staging folder.
    @Test func aFailedBuildLeavesTheFilesAsTheyWere() throws {
        let scratch = try Self.prepare()
        #expect(try scratch.run(["build", "spec.json", "--quiet"]).status == 0)
        let before = Self.files(scratch, "out/.R_SUPPORT/_EXTERNAL_DATA")
        try scratch.write("r.csv", "name,photo\nBig,AAECAwQFBgcICQoLDA0=\nBad,***\n")
        let failed = try scratch.run(["build", "spec.json"])
        #expect(failed.status == 1)
        #expect(failed.stderr.hasPrefix("r.csv:3:5: error:"), "\(failed.stderr)")
        #expect(Self.files(scratch, "out") == [".R_SUPPORT", "R.sqlite"])
        #expect(Self.files(scratch, "out/.R_SUPPORT/_EXTERNAL_DATA") == before)
        #expect(try scratch.run(["verify", "out/R.sqlite", "--model", "R.xcdatamodeld"]).status == 0)
    }

    @Test func externalAboveNeedsAnExternalStorageAttribute() throws {
        let scratch = try Self.prepare()
        try scratch.write("spec.json", """
            { "model": "R.xcdatamodeld", "output": "out/R.sqlite", "sources": { "r": { "csv": "r.csv" } },
              "entities": { "Recipe": { "from": "r", "key": "name", "attributes": { "name": { "field": "name", "externalAbove": 10 } } } } }
            """)
        let build = try scratch.run(["build", "spec.json"])
        #expect(build.status == 1)
        #expect(build.stderr == "spec.json: error: entities.Recipe.attributes.name.externalAbove: external files are for Binary attributes with Allows External Storage, which 'name' is not; remove the key or allow external storage in the model\n")
    }
}
