import Foundation
import Testing
@testable import CoreSeed
import CoreSeedTestSupport

/// Builds driven through the library's API (`SeedBuild.run`), not the binary: the plan each spec gets,
/// the rows it writes, what a failure carries.
@Suite struct SeedBuildTests {
    /// A scratch folder with a two-entity model (Shelf 1–n Book, ordered), a CSV per entity and a spec.
    final class Folder {
        let url: URL
        init(books: String = "isbn,title,shelf\n1,Alpha,A\n2,Beta,A\n3,Gamma,B\n") throws {
            url = try TestPaths.temporaryDirectory()
            try write("Library.xcdatamodeld/Library.xcdatamodel/contents", """
                <?xml version="1.0" encoding="UTF-8"?>
                <model userDefinedModelVersionIdentifier="">
                  <entity name="Book">
                    <attribute name="isbn" attributeType="Integer 64"/>
                    <attribute name="title" optional="YES" attributeType="String"/>
                    <relationship name="shelf" optional="YES" maxCount="1" destinationEntity="Shelf" inverseName="books" inverseEntity="Shelf"/>
                  </entity>
                  <entity name="Shelf">
                    <attribute name="code" attributeType="String"/>
                    <relationship name="books" optional="YES" toMany="YES" destinationEntity="Book" inverseName="shelf" inverseEntity="Book"/>
                  </entity>
                </model>
                """)
            try write("books.csv", books)
            try write("shelves.csv", "code\nA\nB\n")
            try write("spec.json", """
                { "model": "Library.xcdatamodeld", "output": "Library.sqlite",
                  "sources": { "books": { "csv": "books.csv" }, "shelves": { "csv": "shelves.csv" } },
                  "entities": {
                    "Book": { "from": "books", "key": "isbn", "relationships": { "shelf": { "key": "shelf" } } },
                    "Shelf": { "from": "shelves", "key": "code" } } }
                """)
        }
        deinit { try? FileManager.default.removeItem(at: url) }
        func path(_ name: String) -> String { url.appendingPathComponent(name).path }
        func write(_ name: String, _ text: String) throws {
            let file = url.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        func rows(_ sql: String) throws -> [[SQLiteValue]] {
            try SQLiteDatabase(path: path("Library.sqlite"), mode: .readOnly(immutable: true)).rows(sql)
        }
    }

    static func plan(_ folder: Folder, _ options: SeedBuild.Options = .init(), updatesAStore: Bool = false) throws -> BuildPlan {
        let spec = try SeedSpec.load(path: folder.path("spec.json"))
        let model = try ModelVersions.load(path: spec.resolve(spec.model)).version(named: nil)
        let seedPlan = try SeedPlan(spec: spec, model: model, configuration: nil, framework: .newest)
        return BuildPlan(seedPlan: seedPlan, specPath: folder.path("spec.json"), options: options, updatesAStore: updatesAStore)
    }

    /// A link to another source's rows needs the key pass; a dry run, tolerated errors and upserts too.
    @Test func thePlanIsDecidedOnce() throws {
        let folder = try Folder()
        #expect(try Self.plan(folder).isNumberedAsRead == false)
        try folder.write("spec.json", """
            { "model": "Library.xcdatamodeld", "output": "Library.sqlite", "sources": { "books": { "csv": "books.csv" } },
              "entities": { "Book": { "from": "books", "key": "isbn" } } }
            """)
        #expect(try Self.plan(folder).isNumberedAsRead)
        var dryRun = SeedBuild.Options()
        dryRun.dryRun = true
        #expect(try Self.plan(folder, dryRun).isNumberedAsRead == false)
        var tolerant = SeedBuild.Options()
        tolerant.maxErrors = 3
        #expect(try Self.plan(folder, tolerant).isNumberedAsRead == false)
        #expect(try Self.plan(folder, updatesAStore: true).isNumberedAsRead == false)
    }

