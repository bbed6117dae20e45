import Foundation

/// Reads another reader's records on a thread of its own, ahead of the caller, handed over in
/// batches through a bounded queue: for a reader whose parsing costs as much as the rest of a build
/// (XML through libxml2), so that parsing runs on one core while conversion and SQLite use the other.
///
/// Same contract as the reader it wraps: the same records in the same order, then `nil`; its error
/// after the records that came before it, then sticky. Memory: at most `capacity` batches of
/// `batchSize` records waiting. The wrapped reader is used only by the reading thread once the first
/// record is asked for (a projection is passed on before that), and released after it has stopped.
///
/// `@unchecked Sendable`: the queue is guarded by `condition`; the wrapped reader belongs to the
/// reading thread from the first `next()` until `deinit` has waited for that thread.
final class ReadAheadReader: RecordReader, ProjectableReader {
    let fieldNames: [String]
    private let shared: Shared
    private var started = false

    /// What the caller is taking records from, in order.
    private var current: [Record] = []
    private var position = 0
    private var failure: ReaderError?
    private var finished = false

    /// The queue between the two threads and the wrapped reader. `@unchecked Sendable`: the queue
    /// fields are guarded by `condition`; `inner` is used by one thread at a time (see the type's notes).
    private final class Shared: @unchecked Sendable {
        let inner: any RecordReader
        let batchSize: Int
        let capacity: Int
        let condition = NSCondition()
        var queue: [[Record]] = []
        /// `.some(nil)`: the end; `.some(error)`: failed.
        var end: ReaderError?? = nil
        var cancelled = false
        var running = false

        init(inner: any RecordReader, batchSize: Int, capacity: Int) {
            self.inner = inner
            self.batchSize = batchSize
            self.capacity = capacity
        }

        /// The reading thread: batches of records until the end, an error or cancellation.
        func readAll() {
            var batch: [Record] = []
            batch.reserveCapacity(batchSize)
            var outcome: ReaderError?? = nil
            while outcome == nil {
                do {
                    if let record = try inner.next() {
                        batch.append(record)
                        if batch.count < batchSize { continue }
                    } else {
                        outcome = .some(nil)
                    }
                } catch {
                    outcome = .some(error)
                }
                condition.lock()
                while queue.count >= capacity && !cancelled { condition.wait() }
                if cancelled {
                    condition.unlock()
                    break
                }
                if !batch.isEmpty { queue.append(batch) }
                if let outcome { end = outcome }
                condition.broadcast()
                condition.unlock()
                batch = []
                batch.reserveCapacity(batchSize)
            }
            condition.lock()
            running = false
            condition.broadcast()
            condition.unlock()
        }
    }

    init(_ inner: any RecordReader, batchSize: Int = 256, capacity: Int = 8) {
        fieldNames = inner.fieldNames
        shared = Shared(inner: inner, batchSize: max(1, batchSize), capacity: max(1, capacity))
    }

    /// Stops the reading thread (it may be waiting for room in the queue) and waits for it.
    deinit {
        let shared = self.shared
        shared.condition.lock()
        shared.cancelled = true
        shared.condition.broadcast()
        while shared.running { shared.condition.wait() }
        shared.condition.unlock()
    }

    func setProjection(_ wanted: [Bool]) {
        precondition(!started, "a projection is set before the first record is read")
        shared.inner.project(wanted)
    }

    func next() throws(ReaderError) -> Record? {
        if position < current.count {
            defer { position += 1 }
            return current[position]
        }
        if let failure { throw failure }
        if finished { return nil }
        if !started { start() }
        let shared = self.shared
        shared.condition.lock()
        while shared.queue.isEmpty && shared.end == nil { shared.condition.wait() }
        if !shared.queue.isEmpty {
            current = shared.queue.removeFirst()
            shared.condition.broadcast()
            shared.condition.unlock()
            position = 1
            return current[0]
        }
        let outcome = shared.end!
        shared.condition.unlock()
        current = []
        position = 0
        if let error = outcome {
            failure = error
            throw error
        }
        finished = true
        return nil
    }

    private func start() {
        started = true
        shared.running = true
        let shared = self.shared
        let thread = Thread { shared.readAll() }
        thread.stackSize = 8 << 20
        thread.start()
    }
}
