import Foundation
import Testing
@testable import CoreSeed
import CoreSeedTestSupport

/// Links as SPEC.md says (issue 23): an unresolved key under `--max-errors` leaves its record out and
/// counts it; `onUnresolved` skip/null count what they drop; a key that rows of two sub-entities of an
/// abstract destination have is an error naming both, which `prefer` decides.
@Suite struct LinkRuleTests {
    /// A scratch atlas: abstract Place with Country and Region, City → Place (optional), Street → City.
    final class Atlas {
        let url: URL
        init(cities: String, place: String = "{ \"key\": \"place\" }", countries: String = "code\nCA\nFR\n",
             regions: String = "code\nQC\nON\n", streets: String = "name,city\nMain,Paris\n",
             model extra: String = "") throws {
            url = try TestPaths.temporaryDirectory()
            try write("Atlas.xcdatamodeld/Atlas.xcdatamodel/contents", """
                <?xml version="1.0" encoding="UTF-8"?>
                <model userDefinedModelVersionIdentifier="">
                  <entity name="Place" isAbstract="YES">
                    <attribute name="code" optional="YES" attributeType="String"/>
                    <relationship name="cities" optional="YES" toMany="YES" destinationEntity="City" inverseName="place" inverseEntity="City"/>
                  </entity>
                  <entity name="Country" parentEntity="Place"/>
                  <entity name="Region" parentEntity="Place"/>
                  <entity name="City">
                    <attribute name="name" optional="YES" attributeType="String"/>
                    <relationship name="place" optional="YES" maxCount="1" destinationEntity="Place" inverseName="cities" inverseEntity="Place"/>
                    <relationship name="streets" optional="YES" toMany="YES" destinationEntity="Street" inverseName="city" inverseEntity="Street"/>
                  </entity>
                  <entity name="Street">
                    <attribute name="name" optional="YES" attributeType="String"/>
                    <relationship name="city" optional="YES" maxCount="1" destinationEntity="City" inverseName="streets" inverseEntity="City"/>
                  </entity>
                  \(extra)
                </model>
                """)
            try write("cities.csv", cities)
            try write("countries.csv", countries)
            try write("regions.csv", regions)
            try write("streets.csv", streets)
            try write("spec.json", """
                { "model": "Atlas.xcdatamodeld", "output": "Atlas.sqlite",
                  "sources": { "cities": { "csv": "cities.csv" }, "countries": { "csv": "countries.csv" },
                               "regions": { "csv": "regions.csv" }, "streets": { "csv": "streets.csv" } },
                  "entities": {
                    "Country": { "from": "countries", "key": "code" },
                    "Region": { "from": "regions", "key": "code" },
                    "City": { "from": "cities", "key": "name", "relationships": { "place": \(place) } },
                    "Street": { "from": "streets", "key": "name", "relationships": { "city": "city" } } } }
                """)
        }
        deinit { try? FileManager.default.removeItem(at: url) }
        func path(_ name: String) -> String { url.appendingPathComponent(name).path }
        func write(_ name: String, _ text: String) throws { try TestPaths.write(text, to: name, in: url) }
        func strings(_ sql: String) throws -> [String] {
            try SQLiteDatabase(path: path("Atlas.sqlite"), mode: .readOnly(immutable: true)).rows(sql).map { row in
                row.map { value in if case .text(let text) = value { text } else if case .integer(let n) = value { String(n) } else { "NULL" } }
                    .joined(separator: "|")
            }
        }
        func build(maxErrors: Int = 0) throws -> BuildReport {
            var options = SeedBuild.Options()
            options.maxErrors = maxErrors
            return try SeedBuild.run(specPath: path("spec.json"), options: options)
        }
    }

