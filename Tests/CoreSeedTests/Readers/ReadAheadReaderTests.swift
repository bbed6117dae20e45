import Foundation
import Testing
@testable import CoreSeed

@Suite struct ReadAheadReaderTests {
    /// 1,000 records and then a bad row: the same records in the same order as the reader itself gives,
    /// then the same error, sticky — whatever the batch size and queue length.
    @Test(arguments: [(1, 1), (7, 2), (256, 8)])
    func sameRecordsThenTheSameError(_ sizes: (batch: Int, capacity: Int)) throws {
        let scratch = try Scratch()
        var text = "id,name\n"
        for i in 0..<1000 { text += "\(i),\"name, \(i)\"\n" }
        let path = try scratch.file("ahead.csv", text + "1000\n")
        let direct = try CSVReader(path: path)
        let ahead = ReadAheadReader(try CSVReader(path: path), batchSize: sizes.batch, capacity: sizes.capacity)
        #expect(ahead.fieldNames == ["id", "name"])
        for _ in 0..<1000 {
            let record = try #require(try ahead.next())
            #expect(record == (try direct.next()))
        }
        let expected = readerError { _ = try direct.next() }
        #expect(expected != nil)
        #expect(readerError { _ = try ahead.next() }?.diagnosticLines == expected?.diagnosticLines)
        #expect(readerError { _ = try ahead.next() }?.diagnosticLines == expected?.diagnosticLines)
    }

    /// A projection set before the first record reaches the wrapped reader; the end is sticky.
    @Test func projectionPassesThroughAndTheEndIsSticky() throws {
        let scratch = try Scratch()
        let path = try scratch.file("p.csv", "a,b\n1,2\n3,4\n")
        let ahead = ReadAheadReader(try CSVReader(path: path))
        ahead.project([false, true])
        #expect(try ahead.next()?.values == [.null, .text("2")])
        #expect(try ahead.next()?.values == [.null, .text("4")])
        #expect(try ahead.next() == nil)
        #expect(try ahead.next() == nil)
    }

    /// Dropped after a few records of a long input, while its thread waits for room in the queue: the
    /// reader goes away at once (the thread is stopped and waited for, nothing hangs).
    @Test func droppedEarlyStopsItsThread() throws {
        let scratch = try Scratch()
        let path = try scratch.file("long.csv", "n\n" + (0..<50_000).map(String.init).joined(separator: "\n"))
        for _ in 0..<20 {
            let ahead = ReadAheadReader(try CSVReader(path: path), batchSize: 4, capacity: 1)
            #expect(try ahead.next()?.values == [.text("0")])
        }
    }
}
