/// Record → row, one capability: how the records of one source become the rows of one entity.
///
/// Built once from the plan (``init(entity:source:numberedByInsertion:)``): one ``Column`` per column
/// of the entity's table, saying how it is filled. ``map(_:ordinal:primaryKey:numbers:update:into:rejections:)``
/// appends one record's values to a ``RowBatch`` — by the fast path where it decides
/// (`RowMapping+Fast.swift`: a field's bytes straight into the batch, no `String` made), else by the
/// general one (``AttributeFill/value(_:)``, `RowMapping+Value.swift`).
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
            case .value(let fill):
                if !inserting && keepsBlank(fill, input) {
                    batch.values.append(.null)
                } else if !input.appendFast(fill, to: &batch) {
                    batch.append(try value(&input, fill, rejections: &rejections))
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
