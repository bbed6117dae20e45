import Foundation

extension SeedPlan {
    /// Resolves `spec` against `model` (restricted to `configuration`): every entity, attribute,
    /// relationship, source and field it names must exist. Opens each source once to learn its fields.
    init(spec: SeedSpec, model: Model, configuration: String?, framework: FrameworkVersion) throws {
        // Random UUIDs are seeded from the store's UUID (the spec's, or the one its inputs give).
        let spec = spec.randomUUIDFields.isEmpty ? spec
            : spec.seedingRandomUUIDs(try spec.storeUUID ?? SeedBuild.inputUUID(specPath: spec.path, spec: spec, model: model))
        let layout: StoreLayout
        do {
            layout = try StoreLayout(model: model, configuration: configuration, framework: framework)
        } catch {
            // The model's own problems stay at the model's line; the rest (a configuration) is the spec's.
            throw error.path == nil ? FileError(path: spec.path, message: error.message) : error
        }
        let graph = EntityGraph(model: model)
        if spec.historyTracking, let problem = HistoryTombstones.refusal(graph, members: Set(layout.entities.filter(\.isInConfiguration).map(\.name))) {
            throw FileError(path: spec.path, message: "at historyTracking: \(problem)")
        }
        var resolver = PlanResolver(spec: spec, model: model, layout: layout, graph: graph)
        var plans: [EntityPlan] = []
        for name in spec.entities.keys.sorted(by: { (layout.entity(named: $0)?.number ?? .max, $0) < (layout.entity(named: $1)?.number ?? .max, $1) }) {
            plans.append(try resolver.entityPlan(name))
        }
        try resolver.addForeignKeyLinks(into: &plans)
        // `primaryKey` numbers a whole hierarchy (its entities share one Z_PK sequence) or none of it.
        for plan in plans where !plan.keepsPrimaryKeys {
            if let other = plans.first(where: { $0.rootName == plan.rootName && $0.keepsPrimaryKeys }) {
                throw resolver.fail("entities.\(plan.name): '\(other.name)' takes its Z_PKs from \"primaryKey\", and '\(plan.name)' shares its Z_PK sequence (hierarchy \(plan.rootName)): give '\(plan.name)' a \"primaryKey\" too")
            }
        }
        var joinLinks = resolver.joinLinks
        SeedPlan.markNormalized(&plans, &joinLinks, roots: SeedPlan.normalizedRoots(spec, graph: graph), graph: graph)
        self.init(spec: spec, model: model, layout: layout, entities: plans, joinLinks: joinLinks)
    }
}

/// Resolves one spec; holds the caches and the join links found on the way.
struct PlanResolver {
    let spec: SeedSpec
    let model: Model
    let layout: StoreLayout
    let graph: EntityGraph
    var fieldNameCache: [String: [String]] = [:]
    var joinLinks: [JoinLink] = []

    init(spec: SeedSpec, model: Model, layout: StoreLayout, graph: EntityGraph) {
        self.spec = spec
        self.model = model
        self.layout = layout
        self.graph = graph
    }

    /// The field names of source `name`, read from its header, columns or field list.
    mutating func fieldNames(of name: String, for context: String) throws -> (SourceSpec, [String]) {
        guard let source = spec.sources[name] else {
            throw fail("\(context): no source '\(name)'\(Suggestion.hint(for: name, in: Array(spec.sources.keys))) (sources: \(spec.sources.keys.sorted().joined(separator: ", ")))")
        }
        if let cached = fieldNameCache[name] { return (source, cached) }
        let names: [String]
        do {
            names = try source.openReader(relativeTo: spec.directory).fieldNames
        } catch {
            // A computed field or filter over fields the source does not have: named at its spec key.
            if case .computedField(let text) = error.reason { throw fail("at sources.\(name): \(text)") }
            throw error
        }
        fieldNameCache[name] = names
        return (source, names)
    }