    /// On main the record was written without its link and counted as 0 rejected (the report listed the
    /// error only): `rows` was [2, 1, 2, 1] and `rejected` [0, 0, 0, 0].
    @Test func anUnresolvedKeyUnderMaxErrorsLeavesTheRecordOut() throws {
        let atlas = try Atlas(cities: "name,place\nParis,FR\nAtlantis,ZZ\nMontreal,QC\n", streets: "name,city\nMain,Atlantis\nRue,Paris\n")
        #expect(throws: BuildFailure.self) { try atlas.build() }
        let report = try atlas.build(maxErrors: 1)
        let counts = Dictionary(uniqueKeysWithValues: report.entities.map { ($0.name, ($0.rows, $0.rejected)) })
        #expect(counts["City"]! == (2, 1))
        // Cascade: Main names the left-out Atlantis, so it is left out too (listed, not counted against the limit).
        #expect(counts["Street"]! == (1, 1))
        #expect(try atlas.strings("SELECT ZNAME FROM ZCITY ORDER BY ZNAME") == ["Montreal", "Paris"])
        #expect(try atlas.strings("SELECT ZNAME FROM ZSTREET") == ["Rue"])
        #expect(report.rejected.count == 2)
        #expect(report.rejected.first?.location.line == 3)
        #expect(report.rejected.first?.attribute == "place")
        #expect(report.rejected.first?.message.contains("ZZ") == true)
        #expect(report.json.contains("\"rejected\": 1"))
        #expect(report.rejectedAndDropped.contains("2 records rejected"))
    }

    /// On main "null" was not a policy and neither counted what it dropped (no `droppedLinks`).
    @Test func skipAndNullCountTheLinksTheyDrop() throws {
        for policy in ["skip", "null"] {
            let atlas = try Atlas(cities: "name,place\nParis,FR\nAtlantis,ZZ\nLemuria,YY\n",
                                  place: "{ \"key\": \"place\", \"onUnresolved\": \"\(policy)\" }")
            let report = try atlas.build()
            #expect(report.droppedLinks == ["City.place": 2])
            #expect(try atlas.strings("SELECT ZNAME, ZPLACE IS NULL FROM ZCITY ORDER BY ZNAME") == ["Atlantis|1", "Lemuria|1", "Paris|0"])
            #expect(report.rejectedAndDropped == ", 2 unresolved links dropped (City.place 2)")
            #expect(report.json.contains("\"droppedLinks\": {\"City.place\": 2}") || report.json.contains("\"City.place\": 2"))
        }
    }

    /// On main the key linked silently to the first sub-entity's row (Country before Region).
    @Test func aKeyOfTwoSubEntitiesIsAnErrorNamingBoth() throws {
        let atlas = try Atlas(cities: "name,place\nParis,FR\nQuebec City,CA\n", regions: "code\nQC\nCA\n")
        let error = try #require(throws: FileError.self) { try atlas.build(maxErrors: 10) }
        #expect(error.message.contains("entities.City.relationships.place"))
        #expect(error.message.contains("cities.csv:3"))
        #expect(error.message.contains("countries.csv:2:1) and Region (") && error.message.contains("regions.csv:3:1)"))
        #expect(error.message.contains("'CA'") && error.message.contains("\"prefer\""))
        #expect(!FileManager.default.fileExists(atPath: atlas.path("Atlas.sqlite")))
    }

    @Test func preferDecidesAndIsChecked() throws {
        let atlas = try Atlas(cities: "name,place\nParis,FR\nQuebec City,CA\n", place: "{ \"key\": \"place\", \"prefer\": \"Region\" }",
                              regions: "code\nQC\nCA\n")
        _ = try atlas.build()
        // Z_ENT: City 1, Place 2, Country 3, Region 4, Street 5.
        #expect(try atlas.strings("SELECT c.ZNAME, p.Z_ENT, p.ZCODE FROM ZCITY c JOIN ZPLACE p ON p.Z_PK = c.ZPLACE ORDER BY c.ZNAME")
                == ["Paris|3|FR", "Quebec City|4|CA"])
        let wrong = try Atlas(cities: "name,place\nParis,FR\n", place: "{ \"key\": \"place\", \"prefer\": \"Regoin\" }")
        let error = try #require(throws: FileError.self) { try wrong.build() }
        #expect(error.message.hasPrefix("entities.City.relationships.place.prefer: 'Regoin' is not a sub-entity of 'Place'"))
        #expect(error.message.contains("Country, Region"))
    }
}
