import Foundation
import Testing
import CoreSeed
import CoreSeedTestSupport

/// The one-pass plan (every relationship links rows of the same record) must give exactly what the
/// two-pass plan gives, and still catch duplicate keys.
@Suite struct StreamingPlanTests {
    @Test func onePassAndTwoPassBuildIdenticalStores() throws {
        let scratch = try Scratch()
        let one = try BinaryRunner.run(["build", "Inputs/failedbanks-csv.json", "--output", scratch.path("one.sqlite"), "--quiet"])
        // Tolerating errors makes the build validate and key every record first: the two-pass plan.
        let two = try BinaryRunner.run(["build", "Inputs/failedbanks-csv.json", "--output", scratch.path("two.sqlite"), "--quiet", "--max-errors", "3"])
        #expect(one.status == 0 && two.status == 0, "\(one.stderr)\(two.stderr)")
        #expect(FileManager.default.contentsEqual(atPath: scratch.path("one.sqlite"), andPath: scratch.path("two.sqlite")))
    }

    /// Three entities from each of 5,000 records: the row batches then end part-way through the runs
    /// of the multi-row inserts, and the rows numbered by insertion must still link as in the two-pass
    /// plan (which numbers them itself).
    @Test func threeEntitiesPerRecordAcrossBatchesLinkAsInTheTwoPassPlan() throws {
        let scratch = try Scratch()
        try scratch.writeModel("Chain", """
            <entity name="Bank">
              <attribute name="name" optional="YES" attributeType="String"/>
              <relationship name="branch" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Branch" inverseName="bank" inverseEntity="Branch"/>
            </entity>
            <entity name="Branch">
              <attribute name="number" optional="YES" attributeType="Integer 64"/>
              <relationship name="bank" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Bank" inverseName="branch" inverseEntity="Bank"/>
              <relationship name="audit" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Audit" inverseName="branch" inverseEntity="Audit"/>
            </entity>
            <entity name="Audit">
              <attribute name="when" optional="YES" attributeType="Date"/>
              <relationship name="branch" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Branch" inverseName="audit" inverseEntity="Branch"/>
            </entity>
            """)
        var csv = "id,name,when\n"
        for record in 0..<5000 { csv += "\(record * 7 + 3),\"Bank, \(record)\",\(2000 + record % 20)-0\(1 + record % 9)-15\n" }
        try scratch.write("chain.csv", csv)
        // Three entities keyed alike, each linked to the next by the same key.
        let entities = """
            "entities": {
              "Bank": { "from": "c", "key": "id", "attributes": { "name": "name" }, "relationships": { "branch": { "key": "id" } } },
              "Branch": { "from": "c", "key": "id", "attributes": { "number": "id" }, "relationships": { "audit": { "key": "id" } } },
              "Audit": { "from": "c", "key": "id", "attributes": { "when": "when" } } }
            """
        try scratch.write("spec.json", """
            { "model": "Chain.xcdatamodeld", "output": "chain.sqlite", "sources": { "c": { "csv": "chain.csv" } },
            \(entities) }
            """)
        let one = try scratch.run(["build", "spec.json", "--output", "one.sqlite", "--quiet"])
        let two = try scratch.run(["build", "spec.json", "--output", "two.sqlite", "--quiet", "--max-errors", "3"])
        #expect(one.status == 0 && two.status == 0, "\(one.stderr)\(two.stderr)")
        let linked = """
            SELECT ZBANK.Z_PK, ZNAME, ZNUMBER, ZWHEN FROM ZBANK JOIN ZBRANCH ON ZBANK.ZBRANCH = ZBRANCH.Z_PK AND ZBRANCH.ZBANK = ZBANK.Z_PK
            JOIN ZAUDIT ON ZBRANCH.ZAUDIT = ZAUDIT.Z_PK AND ZAUDIT.ZBRANCH = ZBRANCH.Z_PK ORDER BY ZBANK.Z_PK
            """
        let rows = try scratch.query("one.sqlite", linked)
        #expect(rows.count == 5000)
        #expect(rows.first == ["1", "Bank, 0", "3", "-30412800"])  // 2000-01-15 UTC
        #expect(rows.last?.prefix(3) == ["5000", "Bank, 4999", "34996"])
        #expect(try scratch.query("two.sqlite", linked) == rows)
        #expect(FileManager.default.contentsEqual(atPath: scratch.path("one.sqlite"), andPath: scratch.path("two.sqlite")))

        // The same records from XML (parsed on the reader's own thread, handed over in batches): the
        // one-pass and two-pass plans give the same store, linked as from CSV.
        var xml = "<chain>\n"
        for record in 0..<5000 { xml += "<c id=\"\(record * 7 + 3)\"><name>Bank, \(record)</name><when>\(2000 + record % 20)-0\(1 + record % 9)-15</when></c>\n" }
        try scratch.write("chain.xml", xml + "</chain>\n")
        try scratch.write("spec-xml.json", """
            { "model": "Chain.xcdatamodeld", "output": "chain.sqlite",
              "sources": { "c": { "xml": "chain.xml", "records": "/chain/c", "fields": { "id": "@id", "name": "name", "when": "when" } } },
            \(entities) }
            """)
        let oneXML = try scratch.run(["build", "spec-xml.json", "--output", "one-xml.sqlite", "--quiet"])
        let twoXML = try scratch.run(["build", "spec-xml.json", "--output", "two-xml.sqlite", "--quiet", "--max-errors", "3"])
        #expect(oneXML.status == 0 && twoXML.status == 0, "\(oneXML.stderr)\(twoXML.stderr)")
        #expect(try scratch.query("one-xml.sqlite", linked) == rows)
        #expect(FileManager.default.contentsEqual(atPath: scratch.path("one-xml.sqlite"), andPath: scratch.path("two-xml.sqlite")))

        // A repeated key near the end fails the XML build with its line, and the previous store stays.
        try scratch.write("chain.xml", xml + "<c id=\"3\"><name>Again</name></c>\n</chain>\n")
        let before = try Data(contentsOf: URL(fileURLWithPath: scratch.path("one-xml.sqlite")))
        let repeated = try scratch.run(["build", "spec-xml.json", "--output", "one-xml.sqlite", "--quiet"])
        #expect(repeated.status == 1)
        #expect(repeated.stderr == "chain.xml:5002:10: error: 'id' value \"3\" repeats an Audit key first seen at chain.xml:2 (Audit.key)\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("one-xml.sqlite"))) == before)
    }

