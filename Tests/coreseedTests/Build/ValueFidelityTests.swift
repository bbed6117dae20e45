import Foundation
import Testing
import CoreSeed
import CoreSeedTestSupport

/// Values stored as Core Data stores them, or refused (issue 13).
@Suite struct ValueFidelityTests {
    static func prepare(_ entity: String) throws -> Scratch {
        let scratch = try Scratch()
        try scratch.writeModel("Recipes", entity)
        return scratch
    }

    /// A Binary attribute with Allows External Storage: `0x01` + the bytes (Core Data reads an unmarked
    /// value as a reference to a file); export gives the bytes back; verify fails an unmarked value.
    @Test func externalStorageBinaryGetsTheInlineMarker() throws {
        let scratch = try Self.prepare("""
            <entity name="Recipe">
              <attribute name="name" attributeType="String"/>
              <attribute name="photo" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
              <attribute name="thumbnail" optional="YES" attributeType="Binary"/>
            </entity>
            """)
        try scratch.write("recipes.csv", "name,photo,thumbnail\nPancakes,AAEC,AAEC\nSoup,,\n")
        try scratch.write("spec.json", """
            { "model": "Recipes.xcdatamodeld", "output": "Recipes.sqlite", "sources": { "recipes": { "csv": "recipes.csv" } },
              "entities": { "Recipe": { "from": "recipes", "key": "name",
                "attributes": { "photo": { "field": "photo", "base64": true }, "thumbnail": { "field": "thumbnail", "base64": true } } } } }
            """)
        let build = try scratch.run(["build", "spec.json"])
        #expect(build.status == 0, "\(build.stderr)")
        #expect(try scratch.query("Recipes.sqlite", "SELECT hex(ZPHOTO), hex(ZTHUMBNAIL) FROM ZRECIPE ORDER BY Z_PK") == [["01000102", "000102"], ["", ""]])
        let verify = try scratch.run(["verify", "Recipes.sqlite", "--model", "Recipes.xcdatamodeld"])
        #expect(verify.status == 0, "\(verify.stderr)")
        let export = try scratch.run(["export", "Recipes.sqlite", "--model", "Recipes.xcdatamodeld", "--output", "out"])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(try String(contentsOfFile: scratch.path("out/Recipe.csv"), encoding: .utf8).contains("Pancakes,AAEC,AAEC"))
        // A raw value written by hand is named with its row and column.
        do {
            let database = try SQLiteDatabase(path: scratch.path("Recipes.sqlite"), mode: .readWrite)
            try database.execute("UPDATE ZRECIPE SET ZPHOTO = x'FFD8FF' WHERE Z_PK = 1")
        }
        let broken = try scratch.run(["verify", "Recipes.sqlite", "--model", "Recipes.xcdatamodeld"])
        #expect(broken.status == 1)
        #expect(broken.stderr.contains("Recipes.sqlite: error: ZRECIPE.ZPHOTO: 1 value(s) without Core Data's external-storage marker (Z_PK 1): Recipe.photo allows external storage, so Core Data reads them as references to files that do not exist\n"))
    }

    /// A reference whose file is missing from a support folder that exists fails verify.
    @Test func aMissingExternalFileFailsVerify() throws {
        let scratch = try Self.prepare("""
            <entity name="Recipe">
              <attribute name="name" attributeType="String"/>
              <attribute name="photo" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
            </entity>
            """)
        try scratch.write("recipes.csv", "name\nPancakes\nSoup\n")
        try scratch.write("spec.json", """
            { "model": "Recipes.xcdatamodeld", "output": "Recipes.sqlite", "sources": { "recipes": { "csv": "recipes.csv" } },
              "entities": { "Recipe": { "from": "recipes", "key": "name" } } }
            """)
        #expect(try scratch.run(["build", "spec.json"]).status == 0)
        let present = "11111111-2222-3333-4444-555555555555", missing = "66666666-7777-8888-9999-AAAAAAAAAAAA"
        try scratch.write(".Recipes_SUPPORT/_EXTERNAL_DATA/\(present)", "jpeg bytes")
        do {
            let database = try SQLiteDatabase(path: scratch.path("Recipes.sqlite"), mode: .readWrite)
            for (key, uuid) in [(1, present), (2, missing)] {
                let statement = try database.prepare("UPDATE ZRECIPE SET ZPHOTO = ? WHERE Z_PK = ?")
                try statement.bind([.blob([0x02] + Array(uuid.utf8) + [0x00]), .integer(Int64(key))])
                try statement.step()
            }
        }
        let verify = try scratch.run(["verify", "Recipes.sqlite", "--model", "Recipes.xcdatamodeld"])
        #expect(verify.status == 1)
        #expect(verify.stderr.contains("Recipes.sqlite: error: ZRECIPE.ZPHOTO: 1 value(s) refer to external files that are missing from ./.Recipes_SUPPORT/_EXTERNAL_DATA (Z_PK 2)\n"))
        let export = try scratch.run(["export", "Recipes.sqlite", "--model", "Recipes.xcdatamodeld", "--output", "out"])
        #expect(export.status == 66)
        #expect(export.stderr.contains("Recipe pk 2: photo refers to this external file, which is missing"))
    }
}

