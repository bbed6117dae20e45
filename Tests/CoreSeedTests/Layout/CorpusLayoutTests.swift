import Foundation
import Testing
@testable import CoreSeed
import CoreSeedTestSupport

/// Golden tests: the layout derived from each corpus model equals what Core Data wrote in its store.
///
/// A fresh store must match statement for statement. A store the app migrated in place keeps SQL
/// history (quoted renamed tables, `ADD COLUMN` text, stale indexes, §4b.8), so there the test compares
/// what Core Data addresses at run time: tables, their columns and types, join tables, entity numbers.
@Suite(.needsCorpus) struct CorpusLayoutTests {
    @Test func corpusIsPresent() {
        #expect(CorpusStore.withXMLModel.count >= 29, "expected the corpus at \(TestPaths.corpus.path)")
        #expect(CorpusStore.withXMLModel.contains { $0.migrated })
    }

    @Test(arguments: CorpusStore.withXMLModel.filter { !$0.migrated })
    func schemaEqualsTheStore(_ entry: CorpusStore) throws {
        let model = try entry.loadModel()
        let layout = try StoreLayout(model: model, framework: FrameworkVersion(entry.frameworkVersion))
        let (db, directory) = try entry.openCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stored = try db.rows("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL").compactMap { row -> String? in
            if case .text(let sql) = row[0] { return sql }
            return nil
        }
        let ours = layout.statements
        #expect(Set(ours).count == ours.count, "duplicate statements")
        let missing = Set(stored).subtracting(ours).sorted()
        let extra = Set(ours).subtracting(stored).sorted()
        #expect(missing.isEmpty, "in the store but not derived: \(missing)")
        #expect(extra.isEmpty, "derived but not in the store: \(extra)")
    }

    /// Every table, with its column names and declared types, as the store holds it.
    static func storedTables(_ db: SQLiteDatabase) throws -> [String: [String: String]] {
        var tables: [String: [String: String]] = [:]
        let names = try db.rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        for row in names {
            guard case .text(let name) = row[0] else { continue }
            let statement = try db.prepare("SELECT name, type FROM pragma_table_info(?1)")
            try statement.bind([.text(name)])
            var columns: [String: String] = [:]
            while try statement.step() {
                if case .text(let column) = statement.value(at: 0), case .text(let type) = statement.value(at: 1) {
                    columns[column] = type
                }
            }
            tables[name] = columns
        }
        return tables
    }

    @Test(arguments: CorpusStore.withXMLModel.filter(\.migrated))
    func migratedStoreHasTheTablesAndColumnsCoreDataAddresses(_ entry: CorpusStore) throws {
        let layout = try StoreLayout(model: try entry.loadModel(), framework: FrameworkVersion(entry.frameworkVersion))
        let (db, directory) = try entry.openCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        var expected: [String: [String: String]] = [:]
        for table in layout.tables {
            expected[table.name] = Dictionary(uniqueKeysWithValues: table.columns.map {
                ($0.name, $0.sqlType.replacingOccurrences(of: " PRIMARY KEY", with: ""))
            })
        }
        for join in layout.joinTables {
            let columns = [join.firstColumn, join.secondColumn] + join.orderColumns.map(\.name)
            expected[join.name] = Dictionary(uniqueKeysWithValues: columns.map { ($0, "INTEGER") })
        }
        var stored = try Self.storedTables(db)
        for fixed in [CoreDataSchema.primaryKeyTable, CoreDataSchema.metadataTable, CoreDataSchema.modelCacheTable,
                      "ACHANGE", "ATRANSACTION", "ATRANSACTIONSTRING"] {
            stored[fixed] = nil
        }
        #expect(Set(stored.keys) == Set(expected.keys))
        for (name, columns) in expected.sorted(by: { $0.key < $1.key }) {
            #expect(stored[name] == columns, "table \(name)")
        }
    }

    /// Entity numbers and supers equal the store's; a name may be the entity's renaming identifier in a
    /// store migrated in place (§4b.8: `coredataplus-2018-samplemodel-v2` keeps `ExpensiveSportCar`).
    @Test(arguments: CorpusStore.withXMLModel)
    func primaryKeyTableEqualsTheStore(_ entry: CorpusStore) throws {
        let model = try entry.loadModel()
        let layout = try StoreLayout(model: model, framework: FrameworkVersion(entry.frameworkVersion))
        let (db, directory) = try entry.openCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let rows = try db.rows("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY WHERE Z_ENT < 16000 ORDER BY Z_ENT")
        let expected: [[SQLiteValue]] = layout.entities.map { info in
            var name = info.name
            if entry.migrated, let renamed = model.entities.first(where: { $0.name == info.name })?.renamingIdentifier,
               rows.contains(where: { $0[1] == .text(renamed) && $0[0] == .integer(Int64(info.number)) }) {
                name = renamed
            }
            return [.integer(Int64(info.number)), .text(name), .integer(Int64(info.superNumber))]
        }
        #expect(rows == expected)
    }
}
