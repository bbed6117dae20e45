import Foundation

/// A computed source's expressions evaluated ahead, on a thread of their own: a second reader of the
/// same file (``ComputedFieldsReader`` in place, as the build's own) evaluates every record's computed
/// fields and filter, and the build's reader, which reads the file itself, takes each record's outcome
/// instead of evaluating it. The reading thread is the build's critical path (the writing thread waits
/// on it); this moves the expressions' SQLite steps to the other core. The outcomes are the ones the
/// build's reader would compute — the same expressions over the same records, in order — so the store,
/// what is filtered and what fails where are unchanged.
///
/// Used for sources whose computed fields are all expressions (no key, UUID or join step: those read
/// the whole record, and a join holds a table in memory). Not `Sendable`: owned by one reader.
final class ComputedAhead {
    /// One record's outcome.
    enum Outcome {
        case kept
        case filtered
        case failed(ReaderError)
    }

    /// The outcomes of up to ``batchRecords`` consecutive records, with the computed values of each
    /// kept one: `count` values a record, text and blobs in `bytes`.
    // SAFETY: @unchecked: plain values (ReaderError is Sendable), handed from one thread to the other
    // whole, under BatchHandoff's lock; neither side keeps a reference to what it handed over.
    struct Batch: @unchecked Sendable {
        var outcomes: [UInt8] = []
        var failures: [ReaderError] = []
        var kinds: [UInt8] = []
        var numbers: [Int64] = []
        var lengths: [Int] = []
        var bytes: [UInt8] = []
    }

    static let batchRecords = 1024
    private static let (kept, filtered, failed) = (UInt8(0), UInt8(1), UInt8(2))
    private static let (null, integer, real, text, blob) = (UInt8(0), UInt8(1), UInt8(2), UInt8(3), UInt8(4))

