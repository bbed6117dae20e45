import Foundation
import Testing
@testable import CoreSeed

/// The rows of a store an upsert updates (`ExistingRows.swift`), loaded from a store the library
/// built (no binary): their keys matched to records, `Z_MAX`, and the damaged stores it refuses.
@Suite struct ExistingRowsTests {
    /// The library's store built from `folder`, and the plan of an update of it.
    static func built(_ folder: SeedBuildTests.Folder) throws -> BuildPlan {
        _ = try SeedBuild.run(specPath: folder.path("spec.json"))
        return try SeedBuildTests.plan(folder, updatesAStore: true)
    }

    static func load(_ folder: SeedBuildTests.Folder, _ plan: BuildPlan, change sql: String? = nil) throws -> ExistingRows {
        let store = try SQLiteDatabase(path: folder.path("Library.sqlite"), mode: .readWrite)
        if let sql { try store.execute(sql) }
        return try ExistingRows.load(store, plan: plan, storePath: "Library.sqlite")
    }

    /// Each stored row is found by its key; records are then matched to it by the key pass, and new
    /// ones numbered above the store's `Z_MAX`.
    @Test func storedRowsAreFoundByKeyAndMatched() throws {
        let folder = try SeedBuildTests.Folder()
        let plan = try Self.built(folder)
        let existing = try Self.load(folder, plan)
        let book = try #require(plan.seedPlan.entities.firstIndex { $0.name == "Book" })
        let shelf = try #require(plan.seedPlan.entities.firstIndex { $0.name == "Shelf" })
        let stored = try folder.rows("SELECT ZISBN, Z_PK FROM ZBOOK ORDER BY ZISBN").map { row -> (Int64, Int64) in
            guard case .integer(let isbn) = row[0], case .integer(let key) = row[1] else { return (0, 0) }
            return (isbn, key)
        }
        #expect(stored.count == 3)
        for (isbn, key) in stored { #expect(existing.keys[book][LinkKey(integer: isbn)] == key) }
        #expect(existing.keys[shelf].count == 2 && existing.keys[shelf][LinkKey("B")] != nil)
        #expect(existing.maxPrimaryKeys == ["Book": 3, "Shelf": 2])

        try folder.write("books.csv", "isbn,title,shelf\n2,Beta again,B\n4,Delta,B\n")
        var keys = KeyPass(plan: plan, existing: existing, insertOnly: false)
        try keys.readKeys(progress: nil)
        try keys.numberAndLink()
        let matched = stored.first { $0.0 == 2 }!.1
        #expect(keys.numbers[book].matched == [matched, 0])
        #expect(keys.numbers[book].primaryKeys == [matched, 4])
    }

    /// Two stored rows with one key: which one to update would be a guess, so the update is refused.
    @Test func twoStoredRowsWithOneKeyAreRefused() throws {
        let folder = try SeedBuildTests.Folder()
        let plan = try Self.built(folder)
        #expect(throws: FileError(path: "Library.sqlite", message: "entities.Book: rows Z_PK 1 and 2 of ZBOOK share the key '1', so records cannot be matched to one row; the key ('isbn') must be unique in the store: remove the duplicate rows or key the entity by a unique field")) {
            _ = try Self.load(folder, plan, change: "UPDATE ZBOOK SET ZISBN = 1 WHERE Z_PK = 2")
        }
    }

    /// A `Z_OPT` an update's + 1 cannot count from, or a `Z_MAX` that is not an integer: the store is damaged.
    @Test(arguments: [
        ("UPDATE ZBOOK SET Z_OPT = 'x' WHERE Z_PK = 1", "ZBOOK: Z_OPT of Book Z_PK 1 is 'x', not an integer: the store is damaged; restore it from a backup"),
        ("UPDATE ZBOOK SET Z_OPT = 9223372036854775807 WHERE Z_PK = 3", "ZBOOK: Z_OPT of Book Z_PK 3 is 9223372036854775807, which leaves no room for an update's + 1: the store is damaged; restore it from a backup"),
        ("UPDATE Z_PRIMARYKEY SET Z_MAX = 'many' WHERE Z_NAME = 'Shelf'", "Z_PRIMARYKEY: Z_MAX of Shelf is 'many', not an integer: the store is damaged; restore it from a backup"),
    ])
    func aDamagedStoreIsRefused(change: String, message: String) throws {
        let folder = try SeedBuildTests.Folder()
        let plan = try Self.built(folder)
        #expect(throws: FileError(path: "Library.sqlite", message: message)) { _ = try Self.load(folder, plan, change: change) }
    }
}
