import Foundation

/// Pass 2: every kept record becomes one complete row; then join rows, metadata, checks, rename.
extension SeedBuild {
    func writeRows() throws {
        let writer = self.writer
        for (index, entity) in plan.entities.enumerated() {
            let statement = try writer?.rowInserter(for: entity.table)
            let insertParameters = entity.table.columns.indices.map { Int32?(Int32($0 + 1)) }
            var ordinal = 0
            var rows = 0, updated = 0, unchanged = 0
            let matched = states[index].existingPrimaryKeys
            for source in entity.sources {
                let update = existing == nil ? nil : try updateStatement(for: entity, index: index, source: source)
                let reader = try source.spec.openReader(relativeTo: specDirectory)
                while let record = try reader.next() {
                    defer { ordinal += 1 }
                    let primaryKey = states[index].primaryKeys[ordinal]
                    guard primaryKey != 0 else { continue }
                    if let pending = states[index].unresolved[Int32(ordinal)] {
                        for (linkIndex, key) in pending {
                            let link = entity.fieldLinks[linkIndex]
                            let fieldIndex = source.linkFields[linkIndex].first
                            try reject(mappingError(record, fieldIndex: fieldIndex, field: link.fieldName, entity: entity.name,
                                                    attribute: link.relationship.name,
                                                    failure: .unresolvedKey(NaturalKey.display(key), destination: link.relationship.destinationEntity)))
                        }
                    }
                    if !matched.isEmpty, matched[ordinal] != 0 {
                        // A row already in the store: update what changed, keep the rest.
                        guard let (statement, parameters) = update else { unchanged += 1; continue }
                        try bindRow(record, ordinal: ordinal, primaryKey: primaryKey, entity: entity, entityIndex: index,
                                    source: source, statement: statement, parameters: parameters)
                        statement.bindInteger(primaryKey, at: Int32(parameters.compactMap { $0 }.count + 1))
                        try statement.step()
                        statement.reset()
                        if writer?.store.changes ?? 0 > 0 { updated += 1 } else { unchanged += 1 }
                        continue
                    }
                    try bindRow(record, ordinal: ordinal, primaryKey: primaryKey, entity: entity, entityIndex: index,
                                source: source, statement: statement, parameters: insertParameters)
                    if let statement {
                        try statement.step()
                        statement.reset()
                    }
                    rows += 1
                    if rows & 0xFFFF == 0 { options.progress?("\(entity.name): \(rows) rows written") }
                }
            }
            report.entities.append(.init(name: entity.name, rows: rows, rejected: states[index].rejected,
                                         updated: updated, unchanged: unchanged + states[index].skippedExisting))
        }
        for join in plan.layout.joinTables {
            guard let rows = joinRows[join.name], !rows.isEmpty else { continue }
            report.joinRows[join.name] = rows.count
            guard let writer else { continue }
            let statement = try writer.joinInserter(for: join, ignoringDuplicates: existing != nil)
            for row in rows {
                statement.bindInteger(row.first, at: 1)
                statement.bindInteger(row.second, at: 2)
                for (offset, order) in row.orders.enumerated() { statement.bindInteger(order, at: Int32(3 + offset)) }
                try statement.step()
                statement.reset()
            }
        }
        report.rejected = errors
        guard let writer else { return }
        if existing != nil {
            var extra: [String: PropertyListValue] = [:]
            if let version = plan.spec.seedVersion { extra["CoreSeedVersion"] = .string(version) }
            try writer.finishUpdate(maxPrimaryKeys: maxPrimaryKeys, extraMetadata: extra, check: selfCheck)
            report.output = writer.targetPath
            return
        }
        try finish(writer)
        report.output = output
    }

