/// Upsert and insert into an existing store: its rows' keys, matched to the input's records.
extension SeedBuild {
    /// What an upsert knows about the store it updates.
    struct ExistingRows {
        /// Per seeded entity: stored key → `Z_PK` of rows of that concrete entity.
        var keys: [[String: Int64]]
        /// Per hierarchy root: `Z_MAX` before the build.
        var maxPrimaryKeys: [String: Int64]
        /// Per seeded entity: how a record's key reads in the store's terms.
        var keyReaders: [ExistingKeyReader]
    }

    /// How an entity's key is found in the store: the attributes its key fields feed, or, for an entity
    /// whose key feeds no attribute (FailedBankInfo keyed by "CERT #"), the key of the row its to-one
    /// relationship with the same key fields points at.
    enum ExistingKeyReader {
        case attributes(columns: [String], coercers: [AttributeFill])
        case through(column: String, destination: Int, coercers: [AttributeFill])

        var coercers: [AttributeFill] {
            switch self {
            case .attributes(_, let coercers), .through(_, _, let coercers): coercers
            }
        }
    }

    /// Reads the keys of every seeded entity's existing rows. Throws when an entity's key cannot be
    /// found in the store (an upsert must match rows by key).
    func loadExisting(_ database: SQLiteDatabase) throws -> ExistingRows {
        let readers = try plan.entities.map { try keyReader(for: $0, depth: 0) }
        var keys: [[String: Int64]] = Array(repeating: [:], count: plan.entities.count)
        // Entities keyed by attributes first: the others are keyed through them.
        let order = plan.entities.indices.sorted { a, b in
            if case .attributes = readers[a], case .through = readers[b] { return true }
            return false
        }
        for index in order {
            let entity = plan.entities[index]
            switch readers[index] {
            case .attributes(let columns, _):
                let sql = "SELECT Z_PK, \(columns.joined(separator: ", ")) FROM \(entity.table.name) WHERE Z_ENT = \(entity.number)"
                for row in try database.rows(sql) {
                    guard case .integer(let primaryKey) = row[0] else { continue }
                    let parts = row.dropFirst().map { NaturalKey.part(SeedBuild.fieldValue($0)) }
                    if parts.allSatisfy({ $0 != nil }) { keys[index][parts.map { $0! }.joined(separator: String(NaturalKey.separator))] = primaryKey }
                }
            case .through(let column, let destination, _):
                var keyOf: [Int64: String] = [:]
                for (key, primaryKey) in keys[destination] { keyOf[primaryKey] = key }
                let sql = "SELECT Z_PK, \(column) FROM \(entity.table.name) WHERE Z_ENT = \(entity.number)"
                for row in try database.rows(sql) {
                    guard case .integer(let primaryKey) = row[0], case .integer(let target) = row[1], let key = keyOf[target] else { continue }
                    keys[index][key] = primaryKey
                }
            }
        }
        var maxima: [String: Int64] = [:]
        for row in try database.rows("SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY WHERE Z_SUPER = 0") {
            if case .text(let name) = row[0], case .integer(let max) = row[1] { maxima[name] = max }
        }
        return ExistingRows(keys: keys, maxPrimaryKeys: maxima, keyReaders: readers)
    }

    private func keyReader(for entity: EntityPlan, depth: Int) throws -> ExistingKeyReader {
        let source = entity.sources[0]
        guard !source.keyFields.isEmpty else {
            throw SpecError(path: plan.spec.path, message: "entities.\(entity.name): an upsert matches rows by key; give '\(entity.name)' a key")
        }
        var columns: [String] = [], coercers: [AttributeFill] = []
        for field in source.keyFields {
            for (offset, fill) in source.fills.enumerated() {
                if case .attribute(let attribute) = fill, attribute.fieldIndex == field {
                    columns.append(entity.table.columns[offset].name)
                    coercers.append(attribute)
                    break
                }
            }
        }
        if columns.count == source.keyFields.count { return .attributes(columns: columns, coercers: coercers) }
        // The key feeds no attribute: match through a to-one whose key fields are the same.
        for (linkIndex, link) in entity.fieldLinks.enumerated()
        where depth == 0 && !link.relationship.isToMany && source.linkFields[linkIndex] == source.keyFields {
            guard let slot = entity.toOneSlots.firstIndex(of: link.relationship.name),
                  let destination = candidates(for: link.relationship.destinationEntity).first,
                  let offset = source.fills.firstIndex(where: { if case .toOne(slot) = $0 { true } else { false } }),
                  case .attributes(_, let coercers)? = try? keyReader(for: plan.entities[destination], depth: depth + 1) else { continue }
            return .through(column: entity.table.columns[offset].name, destination: destination, coercers: coercers)
        }
        throw SpecError(path: plan.spec.path, message: "entities.\(entity.name): an upsert matches rows by key, but the key '\(entity.keyFieldName ?? "")' feeds no attribute of '\(entity.name)' and no to-one relationship with the same key")
    }

