import Foundation
import Testing
@testable import CoreSeed
import CoreSeedTestSupport

/// Expressions evaluated ahead on a thread of their own (``ComputedAhead``): the in-place reader that
/// takes their outcomes gives exactly what the reader that evaluates them itself gives — values,
/// records filtered, failures tolerated and where an untolerated one stops — across batch boundaries.
@Suite struct ComputedAheadTests {
    static let fields = [
        ComputedField(name: "shout", formula: .sql("upper(:name)")),
        ComputedField(name: "half", formula: .sql("CASE WHEN :name LIKE 'not%' THEN json_extract(:name, '$.x') ELSE :n / 2.0 END")),
        ComputedField(name: "bytes", formula: .sql("CASE WHEN :n % 11 = 0 THEN zeroblob(2) ELSE NULL END")),
    ]

    /// 2,500 records (more than two batches): every fifth filtered out, every seventh (from 3, and from
    /// `failFrom` on) failing.
    static func input(_ scratch: Scratch, failFrom: Int = 0) throws -> String {
        var text = "n,name\n"
        for n in 1...2500 { text += "\(n),\(n >= failFrom && n % 7 == 3 ? "not json" : "r\(n)")\n" }
        return try scratch.file("in.csv", text)
    }

    static func reader(_ path: String, ahead: Bool, tolerates: Bool) throws -> ComputedFieldsReader {
        let makeReader: @Sendable () throws(ReaderError) -> ComputedFieldsReader = { () throws(ReaderError) in
            try ComputedFieldsReader(base: try CSVReader(path: path), fields: fields, filter: ":n % 5 <> 0", file: path, directory: "")
        }
        let reader = try makeReader()
        if ahead { reader.aheadOpener = makeReader }
        reader.toleratesFailures = tolerates
        return reader
    }

    /// Every record's fields as the in-place path sees them and as `currentRecord()` gives them, and
    /// its failure; then the error that stopped the reader, if any.
    static func read(_ reader: ComputedFieldsReader) -> (records: [[String]], failures: [String], filtered: Int, stop: String?) {
        var records: [[String]] = [], failures: [String] = []
        do {
            while try reader.nextRaw() {
                var seen = (0..<reader.fieldNames.count).map { index -> String in
                    switch reader.fieldView(index) {
                    case .null: "null"
                    case .integer(let number): "i\(number)"
                    case .real(let number): "r\(number)"
                    case .text(let bytes): "t" + String(decoding: bytes, as: UTF8.self)
                    case .other: "other"
                    }
                }
                seen.append("\(try reader.currentRecord().values)")
                records.append(seen)
                if let failure = reader.currentFailure { failures.append(failure.description) }
            }
            return (records, failures, reader.filtered, nil)
        } catch {
            return (records, failures, reader.filtered, error.description)
        }
    }

    @Test(arguments: [true, false])
    func aheadGivesWhatTheReaderGives(tolerates: Bool) throws {
        let scratch = try Scratch()
        let path = try Self.input(scratch, failFrom: tolerates ? 0 : 1800)
        let own = Self.read(try Self.reader(path, ahead: false, tolerates: tolerates))
        let ahead = Self.read(try Self.reader(path, ahead: true, tolerates: tolerates))
        #expect(own.records.count > 1024)
        #expect(ahead.records == own.records)
        #expect(ahead.failures == own.failures)
        #expect(ahead.filtered == own.filtered && own.filtered > 0)
        #expect(ahead.stop == own.stop)
        if tolerates {
            #expect(own.failures.count > 100 && own.stop == nil)
        } else {
            #expect(own.stop?.contains("in.csv:1803:") == true, "\(own.stop ?? "")")  // n = 1802, the first from 1800 with n % 7 == 3: line 1803
        }
    }

    /// A reader dropped before its end stops the evaluating thread (it may be waiting for room).
    @Test func aReaderLeftEarlyStopsItsThread() throws {
        let scratch = try Scratch()
        let path = try Self.input(scratch)
        var reader: ComputedFieldsReader? = try Self.reader(path, ahead: true, tolerates: true)
        for _ in 0..<10 { #expect(try reader!.nextRaw()) }
        #expect(reader?.ahead != nil)
        reader = nil  // deinit waits for the thread: a hang here fails by the suite's time limit
        #expect(reader == nil)
    }
}
