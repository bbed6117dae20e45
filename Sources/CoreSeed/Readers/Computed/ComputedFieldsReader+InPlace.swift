/// The in-place path of ``ComputedFieldsReader`` (``FieldViewReader``), when its base reader has one:
/// each record's own fields are seen where the base holds them and bound to the expressions without
/// a `String`; computed values are kept in ``ComputedSlots`` until the next record. It computes and
/// leaves out exactly what `next()` does.
extension ComputedFieldsReader: FieldViewReader, ProjectableReader {
    private var rawBase: (any FieldViewReader)? {
        if let inPlaceBase { return inPlaceBase }
        guard let reader = base as? any FieldViewReader, reader.readsRaw else { return nil }
        return reader
    }

    var readsRaw: Bool { inPlaceBase == nil && rawBase != nil }

    /// The base reads the wanted fields of its own and every field an expression or key needs.
    func setProjection(_ wanted: [Bool]) {
        var own = Array(wanted.prefix(ownCount))
        own += Array(repeating: true, count: max(0, ownCount - own.count))
        for step in steps {
            for index in step.arguments where index < ownCount { own[index] = true }
        }
        base.project(own)
        wantedSteps = neededSteps(wanting: wanted)
    }

    func nextRaw() throws(ReaderError) -> Bool {
        guard let reader = rawBase else { return false }
        inPlaceBase = reader
        // SAFETY: unretained: `inPlaceBase` holds the same reader strongly from here on.
        csvBase = (reader as? CSVReader).map { Unmanaged.passUnretained($0) }
        chooseStages()
        while try reader.nextRaw() {
            position += 1
            slots.clear()
            currentFailure = nil
            do throws(ReaderError) {
                if try computeInPlace(reader) { return true }
            } catch {
                // Tolerated (see `toleratesFailures`): the fields stay NULL, the record is marked.
                guard toleratesFailures, case .computedFieldFailed = error.reason else { throw error }
                slots.clear()
                currentFailure = error
                return true
            }
            filtered += 1
        }
        for table in tables { unmatchedJoinKeys[table.plan.name] = table.unmatched }
        return false
    }

    func fieldView(_ index: Int) -> FieldView {
        guard index >= ownCount else { return ownFieldView(index) }
        return slots.view(index - ownCount)
    }

    /// Field `index` of the base's record: a direct call when the base is a CSV reader (the common
    /// case, a call per field of every record), else through the protocol.
    @inline(__always)
    private func ownFieldView(_ index: Int) -> FieldView {
        // SAFETY: `inPlaceBase` holds the CSV reader strongly (see `csvBase`).
        if let csvBase { return csvBase._withUnsafeGuaranteedRef { $0.fieldView(index) } }
        // SAFETY: `nextRaw` set `inPlaceBase` before any record's field is asked for (FieldViewReader's order).
        return inPlaceBase.unsafelyUnwrapped.fieldView(index)
    }

    func currentRecord() throws(ReaderError) -> Record {
        guard let reader = rawBase else { throw ReaderError(.cannotRead("no record"), at: SourceLocation(file: file)) }
        var record = try reader.currentRecord()
        let count = record.values.count
        for index in 0..<(fieldNames.count - ownCount) { record.values.append(slots.value(index)) }
        record.fieldLines? += Array(repeating: 0, count: fieldNames.count - count)
        record.fieldColumns? += Array(repeating: 0, count: fieldNames.count - count)
        record.computeFailure = currentFailure
        return record
    }

    /// Computes the record's fields in place; false when the filter leaves it out.
    private func computeInPlace(_ reader: any FieldViewReader) throws(ReaderError) -> Bool {
        var kept = true
        for stage in stages {
            switch stage {
            case .record(let index):
                // Keys, UUIDs and joins read the record's values: the general path's rule, on its record.
                let step = steps[index]
                let value = try computeValue(step, try currentRecord())
                if let field = step.field { slots.store(value, at: field - ownCount) }
            case .expressions(let stage):
                func take(_ column: Int, _ view: SQLiteStatement.ColumnView) {
                    if let output = stage.outputs[column] { slots.store(view, at: output - ownCount) } else if !Self.isTrue(view) { kept = false }
                }
                let memo = stage.memo
                if memo.isOn, let found = memo.find(arguments: stage.arguments.count, { argumentView(stage.arguments[$0]) }) {
                    memo.replay(found, take)
                    continue
                }
                do {
                    try evaluateInPlace(stage.expression, stage.arguments, reader, stage.members[0]) { column, view in
                        memo.note(column, view)
                        take(column, view)
                    }
                    memo.commit()
                } catch {
                    guard stage.members.count > 1 else { throw error }
                    // One of them fails on this record: evaluated alone, it names itself.
                    let record = try currentRecord()
                    for member in stage.members { _ = try computeValue(steps[member], record) }
                    throw error
                }
            }
        }
        return kept
    }

    /// The view of record field `index`: the base's own, or a computed slot.
    @inline(__always)
    private func argumentView(_ index: Int) -> FieldView {
        index < ownCount ? ownFieldView(index) : slots.view(index - ownCount)
    }

    private static func isTrue(_ view: SQLiteStatement.ColumnView) -> Bool {
        if case .integer(1) = view { return true }
        return false
    }