    @Test func duplicateKeysFailTheOnePassBuild() throws {
        let scratch = try Scratch()
        try scratch.write("banks.csv", """
            Bank Name,City,State,CERT #,Closing Date,Updated Date
            Desert Hills Bank,Phoenix,AZ,57060,26-Mar-10,26-Mar-10
            Unity National Bank,Cartersville,GA,34678,26-Mar-10,26-Mar-10
            Key West Bank,Key West,FL,57060,26-Mar-10,26-Mar-10

            """)
        let spec = try String(contentsOfFile: BinaryRunner.repositoryRoot.appendingPathComponent("Inputs/failedbanks-csv.json").path, encoding: .utf8)
            .replacingOccurrences(of: "fdic-2011/banklist.csv", with: "banks.csv")
            .replacingOccurrences(of: "\"FailedBanksCD.xcdatamodeld\"", with: "\"\(BinaryRunner.repositoryRoot.appendingPathComponent("Inputs/FailedBanksCD.xcdatamodeld").path)\"")
            .replacingOccurrences(of: "../Outputs/FailedBanksCD.sqlite", with: "out.sqlite")
        try scratch.write("spec.json", spec)
        let result = try scratch.run(["build", "spec.json"])
        #expect(result.status == 1)
        #expect(result.stderr == "banks.csv:4:27: error: 'CERT #' value \"57060\" repeats a FailedBankDetails key first seen at banks.csv:2:1 (FailedBankDetails.key)\n")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("out.sqlite")))
    }
}
