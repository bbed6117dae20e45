import Foundation

/// A bounded queue of batches from a producing thread (a parser) to the one reader that takes
/// them: the producer waits while `capacity` batches wait, the reader while none does. The end, or
/// an error, comes after every batch put before it.
///
/// `@unchecked Sendable`: every field is guarded by `condition`; a batch belongs to the producer
/// until it is put, then to the reader.
final class BatchHandoff<Batch>: @unchecked Sendable {
    private let capacity: Int
    private let condition = NSCondition()
    private var queue: [Batch] = []
    /// `.some(nil)`: the end; `.some(error)`: failed.
    private var end: ReaderError?? = nil
    private var cancelled = false
    private var producing = false

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Marks the producer as running, before its thread starts (so that ``cancelAndWait()`` waits for it).
    func producerStarting() {
        condition.lock()
        producing = true
        condition.unlock()
    }

    /// Producer: queues `batch`, waiting for room; false once the reader has gone (stop producing).
    func put(_ batch: Batch) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while queue.count >= capacity && !cancelled { condition.wait() }
        guard !cancelled else { return false }
        queue.append(batch)
        condition.broadcast()
        return true
    }

    /// Producer: no more batches; `error` (if any) is thrown once the reader has taken them all.
    /// The producer's last call.
    func finish(_ error: ReaderError?) {
        condition.lock()
        end = .some(error)
        producing = false
        condition.broadcast()
        condition.unlock()
    }

    /// Reader: the next batch, or nil at the end; throws the producer's error after its batches.
    func take() throws(ReaderError) -> Batch? {
        condition.lock()
        while queue.isEmpty && end == nil { condition.wait() }
        if !queue.isEmpty {
            let batch = queue.removeFirst()
            condition.broadcast()
            condition.unlock()
            return batch
        }
        let outcome = end!
        condition.unlock()
        if let error = outcome { throw error }
        return nil
    }

    /// Reader: tells the producer to stop (it may be waiting for room) and waits until it has.
    func cancelAndWait() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        while producing { condition.wait() }
        queue.removeAll()
        condition.unlock()
    }
}
