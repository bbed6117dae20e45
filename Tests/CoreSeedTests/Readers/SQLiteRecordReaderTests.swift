import Foundation
import Testing
@testable import CoreSeed
import CoreSeedTestSupport

@Suite struct SQLiteRecordReaderTests {
    static let banklist = TestPaths.inputs.appendingPathComponent("fdic-2011/banklist.sqlite3").path

    @Test func banklistQueryKeepsIntegers() throws {
        let reader = try SQLiteRecordReader(path: Self.banklist, selection: .query("SELECT * FROM failed_banks"))
        #expect(reader.fieldNames == ["id", "name", "city", "state", "zip", "close_date", "updated_date"])
        let records = try reader.all()
        #expect(records.count == 233)
        #expect(records[0].values[0] == .integer(1))
        #expect(records[0].values[4] == .integer(57060))
        #expect(records[0].values[1] == .text("Desert Hills Bank"))
        #expect(records[0].location.description == "\(Self.banklist):query:1")  // a query row is located by its ordinal (issue 14)
    }

    @Test func tableSourceHasRowidLocationsAndHidesTheRowid() throws {
        let reader = try SQLiteRecordReader(path: Self.banklist, selection: .table("failed_banks"))
        #expect(reader.fieldNames.first == "id")
        #expect(!reader.fieldNames.contains("rowid"))
        let records = try reader.all()
        #expect(records.count == 233)
        #expect(records[1].location.description == "\(Self.banklist):failed_banks:2")
    }

    @Test func storageClassesAreKept() throws {
        let scratch = try Scratch()
        let path = scratch.directory.appendingPathComponent("v.sqlite").path
        do {
            let db = try SQLiteDatabase(path: path, mode: .readWriteCreate)
            try db.execute("CREATE TABLE \"odd name\" (a, b, c, d, e); INSERT INTO \"odd name\" VALUES (1, 2.5, 'x', x'00ff', NULL)")
        }
        let records = try SQLiteRecordReader(path: path, selection: .table("odd name")).all()
        #expect(records.map(\.values) == [[.integer(1), .real(2.5), .text("x"), .blob([0, 255]), .null]])
        #expect(records[0].location.rowid == 1)
    }

    /// The build's in-place view of a row shows what `next()` gives: integers, reals, valid UTF-8 text
    /// as bytes and NULL as themselves; a blob and text that is not UTF-8 are left to the record.
    @Test func fieldViewsEqualTheRecords() throws {
        let scratch = try Scratch()
        let path = scratch.directory.appendingPathComponent("v.sqlite").path
        do {
            let db = try SQLiteDatabase(path: path, mode: .readWriteCreate)
            try db.execute("""
                CREATE TABLE t (a, b, c, d, e, f);
                INSERT INTO t VALUES (1, 2.5, 'Zürich', x'00ff', NULL, CAST(x'41e9' AS TEXT));
                INSERT INTO t VALUES (-7, 0.0, '', 'plain', 42, 'x');
                """)
        }
        let expected = try SQLiteRecordReader(path: path, selection: .table("t")).all()
        let reader = try SQLiteRecordReader(path: path, selection: .table("t"))
        #expect(reader.readsRaw)
        for record in expected {
            #expect(try reader.nextRaw())
            #expect(reader.currentRecord() == record)
            for (index, value) in record.values.enumerated() {
                switch (reader.fieldView(index), value) {
                case (.null, .null): break
                case (.integer(let a), .integer(let b)): #expect(a == b)
                case (.real(let a), .real(let b)): #expect(a == b)
                case (.text(let bytes), .text(let text)): #expect(Array(bytes) == Array(text.utf8))
                case (.other, .blob): break
                case (.other, .text(let text)): #expect(text.contains("\u{FFFD}"), "only invalid UTF-8 is left out")
                case (let view, _): Issue.record("field \(index): \(view) for \(value)")
                }
            }
        }
        #expect(try !reader.nextRaw())
        #expect(!reader.readsRaw)
    }

    @Test func walContentIsReadAndTheFilesAreNotTouched() throws {
        let scratch = try Scratch()
        let path = scratch.directory.appendingPathComponent("w.sqlite").path
        let writer = try SQLiteDatabase(path: path, mode: .readWriteCreate)
        try writer.execute("PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0; CREATE TABLE t (v); INSERT INTO t VALUES ('in the wal')")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let walBefore = try Data(contentsOf: URL(fileURLWithPath: path + "-wal"))
        let records = try SQLiteRecordReader(path: path, selection: .table("t")).all()
        #expect(records.map(\.values) == [[.text("in the wal")]])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + "-wal")) == walBefore)
        _ = writer
    }

    /// Issue 24, item 12: a view over an endless `WITH RECURSIVE`. One that never gives a row is
    /// stopped by the step limit; one that counts up forever by the default row limit, whose message
    /// is checked here (reading 10M rows takes a minute in a debug build; SourceLimitTests runs the
    /// build against a given "maxRows").
    @Test func anEndlessViewIsStoppedByItsLimits() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coreseed-endless-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("legacy.db").path
        try SQLiteDatabase(path: path, mode: .readWriteCreate).execute("""
            CREATE VIEW stuck AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT i FROM n WHERE i < 0
            """)
        let reader = try SQLiteRecordReader(path: path, selection: .table("stuck"), stepLimit: .milliseconds(300))
        let started = ContinuousClock.now
        let error = readerError { _ = try reader.next() }
        #expect(ContinuousClock.now - started < .seconds(20))
        #expect(error?.diagnosticLines == ["\(path):stuck: error: SQLite error: ran longer than 0.3 s, the time limit of one step"])

