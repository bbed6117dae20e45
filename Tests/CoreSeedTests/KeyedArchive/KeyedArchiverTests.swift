import Foundation
import Testing
@testable import CoreSeed
import CoreSeedTestSupport

/// Transformable values (issue 13, DESIGN §4b.11): every real keyed archive in the corpus that holds
/// values CoreSeed can write decodes and re-encodes byte for byte; the others (an app's own classes)
/// are named. What evidence cannot pin (multi-entry dictionaries, every type the corpus lacks) is
/// proved to decode with Foundation's `NSKeyedUnarchiver`, secure coding on.
@Suite struct KeyedArchiverTests {
    /// Every BLOB in the corpus stores that is a keyed archive: (store.table.column, rowid, bytes).
    static func corpusArchives() throws -> [(String, Int64, [UInt8])] {
        var found: [(String, Int64, [UInt8])] = []
        // Every store of the corpus, also those whose model is not an XML model (not in `CorpusStore.all`).
        let names = try FileManager.default.contentsOfDirectory(atPath: TestPaths.corpus.path).sorted()
        for name in names {
            let store = TestPaths.corpus.appendingPathComponent(name).appendingPathComponent("store.sqlite")
            guard FileManager.default.fileExists(atPath: store.path) else { continue }
            let directory = try TestPaths.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let database = try SQLiteDatabase(path: TestPaths.copyStore(store, into: directory).path, mode: .readWrite)
            for table in try database.rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z%'") {
                guard case .text(let tableName) = table[0], ModelValidator.isValidName(tableName) else { continue }
                for column in try database.rows("SELECT name FROM pragma_table_info(?) WHERE type = 'BLOB'", [.text(tableName)]) {
                    guard case .text(let columnName) = column[0] else { continue }
                    let sql = "SELECT rowid, \(SQLIdentifier.quoted(columnName)) FROM \(SQLIdentifier.quoted(tableName)) WHERE substr(\(SQLIdentifier.quoted(columnName)), 1, 8) = CAST('bplist00' AS BLOB)"
                    for row in try database.rows(sql) {
                        guard case .integer(let rowid) = row[0], case .blob(let bytes) = row[1], KeyedArchiver.isKeyedArchive(bytes) else { continue }
                        found.append(("\(name).\(tableName).\(columnName)", rowid, bytes))
                    }
                }
            }
        }
        return found
    }

    @Test(.needsCorpus) func corpusArchivesReencodeByteForByte() throws {
        let archives = try Self.corpusArchives()
        var identical = 0
        var mutable: [String] = []
        var refused: [String: Int] = [:]
        for (place, rowid, bytes) in archives {
            do {
                let value = try KeyedUnarchiver.value(bytes)
                // An app's NSMutableDictionary/NSMutableArray: CoreSeed decodes it, and writes the immutable
                // class (NSSecureUnarchiveFromData reads either), so it cannot compare byte for byte.
                if bytes.containsASCII("NSMutableDictionary") || bytes.containsASCII("NSMutableArray") {
                    #expect(KeyedArchiver.archive(value).containsASCII("NSDictionary") || KeyedArchiver.archive(value).containsASCII("NSArray"))
                    mutable.append("\(place) rowid \(rowid): \(value.json)")
                    continue
                }
                #expect(KeyedArchiver.archive(value) == bytes, "\(place) rowid \(rowid): \(value.json)")
                identical += 1
            } catch {
                refused[error.message, default: 0] += 1
            }
        }
        // carekit-samplestore2.0's dictionaries (the only archives of plain immutable values in the corpus).
        #expect(identical == 5)
        // apptentive-v1 (framework 419) archived an empty NSMutableDictionary.
        #expect(mutable == ["apptentive-v1.ZATRECORD.ZDICTIONARYDATA rowid 18: {}"])
        // CoreDataPlus's own classes: archives CoreSeed cannot write from values and export does not read.
        #expect(refused == ["an object of class CoreDataPlus_Tests.Cover, which has no JSON form": 52,
                            "an object of class Content, which has no JSON form": 4970])
    }

    static let samples: [String] = [
        #"{"iCloud": "janedaniels@icloud.com"}"#,
        #"["iCloud", "janedaniels@icloud.com", "iCloud"]"#,
        #"{"b": "2", "a": 1, "home": -7, "nested": {"list": [true, false, true, 2.5, 1e300]}, "ok": "x"}"#,
        #"{"when": {"$date": 631152000.25}, "id": {"$uuid": "6B29FC40-CA47-1067-B31D-00DD010662DA"}, "site": {"$url": "https://example.com/a?b=c"}, "raw": {"$data": "AAECAw=="}}"#,
        #"["Grüße", "日本語", "", "a\"b\\c\n", 9223372036854775807, -9223372036854775808, 65536, 255, 256]"#,
        #"[["deep", ["deeper", ["deepest"]]], {}, []]"#,
        #"[0, -0.5, 1.25e-3, 6E2, -12, 3.0]"#,
        #"{"a long key that is not a tagged pointer": "a long value that is not a tagged pointer either", "again": "a long value that is not a tagged pointer either"}"#,
    ]

    /// Foundation (swift-corelibs on Linux) reads every archive back with secure coding, to the same value.
    @Test(arguments: samples) func archivesDecodeWithFoundationSecurely(_ json: String) throws {
        let value = try ArchivedValue.parse(json: json)
        let bytes = KeyedArchiver.archive(value)
        let classes: [AnyClass] = [NSDictionary.self, NSArray.self, NSString.self, NSNumber.self, NSDate.self,
                                   NSData.self, NSUUID.self, NSURL.self]
        let object = try NSKeyedUnarchiver.unarchivedObject(ofClasses: classes, from: Data(bytes))
        #expect(Self.foundationJSON(object) == Self.foundationJSON(Self.foundationObject(value)), "\(json)")
        // And CoreSeed's own reader gives the value back (what export writes).
        #expect(try KeyedUnarchiver.value(bytes) == value)
    }

    /// `value` as the Foundation object it archives.
    static func foundationObject(_ value: ArchivedValue) -> Any {
        switch value {
        case .string(let text): return NSString(string: text)
        case .integer(let number): return NSNumber(value: number)
        case .real(let number): return NSNumber(value: number)
        case .boolean(let flag): return NSNumber(value: flag)
        case .date(let seconds): return NSDate(timeIntervalSinceReferenceDate: seconds)
        case .uuid(let bytes): return NSUUID(uuidBytes: bytes)
        case .url(let text): return NSURL(string: text)!
        case .data(let bytes): return NSData(bytes: bytes, length: bytes.count)
        case .array(let items): return NSArray(array: items.map(foundationObject))
        case .dictionary(let entries):
            let dictionary = NSMutableDictionary()
            for entry in entries { dictionary[NSString(string: entry.key)] = foundationObject(entry.value) }
            return dictionary.copy()
        }
    }

    /// A comparable description: dictionaries by sorted key, numbers with their kind.
    static func foundationJSON(_ object: Any?) -> String {
        switch object {
        case let dictionary as NSDictionary:
            let keys = dictionary.allKeys.compactMap { ($0 as? NSString).map(String.init) }.sorted()
            return "{" + keys.map { "\($0)=\(foundationJSON(dictionary[NSString(string: $0)]))" }.joined(separator: ",") + "}"
        case let array as NSArray: return "[" + array.map { foundationJSON($0) }.joined(separator: ",") + "]"
        case let string as NSString: return "s:" + String(string)
        case let number as NSNumber: return "n:\(number.stringValue)"
        case let date as NSDate: return "d:\(date.timeIntervalSinceReferenceDate)"
        case let uuid as NSUUID: return "u:" + uuid.uuidString
        case let url as NSURL: return "l:" + (url.absoluteString ?? "")
        case let data as NSData: return "b:\(Data(referencing: data).base64EncodedString())"
        default: return "?\(String(describing: object))"
        }
    }

    @Test func badJSONSaysWhereAndWhat() {
        for (json, message, offset) in [
            (#"{"a": 1,}"#, "expected a key in quotes", 9), (#"[1, null]"#, "null has no archived form: leave the element out", 5),
            (#"{"a": 1, "a": 2}"#, "the key \"a\" appears twice in one object", 10), (#"{"$uuid": "nope"}"#, "\"nope\" is not a UUID (8-4-4-4-12 hexadecimal digits)", 1),
            (#"[1 2]"#, "expected ',' or ']'", 4), ("\"abc", "the text is not closed: expected '\"'", 5),
            (#"[01]"#, "expected a JSON value", 2), (#"[1.]"#, "expected a JSON value", 2), (#"[-]"#, "expected a JSON value", 2),
            (#"[1e+]"#, "expected a JSON value", 2),
        ] {
            #expect(throws: ArchivedValue.SyntaxError(message: message, offset: offset), "\(json)") { try ArchivedValue.parse(json: json) }
        }
    }
}

private extension Array where Element == UInt8 {
    /// Whether the bytes hold `text` in ASCII (a class name in a keyed archive's objects).
    func containsASCII(_ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard needle.count <= count else { return false }
        return (0...(count - needle.count)).contains { start in self[start..<(start + needle.count)].elementsEqual(needle) }
    }
}