    mutating func entityPlan(_ name: String) throws -> EntityPlan {
        let context = "entities.\(name)"
        guard let entitySpec = spec.entities[name] else { preconditionFailure("entity \(name) not in spec") }
        guard let info = layout.entity(named: name), let entity = model.entity(named: name) else {
            throw fail("\(context): the model has no entity '\(name)'\(Suggestion.hint(for: name, in: model.entities.map(\.name)))")
        }
        guard info.isInConfiguration, let table = layout.table(forEntity: name) else {
            throw fail("\(context): entity '\(name)' is not in configuration '\(spec.configuration ?? "")'")
        }
        guard !entity.isAbstract else { throw fail("\(context): entity '\(name)' is abstract and cannot have rows") }
        let lineage = Set(graph.lineage(name).map(\.name))
        if entitySpec.from.isEmpty { return try storedRowsPlan(name, info: info, table: table, spec: entitySpec, context: context) }

        // Every attribute and relationship the spec names must exist in the entity's lineage.
        for attribute in entitySpec.attributes.keys.sorted() {
            guard let found = graph.lineage(name).lazy.compactMap({ $0.attribute(named: attribute) }).first, !found.isTransient else {
                let lineageEntities = graph.lineage(name)
                if lineageEntities.contains(where: { $0.relationship(named: attribute) != nil }) {
                    throw fail("\(context).attributes: '\(attribute)' is a relationship of '\(name)', not an attribute; map it under \"relationships\" with its \"key\"")
                }
                let known = lineageEntities.flatMap { $0.attributes.filter { !$0.isTransient }.map(\.name) }
                throw fail("\(context).attributes: '\(name)' has no stored attribute '\(attribute)'\(Suggestion.hint(for: attribute, in: known))")
            }
        }
        var toOneSlots: [String] = []
        for column in table.columns {
            switch column.role {
            case .toOne(let owner, let relationship, _) where lineage.contains(owner): toOneSlots.append(relationship)
            // A to-many without inverse to this entity: its hidden key is a to-one slot of the destination.
            case .toManyKey(let source, let relationship, let destination) where lineage.contains(destination):
                toOneSlots.append(EntityPlan.hiddenKeySlot(source: source, relationship: relationship))
            default: break
            }
        }
        var fieldLinks: [FieldLink] = []
        for relationshipName in entitySpec.relationships.keys.sorted() {
            let relationshipSpec = entitySpec.relationships[relationshipName]!
            let linkContext = "\(context).relationships.\(relationshipName)"
            guard let (_, relationship) = graph.relationship(relationshipName, from: name), !relationship.isTransient else {
                let known = graph.lineage(name).flatMap { $0.relationships.filter { !$0.isTransient }.map(\.name) }
                throw fail("\(linkContext): '\(name)' has no relationship '\(relationshipName)'\(Suggestion.hint(for: relationshipName, in: known))")
            }
            if relationship.isToMany, relationship.isOrdered, relationship.inverseName == relationship.name,
               relationship.destinationEntity == name || graph.lineage(name).contains(where: { $0.name == relationship.destinationEntity }) {
                throw fail("\(linkContext): '\(name).\(relationshipName)' is ordered and its own inverse; CoreSeed cannot reproduce the two orders Core Data keeps for it (Z_FOK_ and FOK_REFLEXIVE), so it does not seed it")
            }
            let prefer = try SeedPlan.preferred(relationshipSpec, relationship: relationship, graph: graph, specPath: specPath, context: linkContext)
            if relationshipSpec.foreignKey != nil {
                guard relationship.isToMany, let inverse = graph.inverse(of: relationship, in: name), !inverse.isToMany else {
                    throw fail("\(linkContext): 'foreignKey' needs a to-many relationship whose inverse is to-one")
                }
                continue  // becomes a field link on the destination (addForeignKeyLinks)
            }
            guard let keys = relationshipSpec.key, !keys.isEmpty else {
                throw fail("\(linkContext): give 'key' (the field holding the destination's key), 'foreignKey', or 'from' with 'key' and 'destinationKey'")
            }
            if let joinSource = relationshipSpec.from {
                guard let destinationKeys = relationshipSpec.destinationKey, !destinationKeys.isEmpty else {
                    throw fail("\(linkContext): a join source needs 'destinationKey'")
                }
                let (source, names) = try fieldNames(of: joinSource, for: linkContext)
                var keyFields: [Int] = [], destinationFields: [Int] = []
                for key in keys { keyFields.append(try fieldIndex(key, in: names, source: joinSource, context: linkContext)) }
                for key in destinationKeys { destinationFields.append(try fieldIndex(key, in: names, source: joinSource, context: linkContext)) }
                joinLinks.append(JoinLink(
                    entity: name, relationship: relationship, sourceName: joinSource, spec: source, keyFields: keyFields,
                    destinationKeyFields: destinationFields, keyFieldName: keys.joined(separator: "+"),
                    destinationKeyFieldName: destinationKeys.joined(separator: "+"), onUnresolved: relationshipSpec.onUnresolved, prefer: prefer))
                continue
            }
            fieldLinks.append(FieldLink(entity: name, relationship: relationship, fieldName: keys.joined(separator: "+"),
                                        separator: relationshipSpec.separator, onUnresolved: relationshipSpec.onUnresolved, prefer: prefer))
        }

        var sources: [SourcePlan] = []
        for sourceName in entitySpec.from {
            let (source, names) = try fieldNames(of: sourceName, for: "\(context).from")
            var fills: [ColumnFill] = []
            for column in table.columns {
                fills.append(try fill(for: column, entity: entity, lineage: lineage, spec: entitySpec, slots: toOneSlots,
                                      source: sourceName, names: names, context: context))
            }
            let keyFields = try keyFieldNames(entity: entity, spec: entitySpec, names: names, context: context)
                .map { field in try fieldIndex(field, in: names, source: sourceName, context: "\(context).key") }
            var linkFields: [[Int]] = []
            for link in fieldLinks {
                let keys = entitySpec.relationships[link.relationship.name]!.key!
                linkFields.append(try keys.map { key in
                    try fieldIndex(key, in: names, source: sourceName, context: "\(context).relationships.\(link.relationship.name)")
                })
            }
            let primaryKeyField = try entitySpec.primaryKey.map { field in
                try fieldIndex(field, in: names, source: sourceName, context: "\(context).primaryKey")
            }
            sources.append(SourcePlan(name: sourceName, spec: source, fieldNames: names, fills: fills,
                                      keyFields: keyFields, linkFields: linkFields, primaryKeyField: primaryKeyField))
        }
        let keyNames = try keyFieldNames(entity: entity, spec: entitySpec, names: sources[0].fieldNames, context: context)
        // Every uniqueness constraint of the table (declared on any entity of the hierarchy) whose
        // attributes this entity's rows have: SQLite's unique index would reject a repeat.
        var uniqueness: [UniquenessCheck] = []
        if layout.framework.hasUniquenessConstraints {
            for owner in graph.hierarchy(of: info.rootName) {
                for names in owner.uniquenessConstraints where !names.isEmpty {
                    let perSource = sources.map { source in
                        names.compactMap { attribute -> AttributeFill? in
                            for case .attribute(let fill) in source.fills where fill.attribute.name == attribute { return fill }
                            return nil
                        }
                    }
                    guard perSource.allSatisfy({ $0.count == names.count }) else { continue }
                    uniqueness.append(UniquenessCheck(scope: "\(table.name):\(owner.name):\(names.joined(separator: ","))",
                                                      constraint: names.joined(separator: ", "), fills: perSource))
                }
            }
        }
        return EntityPlan(name: name, number: info.number, rootName: info.rootName, table: table, sources: sources,
                          duplicatePolicy: entitySpec.onDuplicateKey,
                          keyFieldName: keyNames.isEmpty ? nil : keyNames.joined(separator: "+"),
                          toOneSlots: toOneSlots, fieldLinks: fieldLinks,
                          keepsBlanks: (entitySpec.onBlank ?? spec.onBlank ?? .keep) == .keep, uniqueness: uniqueness,
                          primaryKeyFieldName: entitySpec.primaryKey)
    }

