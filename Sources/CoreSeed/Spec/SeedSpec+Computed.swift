/// An entity mapping's computed parts become computed fields of its sources, once, when the spec is
/// read: an attribute's `{"sql": …}` or `{"uuid": …}`, the key's and a relationship key's
/// `{"sql": …}` are fields named after their spec key (`entities.Subdivision.attributes.country`),
/// and the entity's `"where"` reads each of its sources through a copy of it with the filter
/// (`subdivisions:Subdivision`), so that other entities of the same source see every record.
extension SeedSpec {
    static func expandComputed(sources: inout [String: SourceSpec], entities: inout [String: EntitySpec],
                               path: String) throws(FileError) {
        func check(_ sql: String, at key: String) throws(FileError) {
            do throws(SQLiteExpression.Problem) { _ = try SQLiteExpression(sql) } catch {
                throw FileError(path: path, message: "at \(key): {\"sql\": \"\(sql)\"}: \(error.message)")
            }
        }
        for name in entities.keys.sorted() {
            guard var entity = entities[name] else { continue }
            var computed: [ComputedField] = []
            for attribute in entity.attributes.keys.sorted() {
                guard var spec = entity.attributes[attribute] else { continue }
                let field = "entities.\(name).attributes.\(attribute)"
                if let sql = spec.sql {
                    try check(sql, at: field)
                    computed.append(ComputedField(name: field, formula: .sql(sql)))
                } else if let rule = spec.uuid {
                    switch rule {
                    case .fromKey:
                        guard let key = entity.key ?? entity.keySQL.map({ _ in ["entities.\(name).key"] }) else {
                            throw FileError(path: path, message: "at \(field): {\"uuid\": \"fromKey\"} derives the UUID from the entity's key, and '\(name)' has no \"key\"")
                        }
                        computed.append(ComputedField(name: field, formula: .uuidFromKey(entity: name, keyFields: key)))
                    case .random:
                        computed.append(ComputedField(name: field, formula: .uuidRandom(entity: name, seed: "")))
                    }
                } else {
                    continue
                }
                (spec.field, spec.sql, spec.uuid) = (field, nil, nil)
                entity.attributes[attribute] = spec
            }
            if let sql = entity.keySQL {
                let field = "entities.\(name).key"
                try check(sql, at: field)
                computed.insert(ComputedField(name: field, formula: .sql(sql)), at: 0)
                (entity.key, entity.keySQL) = ([field], nil)
            }
            for relationship in entity.relationships.keys.sorted() {
                guard var spec = entity.relationships[relationship], let sql = spec.keySQL else { continue }
                let field = "entities.\(name).relationships.\(relationship).key"
                try check(sql, at: field)
                computed.append(ComputedField(name: field, formula: .sql(sql)))
                (spec.key, spec.keySQL) = ([field], nil)
                entity.relationships[relationship] = spec
            }
            for joined in entity.join.keys.sorted() {
                guard let join = entity.join[joined] else { continue }
                let at = "entities.\(name).join.\(joined)"
                guard let source = sources[joined] else {
                    throw FileError(path: path, message: "at \(at): no source '\(joined)'\(Suggestion.hint(for: joined, in: Array(sources.keys))) (sources: \(sources.keys.sorted().joined(separator: ", ")))")
                }
                guard let key = entity.key else {
                    throw FileError(path: path, message: "at \(at): a join matches the entity's key, and '\(name)' has no \"key\"")
                }
                guard join.key.count == key.count else {
                    throw FileError(path: path, message: "at \(at).key: \(join.key.count) field(s), and the key of '\(name)' has \(key.count)")
                }
                let attributes = join.attributes.keys.sorted()
                let plan = JoinPlan(name: joined, source: source, keyFields: join.key, fields: attributes.map { join.attributes[$0]! },
                                              duplicates: JoinPlan.Duplicates(rawValue: entity.onDuplicateKey.rawValue) ?? .error)
                for (offset, attribute) in attributes.enumerated() {
                    guard entity.attributes[attribute] == nil else {
                        throw FileError(path: path, message: "at \(at).attributes.\(attribute): the attribute is mapped in \"attributes\" too: give it one source")
                    }
                    let field = "\(at).\(join.attributes[attribute]!)"
                    computed.append(ComputedField(name: field, formula: .joined(plan: plan, field: offset, keyFields: key)))
                    entity.attributes[attribute] = AttributeSpec(field: field)
                }
            }
            entity.join = [:]
            if let filter = entity.filter { try check(filter, at: "entities.\(name).where") }
            guard !computed.isEmpty || entity.filter != nil else { continue }
            for (position, source) in entity.from.enumerated() {
                guard let spec = sources[source] else { continue }  // the plan names a missing source
                if let filter = entity.filter {
                    let copy = "\(source):\(name)"
                    sources[copy] = spec.adding(computed, filter: filter)
                    entity.from[position] = copy
                } else {
                    sources[source] = spec.adding(computed, filter: nil)
                }
            }
            entity.filter = nil
            entities[name] = entity
        }
    }

    /// The computed fields that make random UUIDs (seeded from the store's UUID, ``seedingRandomUUIDs(_:)``),
    /// named by their spec keys.
    var randomUUIDFields: [String] {
        Set(sources.values.flatMap { source -> [String] in
            guard case .computed(_, let fields, _) = source else { return [] }
            return fields.filter { if case .uuidRandom = $0.formula { true } else { false } }.map(\.name)
        }).sorted()
    }

    /// The spec with every random UUID seeded from `storeUUID`.
    func seedingRandomUUIDs(_ storeUUID: String) -> SeedSpec {
        var spec = self
        spec.sources = sources.mapValues { source in
            guard case .computed(let base, let fields, let filter) = source else { return source }
            return .computed(base: base, fields: fields.map { field in
                guard case .uuidRandom(let entity, _) = field.formula else { return field }
                return ComputedField(name: field.name, formula: .uuidRandom(entity: entity, seed: storeUUID))
            }, filter: filter)
        }
        return spec
    }
}

extension SourceSpec {
    /// This source with more computed fields (a field given twice keeps its first formula) and its
    /// filter and `filter` both required.
    func adding(_ fields: [ComputedField], filter: String?) -> SourceSpec {
        guard case .computed(let base, let existing, let own) = self else {
            return .computed(base: self, fields: fields, filter: filter)
        }
        let names = Set(existing.map(\.name))
        let both = [own, filter].compactMap { $0 }.map { "(\($0))" }.joined(separator: " AND ")
        return .computed(base: base, fields: existing + fields.filter { !names.contains($0.name) }, filter: both.isEmpty ? nil : both)
    }
}
