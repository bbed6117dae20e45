import Foundation
import Testing
import CoreSeedTestSupport

/// Issue 14: relationships could point at rows already in the store only through a source that
/// queried the store itself. An entity named with a `key` and no `from` stands for its stored rows.
@Suite struct StoredRowsLinkTests {
    static func prepare() throws -> Scratch {
        let scratch = try Scratch()
        try scratch.writeModel("Atlas", """
            <entity name="Country"><attribute name="code" attributeType="String"/><attribute name="name" optional="YES" attributeType="String"/>
              <relationship name="cities" optional="YES" toMany="YES" destinationEntity="City" inverseName="country" inverseEntity="City"/></entity>
            <entity name="City"><attribute name="name" attributeType="String"/>
              <relationship name="country" optional="YES" maxCount="1" destinationEntity="Country" inverseName="cities" inverseEntity="Country"/></entity>
            """)
        try scratch.write("countries.csv", "code,name\nfr,France\nde,Germany\n")
        try scratch.write("cities.csv", "name,country\nParis,fr\nBerlin,de\n")
        try scratch.write("seed.json", """
            { "model": "Atlas.xcdatamodeld", "output": "Atlas.sqlite",
              "sources": { "countries": { "csv": "countries.csv" }, "cities": { "csv": "cities.csv" } },
              "entities": { "Country": { "from": "countries", "key": "code" },
                            "City": { "from": "cities", "key": "name", "relationships": { "country": { "key": "country" } } } } }
            """)
        try scratch.write("new-cities.csv", "name,country\nLyon,fr\nMunich,de\n")
        try scratch.write("update.json", """
            { "model": "Atlas.xcdatamodeld",
              "sources": { "cities": { "csv": "new-cities.csv" } },
              "entities": { "Country": { "key": "code" },
                            "City": { "from": "cities", "key": "name", "relationships": { "country": { "key": "country" } } } } }
            """)
        let build = try scratch.run(["build", "seed.json", "--quiet"])
        #expect(build.status == 0, "\(build.stderr)")
        return scratch
    }

    @Test func newRowsLinkToStoredRowsByKey() throws {
        let scratch = try Self.prepare()
        let countriesBefore = try scratch.query("Atlas.sqlite", "SELECT * FROM ZCOUNTRY ORDER BY Z_PK")
        let result = try scratch.run(["build", "update.json", "--into", "Atlas.sqlite"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("updated Atlas.sqlite: 2 added, 0 updated"), "\(result.stdout)")
        #expect(try scratch.query("Atlas.sqlite", "SELECT c.ZNAME, k.ZCODE FROM ZCITY c JOIN ZCOUNTRY k ON c.ZCOUNTRY = k.Z_PK ORDER BY c.Z_PK")
                == [["Paris", "fr"], ["Berlin", "de"], ["Lyon", "fr"], ["Munich", "de"]])
        #expect(try scratch.query("Atlas.sqlite", "SELECT * FROM ZCOUNTRY ORDER BY Z_PK") == countriesBefore)
        #expect(try scratch.run(["verify", "Atlas.sqlite", "--model", "Atlas.xcdatamodeld", "--strict"]).status == 0)
    }

    @Test func aKeyNoStoredRowHasIsAnErrorAndNothingChanges() throws {
        let scratch = try Self.prepare()
        try scratch.write("new-cities.csv", "name,country\nRome,it\n")
        let before = try Data(contentsOf: scratch.url.appendingPathComponent("Atlas.sqlite"))
        let result = try scratch.run(["build", "update.json", "--into", "Atlas.sqlite"])
        #expect(result.status == 1)
        #expect(result.stderr == "new-cities.csv:2:6: error: 'country' value \"it\" matches no Country key (City.country)\n")
        #expect(try Data(contentsOf: scratch.url.appendingPathComponent("Atlas.sqlite")) == before)
    }

    @Test func withoutIntoAnEntityWithoutFromIsRefused() throws {
        let scratch = try Self.prepare()
        let result = try scratch.run(["build", "update.json", "--output", "New.sqlite"])
        #expect(result.status == 64)
        #expect(result.stderr == "update.json: error: entities.Country: without 'from' an entity stands for the rows already in the store, which only an update (--into STORE) has: give it 'from', or build with --into\n")
        let explain = try scratch.run(["build", "update.json", "--explain"])
        #expect(explain.stdout.contains("Country (Z_ENT 2, table ZCOUNTRY): the rows already in the store (--into), found by 'code'\n"))
    }
}
