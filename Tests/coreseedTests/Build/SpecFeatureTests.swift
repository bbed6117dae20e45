import Foundation
import Testing
import CoreSeed
import CoreSeedTestSupport

/// One small spec per feature, built by the real binary, rows checked through SQL.
@Suite struct SpecFeatureTests {
    static let library = """
        <entity name="Item" isAbstract="YES">
          <attribute name="title" attributeType="String"/>
          <attribute name="code" attributeType="String"/>
          <relationship name="shelf" optional="YES" maxCount="1" destinationEntity="Shelf" inverseName="items" inverseEntity="Shelf"/>
          <relationship name="tags" optional="YES" toMany="YES" destinationEntity="Tag" inverseName="items" inverseEntity="Tag"/>
          <relationship name="fans" optional="YES" toMany="YES" ordered="YES" destinationEntity="Person" inverseName="favorites" inverseEntity="Person"/>
        </entity>
        <entity name="Book" parentEntity="Item">
          <attribute name="pages" optional="YES" attributeType="Integer 32"/>
        </entity>
        <entity name="Film" parentEntity="Item">
          <attribute name="minutes" optional="YES" attributeType="Integer 16"/>
          <attribute name="released" optional="YES" attributeType="Date"/>
        </entity>
        <entity name="Shelf">
          <attribute name="label" attributeType="String"/>
          <relationship name="items" optional="YES" toMany="YES" ordered="YES" destinationEntity="Item" inverseName="shelf" inverseEntity="Item"/>
        </entity>
        <entity name="Tag">
          <attribute name="name" attributeType="String"/>
          <relationship name="items" optional="YES" toMany="YES" destinationEntity="Item" inverseName="tags" inverseEntity="Item"/>
        </entity>
        <entity name="Person">
          <attribute name="name" attributeType="String"/>
          <relationship name="favorites" optional="YES" toMany="YES" destinationEntity="Item" inverseName="fans" inverseEntity="Item"/>
        </entity>
        """

