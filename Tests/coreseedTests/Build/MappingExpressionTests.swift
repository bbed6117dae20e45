import Foundation
import Testing
import CoreSeedTestSupport

/// Issue 28 in an entity mapping: an attribute, a key and a relationship key by `{"sql": …}`, an
/// entity's `"where"` that leaves the source's other entities every record, and generated UUIDs.
@Suite struct MappingExpressionTests {
    static func prepare(subdivision: String, country: String = #""code": "alpha2""#) throws -> Scratch {
        let scratch = try Scratch()
        try scratch.writeModel("World", """
            <entity name="Country"><attribute name="code" attributeType="String"/><attribute name="id" optional="YES" attributeType="UUID"/>
              <relationship name="subdivisions" optional="YES" toMany="YES" destinationEntity="Subdivision" inverseName="country" inverseEntity="Subdivision"/></entity>
            <entity name="Subdivision"><attribute name="code" attributeType="String"/><attribute name="label" optional="YES" attributeType="String"/>
              <attribute name="id" optional="YES" attributeType="UUID"/>
              <relationship name="country" maxCount="1" destinationEntity="Country" inverseName="subdivisions" inverseEntity="Country"/>
              <relationship name="parent" optional="YES" maxCount="1" destinationEntity="Subdivision" inverseName="children" inverseEntity="Subdivision"/>
              <relationship name="children" optional="YES" toMany="YES" destinationEntity="Subdivision" inverseName="parent" inverseEntity="Subdivision"/></entity>
            <entity name="Withdrawn"><attribute name="code" attributeType="String"/></entity>
            """)
        try scratch.write("countries.csv", "alpha2\nAZ\nFR\n")
        try scratch.write("subdivisions.csv", "code,name,type,parent\nAZ-NX,Naxçıvan,Republic,\nAZ-BAB,Babək,Rayon,NX\nFR-75C,Paris,City,\nFR-XX,Gone,Withdrawn,\n")
        try scratch.write("spec.json", """
            { "model": "World.xcdatamodeld", "output": "World.sqlite",
              "sources": { "countries": { "csv": "countries.csv" }, "subdivisions": { "csv": "subdivisions.csv" } },
              "entities": { "Country": { "from": "countries", "key": "alpha2", "attributes": { \(country) } },
                            "Subdivision": { "from": "subdivisions", \(subdivision) },
                            "Withdrawn": { "from": "subdivisions", "key": "code", "where": ":type = 'Withdrawn'" } } }
            """)
        return scratch
    }

