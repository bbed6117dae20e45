import Foundation
import Testing
import CoreSeedTestSupport

/// A model's own problem is said where it is: the model file and the line of the entity or attribute,
/// with what to fix, not at the spec that names the model.
@Suite struct ModelErrorLocationTests {
    static let contents = "Library.xcdatamodeld/Library.xcdatamodel/contents"

    @Test func anIndexNamingNoPropertyIsAtItsEntitysLine() throws {
        let scratch = try Scratch()
        try scratch.writeModel("Library", """
            <entity name="Book" representedClassName="Book"><attribute name="title" optional="YES" attributeType="String"/><compoundIndexes><compoundIndex><index value="nope"/><index value="title"/></compoundIndex></compoundIndexes></entity>
            """)
        let result = try scratch.run(["schema", "Library.xcdatamodeld"])
        #expect(result.status == 1)
        #expect(result.stderr == "\(Self.contents):3: error: 'Book' names 'nope' in an index or constraint, but it has no such stored property: name a stored attribute or relationship of 'Book' (or of an entity it inherits from), or remove it\n")
    }

    /// A build: the bound is the model's (its attribute's line), the date pattern the spec's.
    @Test func aBadBoundIsTheModelsABadDatePatternTheSpecs() throws {
        let scratch = try Scratch()
        try scratch.writeModel("Library", """
            <entity name="Book" representedClassName="Book">
            <attribute name="title" optional="YES" attributeType="String" minValueString="x"/>
            <attribute name="added" optional="YES" attributeType="Date"/></entity>
            """)
        try scratch.write("books.csv", "title,added\nAlpha,2020-01-02\n")
        func spec(_ pattern: String) -> String {
            """
            { "model": "Library.xcdatamodeld", "output": "Library.sqlite", "sources": { "books": { "csv": "books.csv" } },
              "entities": { "Book": { "from": "books", "attributes": { "title": "title", "added": { "field": "added", "date": "\(pattern)" } } } } }
            """
        }
        try scratch.write("spec.json", spec("yyyy-MM-dd"))
        let bound = try scratch.run(["build", "spec.json"])
        #expect(bound.status == 1)
        #expect(bound.stderr == "\(Self.contents):4: error: minimum \"x\" of String attribute 'title' is not a length: fix it in the model\n")
        try scratch.writeModel("Library", """
            <entity name="Book" representedClassName="Book">
            <attribute name="title" optional="YES" attributeType="String"/>
            <attribute name="added" optional="YES" attributeType="Date"/></entity>
            """)
        try scratch.write("spec.json", spec("yyyy-QQ-dd"))
        let pattern = try scratch.run(["build", "spec.json"])
        #expect(pattern.status == 1)
        #expect(pattern.stderr.hasPrefix("spec.json: error: entities.Book.attributes.added: date pattern \"yyyy-QQ-dd\""), "\(pattern.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("Library.sqlite")))
    }
}