    /// An entity with no `from`: no records of its own, only the rows already in the store (`--into`),
    /// which relationships of other entities find by the attributes its `key` names.
    func storedRowsPlan(_ name: String, info: StoreLayout.EntityInfo, table: StoreLayout.Table, spec entitySpec: EntitySpec,
                        context: String) throws -> EntityPlan {
        guard let key = entitySpec.key, !key.isEmpty else {
            throw fail("\(context): give 'from' (the sources of its rows), or, to link to the rows already in the store (\(RunOption.into)), 'key' (the attributes they are found by)")
        }
        guard entitySpec.attributes.isEmpty, entitySpec.relationships.isEmpty, entitySpec.primaryKey == nil else {
            throw fail("\(context): an entity without 'from' has no records to map: give only its 'key'")
        }
        var columns: [String] = []
        for attributeName in key {
            let column = table.columns.first { column in
                if case .attribute(let owner, let attribute, _) = column.role {
                    return attribute == attributeName && graph.lineage(name).contains { $0.name == owner }
                }
                return false
            }
            guard let column else {
                let known = graph.lineage(name).flatMap { $0.attributes.filter { !$0.isTransient }.map(\.name) }
                throw fail("\(context).key: '\(name)' has no stored attribute '\(attributeName)'\(Suggestion.hint(for: attributeName, in: known))")
            }
            columns.append(column.name)
        }
        return EntityPlan(name: name, number: info.number, rootName: info.rootName, table: table, sources: [],
                          duplicatePolicy: .error, keyFieldName: key.joined(separator: "+"), toOneSlots: [], fieldLinks: [],
                          keepsBlanks: true, uniqueness: [], storedKeyColumns: columns)
    }