    @Test func aBuildWritesLinkedRowsAndReportsThem() throws {
        let folder = try Folder()
        let report = try SeedBuild.run(specPath: folder.path("spec.json"))
        #expect(report.entities.map(\.name) == ["Book", "Shelf"])
        #expect(report.entities.map(\.rows) == [3, 2])
        #expect(report.output == folder.path("Library.sqlite"))
        #expect(try folder.rows("SELECT Z_PK, ZISBN, ZTITLE, ZSHELF FROM ZBOOK ORDER BY Z_PK") == [
            [.integer(1), .integer(1), .text("Alpha"), .integer(1)],
            [.integer(2), .integer(2), .text("Beta"), .integer(1)],
            [.integer(3), .integer(3), .text("Gamma"), .integer(2)],
        ])
        #expect(try folder.rows("SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT") == [[.text("Book"), .integer(3)], [.text("Shelf"), .integer(2)]])
        let verify = try StoreVerifier(versions: try ModelVersions.load(path: folder.path("Library.xcdatamodeld")), standard: .freshStore)
            .verify(storeAt: folder.path("Library.sqlite"))
        #expect(verify.differences == [] && verify.warnings == [])
    }

    @Test func aDryRunWritesNothing() throws {
        let folder = try Folder()
        var options = SeedBuild.Options()
        options.dryRun = true
        let report = try SeedBuild.run(specPath: folder.path("spec.json"), options: options)
        #expect(report.output == nil)
        #expect(report.totalRows == 5)
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library.sqlite")))
    }

    /// A bad value fails the build with its location; tolerated, it is left out and reported.
    @Test func rejectedValuesAreCountedAgainstMaxErrors() throws {
        let folder = try Folder(books: "isbn,title,shelf\n1,Alpha,A\nx2,Beta,A\n3,Gamma,B\n")
        #expect(throws: BuildFailure.self) { try SeedBuild.run(specPath: folder.path("spec.json")) }
        #expect(!FileManager.default.fileExists(atPath: folder.path("Library.sqlite")))
        var options = SeedBuild.Options()
        options.maxErrors = 1
        let report = try SeedBuild.run(specPath: folder.path("spec.json"), options: options)
        #expect(report.entities.map(\.rows) == [2, 2])
        #expect(report.rejected.count == 1)
        #expect(report.rejected.first?.location.line == 3)
        #expect(report.rejected.first?.attribute == "isbn")
    }

    /// Values are checked on a thread of their own, ahead of the key pass, in batches of records: bad
    /// values on either side of batch boundaries are rejected in record order, and `--max-errors` stops
    /// at the same record, whichever thread got there first.
    @Test func valuesCheckedAheadKeepTheirOrderAcrossBatches() throws {
        let bad: Set<Int> = [0, ValueChecks.batchRecords - 1, ValueChecks.batchRecords, ValueChecks.batchRecords + 1, 9_999]
        var books = "isbn,title,shelf\n"
        for record in 0..<10_000 { books += (bad.contains(record) ? "x\(record)" : "\(record + 1)") + ",T\(record),A\n" }
        let folder = try Folder(books: books)
        let lines = bad.sorted().map { $0 + 2 }
        var options = SeedBuild.Options()
        options.maxErrors = bad.count
        let report = try SeedBuild.run(specPath: folder.path("spec.json"), options: options)
        #expect(report.rejected.map(\.location.line) == lines)
        #expect(report.entities.map(\.rows) == [10_000 - bad.count, 2])
        #expect(try folder.rows("SELECT COUNT(*) FROM ZBOOK WHERE ZSHELF IS NOT NULL") == [[.integer(Int64(10_000 - bad.count))]])
        options.maxErrors = bad.count - 1
        let failure = try #require(throws: BuildFailure.self) { try SeedBuild.run(specPath: folder.path("spec.json"), options: options) }
        let said = failure.diagnostics.map { "\($0.location ?? ""): \($0.message)" }.joined(separator: "\n")
        #expect(said.contains("books.csv:\(lines.last!):"), "the error names the record past the limit: \(said)")
    }

    /// The checks' thread reads the sources a second time: a file with fewer records by then (changed
    /// between the readings) is an error naming the file, not a record without its checks.
    @Test func valueChecksThatEndFirstNameTheFile() throws {
        let folder = try Folder()
        var options = SeedBuild.Options()
        options.maxErrors = 1
        let plan = try Self.plan(folder, options)
        let books = try #require(plan.groups.first { plan.seedPlan.entities[$0.entities[0]].name == "Book" })
        var checks = ValueChecks(plan: plan, group: books)
        defer { checks.stop() }
        #expect(try checks.failures(of: 2, in: folder.path("books.csv")).isEmpty)
        let error = try #require(throws: FileError.self) { try checks.failures(of: 3, in: folder.path("books.csv")) }
        #expect(error.path == folder.path("books.csv") && error.kind == .unreadableInput)
        #expect(error.message.contains("changed while it was read"))
    }

    /// After a key pass, SQLite numbers an entity's new rows itself (inserts without `Z_PK`) only when
    /// they arrive numbered 1, 2, 3, …: a new store, no `primaryKey`, no other seeded entity in its table.
    @Test func rowsAreNumberedByInsertionOnlyWhenTheyArriveInOrder() throws {
        let folder = try Folder()
        var tolerant = SeedBuild.Options()
        tolerant.maxErrors = 1
        let plan = try Self.plan(folder, tolerant)
        #expect(!plan.isNumberedAsRead)
        #expect(plan.seedPlan.entities.indices.allSatisfy { plan.numbersByInsertion($0, updatesAStore: false) })
        #expect(!plan.seedPlan.entities.indices.contains { plan.numbersByInsertion($0, updatesAStore: true) })
        try folder.write("spec.json", """
            { "model": "Library.xcdatamodeld", "output": "Library.sqlite", "sources": { "books": { "csv": "books.csv" } },
              "entities": { "Book": { "from": "books", "key": "isbn", "primaryKey": "isbn" } } }
            """)
        #expect(try !Self.plan(folder, tolerant).numbersByInsertion(0, updatesAStore: false))
        try folder.write("Library.xcdatamodeld/Library.xcdatamodel/contents", """
            <?xml version="1.0" encoding="UTF-8"?>
            <model userDefinedModelVersionIdentifier="">
              <entity name="Book" parentEntity="Item"/>
              <entity name="Item"><attribute name="code" attributeType="String"/></entity>
              <entity name="Map" parentEntity="Item"/>
            </model>
            """)
        try folder.write("spec.json", """
            { "model": "Library.xcdatamodeld", "output": "Library.sqlite",
              "sources": { "books": { "csv": "shelves.csv" }, "maps": { "csv": "shelves.csv" } },
              "entities": { "Book": { "from": "books", "key": "code" }, "Map": { "from": "maps", "key": "code" } } }
            """)
        let shared = try Self.plan(folder, tolerant)
        #expect(shared.seedPlan.entities.map(\.name) == ["Book", "Map"])
        #expect(!shared.numbersByInsertion(0, updatesAStore: false) && !shared.numbersByInsertion(1, updatesAStore: false))
        _ = try SeedBuild.run(specPath: folder.path("spec.json"), options: tolerant)
        #expect(try folder.rows("SELECT Z_PK, Z_ENT, ZCODE FROM ZITEM ORDER BY Z_PK").map { $0[2] } == [.text("A"), .text("B"), .text("A"), .text("B")])
    }

    /// The one-pass and the key-pass plans give the same store for the same input.
    @Test func bothNumberingsGiveTheSameStore() throws {
        let folder = try Folder()
        try folder.write("spec.json", """
            { "model": "Library.xcdatamodeld", "output": "Library.sqlite", "storeUUID": "00000000-0000-0000-0000-000000000001",
              "sources": { "books": { "csv": "books.csv" } }, "entities": { "Book": { "from": "books", "key": "isbn" } } }
            """)
        _ = try SeedBuild.run(specPath: folder.path("spec.json"))
        let onePass = try Data(contentsOf: URL(fileURLWithPath: folder.path("Library.sqlite")))
        var options = SeedBuild.Options()
        options.maxErrors = 5  // tolerating errors takes the key pass
        #expect(try Self.plan(folder, options).isNumberedAsRead == false)
        _ = try SeedBuild.run(specPath: folder.path("spec.json"), options: options)
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path("Library.sqlite"))) == onePass)
    }

    @Test func anUpsertThroughTheAPIUpdatesAndAdds() throws {
        let folder = try Folder()
        _ = try SeedBuild.run(specPath: folder.path("spec.json"))
        try folder.write("books.csv", "isbn,title,shelf\n2,Beta revised,B\n4,Delta,A\n")
        var options = SeedBuild.Options()
        options.mode = .upsert
        let report = try SeedBuild.run(specPath: folder.path("spec.json"), options: options)
        #expect(report.entities.first { $0.name == "Book" }.map { ($0.rows, $0.updated) } ?? (0, 0) == (1, 1))
        #expect(try folder.rows("SELECT Z_PK, Z_OPT, ZTITLE, ZSHELF FROM ZBOOK WHERE ZISBN IN (2, 4) ORDER BY Z_PK") == [
            [.integer(2), .integer(2), .text("Beta revised"), .integer(2)],
            [.integer(4), .integer(1), .text("Delta"), .integer(1)],
        ])
    }
}
