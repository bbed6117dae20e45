import Foundation
import Testing
import CoreSeedTestSupport

/// Issue 23, sources and values: real files nobody here wrote, read as shipped (tzdata's
/// `zone1970.tab` and `iso3166.tab`, iso-codes' `iso_3166-3.json`; Tests/Fixtures/public-data), and
/// field names and blanks as the spec says.
@Suite struct PublicDataSourceTests {
    /// Copies fixture `name` from Tests/Fixtures/public-data into the scratch folder.
    static func copyFixture(_ name: String, to scratch: Scratch) throws {
        let folder = TestPaths.fixtures.appendingPathComponent("public-data")
        try FileManager.default.copyItem(at: folder.appendingPathComponent(name), to: URL(fileURLWithPath: scratch.path(name)))
    }

    /// Tab-separated, `#` comment lines (before the data and a quote in them), rows of 3 and 4 fields:
    /// `comment`, `ragged` and the header as a list; the countries column feeds a many-to-many.
    @Test func tzdataZonesAndCountriesReadAsShipped() throws {
        let scratch = try Scratch()
        try Self.copyFixture("zone1970.tab", to: scratch)
        try Self.copyFixture("iso3166.tab", to: scratch)
        try scratch.writeModel("World", """
            <entity name="Country"><attribute name="code" attributeType="String"/><attribute name="name" attributeType="String"/>
              <relationship name="zones" optional="YES" toMany="YES" destinationEntity="Zone" inverseName="countries" inverseEntity="Zone"/></entity>
            <entity name="Zone"><attribute name="name" attributeType="String"/><attribute name="coordinates" attributeType="String"/>
              <attribute name="comments" optional="YES" attributeType="String"/>
              <relationship name="countries" optional="YES" toMany="YES" destinationEntity="Country" inverseName="zones" inverseEntity="Country"/></entity>
            """)
        try scratch.write("spec.json", """
            { "model": "World.xcdatamodeld", "output": "World.sqlite",
              "sources": {
                "countries": { "csv": "iso3166.tab", "delimiter": "\\t", "comment": "#", "header": ["code", "name"] },
                "zones": { "csv": "zone1970.tab", "delimiter": "\\t", "comment": "#", "ragged": true,
                           "header": ["codes", "coordinates", "TZ", "comments"] } },
              "entities": {
                "Country": { "from": "countries", "key": "code" },
                "Zone": { "from": "zones", "key": "TZ", "attributes": { "name": "TZ" },
                          "relationships": { "countries": { "key": "codes", "separator": "," } } } } }
            """)
        let result = try scratch.run(["build", "spec.json", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try scratch.query("World.sqlite", "SELECT count(*) FROM ZCOUNTRY") == [["249"]])
        #expect(try scratch.query("World.sqlite", "SELECT count(*), count(ZCOMMENTS) FROM ZZONE") == [["312", "201"]])
        #expect(try scratch.query("World.sqlite", "SELECT ZNAME FROM ZCOUNTRY WHERE ZCODE = 'CH'") == [["Switzerland"]])
        #expect(try scratch.query("World.sqlite", "SELECT ZCOORDINATES, ZCOMMENTS FROM ZZONE WHERE ZNAME = 'Europe/Zurich'") == [["+4723+00832", "Büsingen"]])
        #expect(try scratch.query("World.sqlite", "SELECT typeof(ZCOMMENTS) FROM ZZONE WHERE ZNAME = 'Europe/Andorra'") == [["null"]])
        let joins = try scratch.query("World.sqlite", "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z\\_%' ESCAPE '\\' AND name NOT IN ('Z_PRIMARYKEY', 'Z_METADATA', 'Z_MODELCACHE')")
        #expect(joins.count == 1)
        #expect(try scratch.query("World.sqlite", "SELECT count(*) FROM \(joins.first?.first ?? "none")") == [["423"]])
        #expect(try scratch.run(["verify", "World.sqlite", "--model", "World.xcdatamodeld", "--strict"]).status == 0)

        // A row longer than the header stays an error, located.
        let text = try String(contentsOfFile: scratch.path("zone1970.tab"), encoding: .utf8)
        try scratch.write("zone1970.tab", text + "XX\t+0000+00000\tEtc/Extra\tone\ttoo many\n")
        let long = try scratch.run(["build", "spec.json", "--quiet"])
        #expect(long.status == 1)
        #expect(long.stderr.hasPrefix("zone1970.tab:\(text.split(separator: "\n", omittingEmptySubsequences: false).count):1: error: row has 5 fields, expected 4 (as in the header)"), "\(long.stderr)")
    }

    /// No `fields`: every key of any record; `comment` first appears in the second record.
    @Test func isoCodesJSONKeepsKeysOfLaterRecords() throws {
        let scratch = try Scratch()
        try Self.copyFixture("iso_3166-3.json", to: scratch)
        try scratch.writeModel("Codes", """
            <entity name="Withdrawn"><attribute name="alpha3" attributeType="String"/><attribute name="name" attributeType="String"/>
              <attribute name="comment" optional="YES" attributeType="String"/><attribute name="withdrawalDate" optional="YES" attributeType="String"/>
              <attribute name="numeric" optional="YES" attributeType="Integer 32"/></entity>
            """)
        func spec(_ attributes: String) throws {
            try scratch.write("spec.json", """
                { "model": "Codes.xcdatamodeld", "output": "Codes.sqlite",
                  "sources": { "codes": { "json": "iso_3166-3.json", "records": "/3166-3/*" } },
                  "entities": { "Withdrawn": { "from": "codes", "key": "alpha_3"\(attributes) } } }
                """)
        }
        try spec("")
        let result = try scratch.run(["build", "spec.json", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try scratch.query("Codes.sqlite", "SELECT count(*), count(ZCOMMENT), count(ZNUMERIC), count(ZWITHDRAWALDATE) FROM ZWITHDRAWN") == [["31", "7", "26", "31"]])
        #expect(try scratch.query("Codes.sqlite", "SELECT ZCOMMENT FROM ZWITHDRAWN WHERE ZALPHA3 = 'ANT'") == [["had numeric code 532 until Aruba split away in 1986"]])
        // A key no record has is an error naming the file.
        try spec(", \"attributes\": { \"comment\": \"remark\" }")
        let missing = try scratch.run(["build", "spec.json", "--quiet"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("entities.Withdrawn.attributes.comment: no record of iso_3166-3.json has the key 'remark'"), "\(missing.stderr)")
        #expect(missing.stderr.contains("(keys found: alpha_2, alpha_3, alpha_4, name, numeric, withdrawal_date, comment)"), "\(missing.stderr)")
    }
}
