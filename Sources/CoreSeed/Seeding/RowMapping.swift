import Foundation

/// Record → row, one capability: how the records of one source become the rows of one entity.
///
/// Built once from the plan (``init(entity:source:numberedByInsertion:)``): one ``Column`` per column
/// of the entity's table, saying how it is filled. ``map(_:ordinal:primaryKey:numbers:update:into:rejections:)``
/// appends one record's values to a ``RowBatch`` — by the fast path where it decides (below: a
/// field's bytes straight into the batch, no `String` made), else by the general one, the
/// attribute-value rule (``AttributeFill/value(_:)``, at the end of this file).
///
/// A class, as ``AttributeFill`` is, so that the per-row loop passes a reference, not a copy of its arrays.
final class RowMapping: Sendable {
    /// One way a column is filled.
    enum Column: Sendable {
        /// `Z_PK`: the record's row number (left to SQLite when it numbers rows as inserted).
        case primaryKey
        /// `Z_ENT`: the entity's number (a constant of the insert).
        case entityNumber
        /// `Z_OPT`: 1 for a new row (a constant of the insert).
        case optimisticLock
        /// NULL for this entity's rows: a column of another entity of the hierarchy, or a derived
        /// one the store computes (Core Data's triggers).
        case null
        /// An attribute's value, through its coercer.
        case value(AttributeFill)
        /// A Binary attribute with Allows External Storage (DESIGN §4b.10): its bytes inline after
        /// Core Data's `0x01` marker, or, when longer than `above`, in an external file the store
        /// side writes (``RowBatch/Value/external(start:count:file:)``).
        case external(AttributeFill, above: Int?)
        /// A to-one slot: the destination's `Z_PK`, its entity number, the order key.
        case toOne(slot: Int)
        case toOneEntity(slot: Int)
        case toOneOrder(slot: Int)
    }

    let entityName: String
    let entityNumber: Int64
    let tableName: String
    /// Per table column, in the table's order.
    let columns: [Column]
    let columnNames: [String]
    /// Per column, its ``Column/value(_:)`` fill unretained, for the per-row loop: reading it from the
    /// enum would retain and release it once per value (the plan keeps every fill alive for the build).
    /// SAFETY: each entry points at a fill `columns` holds strongly for the mapping's whole life.
    private let valueFills: [Unmanaged<AttributeFill>?]
    /// Upserts (`onBlank: keep`): a blank field binds NULL, which the update's COALESCE keeps.
    let keepsBlanks: Bool
    /// Its inserts leave `Z_PK` out (SQLite numbers the rows as they come).
    let numberedByInsertion: Bool

    init(entity: EntityPlan, source: SourcePlan, numberedByInsertion: Bool) {
        entityName = entity.name
        entityNumber = Int64(entity.number)
        tableName = entity.table.name
        columnNames = entity.table.columns.map(\.name)
        keepsBlanks = entity.keepsBlanks
        self.numberedByInsertion = numberedByInsertion
        columns = source.fills.map { fill in
            switch fill {
            case .primaryKey: .primaryKey
            case .entityNumber: .entityNumber
            case .optimisticLock: .optimisticLock
            case .null: .null
            case .attribute(let attribute) where attribute.allowsExternalStorage: .external(attribute, above: attribute.externalAbove)
            case .attribute(let attribute): .value(attribute)
            case .toOne(let slot): .toOne(slot: slot)
            case .toOneEntity(let slot): .toOneEntity(slot: slot)
            case .toOneOrder(let slot): .toOneOrder(slot: slot)
            }
        }
        valueFills = columns.map { column in
            // SAFETY: an unretained copy of a fill `columns` keeps (see `valueFills`).
            if case .value(let fill) = column { return Unmanaged.passUnretained(fill) }
            return nil
        }
    }

    /// Per seeded entity and source, the mappings of `plan` (built once per build).
    static func mappings(_ plan: BuildPlan, numberedByInsertion: [Bool]) -> [[RowMapping]] {
        plan.seedPlan.entities.enumerated().map { index, entity in
            entity.sources.map { RowMapping(entity: entity, source: $0, numberedByInsertion: numberedByInsertion[index]) }
        }
    }

