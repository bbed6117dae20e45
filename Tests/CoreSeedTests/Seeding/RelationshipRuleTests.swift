import Foundation
import Testing
@testable import CoreSeed
import CoreSeedTestSupport

/// The model's relationship rules (issue 23): a non-optional to-one left empty, a to-many outside its
/// `minCount`…`maxCount`, each an error at the record that `--max-errors` tolerates by leaving it out.
@Suite struct RelationshipRuleTests {
    /// Country 1–n City: `City.country` non-optional, `Country.cities` optional with 2…3 cities.
    final class World {
        let url: URL
        init(cities: String, countries: String = "code\nFR\nDE\nIT\n") throws {
            url = try TestPaths.temporaryDirectory()
            try write("World.xcdatamodeld/World.xcdatamodel/contents", RelationshipRuleTests.model())
            try write("cities.csv", cities)
            try write("countries.csv", countries)
            try write("spec.json", """
                { "model": "World.xcdatamodeld", "output": "World.sqlite",
                  "sources": { "cities": { "csv": "cities.csv" }, "countries": { "csv": "countries.csv" } },
                  "entities": {
                    "Country": { "from": "countries", "key": "code" },
                    "City": { "from": "cities", "key": "name", "relationships": { "country": "country" } } } }
                """)
        }
        deinit { try? FileManager.default.removeItem(at: url) }
        func path(_ name: String) -> String { url.appendingPathComponent(name).path }
        func write(_ name: String, _ text: String) throws { try TestPaths.write(text, to: name, in: url) }
        func names(_ sql: String) throws -> [String] {
            try SQLiteDatabase(path: path("World.sqlite"), mode: .readOnly(immutable: true)).rows(sql).map { row in
                if case .text(let text) = row[0] { text } else { "NULL" }
            }
        }
        func build(maxErrors: Int = 0, into: String? = nil) throws -> BuildReport {
            var options = SeedBuild.Options()
            options.maxErrors = maxErrors
            if let into {
                options.into = into
                options.mode = .upsert
            }
            return try SeedBuild.run(specPath: path("spec.json"), options: options)
        }
        /// The one problem a failed build names.
        func failure(maxErrors: Int = 0, into: String? = nil) throws -> MappingError {
            let failure = try #require(throws: BuildFailure.self) { try self.build(maxErrors: maxErrors, into: into) }
            return try #require(failure.problems.last as? MappingError)
        }
    }

    /// The World model; `countryAttributes` are Country's attribute elements.
    static func model(countryAttributes: String = "<attribute name=\"code\" optional=\"YES\" attributeType=\"String\"/>") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <model userDefinedModelVersionIdentifier="">
          <entity name="City">
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="country" optional="NO" maxCount="1" destinationEntity="Country" inverseName="cities" inverseEntity="Country"/>
          </entity>
          <entity name="Country">
        \(countryAttributes)
            <relationship name="cities" optional="YES" toMany="YES" minCount="2" maxCount="3" destinationEntity="City" inverseName="country" inverseEntity="City"/>
          </entity>
        </model>
        """
    }

    static let good = "name,country\nParis,FR\nLyon,FR\nBerlin,DE\nHamburg,DE\n"

    /// On main the blank key gave a NULL ZCOUNTRY and the build succeeded (verify said OK).
    @Test func aRequiredToOneLeftEmptyIsAnErrorAtTheRecord() throws {
        let world = try World(cities: Self.good + "Nowhere,\n")
        let error = try world.failure()
        #expect(error.location.line == 6)
        #expect(error.message == "City 'Nowhere' leaves the non-optional to-one relationship 'country' empty; Core Data refuses to save such an object: give every record a key that matches a Country (City.country)")
        #expect(!FileManager.default.fileExists(atPath: world.path("World.sqlite")))
        let report = try world.build(maxErrors: 1)
        #expect(report.entities.first { $0.name == "City" }.map { ($0.rows, $0.rejected) }! == (4, 1))
        #expect(report.rejected.map(\.location.line) == [6])
        #expect(try world.names("SELECT ZNAME FROM ZCITY WHERE ZCOUNTRY IS NULL") == [])
    }

    @Test func aRequiredToOneLeftEmptyIsAnErrorAtInto() throws {
        let world = try World(cities: Self.good)
        _ = try world.build()
        try world.write("cities.csv", Self.good + "Nowhere,\n")
        let error = try world.failure(into: world.path("World.sqlite"))
        #expect(error.location.line == 6)
        #expect(error.message.hasPrefix("City 'Nowhere' leaves the non-optional to-one relationship 'country' empty"))
        #expect(try world.names("SELECT ZNAME FROM ZCITY ORDER BY ZNAME") == ["Berlin", "Hamburg", "Lyon", "Paris"])
    }

    /// On main neither count was checked: the build wrote DE with 1 city and FR with 4.
    @Test func toManyCountsAreCheckedAfterLinking() throws {
        let few = try World(cities: "name,country\nParis,FR\nLyon,FR\nBerlin,DE\n")
        let error = try few.failure()
        #expect(error.message.hasPrefix("Country 'DE' has 1 'cities', fewer than the model's minimum count 2"))
        #expect(error.location.line == 3)  // countries.csv: DE
        #expect(error.location.file.hasSuffix("countries.csv"))
        let many = try World(cities: "name,country\nParis,FR\nLyon,FR\nNice,FR\nLille,FR\nBerlin,DE\nBonn,DE\n")
        #expect(try many.failure().message.hasPrefix("Country 'FR' has 4 'cities', more than the model's maximum count 3"))
        // IT has no city: an empty optional to-many is valid whatever its minCount.
        let report = try World(cities: Self.good).build()
        #expect(report.entities.map(\.rows) == [4, 3])
    }

    /// Tolerated, the country is left out, and so are its cities (their non-optional to-one would be empty).
    @Test func aBrokenCountUnderMaxErrorsLeavesTheRecordAndItsDependentsOut() throws {
        let world = try World(cities: "name,country\nParis,FR\nLyon,FR\nBerlin,DE\n")
        let report = try world.build(maxErrors: 1)
        #expect(report.entities.map { [$0.rows, $0.rejected] } == [[2, 1], [2, 1]])
        #expect(report.rejected.count == 2)
        #expect(report.rejected.last?.message.contains("record left out because Country 'DE'") == true)
        #expect(try world.names("SELECT ZNAME FROM ZCITY ORDER BY ZNAME") == ["Lyon", "Paris"])
        #expect(try world.names("SELECT ZCODE FROM ZCOUNTRY ORDER BY ZCODE") == ["FR", "IT"])
    }
}
