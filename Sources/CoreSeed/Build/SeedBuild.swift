import Foundation

/// Runs a seed spec: reads every source twice (keys first, then rows), resolves relationships by
/// natural key in between, and writes the store through a `StoreWriter`.
///
/// Two reads instead of one plus UPDATEs: reading and converting cost a few per cent of a build,
/// SQLite's writes the rest, so each row is inserted once, complete, with its to-one keys.
/// Not `Sendable`: holds the per-entity state of one run.
public final class SeedBuild {
    /// What the command line controls.
    public struct Options: Sendable {
        /// Overrides the spec's `output`.
        public var output: String?
        /// Check everything, write nothing.
        public var dryRun = false
        /// Rejected values tolerated before the build fails (0: the first fails it).
        public var maxErrors = 0
        /// Overrides the spec's `configuration`.
        public var configuration: String?
        /// Overrides the spec's `mode`: `upsert` or `insert` update an existing store.
        public var mode: SeedSpec.Mode?
        /// The existing store to upsert into (default: the output).
        public var into: String?
        /// Called now and then with a progress line (entity, rows so far).
        public var progress: (@Sendable (String) -> Void)?

        public init() {}
    }

    let plan: SeedPlan
    /// The model's entities as Core Data numbers them, built once (relationship resolution asks it per link).
    let graph: EntityGraph
    let options: Options
    let specPath: String
    let specDirectory: String
    var states: [EntityState]
    var joinRows: [String: [JoinRow]] = [:]
    var joinSeen: [String: Set<JoinRow>] = [:]
    var errors: [MappingError] = []
    var report = BuildReport()

    init(plan: SeedPlan, options: Options, specPath: String) {
        self.plan = plan
        self.graph = EntityGraph(model: plan.model)
        self.options = options
        self.specPath = specPath
        self.specDirectory = plan.spec.directory
        self.states = Array(repeating: EntityState(), count: plan.entities.count)
    }

    /// Loads the spec at `specPath`, builds the store, and returns what was done.
    /// Throws `BuildFailure` (every problem, one line each) or a spec, model, reader or store error.
    public static func run(specPath: String, options: Options = Options()) throws -> BuildReport {
        let started = Date()
        let spec = try SeedSpec.load(path: specPath)
        let versions = try ModelVersions.load(path: spec.resolve(spec.model))
        let model = try versions.version(named: spec.modelVersion)
        let framework = FrameworkVersion(spec.frameworkVersion ?? FrameworkVersion.newest.rawValue)
        let plan = try SeedPlan(spec: spec, model: model, configuration: options.configuration ?? spec.configuration,
                                framework: framework)
        let build = SeedBuild(plan: plan, options: options, specPath: specPath)
        let mode = options.mode ?? spec.mode
        var writer: StoreWriter?
        if mode != .replace {
            writer = try build.openExisting(versions: versions, model: model, insertOnly: mode == .insert)
        } else {
            build.streaming = build.streamingSlots()
            if !options.dryRun {
                writer = try StoreWriter(layout: plan.layout, targetPath: build.output)
                build.startInputUUID()
            }
        }
        build.writer = writer
        do {
            let timing = PhaseTiming()
            if build.streaming == nil {
                try build.readKeys()
                timing.mark("pass 1: keys")
                build.assignPrimaryKeys()
                try build.resolveLinks()
                try build.readJoinSources()
                timing.mark("relationships")
            }
            try build.writeRows()
            timing.mark("pass 2: rows, indexes, checks")
        } catch {
            build.stopInputUUID()
            writer?.abandon()
            throw error
        }
        build.report.seconds = Date().timeIntervalSince(started)
        return build.report
    }

    var output: String {
        if let output = options.output { return output }
        if let output = plan.spec.output { return plan.spec.resolve(output) }
        return plan.spec.resolve("store.sqlite")
    }

    // MARK: - Errors

    /// Records a rejected value; throws once more than `maxErrors` have been seen.
    func reject(_ error: MappingError) throws {
        errors.append(error)
        if errors.count > options.maxErrors {
            throw BuildFailure(problems: errors, report: report)
        }
    }

    func mappingError(_ record: Record, fieldIndex: Int?, field: String, entity: String, attribute: String,
                      failure: CoercionFailure) -> MappingError {
        var location = record.location
        if let fieldIndex, let columns = record.fieldColumns, fieldIndex < columns.count { location.column = columns[fieldIndex] }
        return MappingError(location: location, field: field, entity: entity, attribute: attribute, failure: failure)
    }