        #expect(SQLiteRecordReader.defaultMaxRows == 10_000_000)
        let counted = try SQLiteRecordReader(path: path, selection: .query("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT i FROM n LIMIT 20000")).all()
        #expect(counted.count == 20000, "a query under the limit is read whole")
        let endless = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT i FROM n"
        let limited = try SQLiteRecordReader(path: path, selection: .query(endless), maxRows: 100)
        var rows = 0
        let tooMany = readerError { while try limited.next() != nil { rows += 1 } }
        #expect(rows == 100)
        #expect(tooMany?.diagnosticLines == ["\(path):query:101: error: the view or query gave more than 100 rows, its \"maxRows\" (an endless recursive query?)",
                                             "note: if the rows are meant, raise the limit with \"maxRows\": 1000 in this source of the spec"])
        let byDefault = ReaderError(.tooManyRows(limit: SQLiteRecordReader.defaultMaxRows, given: false), at: SourceLocation(file: "legacy.db", table: "query", rowid: 10_000_001))
        #expect(byDefault.diagnosticLines == ["legacy.db:query:10000001: error: the view or query gave more than 10000000 rows, the limit for a view or query (an endless recursive query?)",
                                              "note: if the rows are meant, raise the limit with \"maxRows\": 100000000 in this source of the spec"])
    }

    @Test func unknownTableListsTheTables() {
        let error = readerError { _ = try SQLiteRecordReader(path: Self.banklist, selection: .table("banks")) }
        #expect(error?.diagnosticLines == ["\(Self.banklist): error: no table or view named 'banks'",
                                           "note: tables: failed_banks, sqlite_sequence"])
    }

    @Test func badSQLNamesTheFile() {
        let error = readerError { _ = try SQLiteRecordReader(path: Self.banklist, selection: .query("SELEC 1")) }
        #expect(error?.diagnosticLines == ["\(Self.banklist):query: error: SQLite error: near \"SELEC\": syntax error"])
    }

    @Test func writingQueryIsRefused() {
        let error = readerError { _ = try SQLiteRecordReader(path: Self.banklist, selection: .query("DELETE FROM failed_banks")) }
        #expect(error?.diagnosticLines == ["\(Self.banklist):query: error: the query would modify the database",
                                           "note: a source query must only read, e.g. SELECT * FROM t"])
    }

    @Test func notADatabaseAndCorrupt() throws {
        let csv = TestPaths.inputs.appendingPathComponent("fdic-2011/banklist.csv").path
        let error = readerError { _ = try SQLiteRecordReader(path: csv, selection: .table("t")) }
        #expect(error?.diagnosticLines == ["\(csv): error: not a SQLite database (file is not a database)"])
        #expect(error?.kind == .invalid)  // exit 1

        let scratch = try Scratch()
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.banklist)))
        for i in 4096..<min(bytes.count, 12288) { bytes[i] = 0x5A }
        let broken = try scratch.file("broken.sqlite", bytes)
        let corrupt = readerError {
            let reader = try SQLiteRecordReader(path: broken, selection: .table("failed_banks"))
            _ = try reader.all()
        }
        #expect(corrupt?.message.hasPrefix("the database is corrupt") == true)
    }

    @Test func missingFileExits66() {
        let error = readerError { _ = try SQLiteRecordReader(path: "/nonexistent/x.sqlite", selection: .table("t")) }
        #expect(error?.diagnosticLines == ["/nonexistent/x.sqlite: error: no such file"])
        #expect(error?.kind == .unreadableInput)  // exit 66
    }
}

/// A query source runs exactly one statement, and its rows are located by their ordinal (issues 14, 16:
/// only the first statement ran, silently; an empty query said "not an error"; rows had no number).
@Suite struct SQLiteQuerySourceTests {
    static func database() throws -> (URL, String) {
        let directory = try TestPaths.temporaryDirectory()
        let path = directory.appendingPathComponent("legacy.sqlite3").path
        let database = try SQLiteDatabase(path: path, mode: .readWriteCreate)
        try database.execute("CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (10), (20)")
        return (directory, path)
    }

    @Test(arguments: [
        ("SELECT a FROM t; DELETE FROM t", "the query holds more than one statement; only the first would run (then: DELETE FROM t)"),
        ("SELECT a FROM t; SELECT 2", "the query holds more than one statement; only the first would run (then: SELECT 2)"),
        ("", "the query is empty"),
        (" -- nothing\n", "the query is empty"),
    ])
    func aQueryThatIsNotOneStatementIsRefused(_ sql: String, _ message: String) throws {
        let (directory, path) = try Self.database()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect {
            _ = try SQLiteRecordReader(path: path, selection: .query(sql))
        } throws: { error in
            (error as? ReaderError)?.message == message
        }
    }

    @Test func trailingSemicolonsAndCommentsAreFineAndRowsAreNumbered() throws {
        let (directory, path) = try Self.database()
        defer { try? FileManager.default.removeItem(at: directory) }
        let reader = try SQLiteRecordReader(path: path, selection: .query("SELECT a FROM t ORDER BY a; -- done\n"))
        #expect(try reader.next()?.location.description == "\(path):query:1")
        #expect(try reader.next()?.location.description == "\(path):query:2")
        #expect(try reader.next() == nil)
    }
}
