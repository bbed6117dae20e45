import Foundation
import Testing
import CoreSeed
import CoreSeedTestSupport

/// Issue 13: `"archive": "json"` / `"list"` store the `NSKeyedArchiver` archive Core Data reads for a
/// Transformable; export writes the values back as JSON and `export --spec` rebuilds them byte for byte.
@Suite struct TransformableTests {
    static func prepare() throws -> Scratch {
        let scratch = try Scratch()
        try scratch.writeModel("T", """
            <entity name="Recipe"><attribute name="name" attributeType="String"/>
              <attribute name="tags" optional="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromData" customClassName="[String]"/>
              <attribute name="info" optional="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromData"/></entity>
            """)
        try scratch.write("r.csv", """
            name,tags,info
            Pancakes,sweet; breakfast,"{""serves"": 4, ""source"": {""$url"": ""https://example.com""}}"
            Soup,,

            """)
        try scratch.write("spec.json", """
            { "model": "T.xcdatamodeld", "output": "T.sqlite", "sources": { "r": { "csv": "r.csv" } },
              "entities": { "Recipe": { "from": "r", "key": "name", "attributes": {
                "tags": { "field": "tags", "archive": "list" }, "info": { "field": "info", "archive": "json" } } } } }
            """)
        return scratch
    }

    static func blob(_ scratch: Scratch, _ sql: String) throws -> [UInt8] {
        let database = try SQLiteDatabase(path: scratch.path("T.sqlite"), mode: .readOnly(immutable: true))
        guard case .blob(let bytes)? = try database.scalar(sql) else { return [] }
        return bytes
    }

    @Test func valuesAreArchivedAndComeBackAsJSON() throws {
        let scratch = try Self.prepare()
        let build = try scratch.run(["build", "spec.json", "--quiet"])
        #expect(build.status == 0, "\(build.stderr)")
        // Foundation reads the stored archives with secure coding, as Core Data's transformer does.
        let tags = try Self.blob(scratch, "SELECT ZTAGS FROM ZRECIPE WHERE Z_PK = 1")
        let array = try NSKeyedUnarchiver.unarchivedObject(ofClasses: [NSArray.self, NSString.self], from: Data(tags)) as? NSArray
        #expect(array?.compactMap { ($0 as? NSString).map(String.init) } == ["sweet", "breakfast"])
        let info = try Self.blob(scratch, "SELECT ZINFO FROM ZRECIPE WHERE Z_PK = 1")
        let dictionary = try NSKeyedUnarchiver.unarchivedObject(ofClasses: [NSDictionary.self, NSString.self, NSNumber.self, NSURL.self],
                                                                 from: Data(info)) as? NSDictionary
        #expect((dictionary?[NSString(string: "serves")] as? NSNumber)?.intValue == 4)
        #expect((dictionary?[NSString(string: "source")] as? NSURL)?.absoluteString == "https://example.com")
        #expect(try scratch.query("T.sqlite", "SELECT ZTAGS IS NULL, ZINFO IS NULL FROM ZRECIPE WHERE Z_PK = 2") == [["1", "1"]])
        #expect(try scratch.run(["verify", "T.sqlite", "--model", "T.xcdatamodeld"]).status == 0)
        // Export writes the values as JSON; its spec archives them again, to the same bytes.
        let export = try scratch.run(["export", "T.sqlite", "--model", "T.xcdatamodeld", "--output", "ex", "--spec"])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(try String(contentsOfFile: scratch.path("ex/Recipe.csv"), encoding: .utf8) == """
            pk,name,tags,info\r
            1,Pancakes,"[""sweet"", ""breakfast""]","{""serves"": 4, ""source"": {""$url"": ""https://example.com""}}"\r
            2,Soup,,\r

            """)
        #expect(try String(contentsOfFile: scratch.path("ex/seed.json"), encoding: .utf8).contains(#""tags": {"field": "tags", "archive": "json"}"#))
        #expect(try scratch.run(["build", "ex/seed.json", "--output", "T2.sqlite", "--quiet"]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("T2.sqlite"))) == Data(contentsOf: URL(fileURLWithPath: scratch.path("T.sqlite"))))
    }

    @Test func badJSONIsNamedAtItsCell() throws {
        let scratch = try Self.prepare()
        try scratch.write("r.csv", "name,tags,info\nBad,x,\"{\"\"serves\"\": 4,}\"\n")
        let build = try scratch.run(["build", "spec.json"])
        #expect(build.status == 1)
        #expect(build.stderr == "r.csv:2:7: error: 'info' value \"{\\\"serves\\\": 4,}\" is not a JSON value to archive; expected a key in quotes (at character 14) (Recipe.info)\n")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("T.sqlite")))
    }

    /// A repeated XML element archives as a list of its texts.
    @Test func aRepeatedXMLElementArchivesAsAList() throws {
        let scratch = try Self.prepare()
        try scratch.write("r.xml", "<recipes><recipe><name>Tea</name><tag>hot</tag><tag> green </tag></recipe></recipes>")
        try scratch.write("spec.json", """
            { "model": "T.xcdatamodeld", "output": "T.sqlite", "sources": { "r": { "xml": "r.xml", "records": "/recipes/recipe", "fields": { "name": "name", "tag": "tag" } } },
              "entities": { "Recipe": { "from": "r", "key": "name", "attributes": { "tags": { "field": "tag", "archive": "list" } } } } }
            """)
        let build = try scratch.run(["build", "spec.json", "--quiet"])
        #expect(build.status == 0, "\(build.stderr)")
        let tags = try Self.blob(scratch, "SELECT ZTAGS FROM ZRECIPE")
        let array = try NSKeyedUnarchiver.unarchivedObject(ofClasses: [NSArray.self, NSString.self], from: Data(tags)) as? NSArray
        #expect(array?.compactMap { ($0 as? NSString).map(String.init) } == ["hot", "green"])
    }

    @Test(arguments: [
        (#"{ "field": "name", "archive": "json" }"#, "name", "entities.Recipe.attributes.name.archive: values are archived for Transformable attributes; 'name' is a String"),
        (#"{ "field": "tags", "archive": "jsn" }"#, "tags", "entities.Recipe.attributes.tags.archive: \"jsn\" is not a form CoreSeed archives: give \"json\" (the field holds JSON) or \"list\" (strings between a \"separator\") (did you mean 'json'?)"),
        (#"{ "field": "tags", "separator": "," }"#, "tags", "entities.Recipe.attributes.tags.separator: a separator splits an \"archive\": \"list\"; give \"archive\": \"list\" or remove it"),
    ])
    func specMistakesAreNamed(_ mapping: String, _ attribute: String, _ message: String) throws {
        let scratch = try Self.prepare()
        try scratch.write("spec.json", """
            { "model": "T.xcdatamodeld", "output": "T.sqlite", "sources": { "r": { "csv": "r.csv" } },
              "entities": { "Recipe": { "from": "r", "key": "name", "attributes": { "\(attribute)": \(mapping) } } } }
            """)
        let build = try scratch.run(["build", "spec.json"])
        #expect(build.status == 1)
        #expect(build.stderr == "spec.json: error: \(message)\n")
    }
}
