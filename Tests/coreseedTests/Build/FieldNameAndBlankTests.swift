import Foundation
import Testing
import CoreSeedTestSupport

/// Issue 23: a field named exactly as the attribute wins over one that only folds to its name; two
/// that fold to it without an exact one are an error; `onBlank: null` stores NULL in every type.
@Suite struct FieldNameAndBlankTests {
    static func prepare(header: String, rows: String, entityExtra: String = "") throws -> Scratch {
        let scratch = try Scratch()
        try scratch.writeModel("Places", """
            <entity name="Place"><attribute name="id" attributeType="Integer 32"/><attribute name="state" optional="YES" attributeType="String"/>
              <attribute name="note" optional="YES" attributeType="String"/></entity>
            """)
        try scratch.write("places.csv", header + "\n" + rows)
        try scratch.write("spec.json", """
            { "model": "Places.xcdatamodeld", "output": "Places.sqlite", "sources": { "places": { "csv": "places.csv" } },
              "entities": { "Place": { "from": "places", "key": "id"\(entityExtra) } } }
            """)
        return scratch
    }

    @Test func theExactNameWinsOverAFoldedOne() throws {
        let scratch = try Self.prepare(header: "id,State,state", rows: "1,Georgia,GA\n")
        let result = try scratch.run(["build", "spec.json", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try scratch.query("Places.sqlite", "SELECT ZSTATE FROM ZPLACE") == [["GA"]])
    }

    @Test func twoFoldedNamesWithoutAnExactOneAreAnError() throws {
        let scratch = try Self.prepare(header: "id,STATE,State", rows: "1,Georgia,GA\n")
        let result = try scratch.run(["build", "spec.json", "--quiet"])
        #expect(result.status == 1)
        #expect(result.stderr == "spec.json: error: entities.Place.attributes.state: fields 'STATE', 'State' all match attribute 'state' once case and separators are folded, and none is named 'state' exactly: say which one feeds it with \"field\"\n")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("Places.sqlite")))
    }

    /// Empty and all-space cells of a String attribute are NULL under `onBlank: null` (without it, `''` and the spaces).
    @Test func onBlankNullStoresNullInStrings() throws {
        let rows = "1,GA,\n2,  ,\t\n3,TX,x\n"
        let kept = try Self.prepare(header: "id,state,note", rows: rows)
        #expect(try kept.run(["build", "spec.json", "--quiet"]).status == 0)
        #expect(try kept.query("Places.sqlite", "SELECT ZSTATE, ZNOTE FROM ZPLACE ORDER BY ZID") == [["GA", ""], ["  ", "\t"], ["TX", "x"]])
        let cleared = try Self.prepare(header: "id,state,note", rows: rows, entityExtra: ", \"onBlank\": \"null\"")
        let result = try cleared.run(["build", "spec.json", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try cleared.query("Places.sqlite", "SELECT typeof(ZSTATE), typeof(ZNOTE) FROM ZPLACE ORDER BY ZID") == [["text", "null"], ["null", "null"], ["text", "text"]])
    }
}