    /// Inheritance, one-to-many by foreign key and by list on the to-many side, ordered, many-to-many
    /// by delimited list and by join source, several entities from one source.
    @Test func relationshipsOfEveryKindAndInheritance() throws {
        let scratch = try Scratch()
        try scratch.writeModel("Library", Self.library)
        try scratch.write("books.csv", "code,title,pages,shelf,tags\nB1,Dune,412,S1,sf;classic\nB2,Emma,300,S2,classic\nB3,Ubik,202,,sf\n")
        try scratch.write("films.csv", "code,title,minutes,released,shelf\nF1,Alien,117,1979-05-25,S1\n")
        try scratch.write("shelves.csv", "id,label,order\nS1,Front,F1 B1\nS2,Back,B2\n")
        try scratch.write("tags.csv", "tag\nsf\nclassic\n")
        try scratch.write("people.csv", "name\nAda\nBob\n")
        try scratch.write("fans.csv", "person,item\nAda,B3\nAda,B1\nBob,B1\n")
        try scratch.write("spec.json", """
            {
              "model": "Library.xcdatamodeld", "output": "library.sqlite",
              "sources": {
                "books": { "csv": "books.csv" }, "films": { "csv": "films.csv" }, "shelves": { "csv": "shelves.csv" },
                "tags": { "csv": "tags.csv" }, "people": { "csv": "people.csv" }, "fans": { "csv": "fans.csv" },
              },
              "entities": {
                "Book": { "from": "books", "key": "code", "relationships": { "tags": { "key": "tags", "separator": ";" } } },
                "Film": { "from": "films", "key": "code", "attributes": { "released": { "field": "released", "date": "iso8601" } } },
                "Shelf": { "from": "shelves", "key": "id", "relationships": { "items": { "key": "order", "separator": " " } } },
                "Tag": { "from": "tags", "key": "tag", "attributes": { "name": "tag" } },
                "Person": { "from": "people", "key": "name",
                            "relationships": { "favorites": { "from": "fans", "key": "person", "destinationKey": "item" } } },
              },
            }
            """)
        let result = try scratch.run(["build", "spec.json", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        // Books and the film share ZITEM with their own Z_ENT (Item 1 abstract, Book 2, Film 3).
        #expect(try scratch.query("library.sqlite", "SELECT Z_PK, Z_ENT, ZCODE, ZTITLE, ZPAGES, ZMINUTES FROM ZITEM ORDER BY Z_PK") == [
            ["1", "2", "B1", "Dune", "412", "NULL"], ["2", "2", "B2", "Emma", "300", "NULL"],
            ["3", "2", "B3", "Ubik", "202", "NULL"], ["4", "3", "F1", "Alien", "NULL", "117"],
        ])
        #expect(try scratch.query("library.sqlite", "SELECT Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT") == [
            ["Item", "0", "4"], ["Book", "1", "0"], ["Film", "1", "0"], ["Person", "0", "2"], ["Shelf", "0", "2"], ["Tag", "0", "2"],
        ])
        // Ordered one-to-many from the to-many side's list: F1 then B1 on the front shelf.
        #expect(try scratch.query("library.sqlite", "SELECT i.ZCODE, s.ZLABEL, i.Z_FOK_SHELF FROM ZITEM i LEFT JOIN ZSHELF s ON i.ZSHELF = s.Z_PK ORDER BY i.Z_PK") == [
            ["B1", "Front", "2"], ["B2", "Back", "1"], ["B3", "NULL", "NULL"], ["F1", "Front", "1"],
        ])
        // Many-to-many by a delimited list.
        #expect(try scratch.query("library.sqlite", "SELECT i.ZCODE, t.ZNAME FROM Z_1TAGS j JOIN ZITEM i ON i.Z_PK = j.Z_1ITEMS JOIN ZTAG t ON t.Z_PK = j.Z_6TAGS ORDER BY 1, 2") == [
            ["B1", "classic"], ["B1", "sf"], ["B2", "classic"], ["B3", "sf"],
        ])
        // Ordered many-to-many from a join source: Item.fans keeps the join source's order per item.
        #expect(try scratch.query("library.sqlite", "SELECT sql FROM sqlite_master WHERE name = 'Z_1FANS'") == [
            ["CREATE TABLE Z_1FANS ( Z_1FAVORITES INTEGER, Z_4FANS INTEGER, Z_FOK_4FANS INTEGER, PRIMARY KEY (Z_1FAVORITES, Z_4FANS) )"],
        ])
        #expect(try scratch.query("library.sqlite", "SELECT i.ZCODE, p.ZNAME, j.Z_FOK_4FANS FROM Z_1FANS j JOIN ZITEM i ON i.Z_PK = j.Z_1FAVORITES JOIN ZPERSON p ON p.Z_PK = j.Z_4FANS ORDER BY 1, 3") == [
            ["B1", "Ada", "1"], ["B1", "Bob", "2"], ["B3", "Ada", "1"],
        ])
        #expect(try scratch.query("library.sqlite", "SELECT ZRELEASED FROM ZITEM WHERE ZCODE = 'F1'") == [["-681868800"]])
        let verify = try scratch.run(["verify", "library.sqlite", "--model", "Library.xcdatamodeld"])
        #expect(verify.status == 0, "\(verify.stderr)")
    }

    static let allTypes = """
        <entity name="Sample">
          <attribute name="i16" optional="YES" attributeType="Integer 16"/>
          <attribute name="i32" optional="YES" attributeType="Integer 32"/>
          <attribute name="i64" optional="YES" attributeType="Integer 64"/>
          <attribute name="dec" optional="YES" attributeType="Decimal"/>
          <attribute name="dbl" optional="YES" attributeType="Double"/>
          <attribute name="flt" optional="YES" attributeType="Float"/>
          <attribute name="str" optional="YES" attributeType="String"/>
          <attribute name="flag" optional="YES" attributeType="Boolean"/>
          <attribute name="when" optional="YES" attributeType="Date"/>
          <attribute name="bin" optional="YES" attributeType="Binary"/>
          <attribute name="uid" optional="YES" attributeType="UUID"/>
          <attribute name="link" optional="YES" attributeType="URI"/>
          <attribute name="blob" optional="YES" attributeType="Transformable"/>
          <attribute name="fallback" attributeType="String" defaultValueString="none"/>
        </entity>
        """

    @Test func everyAttributeTypeReachesItsColumn() throws {
        let scratch = try Scratch()
        try scratch.writeModel("Types", Self.allTypes)
        try scratch.write("types.csv", """
            i16,i32,i64,dec,dbl,flt,str,flag,when,bin,uid,link,blob,fallback
            -32768,2147483647,-9223372036854775808,12.50,0.1,0.1,héllo,yes,26-Mar-10,aGk=,6ba7b810-9dad-11d1-80b4-00c04fd430c8,https://example.org/a,,
            ,,,,,,,no,,,,,,given

            """)
        try scratch.write("spec.json", """
            { "model": "Types.xcdatamodeld", "output": "types.sqlite", "sources": { "t": { "csv": "types.csv" } },
              "entities": { "Sample": { "from": "t", "attributes": {
                "when": { "field": "when", "date": "d-MMM-yy", "timeZone": "Europe/Paris" },
                "bin": { "field": "bin", "base64": true } } } } }
            """)
        let result = try scratch.run(["build", "spec.json", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try scratch.query("types.sqlite", """
            SELECT ZI16, ZI32, ZI64, ZDEC, ZDBL, ZFLT, ZSTR, ZFLAG, ZWHEN, ZBIN, ZUID, ZLINK, ZBLOB, ZFALLBACK,
                   typeof(ZDEC), typeof(ZSTR) FROM ZSAMPLE ORDER BY Z_PK
            """) == [
            ["-32768", "2147483647", "-9223372036854775808", "12.5", "0.1", String(Double(Float(0.1))), "héllo", "1", "291250800",
             "x'6869'", "x'6ba7b8109dad11d180b400c04fd430c8'", "https://example.org/a", "NULL", "none", "real", "text"],
            ["NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "", "0", "NULL", "NULL", "NULL", "NULL", "NULL", "given", "null", "text"],
        ])
    }

    @Test func modelUserInfoAndNormalisedNamesAreFallbacks() throws {
        let scratch = try Scratch()
        try scratch.writeModel("Banks", """
            <entity name="Bank">
              <attribute name="closeDate" optional="YES" attributeType="Date">
                <userInfo><entry key="dateFormat" value="d-MMM-yy"/></userInfo>
              </attribute>
              <attribute name="name" optional="YES" attributeType="String">
                <userInfo><entry key="mappedKeyName" value="Bank Name"/></userInfo>
              </attribute>
              <attribute name="certNumber" optional="YES" attributeType="Integer 32"/>
              <userInfo><entry key="relatedByAttribute" value="certNumber"/></userInfo>
            </entity>
            """)
        try scratch.write("b.csv", "Bank Name,Cert_Number,Close Date\nA,1,26-Mar-10\nB,1,27-Mar-10\n")
        try scratch.write("spec.json", """
            { "model": "Banks.xcdatamodeld", "output": "b.sqlite", "sources": { "b": { "csv": "b.csv" } },
              "entities": { "Bank": { "from": "b", "onDuplicateKey": "last" } } }
            """)
        let result = try scratch.run(["build", "spec.json", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        // The key came from relatedByAttribute (certNumber ← Cert_Number); the duplicate kept the last row.
        #expect(try scratch.query("b.sqlite", "SELECT Z_PK, ZNAME, ZCERTNUMBER, ZCLOSEDATE FROM ZBANK") == [["1", "B", "1", "291340800"]])
    }

    /// `"default": null` turns the model's default off: a NULL stays NULL.
    @Test func defaultNullKeepsNull() throws {
        let scratch = try Scratch()
        try scratch.writeModel("D", """
            <entity name="Item">
              <attribute name="code" attributeType="String"/>
              <attribute name="count" optional="YES" attributeType="Integer 32" defaultValueString="7"/>
              <attribute name="other" optional="YES" attributeType="Integer 32" defaultValueString="7"/>
            </entity>
            """)
        try scratch.write("d.csv", "code,count,other\na,,\nb,3,3\n")
        try scratch.write("spec.json", """
            { "model": "D.xcdatamodeld", "output": "d.sqlite", "sources": { "d": { "csv": "d.csv" } },
              "entities": { "Item": { "from": "d", "attributes": { "count": { "field": "count", "default": null } } } } }
            """)
        let result = try scratch.run(["build", "spec.json", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try scratch.query("d.sqlite", "SELECT ZCODE, ZCOUNT, ZOTHER FROM ZITEM ORDER BY Z_PK") == [["a", "NULL", "7"], ["b", "3", "3"]])
    }

    @Test func specMistakesAreNamed() throws {
        let scratch = try Scratch()
        try scratch.writeModel("Types", Self.allTypes)
        try scratch.write("types.csv", "i16\n1\n")
        let cases: [(String, String)] = [
            (#"{"model": "Types.xcdatamodeld", "sources": {"t": {"csv": "types.csv"}}, "entities": {"Nope": {"from": "t"}}}"#,
             "spec.json: error: entities.Nope: the model has no entity 'Nope'"),
            (#"{"model": "Types.xcdatamodeld", "sources": {"t": {"csv": "types.csv"}}, "entities": {"Sample": {"from": "t", "attributes": {"i16": "missing"}}}}"#,
             "spec.json: error: entities.Sample.attributes.i16: source 't' has no field 'missing' (fields: i16)"),
            (#"{"model": "Types.xcdatamodeld", "sources": {"t": {"csv": "types.csv"}}, "entities": {"Sample": {"from": "u"}}}"#,
             "spec.json: error: entities.Sample.from: no source 'u' (sources: t)"),
            (#"{"model": "Types.xcdatamodeld", "sources": {"t": {"csv": "types.csv"}}, "entities": {"Sample": {"from": "t", "atributes": {}}}}"#,
             "spec.json: error: at entities.Sample.atributes: unknown key 'atributes' in an entity (did you mean 'attributes'?) (known: from, key, attributes, relationships, onDuplicateKey, onBlank, primaryKey, normalize, where, join)"),
        ]
        for (spec, expected) in cases {
            try scratch.write("spec.json", spec)
            let result = try scratch.run(["build", "spec.json"])
            #expect(result.status == 1)
            #expect(result.stderr == expected + "\n")
        }
    }
}

/// DESIGN §3's example spec, as written there, on the FDIC files (Inputs/fdic-2011/) read in place.
@Suite struct DesignExampleTests {
    @Test func theDesignDocumentsExampleBuildsAsWritten() throws {
        let scratch = try Scratch()
        let fdic = BinaryRunner.repositoryRoot.appendingPathComponent("Inputs/fdic-2011")
        try FileManager.default.createSymbolicLink(atPath: scratch.path("banklist.csv"), withDestinationPath: fdic.appendingPathComponent("banklist.csv").path)
        try FileManager.default.createSymbolicLink(atPath: scratch.path("banklist.sqlite3"), withDestinationPath: fdic.appendingPathComponent("banklist.sqlite3").path)
        try FileManager.default.createSymbolicLink(atPath: scratch.path("FailedBanksCD.xcdatamodeld"),
                                                   withDestinationPath: BinaryRunner.repositoryRoot.appendingPathComponent("Inputs/FailedBanksCD.xcdatamodeld").path)
        try scratch.write("seed.json", """
            {
              "model": "FailedBanksCD.xcdatamodeld",
              "output": "../Outputs/FailedBanksCD.sqlite",
              "sources": {
                "banks":  { "csv": "banklist.csv", "encoding": "windows-1252" },
                "legacy": { "sqlite": "banklist.sqlite3", "query": "SELECT * FROM failed_banks" },
                "feed":   { "xml": "banks.xml", "records": "/banks/bank", "fields": { "id": "@id", "name": "name" } }
              },
              "entities": {
                "FailedBankInfo": {
                  "from": "banks", "key": "CERT #",
                  "attributes": { "name": "Bank Name", "city": "City", "state": "State" },
                  "relationships": { "details": { "key": "CERT #" } }
                },
                "FailedBankDetails": {
                  "from": "banks", "key": "CERT #",
                  "attributes": {
                    "zip": "CERT #",
                    "closeDate": { "field": "Closing Date", "date": ["d-MMM-yy", "MMMM d, yyyy"], "timeZone": "America/New_York" }
                  }
                }
              }
            }
            """)
        let result = try scratch.run(["build", "seed.json", "--output", "store.sqlite", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try scratch.query("store.sqlite", """
            SELECT count(*), sum(d.ZINFO = i.Z_PK) FROM ZFAILEDBANKINFO i JOIN ZFAILEDBANKDETAILS d ON i.ZDETAILS = d.Z_PK
            """) == [["233", "233"]])
        #expect(try scratch.query("store.sqlite", "SELECT d.ZCLOSEDATE, d.ZZIP FROM ZFAILEDBANKDETAILS d JOIN ZFAILEDBANKINFO i ON i.ZDETAILS = d.Z_PK WHERE i.ZNAME = 'Desert Hills Bank'")
                == [["291268800", "57060"]])
    }
}

/// `build --explain` (issue 14): the mapping a spec resolves to — which field feeds each attribute and
/// relationship, found how, converted how, and the first record's value — without building anything.
@Suite struct ExplainTests {
    @Test func explainShowsTheMappingAndBuildsNothing() throws {
        let result = try BinaryRunner.run(["build", "Inputs/failedbanks-csv.json", "--explain", "--output", "/nonexistent/x.sqlite"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "")
        #expect(result.stdout == """
            Inputs/failedbanks-csv.json: model version 'FailedBanksCD', framework 1518, output Outputs/FailedBanksCD.sqlite
            FailedBankDetails (Z_ENT 1, table ZFAILEDBANKDETAILS) from 'banks' (Inputs/fdic-2011/banklist.csv), key 'CERT #'
              zip ← 'CERT #' (the spec): Integer 32, default "0"; first: 57060
              closeDate ← 'Closing Date' (the spec): Date, date matching "d-MMM-yy" or "MMMM d, yyyy" in America/New_York; first: 2010-03-26T04:00:00Z
              updatedDate ← 'Updated Date' (the spec): Date, date matching "d-MMM-yy" or "MMMM d, yyyy" in America/New_York; first: 2010-03-26T04:00:00Z
            FailedBankInfo (Z_ENT 2, table ZFAILEDBANKINFO) from 'banks' (Inputs/fdic-2011/banklist.csv), key 'CERT #'
              city ← 'City' (the spec): String; first: "Phoenix"
              name ← 'Bank Name' (the spec): String; first: "Desert Hills Bank"
              state ← 'State' (the spec): String; first: "AZ"
              details → FailedBankDetails by key in 'CERT #' (to-one); first: "57060"

            """)
    }

    /// Name matches, userInfo keys, constants, missing fields and a first value that fails are each said.
    @Test func explainSaysHowEachFieldWasFound() throws {
        let scratch = try Scratch()
        try scratch.writeModel("Shop", """
            <entity name="Item"><attribute name="sku" attributeType="String"/><attribute name="prepTime" optional="YES" attributeType="Integer 32"/>
              <attribute name="label" optional="YES" attributeType="String"><userInfo><entry key="mappedKeyName" value="title"/></userInfo></attribute>
              <attribute name="origin" optional="YES" attributeType="String"/><attribute name="stock" optional="YES" attributeType="Integer 16" defaultValueString="5"/></entity>
            """)
        try scratch.write("items.csv", "sku,prep_time,title\nA1,ten,Apple\n")
        try scratch.write("spec.json", """
            { "model": "Shop.xcdatamodeld", "output": "Shop.sqlite", "sources": { "i": { "csv": "items.csv" } },
              "entities": { "Item": { "from": "i", "key": "sku", "attributes": { "origin": { "value": "import" } } } } }
            """)
        let result = try scratch.run(["build", "spec.json", "--explain"])
        #expect(result.status == 0, "\(result.stderr)")
        // Attributes in the table's column order (Core Data's), each with how its field was found.
        #expect(result.stdout.components(separatedBy: "\n").dropFirst(2).joined(separator: "\n") == """
              prepTime ← 'prep_time' (name match): Integer 32; first: 'prep_time' value "ten" is not an Integer 32
              stock ← no field: Integer 16, default "5"; first: 5
              label ← 'title' (userInfo mappedKeyName): String; first: "Apple"
              origin ← constant "import": String; first: "import"
              sku ← 'sku' (same name): String, required; first: "A1"

            """)
        #expect(!FileManager.default.fileExists(atPath: scratch.path("Shop.sqlite")))
    }
}

/// A warning the build prints (a source with no records) is in the `--report` file too, for CI.
@Suite struct ReportWarningTests {
    @Test func theReportListsTheWarnings() throws {
        let scratch = try Scratch()
        try scratch.writeModel("Shop", """
            <entity name="Item"><attribute name="sku" attributeType="String"/></entity>
            <entity name="Tag"><attribute name="name" attributeType="String"/></entity>
            """)
        try scratch.write("items.csv", "sku\nA1\n")
        try scratch.write("tags.csv", "name\n")
        try scratch.write("spec.json", """
            { "model": "Shop.xcdatamodeld", "output": "Shop.sqlite", "sources": { "i": { "csv": "items.csv" }, "t": { "csv": "tags.csv" } },
              "entities": { "Item": { "from": "i", "key": "sku" }, "Tag": { "from": "t", "key": "name" } } }
            """)
        let result = try scratch.run(["build", "spec.json", "--quiet", "--report", "report.json"])
        #expect(result.status == 0)
        #expect(result.stderr == "tags.csv: warning: source 't' has no records: the store will hold no Tag rows\n")
        let report = try String(contentsOfFile: scratch.path("report.json"), encoding: .utf8)
        #expect(report.contains("\"warnings\": [{\"location\": \"tags.csv\", \"message\": \"source 't' has no records: the store will hold no Tag rows\"}]"), "\(report)")
    }
}
