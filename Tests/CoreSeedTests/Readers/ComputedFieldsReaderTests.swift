import Foundation
import Testing
@testable import CoreSeed
import CoreSeedTestSupport

/// Issue 28: the computed-fields reader on its own — a field computed from two earlier computed
/// fields (evaluated in the order the names need, whatever order the spec gives), the filter, and
/// the in-place path giving exactly what `next()` gives.
@Suite struct ComputedFieldsReaderTests {
    static let fields = [
        ComputedField(name: "label", formula: .sql(":country || '/' || :local")),
        ComputedField(name: "country", formula: .sql("substr(:code, 1, instr(:code, '-') - 1)")),
        ComputedField(name: "local", formula: .sql("substr(:code, instr(:code, '-') + 1)")),
    ]

    static func reader(_ scratch: Scratch, filter: String? = nil) throws -> ComputedFieldsReader {
        let path = try scratch.file("in.csv", "code,name\nAD-02,Canillo\nAZ-NX,Naxçıvan\nFR-75C,Paris\n")
        return try ComputedFieldsReader(base: try CSVReader(path: path), fields: fields, filter: filter, file: path,
                                        directory: scratch.url.path)
    }

    @Test func aFieldFromTwoEarlierComputedOnes() throws {
        let scratch = try Scratch()
        let reader = try Self.reader(scratch, filter: ":country <> 'FR'")
        #expect(reader.fieldNames == ["code", "name", "label", "country", "local"])
        let records = try reader.all()
        #expect(records.map { $0.values.map { if case .text(let text) = $0 { text } else { "\($0)" } } } == [
            ["AD-02", "Canillo", "AD/02", "AD", "02"],
            ["AZ-NX", "Naxçıvan", "AZ/NX", "AZ", "NX"],
        ])
        #expect(reader.filtered == 1)
    }

    @Test func inPlaceGivesWhatNextGives() throws {
        let scratch = try Scratch()
        let general = try Self.reader(scratch, filter: ":country <> 'FR'").all().map(\.values)
        let raw = try Self.reader(scratch, filter: ":country <> 'FR'")
        #expect(raw.readsRaw)
        var records: [[FieldValue]] = []
        while try raw.nextRaw() { records.append(try raw.currentRecord().values) }
        #expect(records == general)
        #expect(raw.filtered == 1)
    }

    /// Repeated arguments: the memo's replayed results equal the statement's, record for record, in
    /// a file long enough to fill the memo's window (the in-place path against `next()`).
    @Test func repeatedArgumentsGiveTheStatementsResults() throws {
        let scratch = try Scratch()
        var text = "code,name\n"
        for index in 0..<3000 { text += "\(["AD", "AZ", "FR", "DE"][index % 4])-\(index % 7),n\(index % 5)\n" }
        let path = try scratch.file("many.csv", text)
        func open() throws -> ComputedFieldsReader {
            try ComputedFieldsReader(base: try CSVReader(path: path), fields: Self.fields, filter: ":local <> '3'", file: path, directory: scratch.url.path)
        }
        let general = try open().all().map(\.values)
        let raw = try open()
        var records: [[FieldValue]] = []
        while try raw.nextRaw() { records.append(try raw.currentRecord().values) }
        #expect(records.count == 3000 - 3000 / 7 - 1)
        #expect(records == general)
    }

    /// A projection that wants no computed field leaves out the expressions (a key pass), but not the
    /// filter; a reader that tolerates failures runs them all.
    @Test func aProjectionLeavesOutUnwantedExpressions() throws {
        let scratch = try Scratch()
        let onlyCode = [true, false, false, false, false]
        let keys = try Self.reader(scratch, filter: ":country <> 'FR'")
        keys.project(onlyCode)
        var seen: [[FieldValue]] = []
        while try keys.nextRaw() { seen.append(try keys.currentRecord().values) }
        // The filter still needs `country`; `label` is computed by no one.
        #expect(seen.map { $0[2] } == [.null, .null])
        #expect(seen.map { $0[3] } == [.text("AD"), .text("AZ")])
        let tolerant = try Self.reader(scratch, filter: ":country <> 'FR'")
        tolerant.project(onlyCode)
        tolerant.toleratesFailures = true
        var all: [[FieldValue]] = []
        while try tolerant.nextRaw() { all.append(try tolerant.currentRecord().values) }
        #expect(all.map { $0[2] } == [.text("AD/02"), .text("AZ/NX")])
    }
}

/// The memo of one expression stage: found results replay as kept, unkeyable arguments are not kept,
/// and arguments that do not repeat turn it off once it is full.
@Suite struct ExpressionMemoTests {
    @Test func keptResultsReplay() {
        let memo = ExpressionMemo(columns: 2)
        let word: [UInt8] = Array("Reno".utf8)
        word.withUnsafeBufferPointer { text in
            #expect(memo.find(arguments: 2) { $0 == 0 ? .text(text) : .integer(7) } == nil)
            Array("RENO".utf8).withUnsafeBufferPointer { memo.note(0, .text($0)) }
            memo.note(1, .integer(1))
            memo.commit()
            let found = memo.find(arguments: 2) { $0 == 0 ? .text(text) : .integer(7) }
            #expect(found != nil)
            var replayed: [String] = []
            memo.replay(found ?? 0) { column, view in
                switch view {
                case .text(let bytes): replayed.append(String(decoding: bytes, as: UTF8.self))
                case .integer(let number): replayed.append("\(number)")
                default: replayed.append("?")
                }
            }
            #expect(replayed == ["RENO", "1"])
            // Another argument (an integer 7 against a real 7.0) is another key.
            #expect(memo.find(arguments: 2) { $0 == 0 ? .text(text) : .real(7) } == nil)
        }
        #expect(memo.find(arguments: 1) { _ in .other } == nil)
        memo.note(0, .integer(3))
        memo.commit()
        #expect(memo.find(arguments: 1) { _ in .other } == nil)
    }

    @Test func uniqueArgumentsTurnItOff() {
        let memo = ExpressionMemo(columns: 1)
        var number: Int64 = 0
        while memo.isOn && number < Int64(ExpressionMemo.capacity + 2 * ExpressionMemo.window) {
            if memo.find(arguments: 1, { _ in .integer(number) }) == nil {
                memo.note(0, .integer(number * 2))
                memo.commit()
            }
            number += 1
        }
        #expect(!memo.isOn)
        // Full after `capacity` kept sets (a few more records when a crowded run of buckets keeps one out:
        // the hash is seeded per process), then off at the end of the first window.
        #expect(number >= Int64(ExpressionMemo.capacity + ExpressionMemo.window))
        #expect(number <= Int64(ExpressionMemo.capacity + ExpressionMemo.window + 64))
    }
}