    /// Binds every column of one row; a value that cannot be converted is rejected (NULL in its place
    /// when errors are tolerated, though the first pass has already dropped such records).
    private func bindRow(_ record: Record, ordinal: Int, primaryKey: Int64, entity: EntityPlan, entityIndex: Int,
                         source: SourcePlan, statement: SQLiteStatement?, parameters: [Int32?]) throws {
        for (offset, fill) in source.fills.enumerated() {
            guard let parameter = parameters[offset] else { continue }
            switch fill {
            case .primaryKey: statement?.bindInteger(primaryKey, at: parameter)
            case .entityNumber: statement?.bindInteger(Int64(entity.number), at: parameter)
            case .optimisticLock: statement?.bindInteger(1, at: parameter)
            case .null: statement?.bindNull(at: parameter)
            case .attribute(let attribute):
                do {
                    let converted = try value(attribute, record)
                    try statement?.bind(converted, at: parameter)
                } catch let failure as CoercionFailure {
                    try reject(mappingError(record, fieldIndex: attribute.fieldIndex, field: attribute.fieldName,
                                            entity: entity.name, attribute: attribute.attribute.name, failure: failure))
                    statement?.bindNull(at: parameter)
                }
            case .toOne(let slot):
                let key = states[entityIndex].toOneKeys[slot][ordinal]
                if key == 0 { statement?.bindNull(at: parameter) } else { statement?.bindInteger(key, at: parameter) }
            case .toOneEntity(let slot):
                let number = states[entityIndex].toOneEntities[slot][ordinal]
                if number == 0 { statement?.bindNull(at: parameter) } else { statement?.bindInteger(Int64(number), at: parameter) }
            case .toOneOrder(let slot):
                let order = states[entityIndex].toOneOrders[slot][ordinal]
                if order == 0 { statement?.bindNull(at: parameter) } else { statement?.bindInteger(order, at: parameter) }
            }
        }
    }

    /// Metadata, a UUID derived from the inputs, the writer's own checks, and the rename.
    private func finish(_ writer: StoreWriter) throws {
        let framework = plan.layout.framework.rawValue
        var other: [String: PropertyListValue] = [:]
        if let version = plan.spec.seedVersion { other["CoreSeedVersion"] = .string(version) }
        var metadata = StoreMetadata(model: plan.model, frameworkVersion: framework, other: other)
        if framework < 1044 { metadata.hashesDigest = nil }
        if framework < 1327 { metadata.checksum = nil }
        let uuid = try plan.spec.storeUUID ?? inputUUID()
        try writer.finish(maxPrimaryKeys: maxPrimaryKeys, uuid: uuid, metadata: metadata, check: selfCheck)
    }

    /// The writer's own verification of the finished file against the model.
    func selfCheck(_ database: SQLiteDatabase) throws -> [String] {
        let versions = ModelVersions(versions: [plan.model], currentVersionName: plan.model.versionName, path: plan.model.path)
        var check = StoreVerifier.Report()
        try StoreVerifier(versions: versions, configuration: options.configuration ?? plan.spec.configuration).verify(database, into: &check)
        return check.differences
    }

    /// A UUID derived from the inputs (spec, model hashes, every source file's bytes), so identical
    /// inputs give a byte-identical store. Uppercase, as Core Data writes `Z_UUID`.
    func inputUUID() throws -> String {
        let hash = SHA256Stream()
        if let spec = FileManager.default.contents(atPath: specPath) { hash.update([UInt8](spec)) }
        hash.update(Array(ModelHashes.compute(for: plan.model).digest.utf8))
        var paths = Set<String>()
        for source in plan.spec.sources.values { paths.insert(plan.spec.resolve(source.path)) }
        for path in paths.sorted() {
            guard let handle = FileHandle(forReadingAtPath: path) else { continue }
            defer { try? handle.close() }
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                chunk.withUnsafeBytes { hash.update($0) }
            }
        }
        var bytes = hash.finish()
        bytes[6] = (bytes[6] & 0x0F) | 0x80  // RFC 9562 version 8: custom
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.prefix(16).map { String(format: "%02X", $0) }.joined()
        let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4), hex.dropFirst(20).prefix(12)]
        return parts.joined(separator: "-")
    }
}
