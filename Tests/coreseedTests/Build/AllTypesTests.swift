import Foundation
import Testing
import CoreSeed
import CoreSeedTestSupport

/// Issue 13's test model: every attribute type, an external-storage Binary (one value inline, one in a
/// file), a Transformable list and dictionary, a derived `@count` and a compound uniqueness constraint,
/// built from CSV and from XML to the same rows, each value in the form Core Data reads.
@Suite struct AllTypesTests {
    static let model = """
        <entity name="Recipe">
          <attribute name="name" attributeType="String"/>
          <attribute name="cuisine" attributeType="String"/>
          <attribute name="serves" optional="YES" attributeType="Integer 16"/>
          <attribute name="minutes" optional="YES" attributeType="Integer 32"/>
          <attribute name="calories" optional="YES" attributeType="Integer 64"/>
          <attribute name="price" optional="YES" attributeType="Decimal"/>
          <attribute name="rating" optional="YES" attributeType="Double"/>
          <attribute name="salt" optional="YES" attributeType="Float"/>
          <attribute name="vegan" optional="YES" attributeType="Boolean"/>
          <attribute name="created" optional="YES" attributeType="Date"/>
          <attribute name="id" optional="YES" attributeType="UUID"/>
          <attribute name="source" optional="YES" attributeType="URI"/>
          <attribute name="photo" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
          <attribute name="tags" optional="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromData" customClassName="[String]"/>
          <attribute name="info" optional="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromData"/>
          <attribute name="ingredientCount" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="ingredients.@count"/>
          <relationship name="ingredients" optional="YES" toMany="YES" destinationEntity="Ingredient" inverseName="recipe" inverseEntity="Ingredient"/>
          <uniquenessConstraints><uniquenessConstraint><constraint value="name"/><constraint value="cuisine"/></uniquenessConstraint></uniquenessConstraints>
        </entity>
        <entity name="Ingredient">
          <attribute name="name" attributeType="String"/>
          <relationship name="recipe" optional="YES" maxCount="1" destinationEntity="Recipe" inverseName="ingredients" inverseEntity="Recipe"/>
        </entity>
        """

    /// 300 bytes: above the spec's `externalAbove` of 100, so in a file.
    static let largePhoto = (0..<300).map { UInt8($0 % 251) }
    static let attributes = #""photo": { "field": "photo", "base64": true, "externalAbove": 100 }, "tags": { "field": "tags", "archive": "list" }, "info": { "field": "info", "archive": "json" }"#

    static func prepare() throws -> Scratch {
        let scratch = try Scratch()
        try scratch.writeModel("Kitchen", model)
        let large = Data(largePhoto).base64EncodedString()
        try scratch.write("recipes.csv", """
            name,cuisine,serves,minutes,calories,price,rating,salt,vegan,created,id,source,photo,tags,info
            Pancakes,French,4,20,5000000000,12.50,4.5,0.1,true,2020-01-02T03:04:05Z,6B29FC40-CA47-1067-B31D-00DD010662DA,https://example.com/p,AAEC,sweet; breakfast,"{""serves"": 4, ""spicy"": false}"
            Soup,Thai,2,45,300,8.25,3.75,1.5,false,2021-06-30T12:00:00Z,00000000-0000-0000-0000-000000000001,https://example.com/s,\(large),hot,"{""region"": ""north""}"

            """)
        try scratch.write("ingredients.csv", "name,recipe\nFlour,Pancakes\nEgg,Pancakes\nLeek,Soup\n")
        try scratch.write("csv.json", """
            { "model": "Kitchen.xcdatamodeld", "output": "csv.sqlite", "sources": { "r": { "csv": "recipes.csv" }, "i": { "csv": "ingredients.csv" } },
              "entities": { "Recipe": { "from": "r", "key": "name", "attributes": { \(attributes) } },
                            "Ingredient": { "from": "i", "key": "name", "relationships": { "recipe": { "key": "recipe" } } } } }
            """)
        try scratch.write("kitchen.xml", """
            <recipes>
              <recipe><name>Pancakes</name><cuisine>French</cuisine><serves>4</serves><minutes>20</minutes><calories>5000000000</calories>
                <price>12.50</price><rating>4.5</rating><salt>0.1</salt><vegan>true</vegan><created>2020-01-02T03:04:05Z</created>
                <id>6B29FC40-CA47-1067-B31D-00DD010662DA</id><source>https://example.com/p</source><photo>AAEC</photo>
                <tag>sweet</tag><tag>breakfast</tag><info>{"serves": 4, "spicy": false}</info>
                <ingredient><name>Flour</name></ingredient><ingredient><name>Egg</name></ingredient></recipe>
              <recipe><name>Soup</name><cuisine>Thai</cuisine><serves>2</serves><minutes>45</minutes><calories>300</calories>
                <price>8.25</price><rating>3.75</rating><salt>1.5</salt><vegan>false</vegan><created>2021-06-30T12:00:00Z</created>
                <id>00000000-0000-0000-0000-000000000001</id><source>https://example.com/s</source><photo>\(large)</photo>
                <tag>hot</tag><info>{"region": "north"}</info>
                <ingredient><name>Leek</name></ingredient></recipe>
            </recipes>
            """)
        let fields = ["name", "cuisine", "serves", "minutes", "calories", "price", "rating", "salt", "vegan", "created", "id", "source", "photo", "info"]
            .map { "\"\($0)\": \"\($0)\"" }.joined(separator: ", ")
        try scratch.write("xml.json", """
            { "model": "Kitchen.xcdatamodeld", "output": "xml.sqlite",
              "sources": { "r": { "xml": "kitchen.xml", "records": "/recipes/recipe", "fields": { \(fields), "tags": "tag" } },
                           "i": { "xml": "kitchen.xml", "records": "/recipes/recipe/ingredient", "fields": { "name": "name", "recipe": "../name" } } },
              "entities": { "Recipe": { "from": "r", "key": "name", "attributes": { \(attributes) } },
                            "Ingredient": { "from": "i", "key": "name", "relationships": { "recipe": { "key": "recipe" } } } } }
            """)
        return scratch
    }

