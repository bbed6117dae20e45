import Foundation

/// The seed spec `export --spec` writes beside the CSV files: `build` runs it to rebuild the same rows.
///
/// Every entity is fed from its own file, keyed by `pk`; every attribute is mapped explicitly (dates as
/// `iso8601`, binaries as `base64`). NULL is an unquoted empty field and the empty string `""`, which the
/// sources read apart (`"nullIfUnquotedEmpty": true`); `"default": null` keeps a NULL NULL where the model
/// gives the attribute a default value.
struct ExportSpec {
    /// The spec's file name in the export folder.
    static let fileName = "seed.json"

    let modelPath: String
    let modelVersion: String?
    let output: String
    let metadata: StoreMetadata
    let uuid: String
    let plans: [EntityExport]
    /// The entities that have files: relationships to others are left out of the spec.
    let exported: Set<String>
    /// The files' format: CSV (to-many keys joined with ";") or JSON (arrays).
    var format: StoreExporter.Format = .csv
    /// Whether the store tracks persistent history: the rebuilt store then does too (`historyTracking`),
    /// with the rows as one transaction (the store's own transactions are not exported).
    var tracksHistory = false

    func text(warnings: inout [String]) -> String {
        var lines = ["{"]
        func field(_ key: String, _ value: String) { lines.append("  \(JSONWriter.quoted(key)): \(value),") }
        field("model", JSONWriter.quoted(modelPath))
        if let modelVersion { field("modelVersion", JSONWriter.quoted(modelVersion)) }
        field("output", JSONWriter.quoted(output))
        field("frameworkVersion", String(metadata.frameworkVersion))
        field("storeUUID", JSONWriter.quoted(uuid))
        if tracksHistory {
            if metadata.frameworkVersion >= SeedSpec.historyFramework {
                field("historyTracking", "true")
            } else {
                warnings.append("the store tracks persistent history at framework \(metadata.frameworkVersion), whose history tables CoreSeed does not know (only \(SeedSpec.historyFramework)'s): the rebuilt store will have none")
            }
        }
        if case .string(let version)? = metadata.other["CoreSeedVersion"] { field("seedVersion", JSONWriter.quoted(version)) }
        // The app's own metadata keys, so the rebuilt store carries them too.
        var kept: [(String, String)] = []
        for key in metadata.other.keys.sorted() where !SeedSpec.isCoreDataMetadataKey(key) {
            switch metadata.other[key]! {
            case .string(let text): kept.append((key, JSONWriter.quoted(text)))
            case .integer(let number): kept.append((key, String(number)))
            case .real(let number) where number.isFinite: kept.append((key, "\(number)"))
            case .boolean(let flag): kept.append((key, flag ? "true" : "false"))
            default: warnings.append("metadata key '\(key)' holds a date, data, array or dictionary, which a spec cannot give: the rebuilt store will not have it")
            }
        }
        if !kept.isEmpty {
            lines.append("  \"metadata\": {")
            for (index, (key, value)) in kept.enumerated() {
                lines.append("    \(JSONWriter.quoted(key)): \(value)" + (index < kept.count - 1 ? "," : ""))
            }
            lines.append("  },")
        }
        lines.append("  \"sources\": {")
        for (index, plan) in plans.enumerated() {
            var source = JSONWriter()
            source.object { json in
                switch format {
                case .csv:
                    json.field("csv", "\(plan.info.name).csv")
                    json.field("nullIfUnquotedEmpty", true)
                case .json:
                    json.field("json", "\(plan.info.name).json")
                    json.field("records", "/*")
                    // Named, not taken from the first record: an entity with no rows still has its fields.
                    json.field("fields") { json in json.object { json in for column in plan.columns { json.field(column.name, column.name) } } }
                }
            }
            lines.append("    \(JSONWriter.quoted(plan.info.name)): \(source.text)" + (index < plans.count - 1 ? "," : ""))
        }
        lines.append("  },")
        lines.append("  \"entities\": {")
        for (index, plan) in plans.enumerated() {
            lines.append("    \(JSONWriter.quoted(plan.info.name)): \(entity(plan, warnings: &warnings))" + (index < plans.count - 1 ? "," : ""))
        }
        lines.append("  }")
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    private func entity(_ plan: EntityExport, warnings: inout [String]) -> String {
        var json = JSONWriter()
        json.object { json in
            json.field("from", plan.info.name)
            json.field("key", plan.keyName)
            json.field("primaryKey", plan.keyName)  // the same Z_PKs: saved object IDs still point at their objects
            json.field("attributes") { json in
                json.object { json in
                    for column in plan.columns {
                        // A derived attribute is computed by the rebuilt store: its column is data, not input.
                        guard case .attribute(let attribute) = column.kind, attribute.derivationExpression == nil else { continue }
                        attributeSpec(column, attribute, entity: plan.info.name, into: &json, warnings: &warnings)
                    }
                }
            }
            json.field("relationships") { json in
                json.object { json in
                    for column in plan.columns {
                        switch column.kind {
                        case .toOne(let relationship, let inSpec) where inSpec:
                            guard isExported(relationship.destinationEntity) else { continue }
                            json.field(column.name) { $0.object { $0.field("key", column.name) } }
                        case .list(let relationship):
                            guard isExported(relationship.destinationEntity) else { continue }
                            json.field(column.name) { json in
                                json.object { json in
                                    json.field("key", column.name)
                                    if format == .csv { json.field("separator", StoreExporter.listSeparator) }
                                }
                            }
                        default: continue
                        }
                    }
                }
            }
        }
        return json.text
    }

    /// True when rows of `entity` (or of one of its sub-entities) are exported.
    private func isExported(_ entity: String) -> Bool {
        plans.contains { plan in plan.info.name == entity || plan.lineageNames.contains(entity) }
    }

    private func attributeSpec(_ column: EntityExport.Column, _ attribute: Attribute, entity: String,
                               into json: inout JSONWriter, warnings: inout [String]) {
        var options: [(String, String)] = []  // key, raw JSON value
        switch attribute.type {
        case .date: options.append(("date", JSONWriter.quoted("iso8601")))
        case .transformable where column.archived: options.append(("archive", JSONWriter.quoted("json")))
        case .binary, .transformable: options.append(("base64", "true"))
        default: break
        }
        if let smallest = column.smallestExternal {
            // Values in files: the rebuilt store puts each where it was when one size separates them.
            if column.largestInline < smallest {
                options.append(("externalAbove", String(smallest - 1)))
            } else {
                warnings.append("\(entity).\(attribute.name): values of \(column.largestInline) bytes are inline and of \(smallest) in files; the rebuilt store keeps values above \(column.largestInline) bytes in files")
                options.append(("externalAbove", String(column.largestInline)))
            }
        }
        if column.nulls > 0, attribute.defaultValueString != nil {
            options.append(("default", "null"))  // keeps NULL instead of the model's default
        }
        if options.isEmpty {
            json.field(attribute.name, column.name)
            return
        }
        json.field(attribute.name) { json in
            json.object { json in
                json.field("field", column.name)
                for (key, value) in options { json.field(key) { $0.raw(value) } }
            }
        }
    }
}
