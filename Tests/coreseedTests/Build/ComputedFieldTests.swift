import Foundation
import Testing
import CoreSeedTestSupport

/// Issue 28, items 1 and 2: computed fields in SQLite's expression language and `"where"` filters on
/// a source, without a pre-processing step: a subdivision's country is the prefix of its code, its
/// parent code is completed from the country, and the records a condition excludes are counted.
@Suite struct ComputedFieldTests {
    static func prepare(subdivisions: String = """
        [{"code": "AD-02", "name": "Canillo", "type": "Parish"},
         {"code": "AZ-NX", "name": "Naxçıvan", "type": "Autonomous republic"},
         {"code": "AZ-BAB", "name": "Babək", "type": "Rayon", "parent": "NX"},
         {"code": "FR-75C", "name": "Paris", "type": "Metropolitan collectivity"},
         {"code": "FR-XX", "name": "Nowhere", "type": "Withdrawn"}]
        """, fields: String, where filter: String? = nil) throws -> Scratch {
        let scratch = try Scratch()
        try scratch.writeModel("World", """
            <entity name="Country"><attribute name="code" attributeType="String"/>
              <relationship name="subdivisions" optional="YES" toMany="YES" destinationEntity="Subdivision" inverseName="country" inverseEntity="Subdivision"/></entity>
            <entity name="Subdivision"><attribute name="code" attributeType="String"/><attribute name="name" attributeType="String"/>
              <attribute name="category" optional="YES" attributeType="String"/>
              <relationship name="country" maxCount="1" destinationEntity="Country" inverseName="subdivisions" inverseEntity="Country"/>
              <relationship name="parent" optional="YES" maxCount="1" destinationEntity="Subdivision" inverseName="children" inverseEntity="Subdivision"/>
              <relationship name="children" optional="YES" toMany="YES" destinationEntity="Subdivision" inverseName="parent" inverseEntity="Subdivision"/></entity>
            """)
        try scratch.write("countries.csv", "alpha2\nAD\nAZ\nFR\n")
        try scratch.write("subdivisions.json", subdivisions)
        let whereKey = filter.map { #", "where": "\#($0)""# } ?? ""
        try scratch.write("spec.json", """
            { "model": "World.xcdatamodeld", "output": "World.sqlite",
              "sources": { "countries": { "csv": "countries.csv" },
                           "subdivisions": { "json": "subdivisions.json", "records": "/*", "fields": \(fields)\(whereKey) } },
              "entities": { "Country": { "from": "countries", "key": "alpha2", "attributes": { "code": "alpha2" } },
                            "Subdivision": { "from": "subdivisions", "key": "code",
                                             "attributes": { "code": "code", "name": "name", "category": "kind" },
                                             "relationships": { "country": { "key": "country" }, "parent": { "key": "parentCode" } } } } }
            """)
        return scratch
    }

    static let fields = """
        { "code": "code", "name": "name", "kind": "type", "parent": "parent",
          "country": { "sql": "substr(:code, 1, instr(:code, '-') - 1)" },
          "parentCode": { "sql": "CASE WHEN :parent IS NULL THEN NULL WHEN instr(:parent, '-') > 0 THEN :parent ELSE :country || '-' || :parent END" } }
        """

    /// A key computed from a code prefix, and a field computed from two others (one of them computed).
    @Test func computedKeysLinkSubdivisionsToCountriesAndParents() throws {
        let scratch = try Self.prepare(fields: Self.fields, where: "kind <> 'Withdrawn'".replacingOccurrences(of: "kind", with: ":kind"))
        let result = try scratch.run(["build", "spec.json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("1 record filtered out (subdivisions 1)"), "\(result.stdout)")
        let rows = try scratch.query("World.sqlite", """
            SELECT s.ZCODE, c.ZCODE, p.ZCODE FROM ZSUBDIVISION s JOIN ZCOUNTRY c ON c.Z_PK = s.ZCOUNTRY
            LEFT JOIN ZSUBDIVISION p ON p.Z_PK = s.ZPARENT ORDER BY s.ZCODE
            """)
        #expect(rows == [["AD-02", "AD", "NULL"], ["AZ-BAB", "AZ", "AZ-NX"], ["AZ-NX", "AZ", "NULL"], ["FR-75C", "FR", "NULL"]], "\(rows)")
        #expect(try scratch.run(["verify", "World.sqlite", "--model", "World.xcdatamodeld"]).status == 0)
        // The report counts the filtered records per source.
        #expect(try scratch.run(["build", "spec.json", "--report", "report.json", "--quiet"]).status == 0)
        let report = try String(contentsOfFile: scratch.path("report.json"), encoding: .utf8)
        #expect(report.contains(#""filtered":{"subdivisions":1}"#) || report.contains(#""filtered": {"subdivisions": 1}"#), "\(report)")
    }

    /// Expressions refused when the spec is read, each at its spec key: a statement, a second
    /// expression, random(), load_extension, a table, the clock, an unknown field, a cycle.
    @Test(arguments: [
        (#"{ "sql": "1); DROP TABLE x; SELECT (1" }"#, "more than one expression"),
        (#"{ "sql": "1, 2" }"#, "not an SQL expression: row value misused"),
        (#"{ "sql": "random()" }"#, "the function random() is not one CoreSeed evaluates"),
        (#"{ "sql": "load_extension('x')" }"#, "the function load_extension() is not one CoreSeed evaluates"),
        (#"{ "sql": "(SELECT name FROM sqlite_master)" }"#, "it reads a table"),
        (#"{ "sql": "date('now')" }"#, "reads the clock"),
        (#"{ "sql": "current_timestamp" }"#, "reads the clock"),
        (#"{ "sql": "substr(:cod, 1, 2)" }"#, "at sources.subdivisions: field 'country': ':cod' is not a field of this source (did you mean 'code'?)"),
        (#"{ "sql": "SELECT" }"#, "not an SQL expression"),
    ])
    func refusedExpressionsAreNamedAtTheirSpecKey(country: String, expected: String) throws {
        let fields = #"{ "code": "code", "name": "name", "kind": "type", "parentCode": "parent", "country": \#(country) }"#
        let scratch = try Self.prepare(fields: fields)
        let result = try scratch.run(["build", "spec.json"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("spec.json: error: "), "\(result.stderr)")
        #expect(result.stderr.contains(expected), "\(result.stderr)")
        #expect(result.stderr.contains("sources.subdivisions"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("World.sqlite")))
    }

    /// Two computed fields that name each other, and a filter over an unknown field.
    @Test func cyclesAndUnknownFilterFieldsAreRefused() throws {
        let cycle = try Self.prepare(fields: #"{ "code": "code", "name": "name", "kind": "type", "parentCode": { "sql": ":country" }, "country": { "sql": ":parentCode" } }"#)
        let cycled = try cycle.run(["build", "spec.json"])
        #expect(cycled.status == 1 && cycled.stderr.contains("name each other in a cycle"), "\(cycled.stderr)")
        let unknown = try Self.prepare(fields: Self.fields, where: ":type = 1")
        let refused = try unknown.run(["build", "spec.json"])
        #expect(refused.status == 1 && refused.stderr.contains(#"at sources.subdivisions: "where": ':type' is not a field"#), "\(refused.stderr)")
    }

    /// An expression that fails on one record is an error at that record's location.
    @Test func aFailingExpressionNamesTheRecord() throws {
        // Merged into one statement with another computed field and a filter: the failing one is named.
        let fields = #"{ "code": "code", "name": "name", "kind": "type", "parentCode": "parent", "country": { "sql": "json_extract(:name, '$.x')" }, "shout": { "sql": "upper(:name)" } }"#
        let scratch = try Self.prepare(subdivisions: #"[{"code": "AD-02", "name": "{\"x\": \"AD\"}", "type": "P"},"# + "\n" + #" {"code": "AZ-NX", "name": "not json", "type": "P"}]"#, fields: fields,
                                       where: ":kind = 'P'")
        let result = try scratch.run(["build", "spec.json"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("subdivisions.json:2:2: error: computed field 'country': the expression failed on this record: "), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("World.sqlite")))
    }

    /// Under `--max-errors`, the record a computed field fails on is left out and counted, in place and
    /// on the general path (a JSON source with a nested path reads records whole), and its message is
    /// the same as without.
    @Test(arguments: [false, true])
    func aFailingExpressionIsToleratedByMaxErrors(nested: Bool) throws {
        let name = nested ? "info.name" : "name"
        let fields = #"{ "code": "code", "name": "\#(name)", "kind": "type", "parentCode": "parent", "country": { "sql": "json_extract(:name, '$.x')" } }"#
        let records = nested
            ? #"[{"code": "AD-02", "info": {"name": "{\"x\": \"AD\"}"}, "type": "P", "parent": null},"# + "\n" + #" {"code": "AZ-NX", "info": {"name": "not json"}, "type": "P"}]"#
            : #"[{"code": "AD-02", "name": "{\"x\": \"AD\"}", "type": "P", "parent": null},"# + "\n" + #" {"code": "AZ-NX", "name": "not json", "type": "P"}]"#
        let scratch = try Self.prepare(subdivisions: records, fields: fields)
        let result = try scratch.run(["build", "spec.json", "--max-errors", "1", "--report", "report.json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("subdivisions.json:2:2: warning: rejected: computed field 'country': the expression failed on this record: malformed JSON (Subdivision.country)"), "\(result.stderr)")
        #expect(result.stdout.contains("1 record rejected"), "\(result.stdout)")
        #expect(try scratch.query("World.sqlite", "SELECT ZCODE FROM ZSUBDIVISION") == [["AD-02"]])
        let report = try String(contentsOfFile: scratch.path("report.json"), encoding: .utf8)
        #expect(report.contains("computed field 'country'"), "\(report)")
    }
}
