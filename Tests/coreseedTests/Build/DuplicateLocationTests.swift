import Foundation
import Testing
import CoreSeedTestSupport

/// Issue 24, item 13: under `--max-errors`, each repeated key read the source again up to the first
/// occurrence to name it (80k rows: 227 s). The earlier records are now located together, in one more
/// read, and every message still names both records.
@Suite struct DuplicateLocationTests {
    /// `rows` records whose `code` repeats every `distinct` rows: record i (line i + 2) has code i % distinct.
    static func prepare(rows: Int, distinct: Int) throws -> Scratch {
        let scratch = try Scratch()
        try scratch.writeModel("I", """
            <entity name="Item"><attribute name="code" attributeType="String"/><attribute name="label" attributeType="String"/>
              <uniquenessConstraints><uniquenessConstraint><constraint value="label"/></uniquenessConstraint></uniquenessConstraints></entity>
            """)
        var csv = "code,label\n"
        for i in 0..<rows { csv += "\(i % distinct),\(i < distinct ? "label \(i)" : "repeat \(i)")\n" }
        try scratch.write("items.csv", csv)
        try scratch.write("spec.json", """
            { "model": "I.xcdatamodeld", "output": "I.sqlite", "sources": { "items": { "csv": "items.csv" } },
              "entities": { "Item": { "from": "items", "key": "code" } } }
            """)
        return scratch
    }

    @Test func twentyThousandRowsWithManyRepeatsNameBothRecords() throws {
        let scratch = try Self.prepare(rows: 20_000, distinct: 5_000)
        let result = try scratch.run(["build", "spec.json", "--max-errors", "all"], within: 300, stderr: "stderr.txt")
        let stderr = try String(contentsOfFile: scratch.path("stderr.txt"), encoding: .utf8)
        #expect(result.status == 0, "\(stderr.prefix(500))")
        let lines = stderr.split(separator: "\n").filter { $0.contains("repeats an Item key") }
        #expect(lines.count == 15_000)
        // Record 5007 (line 5009) repeats code 7 of record 7 (line 9); record 19999 (line 20001) code 4999 (line 5001).
        #expect(lines.first == "items.csv:5002:1: warning: rejected: 'code' value \"0\" repeats an Item key first seen at items.csv:2:1 (Item.key)")
        #expect(lines.contains("items.csv:5009:1: warning: rejected: 'code' value \"7\" repeats an Item key first seen at items.csv:9:1 (Item.key)"))
        #expect(lines.last == "items.csv:20001:1: warning: rejected: 'code' value \"4999\" repeats an Item key first seen at items.csv:5001:1 (Item.key)")
        #expect(try scratch.query("I.sqlite", "SELECT count(*), min(ZLABEL), max(ZLABEL) FROM ZITEM") == [["5000", "label 0", "label 999"]])
    }

    /// Past the limit, the failure lists the repeats found so far, each with its first record.
    @Test func aFailurePastTheLimitNamesTheFirstRecords() throws {
        let scratch = try Self.prepare(rows: 12, distinct: 4)
        let result = try scratch.run(["build", "spec.json", "--max-errors", "2"], within: 60)
        #expect(result.status == 1)
        #expect(result.stderr == """
            items.csv:6:1: error: 'code' value "0" repeats an Item key first seen at items.csv:2:1 (Item.key)
            items.csv:7:1: error: 'code' value "1" repeats an Item key first seen at items.csv:3:1 (Item.key)
            items.csv:8:1: error: 'code' value "2" repeats an Item key first seen at items.csv:4:1 (Item.key)

            """, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("I.sqlite")))
    }

    /// A uniqueness constraint's repeat names its first record too (keys distinct, labels repeated).
    @Test func aRepeatedUniqueValueNamesTheFirstRecord() throws {
        let scratch = try Scratch()
        try scratch.writeModel("I", """
            <entity name="Item"><attribute name="code" attributeType="String"/><attribute name="label" attributeType="String"/>
              <uniquenessConstraints><uniquenessConstraint><constraint value="label"/></uniquenessConstraint></uniquenessConstraints></entity>
            """)
        try scratch.write("items.csv", "code,label\na,x\nb,y\nc,x\nd,y\ne,z\n")
        try scratch.write("spec.json", """
            { "model": "I.xcdatamodeld", "output": "I.sqlite", "sources": { "items": { "csv": "items.csv" } },
              "entities": { "Item": { "from": "items", "key": "code" } } }
            """)
        let result = try scratch.run(["build", "spec.json", "--max-errors", "all"], within: 60)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == """
            items.csv:4:1: warning: rejected: 'label' value "x" breaks the uniqueness constraint (label) of Item: the record at items.csv:2:1 has the same (Item.label)
            items.csv:5:1: warning: rejected: 'label' value "y" breaks the uniqueness constraint (label) of Item: the record at items.csv:3:1 has the same (Item.label)

            """, "\(result.stderr)")
        #expect(try scratch.query("I.sqlite", "SELECT ZCODE FROM ZITEM ORDER BY ZCODE") == [["a"], ["b"], ["e"]])
    }
}
