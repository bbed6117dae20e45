/// Every reason a reader fails, and the one place their text is written.
extension ReaderError {
    enum Reason: Sendable, Equatable {
        // Any file
        case fileNotFound
        case cannotOpen(String)
        case cannotRead(String)
        case invalidOption(String)
        // CSV
        case emptyFile
        case unterminatedQuote
        case characterAfterQuote(UInt8)
        case fieldCount(found: Int, expected: Int, fromHeader: Bool)
        case duplicateHeader(String)
        case invalidUTF8(UInt8)
        case invalidUTF16(String)
        case recordTooLarge(Int)
        // SQLite
        case notADatabase(String)
        case corruptDatabase(String)
        case noSuchTable(String, known: [String])
        case queryNotReadOnly
        /// The query text holds more than one statement (only the first would run).
        case queryHasSeveralStatements(String)
        /// The query text is empty (or only comments).
        case emptyQuery
        case sqlite(String)
        /// A view or query gave more rows than its limit (`"maxRows"`, default or given).
        case tooManyRows(limit: Int, given: Bool)
        // XML
        case xmlSyntax(String)
        case xmlEntitiesDeclared
        case xmlTooDeep(Int)
        case xmlTextTooLong(Int)
        case xmlUnsupportedPath(field: String, path: String)
        // JSON
        case jsonSyntax(String)
        case jsonDuplicateKey(String)
        case jsonInvalidUTF8(UInt8)
        case jsonUnsupportedPath(field: String, path: String)
        case jsonObjectValue(field: String)
        case jsonObjectsInArray(field: String)
        /// No record of the file had anything at a field's path (read `records` records).
        case jsonPathInNoRecord(field: String, path: String, records: Int)
        // Computed fields and filters
        /// A computed field or filter that cannot be evaluated over this source (named field unknown, …).
        case computedField(String)
        /// A computed field's (or the filter's) expression failed on a record.
        case computedFieldFailed(field: String, problem: String)
        /// A joined source (`"join"`) has a key twice and the entity's `onDuplicateKey` is `error`.
        case joinedKeyRepeated(join: String, key: String, earlier: String)
    }
}

