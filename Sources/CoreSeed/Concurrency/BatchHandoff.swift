import Foundation

/// The one bounded queue between threads: batches from a producing thread (a parser, the row pass's
/// reader) to the one consumer that takes them. The producer waits while `capacity` batches wait, the
/// consumer while none does. The end, or the producer's failure, comes after every batch put before it.
/// A thread that computes one value hands it over the same way (``deliver(_:)``, ``wait()``).
///
/// `@unchecked Sendable`: every field is guarded by `condition`; a batch belongs to the producer until
/// it is put, then to the consumer.
/// SAFETY: every stored property is read and written only with `condition` locked.
final class BatchHandoff<Batch, Failure: Error>: @unchecked Sendable {
    private let capacity: Int
    private let condition = NSCondition()
    private var queue: [Batch] = []
    /// `.some(nil)`: the end; `.some(error)`: failed.
    private var end: Failure?? = nil
    private var cancelled = false
    private var producing = false
    /// Seconds each side spent waiting for the other (for `CORESEED_TIMING`).
    private(set) var producerWaited = 0.0
    private(set) var consumerWaited = 0.0

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Marks the producer as running, before its thread starts (so that ``cancelAndWait()`` waits for it).
    func producerStarting() {
        condition.lock()
        producing = true
        condition.unlock()
    }

    /// Producer: queues `batch`, waiting for room; false once the consumer has gone (stop producing).
    func put(_ batch: Batch) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if queue.count >= capacity && !cancelled {
            let started = Date()
            while queue.count >= capacity && !cancelled { condition.wait() }
            producerWaited += Date().timeIntervalSince(started)
        }
        guard !cancelled else { return false }
        queue.append(batch)
        condition.broadcast()
        return true
    }

    /// Producer: no more batches; `error` (if any) is thrown once the consumer has taken them all.
    /// The producer's last call.
    func finish(_ error: Failure?) {
        condition.lock()
        end = .some(error)
        producing = false
        condition.broadcast()
        condition.unlock()
    }

    /// Consumer: the next batch, or nil at the end; throws the producer's error after its batches.
    func take() throws(Failure) -> Batch? {
        condition.lock()
        if queue.isEmpty && end == nil {
            let started = Date()
            while queue.isEmpty && end == nil { condition.wait() }
            consumerWaited += Date().timeIntervalSince(started)
        }
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

    /// Producer of one value (a result computed on a thread of its own): puts it, or its failure,
    /// and finishes. Its only call.
    func deliver(_ result: Result<Batch, Failure>) {
        switch result {
        case .success(let value):
            _ = put(value)
            finish(nil)
        case .failure(let error):
            finish(error)
        }
    }

    /// Consumer of one value: waits until the producer has delivered it (``deliver(_:)``) and
    /// returns it, left in place, so that every later call returns it too.
    func wait() -> Result<Batch, Failure> {
        condition.lock()
        defer { condition.unlock() }
        while end == nil { condition.wait() }
        if let error = end! { return .failure(error) }
        precondition(!queue.isEmpty, "wait() is for a producer that delivers one value")
        return .success(queue[0])
    }

    /// Consumer: tells the producer to stop (it may be waiting for room) and waits until it has.
    /// Returns the producer's failure, if it failed.
    @discardableResult
    func cancelAndWait() -> Failure? {
        condition.lock()
        cancelled = true
        condition.broadcast()
        while producing { condition.wait() }
        queue.removeAll()
        let failure = end ?? nil
        condition.unlock()
        return failure
    }
}
