import Foundation
import Testing
import CoreSeedTestSupport

/// `--max-errors` leaves no orphans: a record whose to-one names a record rejected for its values is
/// left out too, in a cascade, each listed with the record it depended on (issue 14: orphans were
/// kept, and their follow-on errors said "matches no Recipe key").
@Suite struct MaxErrorsTests {
    static func prepare() throws -> Scratch {
        let scratch = try Scratch()
        try scratch.writeModel("Recipes", """
            <entity name="Recipe"><attribute name="name" attributeType="String"/><attribute name="prepTime" optional="YES" attributeType="Integer 32"/>
              <relationship name="ingredients" optional="YES" toMany="YES" destinationEntity="Ingredient" inverseName="recipe" inverseEntity="Ingredient"/></entity>
            <entity name="Ingredient"><attribute name="name" attributeType="String"/>
              <relationship name="recipe" optional="YES" maxCount="1" destinationEntity="Recipe" inverseName="ingredients" inverseEntity="Recipe"/>
              <relationship name="steps" optional="YES" toMany="YES" destinationEntity="Step" inverseName="ingredient" inverseEntity="Step"/></entity>
            <entity name="Step"><attribute name="text" attributeType="String"/>
              <relationship name="ingredient" optional="YES" maxCount="1" destinationEntity="Ingredient" inverseName="steps" inverseEntity="Ingredient"/></entity>
            """)
        try scratch.write("recipes.csv", "name,prepTime\nSoup,10\nPancakes,abc\n")
        try scratch.write("ingredients.csv", "name,recipe\nSalt,Soup\nFlour,Pancakes\nEgg,Pancakes\n")
        try scratch.write("steps.csv", "text,ingredient\nsift,Flour\nboil,Salt\n")
        try scratch.write("spec.json", """
            { "model": "Recipes.xcdatamodeld", "output": "Recipes.sqlite",
              "sources": { "r": { "csv": "recipes.csv" }, "i": { "csv": "ingredients.csv" }, "s": { "csv": "steps.csv" } },
              "entities": { "Recipe": { "from": "r", "key": "name" },
                            "Ingredient": { "from": "i", "key": "name", "relationships": { "recipe": { "key": "recipe" } } },
                            "Step": { "from": "s", "key": "text", "relationships": { "ingredient": { "key": "ingredient" } } } } }
            """)
        return scratch
    }

    @Test func aRejectedRecordTakesItsDependentsOut() throws {
        let scratch = try Self.prepare()
        let result = try scratch.run(["build", "spec.json", "--max-errors", "1", "--report", "report.json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == """
            recipes.csv:3:10: warning: rejected: 'prepTime' value "abc" is not an Integer 32 (Recipe.prepTime)
            ingredients.csv:3:7: warning: rejected: record left out because Recipe 'Pancakes' (recipes.csv:3:1) was rejected (its 'recipe' value "Pancakes") (Ingredient.recipe)
            ingredients.csv:4:5: warning: rejected: record left out because Recipe 'Pancakes' (recipes.csv:3:1) was rejected (its 'recipe' value "Pancakes") (Ingredient.recipe)
            steps.csv:2:6: warning: rejected: record left out because Ingredient 'Flour' (ingredients.csv:3:1) was rejected (its 'ingredient' value "Flour") (Step.ingredient)

            """)
        #expect(try scratch.query("Recipes.sqlite", "SELECT ZNAME FROM ZRECIPE") == [["Soup"]])
        #expect(try scratch.query("Recipes.sqlite", "SELECT ZNAME, ZRECIPE FROM ZINGREDIENT") == [["Salt", "1"]])
        #expect(try scratch.query("Recipes.sqlite", "SELECT ZTEXT, ZINGREDIENT FROM ZSTEP") == [["boil", "1"]])
        let report = try String(contentsOfFile: scratch.path("report.json"), encoding: .utf8)
        #expect(report.contains("record left out because Ingredient 'Flour' (ingredients.csv:3:1) was rejected"))
        #expect(try scratch.run(["verify", "Recipes.sqlite", "--model", "Recipes.xcdatamodeld", "--strict"]).status == 0)
    }

    /// `--max-errors all` has no limit; `--fail-on-rejects` lists every problem and writes nothing.
    @Test func allAndFailOnRejects() throws {
        let scratch = try Self.prepare()
        let failing = try scratch.run(["build", "spec.json", "--fail-on-rejects"])
        #expect(failing.status == 1)
        #expect(failing.stderr.split(separator: "\n").count == 4)
        #expect(failing.stderr.hasPrefix("recipes.csv:3:10: error: 'prepTime' value \"abc\" is not an Integer 32 (Recipe.prepTime)\n"))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("Recipes.sqlite")))
        let all = try scratch.run(["build", "spec.json", "--max-errors", "all", "--quiet"])
        #expect(all.status == 0, "\(all.stderr)")
        #expect(try scratch.query("Recipes.sqlite", "SELECT count(*) FROM ZINGREDIENT") == [["1"]])
    }
}