    private func evaluateInPlace(_ expression: SQLiteExpression, _ arguments: [Int], _ reader: any FieldViewReader, _ stepIndex: Int,
                                 take: (Int, SQLiteStatement.ColumnView) -> Void) throws(ReaderError) {
        var record: Record?
        do throws(SQLiteExpression.Problem) {
            try expression.evaluateColumns(parameters: arguments.count, bind: { statement, position throws(SQLiteError) in
                let index = arguments[Int(position) - 1]
                switch argumentView(index) {
                case .null: try statement.bindNull(at: position)
                case .integer(let number): try statement.bindInteger(number, at: position)
                case .real(let number): try statement.bindReal(number, at: position)
                // SAFETY: SQLITE_STATIC: the bytes (the base's record or this record's slots) stay as they are
                // until the statement has stepped; every parameter is bound anew before the next step.
                case .text(let bytes): try statement.bindStaticText(bytes.baseAddress, count: bytes.count, at: position)
                case .other:
                    // A list or blob: bound from the record, as the general path binds it.
                    if record == nil { record = try? currentRecord() }
                    let value = record?.values[index] ?? .null
                    switch value {
                    case .blob(let bytes): try statement.bind(.blob(bytes), at: position)
                    case .text(let text): try statement.bind(.text(text), at: position)
                    case .real(let number): try statement.bindReal(number, at: position)
                    case .integer(let number): try statement.bindInteger(number, at: position)
                    case .null, .list: throw SQLiteError(code: 25, message: "a field it names holds a list (repeated values); an expression takes one value", sql: nil, path: "")
                    }
                }
            }, take: take)
        } catch {
            let location = (try? currentRecord())?.location ?? SourceLocation(file: file)
            throw ReaderError(.computedFieldFailed(field: steps[stepIndex].name, problem: error.message), at: location)
        }
    }
}

/// A value whose text or blob bytes are in a byte buffer its owner keeps (``ComputedSlots``,
/// ``ExpressionMemo``): where they start, and how many.
enum ArenaSlot {
    case null
    case integer(Int64)
    case real(Double)
    case text(start: Int, count: Int)
    case blob(start: Int, count: Int)
}

/// The computed values of the in-place path's current record: text and blobs in one buffer that is
/// reused from record to record. Not `Sendable`: owned by one reader.
final class ComputedSlots {
    private typealias Slot = ArenaSlot

    // SAFETY: the reader's thread only; views of `buffer` are handed out after the record's slots are
    // stored and are valid until the next `clear()` (FieldViewReader's rule); growing it happens only
    // while storing, before any view of the record is taken. No method re-enters another.
    @exclusivity(unchecked) private var slots: [Slot]
    @exclusivity(unchecked) private var buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
    @exclusivity(unchecked) private var capacity = 256
    @exclusivity(unchecked) private var used = 0

    init(count: Int) {
        slots = Array(repeating: .null, count: count)
    }

    deinit { buffer.deallocate() }

    func clear() {
        for index in slots.indices { slots[index] = .null }
        used = 0
    }

    /// Copies `bytes` into the buffer; where they start.
    /// SAFETY: `bytes` is read during the call only; the buffer grows (a new allocation, the old bytes
    /// copied, the old one freed) before it is written past its capacity.
    private func append(_ bytes: UnsafeRawBufferPointer) -> Int {
        if used + bytes.count > capacity {
            let grown = max(capacity * 2, used + bytes.count)
            let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
            larger.update(from: buffer, count: used)
            buffer.deallocate()
            (buffer, capacity) = (larger, grown)
        }
        // SAFETY: `bytes` is read inside this call; the destination has room for it (checked above).
        if let base = bytes.baseAddress, !bytes.isEmpty {
            (buffer + used).update(from: base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        }
        defer { used += bytes.count }
        return used
    }

    func store(_ view: SQLiteStatement.ColumnView, at index: Int) {
        switch view {
        case .null: slots[index] = .null
        case .integer(let number): slots[index] = .integer(number)
        case .real(let number): slots[index] = .real(number)
        // SAFETY: the statement's column view is copied at once, inside the caller's read of the row.
        case .text(let text): slots[index] = .text(start: append(UnsafeRawBufferPointer(text)), count: text.count)
        case .blob(let blob): slots[index] = .blob(start: append(blob), count: blob.count)
        }
    }

    func store(_ value: FieldValue, at index: Int) {
        switch value {
        case .null, .list: slots[index] = .null
        case .integer(let number): slots[index] = .integer(number)
        case .real(let number): slots[index] = .real(number)
        case .text(let text):
            let utf8 = Array(text.utf8)
            // SAFETY: the bytes are copied inside the closure.
            slots[index] = .text(start: utf8.withUnsafeBytes { append($0) }, count: utf8.count)
        case .blob(let blob):
            // SAFETY: the bytes are copied inside the closure.
            slots[index] = .blob(start: blob.withUnsafeBytes { append($0) }, count: blob.count)
        }
    }

    /// Slot `index` in place, valid until the next ``clear()``.
    func view(_ index: Int) -> FieldView {
        switch slots[index] {
        case .null: return .null
        case .integer(let number): return .integer(number)
        case .real(let number): return .real(number)
        // SAFETY: a view of `buffer`, valid until the next record (see `buffer`).
        case .text(let start, let count): return .text(UnsafeBufferPointer(start: buffer + start, count: count))
        case .blob: return .other
        }
    }

    /// Slot `index` as a value.
    func value(_ index: Int) -> FieldValue {
        switch slots[index] {
        case .null: return .null
        case .integer(let number): return .integer(number)
        case .real(let number): return .real(number)
        // SAFETY: copied out of `buffer` at once.
        case .text(let start, let count): return .text(String(decoding: UnsafeBufferPointer(start: buffer + start, count: count), as: UTF8.self))
        case .blob(let start, let count): return .blob(Array(UnsafeBufferPointer(start: buffer + start, count: count)))
        }
    }
}
