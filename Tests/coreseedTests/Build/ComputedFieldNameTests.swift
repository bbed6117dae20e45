import Foundation
import Testing
import CoreSeedTestSupport

/// `:name` in an expression is an SQLite parameter, so an identifier: a field whose name is not one
/// (`Closing Date`, `CERT #`) is named by its folded form (letters and digits, any case), as
/// attributes find their fields; a folded name two fields share is refused, naming both.
@Suite struct ComputedFieldNameTests {
    static func prepare(header: String, row: String, sql: String) throws -> Scratch {
        let scratch = try Scratch()
        try scratch.writeModel("B", """
            <entity name="Bank"><attribute name="cert" attributeType="String"/><attribute name="label" optional="YES" attributeType="String"/></entity>
            """)
        try scratch.write("banks.csv", "\(header)\n\(row)\n")
        try scratch.write("spec.json", """
            { "model": "B.xcdatamodeld", "output": "B.sqlite",
              "sources": { "banks": { "csv": "banks.csv", "fields": { "label": { "sql": "\(sql)" } } } },
              "entities": { "Bank": { "from": "banks", "key": "CERT #", "attributes": { "cert": "CERT #", "label": "label" } } } }
            """)
        return scratch
    }

    @Test func fieldsThatAreNoIdentifierAreNamedByTheirFoldedForm() throws {
        let scratch = try Self.prepare(header: "CERT #,Closing Date", row: "10538,5-Nov-10",
                                       sql: ":cert || ' closed ' || :closing_date || ' / ' || :ClosingDate")
        let build = try scratch.run(["build", "spec.json", "--quiet"])
        #expect(build.status == 0, "\(build.stderr)")
        #expect(try scratch.query("B.sqlite", "SELECT ZCERT, ZLABEL FROM ZBANK") == [["10538", "10538 closed 5-Nov-10 / 5-Nov-10"]])
    }

    @Test func aFoldedNameTwoFieldsShareIsRefused() throws {
        let scratch = try Self.prepare(header: "CERT #,Close Date,close_date", row: "1,a,b", sql: "upper(:closedate)")
        let build = try scratch.run(["build", "spec.json"])
        #expect(build.status == 1)
        #expect(build.stderr.contains("field 'label': ':closedate' could be the field 'Close Date' or 'close_date': name one of them exactly"), "\(build.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("B.sqlite")))
    }
}