    /// The value of one attribute for one record: the constant, else the field, else the default;
    /// NULL for a non-optional attribute is a failure.
    @inline(__always)
    func value(_ fill: AttributeFill, _ record: Record) throws(CoercionFailure) -> SQLiteValue {
        let input = fill.constant ?? (fill.fieldIndex.map { record.values[$0] } ?? .null)
        var result = try fill.coercer.coerce(input)
        if let defaultValue = fill.defaultValue, result == .null || SeedBuild.isBlank(input) {
            result = try fill.coercer.coerce(defaultValue)
        }
        if case .null = result, !fill.isOptional {
            throw CoercionFailure.required(input, type: fill.type)
        }
        return result
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

    // MARK: - Pass 1: keys

    /// Entities fed by the same list of sources: each source is read once per pass for all of them.
    struct SourceGroup {
        let entities: [Int]
    }

    /// The entities grouped by their source lists, in entity order.
    private(set) lazy var sourceGroups: [SourceGroup] = computeSourceGroups()

    private func computeSourceGroups() -> [SourceGroup] {
        var groups: [[String]: [Int]] = [:]
        var order: [[String]] = []
        for (index, entity) in plan.entities.enumerated() {
            let names = entity.sources.map(\.name)
            if groups[names] == nil { order.append(names) }
            groups[names, default: []].append(index)
        }
        return order.map { SourceGroup(entities: groups[$0]!) }
    }

    /// The fields any entity of `group` needs from source `sourceIndex`; nil for all.
    func projection(_ group: SourceGroup, sourceIndex: Int, fieldCount: Int, values: Bool) -> [Bool] {
        var wanted = Array(repeating: false, count: fieldCount)
        for index in group.entities {
            let source = plan.entities[index].sources[sourceIndex]
            for field in source.keyFields { wanted[field] = true }
            for fields in source.linkFields { for field in fields { wanted[field] = true } }
            guard values else { continue }
            for fill in source.fills {
                if case .attribute(let attribute) = fill, let field = attribute.fieldIndex { wanted[field] = true }
            }
        }
        return wanted
    }

    /// Reads every source once: validates values (when errors are tolerated), builds each entity's key
    /// index under its duplicate policy, and collects the destination keys of every field link.
    func readKeys() throws {
        let validate = options.maxErrors > 0 || options.dryRun
        for group in sourceGroups {
            var locals = group.entities.map { index in
                var state = EntityState()
                state.linkKeys = Array(repeating: LinkKeys(), count: plan.entities[index].fieldLinks.count)
                return state
            }
            let sourceCount = plan.entities[group.entities[0]].sources.count
            for sourceIndex in 0..<sourceCount {
                let first = plan.entities[group.entities[0]].sources[sourceIndex]
                let reader = try first.spec.openReader(relativeTo: specDirectory)
                reader.project(projection(group, sourceIndex: sourceIndex, fieldCount: first.fieldNames.count, values: validate))
                var read = 0
                while let record = try reader.next() {
                    for (slot, index) in group.entities.enumerated() {
                        try readKeys(record, entityIndex: index, source: plan.entities[index].sources[sourceIndex],
                                     validate: validate, state: &locals[slot])
                    }
                    read += 1
                    if read & 0xFFFF == 0 { options.progress?("\(first.name): \(read) records read") }
                }
            }
            for (slot, index) in group.entities.enumerated() { states[index] = locals[slot] }
        }
    }

    /// Pass 1 for one record of one entity.
    @inline(__always)
    private func readKeys(_ record: Record, entityIndex index: Int, source: SourcePlan, validate: Bool,
                          state: inout EntityState) throws {
        let entity = plan.entities[index]
        let ordinal = state.count
        state.count += 1
        var keep = true
        if validate {
            for fill in source.fills {
                guard case .attribute(let attribute) = fill else { continue }
                do {
                    _ = try value(attribute, record)
                } catch {
                    keep = false
                    try reject(mappingError(record, fieldIndex: attribute.fieldIndex, field: attribute.fieldName,
                                            entity: entity.name, attribute: attribute.attribute.name, failure: error))
                }
            }
        }
        if entity.hasKey && keep {
            keep = try indexKey(record, ordinal: ordinal, source: source, entity: entity, state: &state)
        }
        if keep, let existing {
            let key = storedKey(record, source: source, reader: existing.keyReaders[index])
            let primaryKey = key.flatMap { existing.keys[index][$0] } ?? 0
            if primaryKey != 0 && insertOnly {
                keep = false
                state.skippedExisting += 1
            }
            state.existingPrimaryKeys.append(primaryKey)
        } else if existing != nil {
            state.existingPrimaryKeys.append(0)
        }
        if !keep && !(insertOnly && state.existingPrimaryKeys.last ?? 0 != 0) { state.rejected += 1 }
        state.kept.append(keep)
        for (link, fields) in zip(entity.fieldLinks.indices, source.linkFields) {
            if fields.count == 1 {
                state.linkKeys[link].append(NaturalKey.keys(record.values[fields[0]], separator: entity.fieldLinks[link].separator))
            } else {
                state.linkKeys[link].append(single: NaturalKey.key(record.values, at: fields))
            }
        }
    }

    /// Adds the record's key to the index under the duplicate policy; false when the record gets no row.
    private func indexKey(_ record: Record, ordinal: Int, source: SourcePlan, entity: EntityPlan,
                          state: inout EntityState) throws -> Bool {
        let field = entity.keyFieldName ?? ""
        guard let key = NaturalKey.key(record.values, at: source.keyFields) else {
            try reject(mappingError(record, fieldIndex: source.keyFields.first, field: field, entity: entity.name,
                                    attribute: "key", failure: .required(.null, type: .string)))
            return false
        }
        guard let earlier = state.keyIndex[key] else {
            state.keyIndex[key] = Int32(ordinal)
            return true
        }
        switch entity.duplicatePolicy {
        case .error:
            let firstSeen = try locate(entity: entity, ordinal: Int(earlier))
            try reject(mappingError(record, fieldIndex: source.keyFields.first, field: field, entity: entity.name,
                                    attribute: "key", failure: .duplicateKey(NaturalKey.display(key), entity: entity.name,
                                                                              firstSeen: firstSeen.description)))
            return false
        case .first:
            return false
        case .last:
            state.kept[Int(earlier)] = false
            state.rejected += 1
            state.keyIndex[key] = Int32(ordinal)
            return true
        }
    }

    /// The location of record `ordinal` of `entity`, found by reading its sources again (error paths only).
    func locate(entity: EntityPlan, ordinal: Int) throws -> SourceLocation {
        var seen = 0
        for source in entity.sources {
            let reader = try source.spec.openReader(relativeTo: specDirectory)
            while let record = try reader.next() {
                if seen == ordinal { return record.location }
                seen += 1
            }
        }
        return SourceLocation(file: entity.name)
    }

    /// Numbers the kept records: one counter per hierarchy root, entities in `Z_ENT` order.
    func assignPrimaryKeys() {
        var counters: [String: Int64] = existing?.maxPrimaryKeys ?? [:]
        for (index, entity) in plan.entities.enumerated() {
            var counter = counters[entity.rootName] ?? 0
            let matched = states[index].existingPrimaryKeys
            states[index].primaryKeys = states[index].kept.enumerated().map { ordinal, keep in
                guard keep else { return 0 }
                if !matched.isEmpty, matched[ordinal] != 0 { return matched[ordinal] }
                counter += 1
                return counter
            }
            states[index].kept = []
            counters[entity.rootName] = counter
            let slots = entity.toOneSlots.count, count = states[index].count
            states[index].toOneKeys = Array(repeating: Array(repeating: 0, count: count), count: slots)
            states[index].toOneEntities = Array(repeating: Array(repeating: 0, count: count), count: slots)
            states[index].toOneOrders = Array(repeating: Array(repeating: 0, count: count), count: slots)
        }
        maxPrimaryKeys = counters
    }
    var maxPrimaryKeys: [String: Int64] = [:]
    /// The store being written (nil in a dry run).
    var writer: StoreWriter?
    /// The store an upsert updates, and whether only new rows are added.
    var existing: ExistingRows?
    var insertOnly = false
    var candidateCache: [String: [Int]] = [:]
    /// The streaming plan's to-one sources, when the build runs in one pass.
    var streaming: [[SlotSource]]?
    /// The store UUID being hashed from the inputs on its own thread.
    var pendingUUID: ThreadResult<String>?
    let uuidStop = StopFlag()
    /// Pass 2 tallies kept by the reading thread.
    var producedRows: [Int] = []
    var producedUnchanged: [Int] = []
    var orderCounters: [String: [Int64: Int64]] = [:]
}