    /// Appends the values of record `ordinal`'s row and returns how many: every column an insert
    /// binds (`update` nil: `Z_ENT`, `Z_OPT` and a `Z_PK` SQLite numbers are the statement's own), or
    /// those an update's `parameters` name. A value that cannot be converted is rejected and NULL
    /// takes its place (the key pass has already left out such records when errors are tolerated).
    @inline(__always)
    func map<Input: RowInput>(_ input: inout Input, ordinal: Int, primaryKey: Int64, numbers: borrowing EntityNumbers,
                              update parameters: [Int32?]?, into batch: inout RowBatch, rejections: inout Rejections) throws -> Int {
        let inserting = parameters == nil
        var count = 0
        for offset in columns.indices {
            if let parameters, parameters[offset] == nil { continue }
            switch columns[offset] {
            case .entityNumber where inserting, .optimisticLock where inserting: continue
            case .primaryKey where inserting && numberedByInsertion: continue
            default: count += 1
            }
            switch columns[offset] {
            case .primaryKey: batch.values.append(.integer(primaryKey))
            case .entityNumber: batch.values.append(.integer(entityNumber))
            case .optimisticLock: batch.values.append(.integer(1))
            case .null: batch.values.append(.null)
            case .value:
                // SAFETY: `columns` holds the fill strongly for as long as this mapping lives.
                try valueFills[offset].unsafelyUnwrapped._withUnsafeGuaranteedRef { fill in
                    if !inserting && keepsBlank(fill, input) {
                        batch.values.append(.null)
                    } else if !input.appendFast(fill, to: &batch) {
                        batch.append(try value(&input, fill, rejections: &rejections))
                    }
                }
            case .external(let fill, let above):
                let value = !inserting && keepsBlank(fill, input) ? .null : try value(&input, fill, rejections: &rejections)
                guard case .blob(let bytes) = value else {
                    batch.append(value)
                    continue
                }
                if let above, bytes.count > above {
                    batch.appendExternal(bytes, file: .init(table: tableName, column: columnNames[offset], primaryKey: primaryKey))
                } else {
                    batch.appendInline(bytes)
                }
            case .toOne(let slot):
                if let slots = numbers.slots {
                    if case .sameRecord = slots[slot] { batch.values.append(.integer(Int64(ordinal + 1))) } else { batch.values.append(.null) }
                    continue
                }
                let key = numbers.toOneKeys[slot][ordinal]
                batch.values.append(key == 0 ? .null : .integer(key))
            case .toOneEntity(let slot):
                if let slots = numbers.slots {
                    if case .sameRecord(let number) = slots[slot] { batch.values.append(.integer(number)) } else { batch.values.append(.null) }
                    continue
                }
                let number = numbers.toOneEntities[slot][ordinal]
                batch.values.append(number == 0 ? .null : .integer(Int64(number)))
            case .toOneOrder(let slot):
                if numbers.slots != nil {
                    batch.values.append(.null)
                    continue
                }
                let order = numbers.toOneOrders[slot][ordinal]
                batch.values.append(order == 0 ? .null : .integer(order))
            }
        }
        return count
    }

    /// An update that keeps stored values where the input is blank (`onBlank: keep`) binds NULL.
    @inline(__always)
    private func keepsBlank<Input: RowInput>(_ fill: AttributeFill, _ input: Input) -> Bool {
        guard keepsBlanks, fill.constant == nil, let field = fill.fieldIndex else { return false }
        return input.isBlank(field: field)
    }

    /// The general path: the attribute's value from the record; a failure is rejected (NULL instead).
    private func value<Input: RowInput>(_ input: inout Input, _ fill: AttributeFill, rejections: inout Rejections) throws -> SQLiteValue {
        let record = try input.record()
        do {
            return try fill.value(record)
        } catch {
            try rejections.reject(Rejections.mappingError(record, fieldIndex: fill.fieldIndex, field: fill.fieldName, entity: entityName,
                                                          attribute: fill.attribute.name, failure: error))
            return .null
        }
    }
}

