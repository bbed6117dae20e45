import Foundation

/// Streams the rows of a SQLite table or query, values keeping their storage class.
///
/// The file is never modified: it is opened read-only and immutable; when a non-empty `-wal` or
/// `-journal` file sits beside it, the database and that file are copied into a private temporary
/// directory first and read there as committed (the WAL replayed, a hot journal rolled back), and
/// that copy is removed on deinit.
/// A table source also selects the rowid (hidden from `fieldNames`) for each record's location.
/// A view or query runs under two limits, so that an endless recursive one fails instead of filling
/// the disk: at most `maxRows` rows (default `defaultMaxRows`), and each step (one row) under the
/// step limit (`SQLiteDatabase.defaultStepLimit`, by the file's size). A table is read without either.
///
/// Not `Sendable`: it owns a SQLite connection and statement, used from one thread.
public final class SQLiteRecordReader: RecordReader {
    public let fieldNames: [String]
    /// The file as given, used in every location.
    public let path: String
    private let database: SQLiteDatabase
    private let statement: SQLiteStatement
    private let tableLabel: String
    private let hasRowID: Bool
    private let privateCopy: URL?
    private var failure: ReaderError?
    private var finished = false
    private var started = false
    /// Rows read so far: a query's row has no rowid, so its location is its 1-based ordinal.
    private var rowsRead: Int64 = 0
    /// The most rows a view or query may give; nil for a table (which cannot be endless).
    private let rowLimit: (count: Int64, given: Bool)?

    /// The most rows a view or query gives unless its source says `"maxRows"`.
    public static let defaultMaxRows = 10_000_000

    /// Opens `path` and prepares the selection; fails on a missing file, a non-database, an
    /// unknown table or SQL that does not compile. `maxRows`: the most rows a view or query may give
    /// (nil: `defaultMaxRows`); `stepLimit`: the longest one step may run (nil: by the file's size).
    public init(path: String, selection: SourceSpec.SQLiteSelection, maxRows: Int? = nil,
                stepLimit: Duration? = nil) throws(ReaderError) {
        self.path = path
        let fileLocation = SourceLocation(file: path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw ReaderError(.fileNotFound, at: fileLocation)
        }
        let copy = try Self.privateCopyIfWAL(path)
        privateCopy = copy
        do throws(SQLiteError) {
            if let copy {
                database = try SQLiteDatabase(path: copy.appendingPathComponent("db.sqlite").path, mode: .readWrite)
            } else {
                database = try SQLiteDatabase(path: path, mode: .readOnly(immutable: true))
            }
        } catch {
            Self.remove(copy)
            throw ReaderError(Self.reason(error), at: fileLocation)
        }
        let limit = (count: Int64(maxRows ?? Self.defaultMaxRows), given: maxRows != nil)
        do throws(ReaderError) {
            switch selection {
            case .table(let name):
                tableLabel = name
                let tableLocation = SourceLocation(file: path, table: name)
                let kinds: [SQLiteValue]
                do {
                    kinds = try database.rows("SELECT type FROM sqlite_schema WHERE name = ?1 AND type IN ('table', 'view')", [.text(name)]).map { $0[0] }
                } catch { throw ReaderError(Self.reason(error), at: fileLocation) }
                guard let kind = kinds.first else {
                    let known = (try? database.rows("SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') ORDER BY name"))?
                        .compactMap { row -> String? in if case .text(let n) = row[0] { return n } else { return nil } } ?? []
                    throw ReaderError(.noSuchTable(name, known: known), at: fileLocation)
                }
                let quoted = "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                let plain: SQLiteStatement
                do { plain = try database.prepare("SELECT * FROM \(quoted)") } catch {
                    throw ReaderError(Self.reason(error), at: tableLocation)
                }
                let columns = (0..<plain.columnCount).map { plain.columnName(at: $0) }
                let lowered = Set(columns.map { $0.lowercased() })
                // A view or a WITHOUT ROWID table has no rowid; a column may shadow the name "rowid".
                if kind == .text("table"), let alias = ["rowid", "_rowid_", "oid"].first(where: { !lowered.contains($0) }),
                   let withRowID = try? database.prepare("SELECT \(alias), * FROM \(quoted)") {
                    statement = withRowID
                    hasRowID = true
                } else {
                    statement = plain
                    hasRowID = false
                }
                fieldNames = columns
                rowLimit = kind == .text("view") ? limit : nil
            case .query(let sql):
                tableLabel = "query"
                let isBlank = { (text: String) in text.allSatisfy { $0.isWhitespace || $0 == ";" } }
                guard !isBlank(sql) else { throw ReaderError(.emptyQuery, at: SourceLocation(file: path, table: "query")) }
                do { statement = try database.prepare(sql) } catch {
                    if error.message == "the SQL text holds no statement" {
                        throw ReaderError(.emptyQuery, at: SourceLocation(file: path, table: "query"))
                    }
                    throw ReaderError(Self.reason(error), at: SourceLocation(file: path, table: "query"))
                }
                // Text after the first statement would be ignored: anything but space, `;` and comments is refused.
                let rest = statement.remainder.trimmingCharacters(in: .whitespacesAndNewlines)
                if !isBlank(rest) {
                    var onlyComments = false
                    do { _ = try database.prepare(rest) } catch { onlyComments = error.message == "the SQL text holds no statement" }
                    if !onlyComments {
                        throw ReaderError(.queryHasSeveralStatements(String(rest.prefix(60))), at: SourceLocation(file: path, table: "query"))
                    }
                }
                guard statement.isReadOnly else {
                    throw ReaderError(.queryNotReadOnly, at: SourceLocation(file: path, table: "query"))
                }
                hasRowID = false
                rowLimit = limit
                let prepared = statement
                fieldNames = (0..<prepared.columnCount).map { prepared.columnName(at: $0) }
            }
        } catch {
            Self.remove(copy)
            throw error
        }
        // A table's rows are read without a step limit: its steps are bounded by its size (and the check costs time).
        if rowLimit != nil {
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
            database.limitStepDuration(to: stepLimit ?? SQLiteDatabase.defaultStepLimit(databaseSize: size))
        }
    }

