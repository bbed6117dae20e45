import Foundation
import Testing
@testable import CoreSeed
import CoreSeedTestSupport

/// `verify` checks the model's rules on the stored rows (issue 23), with code of its own: a store is
/// built, one row is changed behind CoreSeed's back with plain SQL for each check, and the report
/// must name that row — a difference on a store CoreSeed wrote, a warning with its count on another.
@Suite struct VerifyRuleTests {
    /// RelationshipRuleTests' World (City.country required, Country.cities 2…3) with AttributeRuleTests' attributes.
    static let model = RelationshipRuleTests.model(countryAttributes: AttributeRuleTests.attributes())

    /// A built store (City 1 Paris, 2 Lyon in Country 1 FR; 3 Berlin, 4 Hamburg in Country 2 DE).
    static func built(seedVersion: Bool) throws -> URL {
        let url = try TestPaths.temporaryDirectory()
        try TestPaths.write(model, to: "World.xcdatamodeld/World.xcdatamodel/contents", in: url)
        try TestPaths.write("name,country\nParis,FR\nLyon,FR\nBerlin,DE\nHamburg,DE\n", to: "cities.csv", in: url)
        try TestPaths.write("code,name,founded,flag,population\nFR,France,2001-06-01,ab,5\nDE,Germany,2002-01-01,cd,7\n", to: "countries.csv", in: url)
        try TestPaths.write("""
            { "model": "World.xcdatamodeld", "output": "World.sqlite", \(seedVersion ? "\"seedVersion\": \"1\"," : "")
              "sources": { "cities": { "csv": "cities.csv" }, "countries": { "csv": "countries.csv" } },
              "entities": { "Country": { "from": "countries", "key": "code" },
                            "City": { "from": "cities", "key": "name", "relationships": { "country": "country" } } } }
            """, to: "spec.json", in: url)
        _ = try SeedBuild.run(specPath: url.appendingPathComponent("spec.json").path)
        return url
    }

    /// The report for a copy of the store with `sql` applied.
    static func verify(_ url: URL, after sql: String) throws -> StoreVerifier.Report {
        let copy = url.appendingPathComponent("edited-\(UUID().uuidString).sqlite")
        try FileManager.default.copyItem(at: url.appendingPathComponent("World.sqlite"), to: copy)
        try SQLiteDatabase(path: copy.path, mode: .readWriteCreate).execute(sql)
        let versions = try ModelVersions.load(path: url.appendingPathComponent("World.xcdatamodeld").path)
        return try StoreVerifier(versions: versions).verify(storeAt: copy.path)
    }

    static let edits: [(sql: String, expected: String)] = [
        ("UPDATE ZCITY SET ZCOUNTRY = NULL WHERE Z_PK = 3", "ZCITY.ZCOUNTRY: 1 row(s) with no City.country (Z_PK 3): the relationship is not optional"),
        ("UPDATE ZCITY SET ZCOUNTRY = 1 WHERE Z_PK IN (3, 4)", "ZCOUNTRY: 1 Country row(s) whose 'cities' count is outside 2…3 (Z_PK 1)"),
        ("UPDATE ZCITY SET ZCOUNTRY = 1 WHERE Z_PK = 3", "ZCOUNTRY: 1 Country row(s) whose 'cities' count is outside 2…3 (Z_PK 2)"),
        ("UPDATE ZCOUNTRY SET ZCODE = 'FRA' WHERE Z_PK = 1", "ZCOUNTRY.ZCODE: 1 value(s) outside Country.code's model rules (Z_PK 1): pattern \"[A-Z]{2}\""),
        ("UPDATE ZCOUNTRY SET ZNAME = 'G' WHERE Z_PK = 2", "ZCOUNTRY.ZNAME: 1 value(s) outside Country.name's model rules (Z_PK 2)"),
        ("UPDATE ZCOUNTRY SET ZFOUNDED = -5 WHERE Z_PK = 2", "ZCOUNTRY.ZFOUNDED: 1 value(s) outside Country.founded's model rules (Z_PK 2): minimum 0, maximum 631152000"),
        ("UPDATE ZCOUNTRY SET ZFLAG = x'0102030405' WHERE Z_PK = 1", "ZCOUNTRY.ZFLAG: 1 value(s) outside Country.flag's model rules (Z_PK 1)"),
        ("UPDATE ZCOUNTRY SET ZPOPULATION = 101 WHERE Z_PK = 2", "ZCOUNTRY.ZPOPULATION: 1 value(s) outside Country.population's model rules (Z_PK 2)"),
    ]

    /// On main verify had none of these checks: every edited store was OK.
    @Test func eachRuleNamesTheRowChangedBehindCoreSeedsBack() throws {
        let url = try Self.built(seedVersion: true)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try Self.verify(url, after: "SELECT 1").differences == [])
        for (sql, expected) in Self.edits {
            let report = try Self.verify(url, after: sql)
            #expect(report.differences.contains { $0.hasPrefix(expected) }, "\(sql): \(report.differences)")
        }
    }

    /// A store CoreSeed did not write (no CoreSeedVersion): the same findings, as warnings.
    @Test func anotherStoreGetsWarningsWithCounts() throws {
        let url = try Self.built(seedVersion: false)
        defer { try? FileManager.default.removeItem(at: url) }
        let report = try Self.verify(url, after: "UPDATE ZCOUNTRY SET ZCODE = lower(ZCODE)")
        #expect(report.differences == [])
        #expect(report.warnings.contains { $0.hasPrefix("ZCOUNTRY.ZCODE: 2 value(s) outside Country.code's model rules (Z_PK 1, 2)") && $0.hasSuffix("(Core Data would refuse to save these rows)") })
        #expect(!report.passes(strict: true))
    }
}