    /// The key of a record in the store's terms: each key field converted as its attribute stores it.
    func storedKey(_ record: Record, source: SourcePlan, reader: ExistingKeyReader) -> String? {
        var parts: [String] = []
        for (field, fill) in zip(source.keyFields, reader.coercers) {
            guard let converted = try? fill.coercer.coerce(record.values[field]),
                  let part = NaturalKey.part(SeedBuild.fieldValue(converted)) else { return nil }
            parts.append(part)
        }
        return parts.joined(separator: String(NaturalKey.separator))
    }

    static func fieldValue(_ value: SQLiteValue) -> FieldValue {
        switch value {
        case .null: .null
        case .integer(let v): .integer(v)
        case .real(let v): .real(v)
        case .text(let v): .text(v)
        case .blob(let v): .blob(v)
        }
    }
}

extension SeedBuild {
    /// Checks that the store to update matches the model, copies it to the temporary file, and reads
    /// the keys of its rows.
    func openExisting(versions: ModelVersions, model: Model, insertOnly: Bool) throws -> StoreWriter {
        let target = options.into ?? output
        let single = ModelVersions(versions: [model], currentVersionName: model.versionName, path: versions.path)
        let report = try StoreVerifier(versions: single, configuration: options.configuration ?? plan.spec.configuration)
            .verify(storeAt: target)
        guard report.isMatch else {
            let more = report.differences.count > 1 ? " (and \(report.differences.count - 1) more; run coreseed verify)" : ""
            throw StoreError(path: target, message: "the store to update does not match model version '\(model.versionName)': \(report.differences[0])\(more)")
        }
        let writer = try StoreWriter(updating: target, layout: plan.layout)
        existing = try loadExisting(writer.store)
        self.insertOnly = insertOnly
        return writer
    }

    /// `UPDATE` of the columns the input feeds, only when one of them changes: `Z_OPT` counts real
    /// changes. Returns the statement and, per table column, its parameter (nil: not updated).
    func updateStatement(for entity: EntityPlan, index: Int, source: SourcePlan) throws -> (SQLiteStatement, [Int32?])? {
        guard let writer else { return nil }
        var parameters: [Int32?] = []
        var assignments: [String] = [], changes: [String] = []
        for (offset, fill) in source.fills.enumerated() {
            let column = entity.table.columns[offset].name
            var fed: Bool
            switch fill {
            case .attribute(let attribute): fed = attribute.fieldIndex != nil || attribute.constant != nil
            case .toOne(let slot), .toOneEntity(let slot), .toOneOrder(let slot):
                fed = states[index].toOneKeys[slot].contains { $0 != 0 }
            default: fed = false
            }
            guard fed else { parameters.append(nil); continue }
            let number = Int32(assignments.count + 1)
            parameters.append(number)
            assignments.append("\(column) = ?\(number)")
            changes.append("\(column) IS NOT ?\(number)")
        }
        guard !assignments.isEmpty else { return nil }
        let key = assignments.count + 1
        let sql = "UPDATE \(entity.table.name) SET Z_OPT = Z_OPT + 1, \(assignments.joined(separator: ", ")) WHERE Z_PK = ?\(key) AND (\(changes.joined(separator: " OR ")))"
        return (try writer.store.prepare(sql), parameters)
    }
}