/// A derived `@count` attribute: the build computes the counts and creates Core Data's `Z_DA_` triggers,
/// which keep them as rows change (issue 13: the store held NULL that never updated, and verify said OK).
@Suite struct DerivedAttributeTests {
    static func prepare() throws -> Scratch {
        let scratch = try Scratch()
        try scratch.writeModel("Recipes", """
            <entity name="Recipe">
              <attribute name="name" attributeType="String"/>
              <attribute name="ingredientCount" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="ingredients.@count"/>
              <relationship name="ingredients" optional="YES" toMany="YES" destinationEntity="Ingredient" inverseName="recipe" inverseEntity="Ingredient"/>
            </entity>
            <entity name="Ingredient">
              <attribute name="name" attributeType="String"/>
              <relationship name="recipe" optional="YES" maxCount="1" destinationEntity="Recipe" inverseName="ingredients" inverseEntity="Recipe"/>
            </entity>
            """)
        try scratch.write("recipes.csv", "name\nPancakes\nSoup\nToast\n")
        try scratch.write("ingredients.csv", "name,recipe\nFlour,Pancakes\nEgg,Pancakes\nMilk,Pancakes\nLeek,Soup\n")
        try scratch.write("spec.json", """
            { "model": "Recipes.xcdatamodeld", "output": "Recipes.sqlite",
              "sources": { "recipes": { "csv": "recipes.csv" }, "ingredients": { "csv": "ingredients.csv" } },
              "entities": { "Recipe": { "from": "recipes", "key": "name" },
                            "Ingredient": { "from": "ingredients", "key": "name", "relationships": { "recipe": { "key": "recipe" } } } } }
            """)
        return scratch
    }