    /// The key fields: the spec's `key`, else the field of the attribute that MagicalRecord's
    /// `relatedByAttribute` or Groot's `identityAttributes` names in the model's userInfo, else of the
    /// attributes Sync marks `sync.isPrimaryKey` (or the older `hyper.isPrimaryKey`).
    func keyFieldNames(entity: Entity, spec entitySpec: EntitySpec, names: [String], context: String) throws -> [String] {
        if let key = entitySpec.key { return key }
        let lineage = graph.lineage(entity.name)
        let marked = lineage.flatMap(\.attributes).filter { attribute in
            ["sync.isPrimaryKey", "hyper.isPrimaryKey"].contains { ["YES", "yes", "true", "1"].contains(attribute.userInfo[$0] ?? "") }
        }.map(\.name)
        for candidate in lineage {
            guard let attributeName = candidate.userInfo["relatedByAttribute"] ?? candidate.userInfo["identityAttributes"]
                    ?? (candidate.name == entity.name && !marked.isEmpty ? marked.joined(separator: ",") : nil) else { continue }
            let attributes = attributeName.split(separator: ",").map { ASCII.trimmedSpaces(String($0)) }
            return try attributes.map { attributeName in
                guard let attribute = graph.lineage(entity.name).lazy.compactMap({ $0.attribute(named: attributeName) }).first else {
                    throw fail("\(context): userInfo names key attribute '\(attributeName)', which '\(entity.name)' does not have")
                }
                guard let field = try fieldSource(for: attribute, spec: entitySpec.attributes[attribute.name], names: names,
                                                  context: "\(context).key")?.field else {
                    throw fail("\(context): no field feeds the key attribute '\(attribute.name)'")
                }
                return field
            }
        }
        return []
    }