    static let subdivision = #"""
        "key": "code", "where": ":type <> 'Withdrawn'",
        "attributes": { "code": "code", "label": { "sql": ":name || ' (' || lower(:type) || ')'" }, "id": { "uuid": "fromKey" } },
        "relationships": { "country": { "key": { "sql": "substr(:code, 1, instr(:code, '-') - 1)" } },
                           "parent": { "key": { "sql": "CASE WHEN :parent = '' THEN NULL ELSE substr(:code, 1, instr(:code, '-')) || :parent END" } } }
        """#

    @Test func expressionsInTheEntityMapping() throws {
        let scratch = try Self.prepare(subdivision: Self.subdivision)
        let result = try scratch.run(["build", "spec.json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("4 records filtered out (subdivisions:Subdivision 1, subdivisions:Withdrawn 3)"), "\(result.stdout)")
        #expect(try scratch.query("World.sqlite", """
            SELECT s.ZCODE, s.ZLABEL, c.ZCODE, p.ZCODE FROM ZSUBDIVISION s JOIN ZCOUNTRY c ON c.Z_PK = s.ZCOUNTRY
            LEFT JOIN ZSUBDIVISION p ON p.Z_PK = s.ZPARENT ORDER BY s.ZCODE
            """) == [["AZ-BAB", "Babək (rayon)", "AZ", "AZ-NX"], ["AZ-NX", "Naxçıvan (republic)", "AZ", "NULL"], ["FR-75C", "Paris (city)", "FR", "NULL"]])
        // The other entity of the same source filters its own way.
        #expect(try scratch.query("World.sqlite", "SELECT ZCODE FROM ZWITHDRAWN") == [["FR-XX"]])
        #expect(try scratch.run(["verify", "World.sqlite", "--model", "World.xcdatamodeld"]).status == 0)
    }

    /// `fromKey`: RFC 9562 version 5 of `coreseed:<Entity>/<key>` in the URL namespace — what
    /// Python's `uuid.uuid5(uuid.NAMESPACE_URL, "coreseed:Subdivision/AZ-NX")` gives — equal across
    /// builds and kept by an upsert of the same key.
    @Test func fromKeyUUIDsAreStableAcrossBuildsAndUpserts() throws {
        let scratch = try Self.prepare(subdivision: Self.subdivision)
        #expect(try scratch.run(["build", "spec.json", "--quiet"]).status == 0)
        let ids = try scratch.query("World.sqlite", "SELECT ZCODE, hex(ZID) FROM ZSUBDIVISION ORDER BY ZCODE")
        #expect(ids.first(where: { $0[0] == "AZ-NX" })?[1] == Self.python5("coreseed:Subdivision/AZ-NX"), "\(ids)")
        try FileManager.default.moveItem(atPath: scratch.path("World.sqlite"), toPath: scratch.path("First.sqlite"))
        #expect(try scratch.run(["build", "spec.json", "--quiet"]).status == 0)
        #expect(try scratch.query("World.sqlite", "SELECT ZCODE, hex(ZID) FROM ZSUBDIVISION ORDER BY ZCODE") == ids)
        try scratch.write("subdivisions.csv", "code,name,type,parent\nAZ-NX,Naxçıvan Republic,Republic,\nAZ-SA,Şəki,City,\n")
        let update = try scratch.run(["build", "spec.json", "--into", "World.sqlite", "--quiet"])
        #expect(update.status == 0, "\(update.stderr)")
        let after = try scratch.query("World.sqlite", "SELECT ZCODE, hex(ZID) FROM ZSUBDIVISION ORDER BY ZCODE")
        #expect(after.first(where: { $0[0] == "AZ-NX" }) == ids.first(where: { $0[0] == "AZ-NX" }), "\(after)")
        #expect(after.first(where: { $0[0] == "AZ-SA" })?[1] == Self.python5("coreseed:Subdivision/AZ-SA"))
    }

    /// `random`: seeded from the store's UUID, so two builds of the same inputs are byte-identical;
    /// refused for an upsert, which would give the rows it matches new ids.
    @Test func randomUUIDsAreReproducibleAndRefusedForAnUpsert() throws {
        let scratch = try Self.prepare(subdivision: #""key": "code", "attributes": { "code": "code" }, "relationships": { "country": { "key": { "sql": "substr(:code, 1, 2)" } } }"#,
                                       country: #""code": "alpha2", "id": { "uuid": "random" }"#)
        #expect(try scratch.run(["build", "spec.json", "--quiet"]).status == 0)
        let first = try Data(contentsOf: URL(fileURLWithPath: scratch.path("World.sqlite")))
        let ids = try scratch.query("World.sqlite", "SELECT hex(ZID) FROM ZCOUNTRY ORDER BY Z_PK")
        #expect(ids.count == 2 && ids[0] != ids[1] && ids.allSatisfy { $0[0].count == 32 && Array($0[0])[12] == "4" })
        try FileManager.default.removeItem(atPath: scratch.path("World.sqlite"))
        #expect(try scratch.run(["build", "spec.json", "--quiet"]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("World.sqlite"))) == first)
        let update = try scratch.run(["build", "spec.json", "--into", "World.sqlite"])
        #expect(update.status == 64)
        #expect(update.stderr.contains(#"entities.Country.attributes.id: {"uuid": "random"} gives every build new ids"#), "\(update.stderr)")
    }

    /// Python's `uuid.uuid5(uuid.NAMESPACE_URL, name)`, as upper-case hex without dashes.
    static func python5(_ name: String) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import sys, uuid; print(uuid.uuid5(uuid.NAMESPACE_URL, sys.argv[1]).hex.upper())", name]
        let pipe = Pipe()
        process.standardOutput = pipe
        guard (try? process.run()) != nil else { return nil }
        process.waitUntilExit()
        return String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