    @Test func countsAreComputedAndTheTriggersKeepThem() throws {
        let scratch = try Self.prepare()
        let build = try scratch.run(["build", "spec.json", "--quiet"])
        #expect(build.status == 0, "\(build.stderr)")
        #expect(try scratch.query("Recipes.sqlite", "SELECT ZNAME, ZINGREDIENTCOUNT FROM ZRECIPE ORDER BY Z_PK") == [["Pancakes", "3"], ["Soup", "1"], ["Toast", "0"]])
        #expect(try scratch.query("Recipes.sqlite", "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'Z_DA_%'") == [["5"]])
        #expect(try scratch.run(["verify", "Recipes.sqlite", "--model", "Recipes.xcdatamodeld"]).status == 0)
        // An app's plain SQL (with Core Data's trigger functions) moves the counts through the triggers.
        do {
            let database = try SQLiteDatabase(path: scratch.path("Recipes.sqlite"), mode: .readWrite)
            try database.registerInertFunctions(DerivedCount.triggerFunctions)
            try database.execute("""
                INSERT INTO ZINGREDIENT (Z_PK, Z_ENT, Z_OPT, ZNAME, ZRECIPE) VALUES (5, 1, 1, 'Bread', 3);
                UPDATE ZINGREDIENT SET ZRECIPE = 2 WHERE ZNAME = 'Egg';
                DELETE FROM ZINGREDIENT WHERE ZNAME = 'Milk';
                INSERT INTO ZRECIPE (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (4, 2, 1, 'Water')
                """)
        }
        #expect(try scratch.query("Recipes.sqlite", "SELECT ZNAME, ZINGREDIENTCOUNT FROM ZRECIPE ORDER BY Z_PK") == [["Pancakes", "1"], ["Soup", "2"], ["Toast", "1"], ["Water", "0"]])
        // A count that disagrees with its rows fails verify, naming the rows.
        do {
            let database = try SQLiteDatabase(path: scratch.path("Recipes.sqlite"), mode: .readWrite)
            try database.execute("UPDATE ZRECIPE SET ZINGREDIENTCOUNT = 7 WHERE Z_PK = 2; DROP TRIGGER Z_DA_ZRECIPE_Recipe_ingredientCount_SOURCE_INSERT")
        }
        let verify = try scratch.run(["verify", "Recipes.sqlite", "--model", "Recipes.xcdatamodeld"])
        #expect(verify.status == 1)
        #expect(verify.stderr.contains("Recipes.sqlite: error: ZRECIPE.ZINGREDIENTCOUNT: 1 value(s) that disagree with the rows of ZINGREDIENT pointing at them (Z_PK 2): Recipe.ingredientCount is derived (\"ingredients.@count\")\n"), "\(verify.stderr)")
        #expect(verify.stderr.contains("Recipes.sqlite: error: schema: no trigger Z_DA_ZRECIPE_Recipe_ingredientCount_SOURCE_INSERT as Core Data creates it: without it Recipe.ingredientCount (derived) stops following its rows\n"), "\(verify.stderr)")
    }

    /// An upsert adds rows to a store that has the triggers: they keep the counts.
    @Test func anUpsertKeepsTheCounts() throws {
        let scratch = try Self.prepare()
        #expect(try scratch.run(["build", "spec.json", "--quiet"]).status == 0)
        try scratch.write("ingredients.csv", "name,recipe\nButter,Toast\nEgg,Soup\n")
        let update = try scratch.run(["build", "spec.json", "--into", "Recipes.sqlite", "--quiet"])
        #expect(update.status == 0, "\(update.stderr)")
        #expect(try scratch.query("Recipes.sqlite", "SELECT ZNAME, ZINGREDIENTCOUNT FROM ZRECIPE ORDER BY Z_PK") == [["Pancakes", "2"], ["Soup", "2"], ["Toast", "1"]])
        #expect(try scratch.run(["verify", "Recipes.sqlite", "--model", "Recipes.xcdatamodeld"]).status == 0)
    }

    @Test func explainSaysTheStoreCountsIt() throws {
        let scratch = try Self.prepare()
        let explain = try scratch.run(["build", "spec.json", "--explain"])
        #expect(explain.status == 0, "\(explain.stderr)")
        #expect(explain.stdout.contains("\n  ingredientCount ← counted by the store (derived): the rows of ZINGREDIENT whose ZRECIPE points at it, kept by Z_DA_ triggers\n"), "\(explain.stdout)")
    }

    @Test func aDerivedAttributeTakesNoValueFromTheSpec() throws {
        let scratch = try Self.prepare()
        try scratch.write("spec.json", """
            { "model": "Recipes.xcdatamodeld", "output": "Recipes.sqlite", "sources": { "recipes": { "csv": "recipes.csv" } },
              "entities": { "Recipe": { "from": "recipes", "key": "name", "attributes": { "ingredientCount": "name" } } } }
            """)
        let build = try scratch.run(["build", "spec.json"])
        #expect(build.status == 1)
        #expect(build.stderr == "spec.json: error: entities.Recipe.attributes.ingredientCount: 'ingredientCount' is derived (\"ingredients.@count\"): the store computes it from the rows, so it takes no value from the sources; remove it from the spec\n")
    }