    func fill(for column: StoreLayout.Column, entity: Entity, lineage: Set<String>, spec entitySpec: EntitySpec,
              slots: [String], source: String, names: [String], context: String) throws -> ColumnFill {
        switch column.role {
        case .primaryKey: return .primaryKey
        case .entity: return .entityNumber
        case .optimisticLock: return .optimisticLock
        case .compositeElement: return .null
        case .toManyKey(let source, let relationship, let destination):
            return lineage.contains(destination)
                ? .toOne(slot: slots.firstIndex(of: EntityPlan.hiddenKeySlot(source: source, relationship: relationship))!) : .null
        case .toManyKeyEntity(let source, let relationship):
            return slots.firstIndex(of: EntityPlan.hiddenKeySlot(source: source, relationship: relationship)).map { .toOneEntity(slot: $0) } ?? .null
        case .toManyKeyOrder(let source, let relationship):
            return slots.firstIndex(of: EntityPlan.hiddenKeySlot(source: source, relationship: relationship)).map { .toOneOrder(slot: $0) } ?? .null
        case .toOne(let owner, let relationship, _):
            return lineage.contains(owner) ? .toOne(slot: slots.firstIndex(of: relationship)!) : .null
        case .toOneEntity(let owner, let relationship):
            return lineage.contains(owner) ? .toOneEntity(slot: slots.firstIndex(of: relationship)!) : .null
        case .toOneOrder(let owner, let relationship):
            return lineage.contains(owner) ? .toOneOrder(slot: slots.firstIndex(of: relationship)!) : .null
        case .attribute(let owner, let attributeName, _):
            guard lineage.contains(owner), let attribute = graph.entity(owner)?.attribute(named: attributeName) else { return .null }
            let attributeSpec = entitySpec.attributes[attributeName]
            let attributeContext = "\(context).attributes.\(attributeName)"
            if let expression = attribute.derivationExpression {
                // Computed from the relationship at the end of the build and kept by triggers afterwards.
                guard attributeSpec == nil else {
                    throw fail("\(attributeContext): '\(attributeName)' is derived (\"\(expression)\"): the store computes it from the rows, so it takes no value from the sources; remove it from the spec")
                }
                return .null
            }
            var fieldIndex: Int? = nil
            let found = try fieldSource(for: attribute, spec: attributeSpec, names: names, context: attributeContext)
            let field = found?.field
            if let field {
                fieldIndex = try self.fieldIndex(field, in: names, source: source, context: attributeContext)
            }
            // A Date attribute without an entry of its own reads like the entity's first described date
            // (in name order: DESIGN §3 maps closeDate and leaves updatedDate to the name match), and
            // its errors say so; the spec's `timeZone` applies otherwise (docs/SPEC.md, "Dates").
            let isDate = attribute.type == .date
            if let zone = attributeSpec?.timeZone {
                guard isDate else {
                    throw fail("\(attributeContext).timeZone: a time zone applies to Date attributes; '\(attributeName)' is \(CoercionFailure.article(attribute.type.rawValue)) \(attribute.type.rawValue)")
                }
                do { _ = try DateZone(identifier: zone) } catch { throw fail("\(attributeContext).timeZone: \(error.message)") }
            }
            let sibling = isDate && attributeSpec?.date == nil && attribute.userInfo["dateFormat"] == nil
                ? entitySpec.attributes.keys.sorted().lazy.compactMap { name in entitySpec.attributes[name].map { (name, $0) } }.first { $0.1.date != nil }
                : nil
            let inputs = isDate ? (attributeSpec?.date ?? attribute.userInfo["dateFormat"].map { [$0] } ?? sibling?.1.date ?? []).map(DateInput.init(name:)) : []
            let zone = isDate ? (attributeSpec?.timeZone ?? sibling?.1.timeZone ?? spec.timeZone ?? "UTC") : "UTC"
            let borrowed = sibling.map { "\($0.0)'s, as '\(attributeName)' has no \"date\" of its own" }
            let archive = try archiveInput(attribute, spec: attributeSpec, context: attributeContext)
            let coercer: ValueCoercer, rules: AttributeRules?
            // A validation bound or pattern is the model's; a date pattern, zone or pivot the spec's.
            do { rules = try AttributeRules(attribute) } catch { throw modelFail(attribute, error.message) }
            let parser: DateParser
            do {
                parser = try DateParser(inputs, timeZone: zone,
                                        pivot: attributeSpec?.pivot ?? spec.pivot ?? DateParser.defaultPivot, borrowedFrom: borrowed)
            } catch {
                throw fail("\(attributeContext): \(error.message)")
            }
            let options = CoercionOptions(allowsIntegralReals: attributeSpec?.integralReals ?? false,
                                          emptyIsNull: attributeSpec?.emptyIsNull, base64: attributeSpec?.base64 ?? false,
                                          archive: archive, blankIsNull: (entitySpec.onBlank ?? spec.onBlank) == .null)
            do { coercer = try ValueCoercer(attribute: attribute, options: options, dateParser: parser) } catch { throw modelFail(attribute, error.message) }
            let defaultText = attributeSpec?.noDefault == true ? nil : (attributeSpec?.defaultValue ?? attribute.defaultValueString)
            if let opaque = attribute.opaqueDefaultClassName, attributeSpec?.noDefault != true, attributeSpec?.defaultValue == nil {
                throw fail("\(attributeContext): the model's default for '\(attributeName)' is an archived \(opaque) object (an app class, read from a compiled model), which CoreSeed cannot write; give \"default\" (the value's archive as the attribute takes it) or \"default\": null to store no value")
            }
            var fileFolder: String?
            if attributeSpec?.file == true {
                guard attribute.type == .binary else {
                    throw fail("\(attributeContext).file: a file's bytes go into a Binary attribute; '\(attributeName)' is \(CoercionFailure.article(attribute.type.rawValue)) \(attribute.type.rawValue)")
                }
                guard attributeSpec?.base64 != true else { throw fail("\(attributeContext): 'file' and 'base64' exclude each other") }
                fileFolder = SeedSpec.folder(of: spec.resolve(spec.sources[source]?.path ?? ""))
            }
            let external = attribute.storesExternally
            if attributeSpec?.externalAbove != nil {
                guard external else {
                    throw fail("\(attributeContext).externalAbove: external files are for Binary attributes with Allows External Storage, which '\(attributeName)' is not; remove the key or allow external storage in the model")
                }
            }
            let fill = AttributeFill(
                attribute: attribute, coercer: coercer, fieldIndex: fieldIndex, fieldName: field ?? attributeName,
                constant: attributeSpec?.value, defaultValue: defaultText.map { FieldValue.text($0) },
                origin: attributeSpec?.value != nil ? "a constant" : (found?.origin ?? "no field"), fileFolder: fileFolder,
                allowsExternalStorage: external, externalAbove: external ? (attributeSpec?.externalAbove ?? spec.externalAbove) : nil,
                rules: rules)
            return .attribute(fill)
        }
    }