    static func blob(_ scratch: Scratch, _ store: String, _ sql: String) throws -> [UInt8] {
        let database = try SQLiteDatabase(path: scratch.path(store), mode: .readOnly(immutable: true))
        guard case .blob(let bytes)? = try database.scalar(sql) else { return [] }
        return bytes
    }

    @Test func csvAndXMLGiveTheSameRowsInCoreDatasForms() throws {
        let scratch = try Self.prepare()
        for spec in ["csv.json", "xml.json"] {
            let build = try scratch.run(["build", spec, "--quiet"])
            #expect(build.status == 0, "\(spec): \(build.stderr)")
        }
        let columns = "ZNAME, ZCUISINE, ZSERVES, ZMINUTES, ZCALORIES, ZPRICE, ZRATING, ZSALT, ZVEGAN, ZCREATED, hex(ZID), ZSOURCE, hex(ZPHOTO), hex(ZTAGS), hex(ZINFO), ZINGREDIENTCOUNT"
        let rows = try scratch.query("csv.sqlite", "SELECT \(columns) FROM ZRECIPE ORDER BY Z_PK")
        #expect(try scratch.query("xml.sqlite", "SELECT \(columns) FROM ZRECIPE ORDER BY Z_PK") == rows)
        #expect(try scratch.query("xml.sqlite", "SELECT Z_PK, ZNAME, ZRECIPE FROM ZINGREDIENT ORDER BY Z_PK")
                == scratch.query("csv.sqlite", "SELECT Z_PK, ZNAME, ZRECIPE FROM ZINGREDIENT ORDER BY Z_PK"))
        // Each type in its stored form.
        let forms = try scratch.query("csv.sqlite", """
            SELECT typeof(ZSERVES), typeof(ZCALORIES), ZCALORIES, typeof(ZPRICE), ZPRICE, ZSALT, ZVEGAN, typeof(ZCREATED), ZCREATED,
                   typeof(ZID), length(ZID), hex(ZID), typeof(ZSOURCE) FROM ZRECIPE WHERE Z_PK = 1
            """)
        // A Date is a number of seconds since 2001; SQLite keeps an integral one as INTEGER in a TIMESTAMP column.
        #expect(forms == [["integer", "integer", "5000000000", "real", "12.5", String(Double(Float(0.1))), "1", "integer", "599627045",
                      "blob", "16", "6B29FC40CA471067B31D00DD010662DA", "text"]], "\(forms)")
        #expect(rows.map { $0[15] } == ["2", "1"])  // the derived counts
        for store in ["csv", "xml"] {
            // The small photo inline after 0x01; the large one 0x02 + UUID + 0x00, its bytes in the support folder.
            #expect(try Self.blob(scratch, "\(store).sqlite", "SELECT ZPHOTO FROM ZRECIPE WHERE Z_PK = 1") == [0x01, 0x00, 0x01, 0x02])
            let reference = try Self.blob(scratch, "\(store).sqlite", "SELECT ZPHOTO FROM ZRECIPE WHERE Z_PK = 2")
            #expect(reference.count == 38 && reference.first == 0x02 && reference.last == 0x00)
            let uuid = String(decoding: reference[1..<37], as: UTF8.self)
            let folder = scratch.path(".\(store)_SUPPORT/_EXTERNAL_DATA")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [uuid])
            #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + uuid)) == Data(Self.largePhoto))
            #expect(try scratch.run(["verify", "\(store).sqlite", "--model", "Kitchen.xcdatamodeld"]).status == 0)
        }
        // The archives: a list of strings and a dictionary, as Foundation reads them with secure coding.
        let tags = try NSKeyedUnarchiver.unarchivedObject(ofClasses: [NSArray.self, NSString.self],
                                                          from: Data(Self.blob(scratch, "csv.sqlite", "SELECT ZTAGS FROM ZRECIPE WHERE Z_PK = 1"))) as? NSArray
        #expect(tags?.compactMap { ($0 as? NSString).map(String.init) } == ["sweet", "breakfast"])
        let info = try NSKeyedUnarchiver.unarchivedObject(ofClasses: [NSDictionary.self, NSString.self, NSNumber.self],
                                                          from: Data(Self.blob(scratch, "csv.sqlite", "SELECT ZINFO FROM ZRECIPE WHERE Z_PK = 1"))) as? NSDictionary
        #expect((info?[NSString(string: "serves")] as? NSNumber)?.intValue == 4 && (info?[NSString(string: "spicy")] as? NSNumber)?.boolValue == false)
        // An app's plain SQL adds an ingredient: the triggers count it.
        do {
            let database = try SQLiteDatabase(path: scratch.path("csv.sqlite"), mode: .readWrite)
            try database.registerInertFunctions(DerivedCount.triggerFunctions)
            try database.execute("INSERT INTO ZINGREDIENT (Z_PK, Z_ENT, Z_OPT, ZNAME, ZRECIPE) VALUES (4, 1, 1, 'Chili', 2)")
        }
        #expect(try scratch.query("csv.sqlite", "SELECT ZINGREDIENTCOUNT FROM ZRECIPE ORDER BY Z_PK") == [["2"], ["2"]])
    }

    /// The triggers are the corpus store's (`coredataplus-samplemodel2-v1`, Book.pagesCount = pages.@count)
    /// with this model's names.
    @Test(.needsCorpus) func theTriggersAreCoreDatasForm() throws {
        let scratch = try Self.prepare()
        #expect(try scratch.run(["build", "csv.json", "--quiet"]).status == 0)
        let corpus = try String(contentsOf: Corpus.url.appendingPathComponent("coredataplus-samplemodel2-v1/schema.sql"), encoding: .utf8)
        let expected = corpus.split(separator: "\n").filter { $0.hasPrefix("CREATE TRIGGER Z_DA_") }.map { line in
            String(line.dropLast())  // the file's statements end with ';', sqlite_master's do not
                .replacingOccurrences(of: "ZPAGESCOUNT", with: "ZINGREDIENTCOUNT").replacingOccurrences(of: "ZPAGE", with: "ZINGREDIENT")
                .replacingOccurrences(of: "ZBOOK", with: "ZRECIPE").replacingOccurrences(of: "Book", with: "Recipe")
                .replacingOccurrences(of: "pagesCount", with: "ingredientCount")
        }
        #expect(expected.count == 5)
        #expect(try scratch.query("csv.sqlite", "SELECT sql FROM sqlite_master WHERE type = 'trigger' ORDER BY rowid").map { $0[0] } == expected)
    }

    @Test func theCompoundConstraintNamesBothRecords() throws {
        let scratch = try Self.prepare()
        try scratch.write("recipes.csv", "name,cuisine,photo,tags,info\nPancakes,French,,,\nCrepes,French,,,\nPancakes,French,,,\n")
        try scratch.write("csv.json", """
            { "model": "Kitchen.xcdatamodeld", "output": "csv.sqlite", "sources": { "r": { "csv": "recipes.csv" } },
              "entities": { "Recipe": { "from": "r", "attributes": { \(Self.attributes) } } } }
            """)
        let build = try scratch.run(["build", "csv.json"])
        #expect(build.status == 1)
        #expect(build.stderr.contains("recipes.csv:4:1: error: 'name+cuisine' value \"Pancakes / French\" breaks the uniqueness constraint (name, cuisine) of Recipe: the record at recipes.csv:2:1 has the same (Recipe.name, cuisine)"), "\(build.stderr)")
    }
}