/// The fast path of the row mapping: a field's value appended to the batch straight from the
/// reader's bytes when ``ValueCoercer/coerceFast(_:)`` (text) or ``ValueCoercer/acceptsFast(integer:)``
/// decides it — never a different answer from the general path (`ValueCoercerTests.fastPathAgreesWithCoerce`,
/// `RowMappingTests`), and nothing allocated per value.
extension RowMapping {
    /// Appends `fill`'s value from a field as an input shows it (``RowInput/appendFast(_:to:)``: each
    /// input only hands over its field's bytes) when the fast path decides it; false when the general
    /// path must.
    @inline(__always)
    static func appendFast(_ view: FieldView, _ fill: AttributeFill, to batch: inout RowBatch) -> Bool {
        if fill.rules != nil { return false }  // the model's rules are checked on the general path
        switch view {
        case .text(let bytes):
            guard let value = fill.coercer.coerceFast(bytes) else { return false }
            // A default replaces blank text, even for String attributes: the general path decides.
            if fill.defaultValue != nil && AttributeFill.isBlank(bytes) { return false }
            switch value {
            case .integer(let number): batch.values.append(.integer(number))
            case .real(let number): batch.values.append(.real(number))
            case .sameText: batch.appendText(bytes)
            }
            return true
        case .integer(let number):
            guard fill.coercer.acceptsFast(integer: number) else { return false }
            batch.values.append(.integer(number))
            return true
        case .null, .real, .other:
            return false
        }
    }

    /// Whether ``appendFast(_:_:to:)`` would decide the value (nothing appended).
    @inline(__always)
    static func acceptsFast(_ view: FieldView, _ fill: AttributeFill) -> Bool {
        if fill.rules != nil { return false }
        switch view {
        case .text(let bytes):
            guard fill.coercer.coerceFast(bytes) != nil else { return false }
            return !(fill.defaultValue != nil && AttributeFill.isBlank(bytes))
        case .integer(let number):
            return fill.coercer.acceptsFast(integer: number)
        case .null, .real, .other:
            return false
        }
    }
}

/// The general path of the row mapping: the attribute-value rule (constant, field, file, default,
/// optionality, the model's rules), for every value the fast path leaves alone, and for the key
/// pass's checks, uniqueness keys and `--explain`.
extension AttributeFill {
    /// The value of this attribute for one record: the constant, else the field, else the default;
    /// NULL for a non-optional attribute is a failure.
    @inline(__always)
    func value(_ record: Record) throws(CoercionFailure) -> SQLiteValue {
        var input = constant ?? (fieldIndex.map { record.values[$0] } ?? .null)
        if let fileFolder, case .text(let name) = input, !AttributeFill.isBlank(input) {
            input = .blob(try AttributeFill.fileBytes(name, in: fileFolder))
        }
        var result = try coercer.coerce(input)
        if let defaultValue, result == .null || AttributeFill.isBlank(input) {
            result = try coercer.coerce(defaultValue)
        }
        if case .null = result, !isOptional {
            throw CoercionFailure.required(input, type: type)
        }
        if let rules { try rules.check(result, seen: input) }
        return result
    }

    /// The bytes of the file `name` (relative to `folder` unless absolute): `"file": true`.
    static func fileBytes(_ name: String, in folder: String) throws(CoercionFailure) -> [UInt8] {
        let path = SeedSpec.join(folder, name)
        if let kind = FileError.irregularKind(path) {
            throw CoercionFailure(.fileMissing(path: path, reason: "is \(kind), not a regular file"), expected: "file", seen: .text(name))
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot be read" : "does not exist"
            throw CoercionFailure(.fileMissing(path: path, reason: reason), expected: "file", seen: .text(name))
        }
        return [UInt8](data)
    }

    /// Empty or all-space text: "no value" for the purpose of defaults, even for String attributes.
    static func isBlank(_ value: FieldValue) -> Bool {
        guard case .text(let text) = value else { return false }
        return isBlank(text.utf8)
    }

    /// ``isBlank(_:)`` of text given as UTF-8 bytes.
    @inline(__always)
    static func isBlank<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Bool {
        bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 }
    }
}