    @Test func anUnknownDerivationIsRefusedNotApproximated() throws {
        let scratch = try Self.prepare()
        let contents = scratch.path("Recipes.xcdatamodeld/Recipes.xcdatamodel/contents")
        let model = try String(contentsOfFile: contents, encoding: .utf8).replacingOccurrences(of: "ingredients.@count", with: "name.uppercase")
        try scratch.write("Recipes.xcdatamodeld/Recipes.xcdatamodel/contents", model)
        let build = try scratch.run(["build", "spec.json"])
        #expect(build.status == 1)
        #expect(build.stderr.contains("error: attribute 'Recipe.ingredientCount' is derived (\"name.uppercase\"): 'name' is not a relationship of 'Recipe'"), "\(build.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("Recipes.sqlite")))
    }
}

/// Uniqueness constraints are checked by CoreSeed before the rows reach SQLite: a repeat names both
/// records and the constraint, and `--max-errors` leaves the later record out (issue 13: a raw SQLite
/// error about a temporary file, with no location).
@Suite struct UniquenessConstraintTests {
    static func prepare() throws -> Scratch {
        let scratch = try Scratch()
        try scratch.writeModel("People", """
            <entity name="Person">
              <attribute name="id" attributeType="Integer 64"/>
              <attribute name="firstName" attributeType="String"/>
              <attribute name="lastName" attributeType="String"/>
              <uniquenessConstraints><uniquenessConstraint><constraint value="firstName"/><constraint value="lastName"/></uniquenessConstraint></uniquenessConstraints>
            </entity>
            """)
        try scratch.write("people.csv", "id,first,last\n1,Ada,Lovelace\n2,Ada,Byron\n3,Ada,Lovelace\n4,Grace,Hopper\n")
        try scratch.write("spec.json", """
            { "model": "People.xcdatamodeld", "output": "People.sqlite", "sources": { "people": { "csv": "people.csv" } },
              "entities": { "Person": { "from": "people", "key": "id", "attributes": { "firstName": "first", "lastName": "last" } } } }
            """)
        return scratch
    }

    static let message = "breaks the uniqueness constraint (firstName, lastName) of Person: the record at people.csv:2:1 has the same (Person.firstName, lastName)"

    @Test func aRepeatFailsTheBuildNamingBothRecords() throws {
        let scratch = try Self.prepare()
        let result = try scratch.run(["build", "spec.json"])
        #expect(result.status == 1)
        #expect(result.stderr == "people.csv:4:1: error: 'first+last' value \"Ada / Lovelace\" \(Self.message)\n")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("People.sqlite")))
    }

    @Test func withMaxErrorsTheLaterRecordIsLeftOutAndReported() throws {
        let scratch = try Self.prepare()
        let result = try scratch.run(["build", "spec.json", "--max-errors", "1", "--report", "report.json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("people.csv:4:1: warning: rejected: 'first+last' value \"Ada / Lovelace\" \(Self.message)\n"))
        #expect(try scratch.query("People.sqlite", "SELECT ZID FROM ZPERSON ORDER BY Z_PK") == [["1"], ["2"], ["4"]])
        let report = try String(contentsOfFile: scratch.path("report.json"), encoding: .utf8)
        #expect(report.contains("\"location\": \"people.csv:4:1\""))
        #expect(report.contains(Self.message.replacingOccurrences(of: "\"", with: "\\\"")))
        let verify = try scratch.run(["verify", "People.sqlite", "--model", "People.xcdatamodeld"])
        #expect(verify.status == 0, "\(verify.stderr)")
    }
}

