import Foundation
import Testing
@testable import CoreSeed

/// Relationship resolution (`KeyPass+Links.swift`) through the key pass alone: the library's
/// Book n–1 Shelf sources read, rows numbered and linked, then the `EntityNumbers` the row pass
/// would write, inspected without a store or a binary.
@Suite struct KeyPassLinksTests {
    /// The key pass of `folder`'s spec, run to the end (keys, numbers, links, rules).
    static func keyPass(_ folder: SeedBuildTests.Folder, maxErrors: Int = 0) throws -> KeyPass {
        var options = SeedBuild.Options()
        options.maxErrors = maxErrors
        var keys = KeyPass(plan: try SeedBuildTests.plan(folder, options), existing: nil, insertOnly: false)
        try keys.readKeys(progress: nil)
        try keys.leaveOutUnresolved()
        try keys.leaveOutOrphans()
        try keys.numberAndLink()
        return keys
    }

    static func index(_ keys: KeyPass, _ name: String) throws -> Int {
        try #require(keys.seedPlan.entities.firstIndex { $0.name == name })
    }

    /// Each book's `shelf` key names its shelf's row: the to-one column holds that row's Z_PK.
    @Test func aKeyNamesTheDestinationsRow() throws {
        let folder = try SeedBuildTests.Folder()
        let keys = try Self.keyPass(folder)
        let book = try Self.index(keys, "Book"), shelf = try Self.index(keys, "Shelf")
        let slot = try #require(keys.seedPlan.entities[book].toOneSlots.firstIndex(of: "shelf"))
        let numbers = keys.numbers
        #expect(numbers[book].primaryKeys == [1, 2, 3] && numbers[shelf].primaryKeys == [1, 2])
        #expect(numbers[book].toOneKeys[slot] == [1, 1, 2])
        #expect(numbers[book].unresolved.isEmpty && keys.droppedLinks.isEmpty)
        #expect(try keys.lookup([shelf], LinkKey("B"))?.primaryKey == 2)
        #expect(try keys.lookup([shelf], LinkKey("Z")) == nil)
    }

    /// A key no shelf has. Under `onUnresolved: error` it waits, with the link and the key's position,
    /// for the row pass to report it at the record; under `--max-errors` the record is left out, as
    /// one with a bad value is, and rejected at its line; under `null` the link is dropped and counted.
    @Test(arguments: [("error", 0), ("error", 5), ("null", 0)])
    func anUnresolvedKeyFollowsItsPolicy(policy: String, maxErrors: Int) throws {
        let folder = try SeedBuildTests.Folder(books: "isbn,title,shelf\n1,Alpha,A\n2,Beta,Z\n")
        try folder.write("spec.json", """
            { "model": "Library.xcdatamodeld", "output": "Library.sqlite",
              "sources": { "books": { "csv": "books.csv" }, "shelves": { "csv": "shelves.csv" } },
              "entities": {
                "Book": { "from": "books", "key": "isbn", "relationships": { "shelf": { "key": "shelf", "onUnresolved": "\(policy)" } } },
                "Shelf": { "from": "shelves", "key": "code" } } }
            """)
        let keys = try Self.keyPass(folder, maxErrors: maxErrors)
        let book = try Self.index(keys, "Book")
        let slot = try #require(keys.seedPlan.entities[book].toOneSlots.firstIndex(of: "shelf"))
        let numbers = keys.numbers[book]
        #expect(numbers.toOneKeys[slot] == [1, 0])
        let waiting = numbers.unresolved.mapValues { $0.map { "\($0.link):\($0.position)" } }
        switch (policy, maxErrors) {
        case ("error", 0):
            #expect(waiting == [1: ["0:0"]] && numbers.primaryKeys == [1, 2] && keys.droppedLinks.isEmpty)
        case ("error", _):
            #expect(waiting.isEmpty && numbers.primaryKeys == [1, 0])
            #expect(keys.rejections.errors.map { "\($0.location.line ?? 0) \($0.field)" } == ["3 shelf"])
        default:
            #expect(waiting.isEmpty && numbers.primaryKeys == [1, 2] && keys.rejections.errors.isEmpty)
            #expect(keys.droppedLinks == ["Book.shelf": 1])
        }
    }

    /// Rows of a destination and its sub-entity that share a key: the link is ambiguous unless
    /// `prefer` names one of them.
    @Test func aKeyOfTwoSubEntitiesIsAmbiguousUnlessPreferred() throws {
        let folder = try SeedBuildTests.Folder(books: "isbn,title,shelf\n1,Alpha,A\n")
        // The library's model with a sub-entity of Shelf: its rows are Shelf rows too.
        let model = "Library.xcdatamodeld/Library.xcdatamodel/contents"
        try folder.write(model, try String(contentsOfFile: folder.path(model), encoding: .utf8)
            .replacingOccurrences(of: "</model>", with: "  <entity name=\"TallShelf\" parentEntity=\"Shelf\"/>\n</model>"))
        try folder.write("tall.csv", "code\nA\n")
        for prefer in [nil, "TallShelf"] {
            let preferKey = prefer.map { ", \"prefer\": \"\($0)\"" } ?? ""
            try folder.write("spec.json", """
                { "model": "Library.xcdatamodeld", "output": "Library.sqlite",
                  "sources": { "books": { "csv": "books.csv" }, "shelves": { "csv": "shelves.csv" }, "tall": { "csv": "tall.csv" } },
                  "entities": {
                    "Book": { "from": "books", "key": "isbn", "relationships": { "shelf": { "key": "shelf"\(preferKey) } } },
                    "Shelf": { "from": "shelves", "key": "code" }, "TallShelf": { "from": "tall", "key": "code" } } }
                """)
            guard prefer != nil else {
                let error = try #require(throws: FileError.self) { _ = try Self.keyPass(folder) }
                #expect(error.message.hasPrefix("entities.Book.relationships.shelf: "), "\(error.message)")
                #expect(error.message.contains("give \"prefer\""), "\(error.message)")
                continue
            }
            let keys = try Self.keyPass(folder)
            let book = try Self.index(keys, "Book"), tall = try Self.index(keys, "TallShelf")
            let slot = try #require(keys.seedPlan.entities[book].toOneSlots.firstIndex(of: "shelf"))
            // Shelf A is row 1, TallShelf A row 3 (one hierarchy, numbered A, B, then the tall one).
            #expect(keys.numbers[book].toOneKeys[slot] == [keys.numbers[tall].primaryKeys[0]])
            #expect(keys.numbers[book].toOneEntities[slot] == [Int32(keys.seedPlan.entities[tall].number)])
        }
    }
}