    deinit {
        Self.remove(privateCopy)
    }

    public func next() throws(ReaderError) -> Record? {
        guard try step() else { return nil }
        return record()
    }

    /// Steps the statement; false at the end.
    private func step() throws(ReaderError) -> Bool {
        if let failure { throw failure }
        started = true
        if finished { return false }
        do throws(SQLiteError) {
            guard try statement.step() else {
                finished = true
                return false
            }
        } catch {
            let failure = ReaderError(Self.reason(error), at: SourceLocation(file: path, table: tableLabel))
            self.failure = failure
            throw failure
        }
        rowsRead += 1
        if let rowLimit, rowsRead > rowLimit.count {
            let failure = ReaderError(.tooManyRows(limit: Int(rowLimit.count), given: rowLimit.given),
                                      at: SourceLocation(file: path, table: tableLabel, rowid: rowsRead))
            self.failure = failure
            throw failure
        }
        return true
    }

    /// The current row as a record.
    private func record() -> Record {
        let offset = hasRowID ? 1 : 0
        var values: [FieldValue] = []
        values.reserveCapacity(fieldNames.count)
        for index in 0..<fieldNames.count {
            switch statement.value(at: index + offset) {
            case .null: values.append(.null)
            case .integer(let v): values.append(.integer(v))
            case .real(let v): values.append(.real(v))
            case .text(let v): values.append(.text(v))
            case .blob(let v): values.append(.blob(v))
            }
        }
        var rowid: Int64? = hasRowID ? nil : rowsRead
        if hasRowID, case .integer(let id) = statement.value(at: 0) { rowid = id }
        return Record(location: SourceLocation(file: path, table: tableLabel, rowid: rowid), values: values)
    }

    static func reason(_ error: SQLiteError) -> ReaderError.Reason {
        switch error.code.primary {
        case .notADatabase: return .notADatabase(error.message)
        case .corrupt: return .corruptDatabase(error.message)
        case .cantOpen: return .cannotOpen(error.message)
        default: break
        }
        return .sqlite(error.message)
    }

    /// Copies `path` and its `-wal` into a fresh temporary directory when the WAL holds data.
    private static func privateCopyIfWAL(_ path: String) throws(ReaderError) -> URL? {
        let manager = FileManager.default
        // A non-empty `-wal` holds committed content; a non-empty `-journal` is a transaction that never
        // committed (hot): immutable=1 would read past both, so the copy is opened by SQLite, which
        // replays the WAL or rolls the journal back, as it would for the file itself.
        let sidecars = [StoreLocations.Sidecar.wal, .journal].filter { sidecar in
            ((try? manager.attributesOfItem(atPath: StoreLocations.sidecar(sidecar, of: path)))?[.size] as? NSNumber).map { $0.intValue > 0 } ?? false
        }
        guard !sidecars.isEmpty else { return nil }
        let directory = manager.temporaryDirectory.appendingPathComponent("coreseed-sqlite-\(UUID().uuidString)")
        do {
            try manager.createDirectory(at: directory, withIntermediateDirectories: true)
            try manager.copyItem(atPath: path, toPath: directory.appendingPathComponent("db.sqlite").path)
            for sidecar in sidecars {
                try manager.copyItem(atPath: StoreLocations.sidecar(sidecar, of: path),
                                     toPath: StoreLocations.sidecar(sidecar, of: directory.appendingPathComponent("db.sqlite").path))
            }
        } catch {
            remove(directory)
            throw ReaderError(.cannotRead("cannot copy the database and its -wal or -journal: \(error.localizedDescription)"), at: SourceLocation(file: path))
        }
        return directory
    }

    private static func remove(_ directory: URL?) {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }
}

/// Fields in place, for the build's fast path (text straight from `sqlite3_column_text`).
extension SQLiteRecordReader: FieldViewReader {
    var readsRaw: Bool { !started }

    func nextRaw() throws(ReaderError) -> Bool {
        try step()
    }

    func fieldView(_ index: Int) -> FieldView {
        switch statement.view(at: index + (hasRowID ? 1 : 0)) {
        case .null: return .null
        case .integer(let number): return .integer(number)
        case .real(let number): return .real(number)
        case .text(let bytes):
            // Text that is not valid UTF-8 is left to `next()`'s repairing decode.
            if let base = bytes.baseAddress, !bytes.allSatisfy({ $0 < 0x80 }),
               UTF8Validation.firstInvalidOffset(base, count: bytes.count) != nil { return .other }
            return .text(bytes)
        case .blob: return .other
        }
    }

    func currentRecord() -> Record {
        record()
    }
}
