import Foundation

/// A bounded hand-over of converted rows from the reading thread to the SQLite thread, so that
/// parsing and conversion run on one core while SQLite writes on the other.
///
/// `@unchecked Sendable`: every field is guarded by `condition`, and the batches handed over are
/// owned by one side at a time.
final class RowPipe: @unchecked Sendable {
    /// A run of rows: `values` holds each row's parameters back to back; text and blob bytes live in
    /// `bytes`, so that SQLite can bind them in place (`SQLITE_STATIC`) while the batch is alive,
    /// with no string to allocate, copy or release per value on the SQLite thread.
    struct Batch {
        enum Value {
            case null
            case integer(Int64)
            case real(Double)
            case text(start: Int32, count: Int32)
            case blob(start: Int32, count: Int32)
        }

        /// Per row: which statement, how many values.
        var rows: [(statement: Int32, count: Int32)] = []
        var values: [Value] = []
        var bytes: [UInt8] = []

        init(capacity: Int = 0) {
            rows.reserveCapacity(capacity)
            values.reserveCapacity(capacity * 8)
            bytes.reserveCapacity(capacity * 64)
        }

        /// Appends text given as UTF-8 bytes (copied into `bytes`).
        @inline(__always)
        mutating func appendText(_ text: UnsafeBufferPointer<UInt8>) {
            let start = bytes.count
            bytes.append(contentsOf: text)
            values.append(.text(start: Int32(start), count: Int32(text.count)))
        }

        @inline(__always)
        mutating func append(_ value: SQLiteValue) {
            switch value {
            case .null: values.append(.null)
            case .integer(let number): values.append(.integer(number))
            case .real(let number): values.append(.real(number))
            case .text(var text):
                let start = bytes.count
                text.withUTF8 { bytes.append(contentsOf: $0) }
                values.append(.text(start: Int32(start), count: Int32(bytes.count - start)))
            case .blob(let blob):
                let start = bytes.count
                bytes.append(contentsOf: blob)
                values.append(.blob(start: Int32(start), count: Int32(blob.count)))
            }
        }
    }

    private let condition = NSCondition()
    private var queue: [Batch] = []
    private var closed = false
    private var cancelled = false
    /// The producer's failure, rethrown on the consumer's side.
    private(set) var failure: (any Error)?
    private let capacity: Int
    /// Seconds each side spent waiting for the other (for `CORESEED_TIMING`).
    private(set) var producerWaited = 0.0
    private(set) var consumerWaited = 0.0

    init(capacity: Int = 3) {
        self.capacity = capacity
    }

    /// Producer: hands over a batch, waiting while the consumer is `capacity` batches behind.
    /// Returns false when the consumer has given up.
    func send(_ batch: Batch) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if queue.count >= capacity && !cancelled {
            let started = Date()
            while queue.count >= capacity && !cancelled { condition.wait() }
            producerWaited += Date().timeIntervalSince(started)
        }
        if cancelled { return false }
        queue.append(batch)
        condition.broadcast()
        return true
    }

    /// Producer: no more batches (with the error that stopped it, if any).
    func close(failure: (any Error)? = nil) {
        condition.lock()
        closed = true
        self.failure = failure
        condition.broadcast()
        condition.unlock()
    }

    /// Consumer: the next batch, or nil once the producer has closed and all are taken.
    func receive() -> Batch? {
        condition.lock()
        defer { condition.unlock() }
        if queue.isEmpty && !closed {
            let started = Date()
            while queue.isEmpty && !closed { condition.wait() }
            consumerWaited += Date().timeIntervalSince(started)
        }
        if queue.isEmpty { return nil }
        let batch = queue.removeFirst()
        condition.broadcast()
        return batch
    }

    /// Consumer: stop the producer (after a SQLite error).
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }

    /// Consumer: waits until the producer has closed (so its state may be read).
    func waitUntilClosed() {
        condition.lock()
        while !closed { condition.wait() }
        condition.unlock()
    }
}

/// Carries a non-Sendable value to another thread. Used once, for the build's reading thread, which
/// touches only state the SQLite thread leaves alone until `RowPipe.waitUntilClosed()`.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
}