    private let handoff = BatchHandoff<Batch, ReaderError>(capacity: 8)
    private let count: Int
    private var batch = Batch()
    private var record = 0, failure = 0, nextValue = 0
    /// Where the current record's values start in `batch`'s value arrays; -1 when it has none.
    private var valueStart = -1
    /// The current batch's `bytes`, copied where views of them can point.
    // SAFETY: owned here; replaced only by `next` (the next record), after the views of the record before
    // are no longer used (FieldViewReader's rule); freed in deinit.
    private var storage = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)

    /// Starts `open`'s reader (a reader of the same source with the same computed fields, made on the
    /// thread) and evaluates its records, `count` computed values each.
    init(count: Int, toleratesFailures: Bool, makeReader: @escaping @Sendable () throws(ReaderError) -> ComputedFieldsReader) {
        self.count = count
        let handoff = self.handoff
        handoff.producerStarting()
        let thread = Thread {
            do throws(ReaderError) {
                let reader = try makeReader()
                reader.toleratesFailures = toleratesFailures
                reader.setProjection(Array(repeating: false, count: reader.fieldNames.count))
                Self.evaluate(reader, count: count, into: handoff)
            } catch {
                handoff.finish(error)
            }
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    deinit {
        handoff.cancelAndWait()
        storage.deallocate()
    }

    /// The producer: every record of `reader`, its outcome and values, in batches; then the end, or
    /// the error that stopped it after the outcomes of the records before.
    private static func evaluate(_ reader: ComputedFieldsReader, count: Int, into handoff: BatchHandoff<Batch, ReaderError>) {
        var batch = Batch()
        var seen = reader.filtered
        /// The records the filter left out since the last record handed on.
        func addFiltered() {
            for _ in seen..<reader.filtered { batch.outcomes.append(filtered) }
            seen = reader.filtered
        }
        do throws(ReaderError) {
            while try reader.nextRaw() {
                addFiltered()
                if let error = reader.currentFailure {
                    batch.outcomes.append(failed)
                    batch.failures.append(error)
                } else {
                    batch.outcomes.append(kept)
                    for index in 0..<count { append(reader, field: reader.ownCount + index, slot: index, to: &batch) }
                }
                if batch.outcomes.count >= batchRecords {
                    guard handoff.put(batch) else { break }
                    batch = Batch()
                }
            }
            addFiltered()
            if !batch.outcomes.isEmpty { _ = handoff.put(batch) }
            handoff.finish(nil)
        } catch {
            addFiltered()
            if !batch.outcomes.isEmpty { _ = handoff.put(batch) }
            handoff.finish(error)
        }
    }

    private static func append(_ reader: ComputedFieldsReader, field: Int, slot: Int, to batch: inout Batch) {
        var (kind, number, length) = (null, Int64(0), 0)
        switch reader.fieldView(field) {
        case .null: break
        case .integer(let value): (kind, number) = (integer, value)
        case .real(let value): (kind, number) = (real, Int64(bitPattern: value.bitPattern))
        case .text(let bytes):
            (kind, number, length) = (text, Int64(batch.bytes.count), bytes.count)
            batch.bytes.append(contentsOf: bytes)
        case .other:
            if case .blob(let bytes) = reader.slots.value(slot) {
                (kind, number, length) = (blob, Int64(batch.bytes.count), bytes.count)
                batch.bytes.append(contentsOf: bytes)
            }
        }
        batch.kinds.append(kind)
        batch.numbers.append(number)
        batch.lengths.append(length)
    }

    /// The outcome of the next record (records are asked for in order, one call each). Throws what
    /// stopped the evaluating thread before that record; a thread that ran out of records first read
    /// a shorter file.
    func next(file: String) throws(ReaderError) -> Outcome {
        if record >= batch.outcomes.count {
            guard let next = try handoff.take() else {
                throw ReaderError(.cannotRead("the file changed while it was read (fewer records the second time): build again once nothing writes to it"),
                                  at: SourceLocation(file: file))
            }
            (batch, record, failure, nextValue) = (next, 0, 0, 0)
            if storage.count < batch.bytes.count {
                storage.deallocate()
                // SAFETY: the old buffer's views ended with the record before (see `storage`).
                storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(batch.bytes.count, storage.count * 2), alignment: 1)
            }
            // SAFETY: `storage` has room for the bytes (above); nothing views it between records.
            batch.bytes.withUnsafeBytes { storage.copyMemory(from: $0) }
        }
        defer { record += 1 }
        switch batch.outcomes[record] {
        case Self.kept:
            valueStart = nextValue
            nextValue += count
            return .kept
        case Self.filtered: return .filtered
        default:
            valueStart = -1
            defer { failure += 1 }
            return .failed(batch.failures[failure])
        }
    }

    /// Computed value `slot` of the current (kept) record in place, valid until the next ``next(file:)``.
    func view(_ slot: Int) -> FieldView {
        guard valueStart >= 0 else { return .null }
        let index = valueStart + slot
        switch batch.kinds[index] {
        case Self.integer: return .integer(batch.numbers[index])
        case Self.real: return .real(Double(bitPattern: UInt64(bitPattern: batch.numbers[index])))
        case Self.text:
            // SAFETY: a view of `storage`, which holds the current batch's bytes until the next record's `next`.
            let start = storage.baseAddress.unsafelyUnwrapped.advanced(by: Int(batch.numbers[index])).assumingMemoryBound(to: UInt8.self)
            return .text(UnsafeBufferPointer(start: start, count: batch.lengths[index]))
        case Self.blob: return .other
        default: return .null
        }
    }

    /// Computed value `slot` of the current record as a value.
    func value(_ slot: Int) -> FieldValue {
        guard valueStart >= 0 else { return .null }
        let index = valueStart + slot
        let start = Int(batch.numbers[index]), end = start + batch.lengths[index]
        switch batch.kinds[index] {
        case Self.integer: return .integer(batch.numbers[index])
        case Self.real: return .real(Double(bitPattern: UInt64(bitPattern: batch.numbers[index])))
        case Self.text: return .text(String(decoding: batch.bytes[start..<end], as: UTF8.self))
        case Self.blob: return .blob(Array(batch.bytes[start..<end]))
        default: return .null
        }
    }
}
