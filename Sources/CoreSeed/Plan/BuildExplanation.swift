import Foundation

/// What `coreseed build --explain` prints: the mapping a spec resolves to, entity by entity — which
/// field feeds each attribute and relationship and how it was found (the spec, a userInfo key, a
/// name match), the conversion, the default, and the value the first record gives — without building.
public enum BuildExplanation {
    /// The explanation of the spec at `specPath`, one line per entity, attribute and relationship.
    public static func lines(specPath: String, configuration: String? = nil) throws -> [String] {
        let spec = try SeedSpec.load(path: specPath)
        let versions = try ModelVersions.load(path: spec.resolve(spec.model))
        let model = try versions.version(named: spec.modelVersion)
        let framework = FrameworkVersion(spec.frameworkVersion ?? FrameworkVersion.newest.rawValue)
        let seedPlan = try SeedPlan(spec: spec, model: model, configuration: configuration ?? spec.configuration, framework: framework)
        var lines = ["\(specPath): model version '\(model.versionName)', framework \(framework.rawValue), output \(spec.output.map(spec.resolve) ?? "(none)")"]
        for entity in seedPlan.entities {
            if entity.hasStoredRowsOnly {
                lines.append("\(entity.name) (Z_ENT \(entity.number), table \(entity.table.name)): the rows already in the store (\(RunOption.into)), found by '\(entity.keyFieldName ?? "")'")
                continue
            }
            let sources = entity.sources.map { "'\($0.name)' (\(spec.resolve($0.spec.path)))" }.joined(separator: ", ")
            var header = "\(entity.name) (Z_ENT \(entity.number), table \(entity.table.name)) from \(sources)"
            if let key = entity.keyFieldName { header += ", key '\(key)'" }
            if let primaryKey = entity.primaryKeyFieldName { header += ", Z_PK from '\(primaryKey)'" }
            lines.append(header)
            let source = entity.sources[0]
            let first = try firstRecord(source, directory: spec.directory)
            for case .attribute(let fill) in source.fills {
                lines.append("  " + describe(fill, first: first))
            }
            var lineage: [String] = [], current: String? = entity.name
            while let name = current { lineage.append(name); current = model.entity(named: name)?.parentName }
            for derived in seedPlan.layout.derivedCounts where lineage.contains(derived.entity) {
                lines.append("  \(derived.attribute) ← counted by the store (derived): the rows of \(derived.childTable) whose \(derived.childKey) points at it, kept by Z_DA_ triggers")
            }
            for derived in seedPlan.layout.derivedKeyPaths where lineage.contains(derived.entity) {
                lines.append("  \(derived.attribute) ← read by the store (derived): \(derived.destinationColumn) of the \(derived.destinationTable) row its \(derived.key) names, kept by Z_DA_ triggers")
            }
            for (index, link) in entity.fieldLinks.enumerated() {
                let fields = source.linkFields[index].map { source.fieldNames[$0] }
                let kind = link.relationship.isToMany ? "to-many" + (link.separator.map { ", keys split at \"\($0)\"" } ?? "") : "to-one"
                var line = "  \(link.relationship.name) → \(link.relationship.destinationEntity) by key in \(fields.map { "'\($0)'" }.joined(separator: " + ")) (\(kind))"
                if let first {
                    let keys = fields.count == 1 ? NaturalKey.keys(first.values[source.linkFields[index][0]], separator: link.separator)
                                                 : [NaturalKey.key(first.values, at: source.linkFields[index])].compactMap { $0 }
                    line += "; first: " + (keys.isEmpty ? "none" : keys.map { "\"\($0)\"" }.joined(separator: ", "))
                }
                lines.append(line)
            }
        }
        for join in seedPlan.joinLinks {
            lines.append("\(join.entity).\(join.relationship.name) → \(join.relationship.destinationEntity): one link per record of '\(join.sourceName)' ('\(join.keyFieldName)' → '\(join.destinationKeyFieldName)')")
        }
        return lines
    }

    /// The source's first record, or nil when it has none.
    private static func firstRecord(_ source: SourcePlan, directory: String) throws -> Record? {
        try source.spec.openReader(relativeTo: directory).next()
    }

    /// `closeDate ← 'Closing Date' (the spec): Date, "d-MMM-yy" in America/New_York; first: 2010-03-26T04:00:00Z`
    static func describe(_ fill: AttributeFill, first: Record?) -> String {
        let attribute = fill.attribute
        var line = attribute.name
        if let constant = fill.constant {
            line += " ← constant \(CoercionFailure.render(constant))"
        } else if fill.fieldIndex != nil {
            line += " ← '\(fill.fieldName)' (\(fill.origin))"
        } else {
            line += " ← no field"
        }
        var conversion = attribute.type.rawValue
        if attribute.type == .date {
            conversion += ", " + fill.coercer.dateParser.expected + " in " + fill.coercer.dateParser.timeZone
        }
        if fill.coercer.options.base64 { conversion += ", base64" }
        if fill.fileFolder != nil { conversion += ", the bytes of the file it names" }
        if let defaultValue = fill.defaultValue { conversion += ", default \(CoercionFailure.render(defaultValue))" }
        if !attribute.isOptional { conversion += ", required" }
        line += ": " + conversion
        guard let first else { return line + "; no records" }
        do {
            line += "; first: " + rendered(try fill.value(first), type: attribute.type)
        } catch {
            line += "; first: " + error.message(field: fill.fieldName)
        }
        return line
    }

    /// A stored value as the explanation shows it: dates in ISO 8601 (UTC), text quoted, blobs by size.
    private static func rendered(_ value: SQLiteValue, type: AttributeType) -> String {
        switch value {
        case .null: return "NULL"
        case .real(let seconds) where type == .date:
            let formatter = ISO8601DateFormatter()
            formatter.timeZone = TimeZone(identifier: "UTC")
            return formatter.string(from: Date(timeIntervalSinceReferenceDate: seconds))
        case .integer(let number): return String(number)
        case .real(let number): return String(number)
        case .text(let text): return CoercionFailure.render(.text(text))
        case .blob(let bytes): return CoercionFailure.render(.blob(bytes))
        }
    }
}
