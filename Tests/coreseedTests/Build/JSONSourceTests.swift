import Foundation
import Testing
import CoreSeedTestSupport

/// Issue 14: JSON and JSON Lines sources, end to end: a JSON document and a JSON Lines file feed a
/// store, a to-many relationship from nested arrays (by key, as XML's repeated children do) and a
/// separate entity from the nested objects themselves (`../` reaching the enclosing record).
@Suite struct JSONSourceTests {
    static func prepare() throws -> Scratch {
        let scratch = try Scratch()
        try scratch.writeModel("Recipes", """
            <entity name="Recipe"><attribute name="name" attributeType="String"/><attribute name="prepTime" optional="YES" attributeType="Integer 32"/>
              <attribute name="city" optional="YES" attributeType="String"/>
              <relationship name="ingredients" optional="YES" toMany="YES" destinationEntity="Ingredient" inverseName="recipes" inverseEntity="Ingredient"/>
              <relationship name="steps" optional="YES" toMany="YES" destinationEntity="Step" inverseName="recipe" inverseEntity="Step"/></entity>
            <entity name="Ingredient"><attribute name="name" attributeType="String"/><attribute name="calories" optional="YES" attributeType="Double"/>
              <relationship name="recipes" optional="YES" toMany="YES" destinationEntity="Recipe" inverseName="ingredients" inverseEntity="Recipe"/></entity>
            <entity name="Step"><attribute name="text" attributeType="String"/><attribute name="number" attributeType="Integer 16"/>
              <relationship name="recipe" optional="YES" maxCount="1" destinationEntity="Recipe" inverseName="steps" inverseEntity="Recipe"/></entity>
            """)
        try scratch.write("recipes.json", """
            { "version": 2,
              "recipes": [
                { "name": "Soup", "prepTime": 10, "origin": { "city": "Lyon" }, "ingredients": [ { "name": "Salt" }, { "name": "Water" } ],
                  "steps": [ { "text": "boil" }, { "text": "salt" } ] },
                { "name": "Pancakes", "prepTime": 20, "origin": { "city": "Paris" }, "ingredients": [ { "name": "Flour" }, { "name": "Salt" } ],
                  "steps": [ { "text": "mix" } ] }
              ] }
            """)
        try scratch.write("ingredients.jsonl", "{\"name\": \"Salt\", \"calories\": 0}\n{\"name\": \"Water\", \"calories\": 0.0}\n\n{\"name\": \"Flour\", \"calories\": 364.5}\n")
        try scratch.write("spec.json", """
            { "model": "Recipes.xcdatamodeld", "output": "Recipes.sqlite",
              "sources": {
                "recipes": { "json": "recipes.json", "records": "/recipes/*",
                             "fields": { "name": "name", "prepTime": "prepTime", "city": "origin.city", "ingredients": "ingredients[].name" } },
                "steps": { "json": "recipes.json", "records": "/recipes/*/steps/*", "fields": { "text": "text", "number": "#", "recipe": "../name" } },
                "ingredients": { "jsonl": "ingredients.jsonl" } },
              "entities": {
                "Ingredient": { "from": "ingredients", "key": "name" },
                "Recipe": { "from": "recipes", "key": "name", "relationships": { "ingredients": { "key": "ingredients" } } },
                "Step": { "from": "steps", "relationships": { "recipe": { "key": "recipe" } } } } }
            """)
        return scratch
    }

    @Test func jsonAndJSONLinesFeedAStoreWithToManyFromNestedArrays() throws {
        let scratch = try Self.prepare()
        let result = try scratch.run(["build", "spec.json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("built Recipes.sqlite: 3 entities, 8 rows and 4 join rows"))
        #expect(try scratch.query("Recipes.sqlite", "SELECT ZNAME, ZPREPTIME, ZCITY FROM ZRECIPE ORDER BY Z_PK") == [["Soup", "10", "Lyon"], ["Pancakes", "20", "Paris"]])
        #expect(try scratch.query("Recipes.sqlite", "SELECT ZNAME, ZCALORIES FROM ZINGREDIENT ORDER BY Z_PK") == [["Salt", "0.0"], ["Water", "0.0"], ["Flour", "364.5"]])
        #expect(try scratch.query("Recipes.sqlite", """
            SELECT r.ZNAME, group_concat(i.ZNAME, ',') FROM ZRECIPE r JOIN Z_1RECIPES j ON j.Z_2RECIPES = r.Z_PK
            JOIN ZINGREDIENT i ON i.Z_PK = j.Z_1INGREDIENTS GROUP BY r.Z_PK ORDER BY r.Z_PK
            """).map { [$0[0], $0[1].split(separator: ",").sorted().joined(separator: ",")] } == [["Soup", "Salt,Water"], ["Pancakes", "Flour,Salt"]])
        #expect(try scratch.query("Recipes.sqlite", "SELECT s.ZTEXT, s.ZNUMBER, r.ZNAME FROM ZSTEP s JOIN ZRECIPE r ON s.ZRECIPE = r.Z_PK ORDER BY s.Z_PK")
                == [["boil", "1", "Soup"], ["salt", "2", "Soup"], ["mix", "1", "Pancakes"]])
        #expect(try scratch.run(["verify", "Recipes.sqlite", "--model", "Recipes.xcdatamodeld", "--strict"]).status == 0)
        let preview = try scratch.run(["preview", "spec.json", "steps"])
        #expect(preview.stdout.hasPrefix("{\"location\": \"recipes.json:4:18\", \"fields\": {\"number\": 1, \"recipe\": \"Soup\", \"text\": \"boil\"}}\n"), "\(preview.stdout)")
    }

    @Test func aBadValueIsLocatedAtItsLineAndColumn() throws {
        let scratch = try Self.prepare()
        try scratch.write("ingredients.jsonl", "{\"name\": \"Salt\", \"calories\": 0}\n{\"name\": \"Water\",\n \"calories\": \"lots\"}\n")
        let result = try scratch.run(["build", "spec.json"])
        #expect(result.status == 1)
        #expect(result.stderr == "ingredients.jsonl:3:14: error: 'calories' value \"lots\" is not a Double (Ingredient.calories)\n")
    }
}
