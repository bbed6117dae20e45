/// Derived values recomputed from the stored rows (issue 23, item 3). Written apart from the build's
/// side (`DerivedCount`, its `fillSQL` and triggers): the expression is read again from the model, the
/// relationship and its inverse found again in the model, the counting entities taken from the
/// entity tree, and the count made here in Swift from the keys — so that one mistake (a wrong column,
/// a wrong table binding, a wrong entity filter) cannot hide in both.
extension StoreVerifier {
    /// One derived attribute whose stored values disagree with the rows they derive from.
    struct DerivedDisagreement: Equatable {
        let entity: String, attribute: String, expression: String
        let table: String, column: String
        /// What the value is derived from, as the message says it (`the rows of ZITEM pointing at them`).
        let against: String
        /// The `Z_PK`s of the rows whose value is wrong, ascending.
        let keys: [Int64]
    }

    /// Every derived attribute of `layout`'s entities whose stored value is not what its expression
    /// gives over the stored rows. Forms verify does not know are left to the layout, which refuses them.
    static func derivedDisagreements(_ database: SQLiteDatabase, _ schema: StoredSchema, _ layout: StoreLayout,
                                     model: Model) throws -> [DerivedDisagreement] {
        var result: [DerivedDisagreement] = []
        for info in layout.entities where info.isInConfiguration {
            guard let entity = model.entity(named: info.name) else { continue }
            for attribute in entity.attributes where !attribute.isTransient {
                guard let expression = attribute.derivationExpression else { continue }
                let found = expression.hasSuffix(".@count")
                    ? try countDisagreement(database, schema, layout, model, entity: info.name, attribute: attribute.name, expression: expression)
                    : try keyPathDisagreement(database, schema, layout, model, entity: info.name, attribute: attribute.name, expression: expression)
                if let found { result.append(found) }
            }
        }
        return result
    }

    /// `<to-many>.@count`: per counting row, the rows whose inverse key holds its `Z_PK`.
    private static func countDisagreement(_ database: SQLiteDatabase, _ schema: StoredSchema, _ layout: StoreLayout, _ model: Model,
                                          entity: String, attribute: String, expression: String) throws -> DerivedDisagreement? {
        guard expression.hasSuffix(".@count"), case let name = String(expression.dropLast(".@count".count)), !name.contains("."),
              let (_, relationship) = declared(name, of: entity, in: model), relationship.isToMany,
              let inverseName = relationship.inverseName,
              let (inverseOwner, inverse) = declared(inverseName, of: relationship.destinationEntity, in: model), !inverse.isToMany,
              let own = layout.table(forEntity: entity), let counted = layout.table(forEntity: relationship.destinationEntity),
              let column = own.columns.first(where: { $0.role == .attribute(entity: entity, attribute: attribute, type: $0.roleType) }),
              let key = counted.columns.first(where: { $0.role == .toOne(entity: inverseOwner, relationship: inverseName, destination: entity) }),
              has(schema, table: own.name, columns: [CoreDataSchema.primaryKey, CoreDataSchema.entityColumn, column.name]),
              has(schema, table: counted.name, columns: [key.name]) else { return nil }
        var pointing: [Int64: Int64] = [:]
        for row in try database.rows("SELECT \(SQLIdentifier.quoted(key.name)) FROM \(SQLIdentifier.quoted(counted.name))") {
            if case .integer(let key) = row[0] { pointing[key, default: 0] += 1 }
        }
        let counting = entityNumbers(under: entity, layout)
        var wrong: [Int64] = []
        for row in try database.rows(CoreDataSQL.verifyEntityAndValue(table: own.name, column: column.name)) {
            guard case .integer(let pk) = row[0], case .integer(let number) = row[1], counting.contains(Int(number)) else { continue }
            if case .integer(let value) = row[2], value == pointing[pk] ?? 0 { continue }
            wrong.append(pk)
        }
        guard !wrong.isEmpty else { return nil }
        return DerivedDisagreement(entity: entity, attribute: attribute, expression: expression, table: own.name,
                                   column: column.name, against: "the rows of \(counted.name) pointing at them", keys: wrong)
    }

    /// `<to-one>.<attribute>`: per deriving row, the attribute of the row its to-one names (NULL for none).
    private static func keyPathDisagreement(_ database: SQLiteDatabase, _ schema: StoredSchema, _ layout: StoreLayout, _ model: Model,
                                            entity: String, attribute: String, expression: String) throws -> DerivedDisagreement? {
        let parts = expression.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, let (owner, relationship) = declared(parts[0], of: entity, in: model), !relationship.isToMany,
              let own = layout.table(forEntity: entity), let read = layout.table(forEntity: relationship.destinationEntity),
              let column = own.columns.first(where: { $0.role == .attribute(entity: entity, attribute: attribute, type: $0.roleType) }),
              let key = own.columns.first(where: { $0.role == .toOne(entity: owner, relationship: relationship.name, destination: relationship.destinationEntity) }),
              let value = read.columns.first(where: { column in
                  if case .attribute(let declarer, parts[1], _) = column.role { return entityNumbers(under: declarer, layout).contains(layout.entity(named: relationship.destinationEntity)?.number ?? -1) }
                  return false
              }),
              has(schema, table: own.name, columns: [CoreDataSchema.primaryKey, CoreDataSchema.entityColumn, column.name, key.name]),
              has(schema, table: read.name, columns: [CoreDataSchema.primaryKey, value.name]) else { return nil }
        var values: [Int64: SQLiteValue] = [:]
        for row in try database.rows(CoreDataSQL.verifyKeyAndValue(table: read.name, column: value.name)) {
            if case .integer(let pk) = row[0] { values[pk] = row[1] }
        }
        let deriving = entityNumbers(under: entity, layout)
        var wrong: [Int64] = []
        let sql = CoreDataSQL.verifyKeyPathRows(table: own.name, key: key.name, column: column.name)
        for row in try database.rows(sql) {
            guard case .integer(let pk) = row[0], case .integer(let number) = row[1], deriving.contains(Int(number)) else { continue }
            let expected: SQLiteValue = if case .integer(let target) = row[2] { values[target] ?? .null } else { .null }
            if row[3] != expected { wrong.append(pk) }
        }
        guard !wrong.isEmpty else { return nil }
        return DerivedDisagreement(entity: entity, attribute: attribute, expression: expression, table: own.name,
                                   column: column.name, against: "the \(parts[1]) of the \(read.name) row their \(key.name) names", keys: wrong)
    }

    /// The relationship `name` of `entity`, declared there or on an entity above it, with its declarer.
    static func declared(_ name: String, of entity: String, in model: Model) -> (owner: String, relationship: Relationship)? {
        var current: String? = entity
        while let this = current, let found = model.entity(named: this) {
            if let relationship = found.relationship(named: name) { return (this, relationship) }
            current = found.parentName
        }
        return nil
    }

    /// The `Z_ENT`s of `entity` and of every entity below it, read from the entity tree (`Z_SUPER`).
    static func entityNumbers(under entity: String, _ layout: StoreLayout) -> Set<Int> {
        guard let top = layout.entity(named: entity) else { return [] }
        var numbers: Set<Int> = [top.number]
        var grew = true
        while grew {
            grew = false
            for info in layout.entities where !numbers.contains(info.number) && numbers.contains(info.superNumber) {
                numbers.insert(info.number)
                grew = true
            }
        }
        return numbers
    }
}

extension StoreLayout.Column {
    /// The attribute type of an attribute column (`.undefined` for any other), to match roles by name.
    var roleType: AttributeType {
        if case .attribute(_, _, let type) = role { return type }
        return .undefined
    }
}
