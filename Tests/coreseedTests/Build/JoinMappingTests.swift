import Foundation
import Testing
import CoreSeedTestSupport

/// Issue 28, item 3: an entity takes more attributes from a second source whose records match its
/// key (`"join"`), instead of a pre-step: matches fill the attributes, a key without a match leaves
/// their default, a joined key that matches no row is counted, a repeated joined key follows
/// `onDuplicateKey`.
@Suite struct JoinMappingTests {
    static func prepare(population: String, duplicates: String = "error") throws -> Scratch {
        let scratch = try Scratch()
        try scratch.writeModel("World", """
            <entity name="Country"><attribute name="code" attributeType="String"/><attribute name="name" attributeType="String"/>
              <attribute name="population" optional="YES" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
              <attribute name="census" optional="YES" attributeType="String"/></entity>
            """)
        try scratch.write("countries.csv", "alpha2,name\nAD,Andorra\nAZ,Azerbaijan\nFR,France\n")
        try scratch.write("population.csv", population)
        try scratch.write("spec.json", """
            { "model": "World.xcdatamodeld", "output": "World.sqlite",
              "sources": { "countries": { "csv": "countries.csv" }, "population": { "csv": "population.csv" } },
              "entities": { "Country": { "from": "countries", "key": "alpha2", "onDuplicateKey": "\(duplicates)",
                                         "attributes": { "code": "alpha2", "name": "name" },
                                         "join": { "population": { "key": "code", "attributes": { "population": "value", "census": "year" } } } } } }
            """)
        return scratch
    }

    @Test func matchesFillMissesKeepTheDefaultAndStrayKeysAreCounted() throws {
        let scratch = try Self.prepare(population: "code,value,year\nFR,68000000,2023\nAD,80000,2022\nXK,1800000,2021\n")
        let result = try scratch.run(["build", "spec.json", "--report", "report.json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("1 joined key matched no row (population 1)"), "\(result.stdout)")
        #expect(try scratch.query("World.sqlite", "SELECT ZCODE, ZPOPULATION, ZCENSUS FROM ZCOUNTRY ORDER BY ZCODE")
                == [["AD", "80000", "2022"], ["AZ", "0", "NULL"], ["FR", "68000000", "2023"]])
        let report = try String(contentsOfFile: scratch.path("report.json"), encoding: .utf8)
        #expect(report.contains("unmatchedJoinKeys") && report.contains("\"population\""), "\(report)")
    }

    @Test func aRepeatedJoinedKeyFollowsOnDuplicateKey() throws {
        let population = "code,value,year\nFR,67000000,2020\nFR,68000000,2023\n"
        let refused = try Self.prepare(population: population)
        let result = try refused.run(["build", "spec.json"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("population.csv:3:1: error: joined source 'population': key FR repeats the record at population.csv:2:1\nnote: "), "\(result.stderr)")
        for (policy, expected) in [("first", "67000000"), ("last", "68000000")] {
            let scratch = try Self.prepare(population: population, duplicates: policy)
            #expect(try scratch.run(["build", "spec.json", "--quiet"]).status == 0)
            #expect(try scratch.query("World.sqlite", "SELECT ZPOPULATION FROM ZCOUNTRY WHERE ZCODE = 'FR'") == [[expected]], "\(policy)")
        }
    }

    @Test func aJoinNamingWhatIsNotThereIsRefusedAtItsKey() throws {
        let scratch = try Self.prepare(population: "code,value,year\n")
        try scratch.write("spec.json", try String(contentsOfFile: scratch.path("spec.json"), encoding: .utf8)
            .replacingOccurrences(of: #""key": "code""#, with: #""key": "cod""#))
        let result = try scratch.run(["build", "spec.json"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\"join\" population: the source has no field 'cod' (did you mean 'code'?)"), "\(result.stderr)")
    }
}
