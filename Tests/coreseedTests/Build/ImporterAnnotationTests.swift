import Foundation
import Testing
import CoreSeedTestSupport

/// Issue 28, item 5: the model annotations importers already use pick fields and keys without a
/// spec mapping — Sync's `sync.remoteKey`/`sync.isPrimaryKey` and their older `hyper.` forms,
/// MagicalRecord's numbered fallbacks `mappedKeyName.1` … `.9` — and Groot's `JSONTransformerName`
/// is refused, since a transformer is app code.
@Suite struct ImporterAnnotationTests {
    static func build(_ attributes: String, header: String = "ID,full_name,alias,born", rows: [String] = ["7,Ada,ada,1815", "8,Alan,alan,1912"]) throws -> (Scratch, BinaryRunner.Result) {
        let scratch = try Scratch()
        try scratch.writeModel("People", "<entity name=\"Person\">\(attributes)</entity>")
        try scratch.write("people.csv", ([header] + rows).joined(separator: "\n") + "\n")
        try scratch.write("spec.json", """
            { "model": "People.xcdatamodeld", "output": "People.sqlite", "sources": { "people": { "csv": "people.csv" } },
              "entities": { "Person": { "from": "people" } } }
            """)
        return (scratch, try scratch.run(["build", "spec.json", "--quiet"]))
    }

    static func entry(_ key: String, _ value: String) -> String { "<userInfo><entry key=\"\(key)\" value=\"\(value)\"/></userInfo>" }

    @Test func syncRemoteKeysAndNumberedFallbacksNameTheFields() throws {
        let (scratch, result) = try Self.build("""
            <attribute name="remoteID" attributeType="Integer 64" usesScalarValueType="YES">\(Self.entry("sync.remoteKey", "ID"))</attribute>
            <attribute name="name" attributeType="String">\(Self.entry("hyper.remoteKey", "full_name"))</attribute>
            <attribute name="nick" optional="YES" attributeType="String"><userInfo><entry key="mappedKeyName" value="nickname"/>
              <entry key="mappedKeyName.1" value="handle"/><entry key="mappedKeyName.2" value="alias"/></userInfo></attribute>
            """)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try scratch.query("People.sqlite", "SELECT ZREMOTEID, ZNAME, ZNICK FROM ZPERSON ORDER BY Z_PK") == [["7", "Ada", "ada"], ["8", "Alan", "alan"]])
    }

    /// `sync.isPrimaryKey` makes the attribute's field the entity's key: a repeated id is a duplicate key.
    @Test(arguments: ["sync.isPrimaryKey", "hyper.isPrimaryKey"])
    func isPrimaryKeyMakesTheKey(_ key: String) throws {
        let attributes = """
            <attribute name="remoteID" attributeType="Integer 64" usesScalarValueType="YES"><userInfo><entry key="sync.remoteKey" value="ID"/><entry key="\(key)" value="YES"/></userInfo></attribute>
            <attribute name="name" attributeType="String">\(Self.entry("sync.remoteKey", "full_name"))</attribute>
            """
        let (_, result) = try Self.build(attributes, rows: ["7,Ada,ada,1815", "7,Alan,alan,1912"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("people.csv:3:1: error: 'ID' value \"7\" repeats a Person key first seen at people.csv:2:1"), "\(result.stderr)")
        let (_, unmarked) = try Self.build(attributes.replacingOccurrences(of: "<entry key=\"\(key)\" value=\"YES\"/>", with: ""),
                                           rows: ["7,Ada,ada,1815", "7,Alan,alan,1912"])
        #expect(unmarked.status == 0, "\(unmarked.stderr)")
    }

    @Test func grootsJSONTransformerNameIsRefused() throws {
        let (_, result) = try Self.build("""
            <attribute name="born" attributeType="String">\(Self.entry("JSONTransformerName", "YearTransformer"))</attribute>
            """)
        #expect(result.status == 1)
        #expect(result.stderr.contains("'born' has Groot's userInfo JSONTransformerName 'YearTransformer', a value transformer in the app's code, which CoreSeed cannot run on field 'born'"), "\(result.stderr)")
    }
}