    /// `archive` (and its `separator`): how the field holds the value a Transformable archives.
    func archiveInput(_ attribute: Attribute, spec attributeSpec: AttributeSpec?, context: String) throws -> CoercionOptions.ArchiveInput? {
        guard let form = attributeSpec?.archive else {
            if attributeSpec?.separator != nil { throw fail("\(context).separator: a separator splits an \"archive\": \"list\"; give \"archive\": \"list\" or remove it") }
            return nil
        }
        guard attribute.type == .transformable else {
            throw fail("\(context).archive: values are archived for Transformable attributes; '\(attribute.name)' is \(CoercionFailure.article(attribute.type.rawValue)) \(attribute.type.rawValue)")
        }
        guard KeyedArchiver.isReadAsArchive(attribute) else {
            throw fail("\(context).archive: '\(attribute.name)' is read with the value transformer \(attribute.valueTransformerName ?? ""), whose bytes CoreSeed cannot write; give the transformer's bytes (\"base64\": true) instead")
        }
        guard attributeSpec?.base64 != true, attributeSpec?.file != true else { throw fail("\(context): 'archive' excludes 'base64' and 'file'") }
        switch form {
        case "json":
            guard attributeSpec?.separator == nil else { throw fail("\(context).separator: a separator splits an \"archive\": \"list\", not JSON") }
            return .json
        case "list":
            let separator = attributeSpec?.separator ?? ";"
            guard !separator.isEmpty else { throw fail("\(context).separator: give the text between the strings (default \";\")") }
            return .list(separator: separator)
        default:
            throw fail("\(context).archive: \"\(form)\" is not a form CoreSeed archives: give \"json\" (the field holds JSON) or \"list\" (strings between a \"separator\")\(Suggestion.hint(for: form, in: ["json", "list"]))")
        }
    }

    /// `foreignKey` on a to-many: each destination record's field holds this entity's key, which is
    /// the inverse to-one's key on the destination. Adds that link to every seeded plan of the destination.
    func addForeignKeyLinks(into plans: inout [EntityPlan]) throws {
        for (name, entitySpec) in spec.entities {
            for (relationshipName, relationshipSpec) in entitySpec.relationships {
                guard let fields = relationshipSpec.foreignKey else { continue }
                let context = "entities.\(name).relationships.\(relationshipName)"
                guard let (_, relationship) = graph.relationship(relationshipName, from: name),
                      let inverse = graph.inverse(of: relationship, in: name) else { continue }
                let targets = plans.indices.filter { graph.lineage(plans[$0].name).contains { $0.name == relationship.destinationEntity } }
                guard !targets.isEmpty else {
                    throw fail("\(context): 'foreignKey' needs rows of '\(relationship.destinationEntity)', which the spec does not seed")
                }
                for index in targets {
                    for (sourceIndex, source) in plans[index].sources.enumerated() {
                        let indexes = try fields.map { try fieldIndex($0, in: source.fieldNames, source: source.name, context: context) }
                        plans[index].sources[sourceIndex].linkFields.append(indexes)
                    }
                    plans[index].fieldLinks.append(FieldLink(entity: plans[index].name, relationship: inverse, fieldName: fields.joined(separator: "+"),
                                                             separator: nil, onUnresolved: relationshipSpec.onUnresolved))
                }
            }
        }
    }
}
