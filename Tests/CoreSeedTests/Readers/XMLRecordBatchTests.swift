import Foundation
import Testing
@testable import CoreSeed
import CoreSeedTestSupport

/// The XML reader's batches: parsed on a thread of their own, shown in place to the build.
@Suite struct XMLRecordBatchTests {
    static let fields = [("id", "@id"), ("name", "name"), ("tags", "tag"), ("second", "tag[2]"), ("group", "../@code"),
                         ("n", "#"), ("own", "."), ("missing", "nothere")].map { SourceField(name: $0.0, path: $0.1) }

    /// 1,000 records (several batches) with escaped attributes, non-ASCII text, lists, picks,
    /// ordinals and ancestor values, then a syntax error: the in-place view of every field shows
    /// what `next()` gives, record for record, and both end in the same error.
    @Test func inPlaceViewsShowWhatNextGives() throws {
        let scratch = try Scratch()
        var text = "<?xml version=\"1.0\"?>\n<root><group code=\"g&amp;\u{E9}\">\n"
        for i in 0..<1000 {
            let tags = (0..<(i % 3)).map { "<tag>t\($0)&lt;\u{4E2D}</tag>" }.joined()
            text += "<item id=\"\(i)&amp;\(i % 7)\"> own\(i) <name>Z\u{FC}rich \(i)</name>\(tags)</item>\n"
        }
        let path = try scratch.file("many.xml", text + "<item id=\"x\"></oops></group></root>")
        let records = try XMLRecordReader(path: path, records: "/root/group/item", fields: Self.fields)
        let inPlace = try XMLRecordReader(path: path, records: "/root/group/item", fields: Self.fields)
        var sample: Record?
        for i in 0..<1000 {
            let record = try #require(try records.next())
            #expect(try inPlace.nextRaw())
            #expect(inPlace.currentRecord() == record)
            if i == 998 { sample = record }
            for (index, value) in record.values.enumerated() {
                switch (inPlace.fieldView(index), value) {
                case (.text(let bytes), .text(let text)): #expect(Array(bytes) == Array(text.utf8))
                case (.integer(let number), .integer(let expected)): #expect(number == expected)
                case (.null, .null), (.other, .list): break
                case (let view, _): Issue.record("field \(index): \(view) for \(value)")
                }
            }
        }
        let values = try #require(sample?.values)
        #expect(values[0] == .text("998&4") && values[1] == .text("Z\u{FC}rich 998"))
        #expect(values[2] == .list([.text("t0<\u{4E2D}"), .text("t1<\u{4E2D}")]) && values[3] == .text("t1<\u{4E2D}"))
        #expect(values[4] == .text("g&\u{E9}") && values[5] == .integer(999) && values[6] == .text(" own998 ") && values[7] == .null)
        let expected = readerError { _ = try records.next() }
        #expect(expected?.diagnosticLines == ["\(path):1003:21: error: XML error: Opening and ending tag mismatch: item line 1003 and oops"])
        #expect(readerError { _ = try inPlace.nextRaw() } == expected)
        #expect(readerError { _ = try inPlace.nextRaw() } == expected)
        #expect(readerError { _ = try records.next() } == expected)
    }

    /// Text past the batch's byte budget starts a new batch: large values come through whole.
    @Test func largeValuesComeThroughWhole() throws {
        let scratch = try Scratch()
        let big = (0..<5).map { String(repeating: Character(UnicodeScalar(UInt8(ascii: "a") + UInt8($0))), count: 600_000) }
        let path = try scratch.file("big.xml", "<r>" + big.map { "<i><v>\($0)</v></i>" }.joined() + "</r>")
        let records = try XMLRecordReader(path: path, records: "/r/i", fields: [SourceField(name: "v", path: "v")]).all()
        #expect(records.map(\.values) == big.map { [.text($0)] })
    }

    /// Dropped after one record of a long document, while its parsing thread waits for room in the
    /// queue: the reader goes away at once (the thread is stopped and waited for, nothing hangs).
    @Test func droppedEarlyStopsItsThread() throws {
        let scratch = try Scratch()
        let path = try scratch.file("long.xml", "<r>" + String(repeating: "<i><v>x</v></i>\n", count: 50_000) + "</r>")
        for _ in 0..<20 {
            let reader = try XMLRecordReader(path: path, records: "/r/i", fields: [SourceField(name: "v", path: "v")])
            #expect(try reader.next()?.values == [.text("x")])
        }
        // Opened and never read: no thread to stop.
        _ = try XMLRecordReader(path: path, records: "/r/i", fields: [])
    }
}