/// Issue 13: `{"field": "Photo File", "file": true}` stores the bytes of the file the field names
/// (relative to the source file's folder), not the path's text; a missing file fails at its cell.
@Suite struct BinaryFromFilesTests {
    @Test func aBinaryAttributeTakesTheNamedFilesBytes() throws {
        let scratch = try Scratch()
        try scratch.writeModel("Photos", """
            <entity name="Photo"><attribute name="name" attributeType="String"/>
              <attribute name="image" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
              <attribute name="thumb" optional="YES" attributeType="Binary"/></entity>
            """)
        try scratch.write("data/img/a.png", "PNG-one")
        try scratch.write("data/img/a-t.png", "thumb")
        try scratch.write("data/photos.csv", "name,Photo File,Thumb File\nA,img/a.png,img/a-t.png\nB,,\n")
        try scratch.write("spec.json", """
            { "model": "Photos.xcdatamodeld", "output": "Photos.sqlite", "sources": { "p": { "csv": "data/photos.csv" } },
              "entities": { "Photo": { "from": "p", "key": "name", "attributes": {
                "image": { "field": "Photo File", "file": true }, "thumb": { "field": "Thumb File", "file": true } } } } }
            """)
        let result = try scratch.run(["build", "spec.json", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        // The external-storage attribute gets Core Data's inline marker 0x01 before the bytes.
        #expect(try scratch.query("Photos.sqlite", "SELECT ZNAME, ZIMAGE, ZTHUMB FROM ZPHOTO ORDER BY Z_PK")
                == [["A", "x'01" + "PNG-one".utf8.map { String(format: "%02x", $0) }.joined() + "'", "x'" + "thumb".utf8.map { String(format: "%02x", $0) }.joined() + "'"],
                    ["B", "NULL", "NULL"]])
        #expect(try scratch.run(["verify", "Photos.sqlite", "--model", "Photos.xcdatamodeld"]).status == 0)
        try scratch.write("data/photos.csv", "name,Photo File,Thumb File\nA,img/none.png,\n")
        let missing = try scratch.run(["build", "spec.json"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "data/photos.csv:2:3: error: 'Photo File' value \"img/none.png\" names a file that does not exist (data/img/none.png) (Photo.image)\n")
    }
}

/// Issue 13: `verify` checks values, not only layout — each in the form Core Data reads, naming the
/// column and the rows.
@Suite struct VerifyValueTests {
    @Test func valuesCoreDataWouldMisreadAreNamedByColumnAndRow() throws {
        let scratch = try Scratch()
        try scratch.writeModel("Kinds", """
            <entity name="Thing"><attribute name="name" attributeType="String"/><attribute name="code" optional="YES" attributeType="UUID"/>
              <attribute name="when" optional="YES" attributeType="Date"/><attribute name="count" optional="YES" attributeType="Integer 32"/>
              <attribute name="tags" optional="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromData"/></entity>
            """)
        try scratch.write("things.csv", "name,code,when,count\na,6B29FC40-CA47-1067-B31D-00DD010662DA,2001-02-03T00:00:00Z,1\nb,,,2\nc,,,3\n")
        try scratch.write("spec.json", """
            { "model": "Kinds.xcdatamodeld", "output": "Kinds.sqlite", "sources": { "t": { "csv": "things.csv" } },
              "entities": { "Thing": { "from": "t", "key": "name" } } }
            """)
        #expect(try scratch.run(["build", "spec.json", "--quiet"]).status == 0)
        #expect(try scratch.run(["verify", "Kinds.sqlite", "--model", "Kinds.xcdatamodeld"]).status == 0)
        let database = try SQLiteDatabase(path: scratch.path("Kinds.sqlite"), mode: .readWrite)
        try database.execute("""
            UPDATE ZTHING SET ZCODE = '6B29FC40-CA47-1067-B31D-00DD010662DA' WHERE Z_PK = 1;
            UPDATE ZTHING SET ZWHEN = '2001-02-03', ZCOUNT = 'three', ZTAGS = X'62706C6973743030' WHERE Z_PK = 3
            """)
        let result = try scratch.run(["verify", "Kinds.sqlite", "--model", "Kinds.xcdatamodeld"])
        #expect(result.status == 1)
        #expect(result.stderr.split(separator: "\n").sorted() == [
            "Kinds.sqlite: error: ZTHING.ZCODE: 1 value(s) that are not 16-byte BLOBs (Z_PK 1): Thing.code is a UUID",
            "Kinds.sqlite: error: ZTHING.ZCOUNT: 1 value(s) that are not integers (Z_PK 3): Thing.count is an Integer 32",
            "Kinds.sqlite: error: ZTHING.ZTAGS: 1 value(s) that are not NSKeyedArchiver archives (Z_PK 3): Thing.tags is a Transformable read with NSSecureUnarchiveFromData",
            "Kinds.sqlite: error: ZTHING.ZWHEN: 1 value(s) that are not numbers (seconds since 2001-01-01) (Z_PK 3): Thing.when is a Date",
        ], "\(result.stderr)")
    }
}