extension ReaderError.Reason {
    var message: String {
        switch self {
        case .fileNotFound: return "no such file"
        case .cannotOpen(let why): return "cannot open the file: \(why)"
        case .cannotRead(let why): return "cannot read the file: \(why)"
        case .invalidOption(let text): return text
        case .emptyFile: return "the file is empty, expected a header row"
        case .unterminatedQuote: return "unterminated quoted field (the quote opens here)"
        case .characterAfterQuote(let byte): return "unexpected \(Self.describe(byte)) after a closing quote"
        case let .fieldCount(found, expected, fromHeader):
            return "row has \(found) field\(found == 1 ? "" : "s"), expected \(expected) (as in the \(fromHeader ? "header" : "first row"))"
        case .duplicateHeader(let name): return "duplicate header name '\(name)'"
        case .invalidUTF8(let byte): return "invalid UTF-8 byte 0x\(Self.hex(byte))"
        case .invalidUTF16(let what): return "invalid UTF-16: \(what)"
        case .recordTooLarge(let limit): return "record longer than \(limit / (1 << 20)) MiB"
        case .notADatabase(let sqlite): return "not a SQLite database (\(sqlite))"
        case .corruptDatabase(let sqlite): return "the database is corrupt (\(sqlite))"
        case .noSuchTable(let name, _): return "no table or view named '\(name)'"
        case .queryNotReadOnly: return "the query would modify the database"
        case .queryHasSeveralStatements(let rest): return "the query holds more than one statement; only the first would run (then: \(rest))"
        case .emptyQuery: return "the query is empty"
        case .sqlite(let sqlite): return "SQLite error: \(sqlite)"
        case let .tooManyRows(limit, given):
            return "the view or query gave more than \(limit) rows, \(given ? "its \"maxRows\"" : "the limit for a view or query") (an endless recursive query?)"
        case .xmlSyntax(let text): return "XML error: \(text)"
        case .xmlEntitiesDeclared: return "the document declares entities, which are not expanded"
        case .xmlTooDeep(let limit): return "elements nested deeper than \(limit) levels"
        case .xmlTextTooLong(let limit): return "a run of text longer than \(limit >> 20) MiB (\(limit) bytes), the most one XML value may hold (a CSV record's limit too): put such a value in a file of its own and read it with \"file\": true"
        case let .xmlUnsupportedPath(field, path): return "field '\(field)': unsupported path '\(path)'"
        case .jsonSyntax(let text): return "JSON error: \(text)"
        case .jsonDuplicateKey(let key): return "key '\(key)' is given twice in one object"
        case .jsonInvalidUTF8(let byte): return "invalid UTF-8 byte 0x\(Self.hex(byte))"
        case let .jsonUnsupportedPath(field, path): return "field '\(field)': unsupported path '\(path)'"
        case let .jsonPathInNoRecord(field, path, records):
            return "field '\(field)': none of the \(records) record\(records == 1 ? "" : "s") has a value at '\(path)'"
        case .jsonObjectValue(let field): return "field '\(field)' is an object, not a value"
        case .jsonObjectsInArray(let field): return "field '\(field)' is an array of objects, not of values"
        case .computedField(let text): return text
        case let .joinedKeyRepeated(join, key, earlier): return "joined source '\(join)': key \(key) repeats the record at \(earlier)"
        case let .computedFieldFailed(field, problem):
            return "\(field == "where" ? "\"where\"" : "computed field '\(field)'"): the expression failed on this record: \(problem)"
        }
    }

    var note: String? {
        switch self {
        case .invalidUTF8: return "declare the file's encoding, e.g. \"encoding\": \"windows-1252\""
        case .characterAfterQuote: return "a quote inside a quoted field is written twice (\"\")"
        case .fieldCount: return "quote fields that contain the delimiter or a line break"
        case .noSuchTable(_, let known):
            return known.isEmpty ? "the database has no tables" : "tables: " + known.joined(separator: ", ")
        case .queryNotReadOnly: return "a source query must only read, e.g. SELECT * FROM t"
        case .queryHasSeveralStatements: return "give one SELECT statement per source; join or UNION what you need in it"
        case .tooManyRows(let limit, _): return "if the rows are meant, raise the limit with \"maxRows\": \(limit > Int.max / 10 ? Int.max : limit * 10) in this source of the spec"
        case .emptyQuery: return "give a SELECT statement, e.g. SELECT * FROM t, or \"table\" instead of \"query\""
        case .xmlEntitiesDeclared: return "remove the <!ENTITY> declarations; entity expansion is refused for safety"
        case .xmlUnsupportedPath:
            return "use \"child\", \"a/b\", \"@attr\", \"a/b/@attr\", \".\", \"../@attr\", \"../child\", \"#\", \"../#\", with an optional \"[n]\" to pick the nth of repeated values"
        case .emptyFile: return "set \"header\": false for a file without a header row"
        case .jsonDuplicateKey: return "which one is meant would be a guess: keep one"
        case .jsonInvalidUTF8: return "JSON text is UTF-8 (RFC 8259): convert the file, e.g. iconv -f windows-1252 -t utf-8"
        case .jsonUnsupportedPath:
            return "use \"key\", \"a.b\", \"tags[0]\", \"tags\" (a list), \"lines[].sku\", \"#\", \"$key\", or \"../\" before one for the enclosing record"
        case .joinedKeyRepeated:
            return "which record's values are meant would be a guess: set \"onDuplicateKey\": \"first\" or \"last\" on the entity, or keep one"
        case .jsonPathInNoRecord:
            return "paths are case-sensitive: check its spelling against the file's keys, or leave \"fields\" out to take every key any record has"
        case .jsonObjectValue(let field): return "name a key inside it, e.g. \"\(field).name\" as the field's path"
        case .jsonObjectsInArray(let field): return "name a key inside its objects, e.g. \"\(field)[].name\" as the field's path"
        default: return nil
        }
    }

    var isMissingInput: Bool {
        switch self {
        case .fileNotFound, .cannotOpen: return true
        default: return false
        }
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }

    static func describe(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(hex(byte))"
    }
}
