import Foundation

/// Runs a seed spec: decides the plan (`BuildPlan`), numbers the rows (as read, or by a `KeyPass`),
/// writes them (`RowProducer` reading on one thread, `RowWriter` writing on this one), then finishes
/// the store (`SeedBuild+Finish.swift`).
///
/// Every row is inserted once, complete, with its to-one keys: reading and converting cost a few per
/// cent of a build, SQLite's writes the rest.
public enum SeedBuild {
    /// What the command line controls.
    public struct Options: Sendable {
        /// Overrides the spec's `output`.
        public var output: String?
        /// Check everything, write nothing.
        public var dryRun = false
        /// Rejected values tolerated before the build fails (0: the first fails it).
        public var maxErrors = 0
        /// Check every value and list every problem (as with no limit), then fail without writing if
        /// any value was rejected (for CI).
        public var failOnRejects = false
        /// Lets a build that wrote no rows replace an existing store that holds some (refused otherwise:
        /// an empty source is more often a mistake than a wish).
        public var allowEmpty = false
        /// Overrides the spec's `configuration`.
        public var configuration: String?
        /// Overrides the spec's `mode`: `upsert` or `insert` update an existing store.
        public var mode: SeedSpec.Mode?
        /// A sync (`--mode sync`) deletes any share of an entity's rows; without it, one that would delete
        /// more than half of an entity's stored rows stops, changing nothing (`deletionShareLimit`).
        public var allowDeletes = false
        /// The existing store to upsert into (default: the output).
        public var into: String?
        /// Called now and then, from any thread, with a progress line: the phase and, where known, a
        /// count (`reading keys`, `reading SOURCE: N records read` every 65,536 records, `linking
        /// relationships`, `writing rows: N of TOTAL (P%)` every 65,536 rows (the total when a key pass
        /// counted it), `writing join rows: N`, `checking the store …`). Never per row.
        public var progress: (@Sendable (String) -> Void)?
        /// Where the caller will write the report (`--report`): checked, before any work, not to be an
        /// input or the output.
        public var reportPath: String?
        /// How long a lock another process holds on the store being replaced or updated is waited for.
        public var timeout: Duration = StoreSnapshot.defaultTimeout
        /// Lets an update (`--into`) of a store that tracks persistent history proceed without recording
        /// its changes there (refused otherwise: `PersistentHistory.untrackedUpdateRefusal`).
        public var noHistory = false
        /// The transaction author recorded in the history (`HistoryTransaction.defaultAuthor` if nil).
        public var author: String?
        /// The history transaction's timestamp, seconds since 2001 (the CLI: `SOURCE_DATE_EPOCH`, else 0),
        /// fixed so that identical inputs give a byte-identical store.
        public var historyTimestamp: Double = 0

        public init() {}

        /// The transaction a build records in a tracked store.
        var historyTransaction: HistoryTransaction {
            HistoryTransaction(author: author ?? HistoryTransaction.defaultAuthor, timestamp: historyTimestamp)
        }
    }

    /// Where a build's rows go, decided once.
    enum Destination {
        /// A dry run: rows are made and checked, nothing is written.
        case nowhere
        /// A new store, written to a temporary file and renamed over the output.
        case newStore(StoreWriter)
        /// An existing store, updated in a copy that replaces it.
        /// `sync`: the stored rows whose key is in no record are deleted (`SeedBuild+Sync.swift`).
        case existingStore(StoreWriter, ExistingRows, insertOnly: Bool, sync: Bool)

        var writer: StoreWriter? {
            switch self {
            case .nowhere: nil
            case .newStore(let writer), .existingStore(let writer, _, _, _): writer
            }
        }

        var existing: ExistingRows? {
            if case .existingStore(_, let rows, _, _) = self { rows } else { nil }
        }

        var syncs: Bool {
            if case .existingStore(_, _, _, true) = self { true } else { false }
        }
    }

    /// Loads the spec at `specPath`, builds the store, and returns what was done.
    /// Throws `BuildFailure` (every problem, one line each) or a spec, model, reader or store error.
    public static func run(specPath: String, options: Options = Options()) throws -> BuildReport {
        let started = Date()
        try SeedSpec.refuseIrregular(specPath, role: "the spec")
        let spec = try SeedSpec.load(path: specPath)
        try spec.refuseIrregularInputs()
        let versions = try ModelVersions.load(path: spec.resolve(spec.model))
        let model = try versions.version(named: spec.modelVersion)
        let framework = FrameworkVersion(spec.frameworkVersion ?? FrameworkVersion.newest.rawValue)
        let seedPlan = try SeedPlan(spec: spec, model: model, configuration: options.configuration ?? spec.configuration,
                                   framework: framework)
        if spec.mode == .sync && options.mode != .sync {
            throw FileError(.badRequest, path: specPath, message: "mode: \"sync\" deletes rows, so it is asked for on the command line only: build with \(RunOption.sync), and leave \"mode\" out of the spec")
        }
        let mode = options.mode ?? spec.mode
        var options = options
        if options.failOnRejects { options.maxErrors = Int.max }
        if mode == .replace, let entity = seedPlan.entities.first(where: \.hasStoredRowsOnly) {
            throw FileError(.badRequest, path: specPath, message: "entities.\(entity.name): without 'from' an entity stands for the rows already in the store, which only an update (\(RunOption.intoStore)) has: give it 'from', or build with \(RunOption.into)")
        }
        if mode != .replace, let entity = seedPlan.entities.first(where: \.keepsPrimaryKeys) {
            throw FileError(.badRequest, path: specPath, message: "entities.\(entity.name).primaryKey: Z_PKs come from the input only in a new store; an update (\(RunOption.into)) numbers new rows above the store's Z_MAX: leave \"primaryKey\" out")
        }
        if mode == .upsert, let field = spec.randomUUIDFields.first {
            throw FileError(.badRequest, path: specPath, message: "\(field): {\"uuid\": \"random\"} gives every build new ids, so an update would replace the ids of the rows it matches: use {\"uuid\": \"fromKey\"}, which an update keeps")
        }
        let plan = BuildPlan(seedPlan: seedPlan, specPath: specPath, options: options, updatesAStore: mode != .replace)
        let output = outputPath(spec: spec, options: options)
        // Where the store goes: an update writes back over the store it reads, unless --output names
        // another file (`--into A --output B` leaves A as it was).
        let written = options.into.map { options.output ?? $0 } ?? output
        let updatedStore = options.into.map { [(path: $0, role: "the store to update (\(RunOption.into))")] } ?? []
        if let into = options.into, options.output != nil, FileIdentity.sameFile(into, written) {
            throw FileError(.badRequest, path: written, message: "\(RunOption.output) names the \(RunOption.into) store; leave \(RunOption.output) out to update it in place")
        }
        if !options.dryRun {
            try SeedSpec.refuseFolder(written, as: "output")
            try spec.refuseOverwritingInputs(written, as: "output", also: options.output == nil ? [] : updatedStore)
        }
        if let report = options.reportPath {
            try spec.refuseOverwritingInputs(report, as: "report", also: [(written, "the output store")] + updatedStore)
        }
        let destination: Destination
        var recordsHistory = false
        if mode != .replace {
            let target = options.into ?? output
            options.progress?("reading the store to update")
            let (writer, rows, tracked) = try openExisting(target, writingTo: options.into == nil ? nil : options.output,
                                                  versions: versions, model: model, plan: plan, options: options)
            destination = .existingStore(writer, rows, insertOnly: mode == .insert, sync: mode == .sync)
            recordsHistory = tracked
        } else if options.dryRun {
            destination = .nowhere
        } else {
            destination = .newStore(try StoreWriter(layout: seedPlan.layout, targetPath: output, timeout: options.timeout))
        }
        let finish = Finish(plan: plan, options: options, destination: destination, output: output)
        finish.recordsHistory = recordsHistory
        if case .newStore = destination { finish.startInputUUID() }
        do {
            var report = try build(plan, destination: destination, finish: finish, options: options)
            report.seconds = Date().timeIntervalSince(started)
            return report
        } catch {
            finish.stopInputUUID()
            destination.writer?.abandon()
            // An SQLite failure while writing is a failure to write the output (full disk, size limit).
            if error is SQLiteError, let writer = destination.writer { throw StoreWriter.writeFailure(error, path: writer.targetPath) }
            throw error
        }
    }

    static func outputPath(spec: SeedSpec, options: Options) -> String {
        if let output = options.output { return output }
        if let output = spec.output { return spec.resolve(output) }
        return spec.resolve("store.sqlite")
    }

    /// The two passes and the finish.
    private static func build(_ plan: BuildPlan, destination: Destination, finish: Finish, options: Options) throws -> BuildReport {
        let seedPlan = plan.seedPlan
        let timing = PhaseTiming()
        let existing = destination.existing
        var insertOnly = false
        if case .existingStore(_, _, let only, _) = destination { insertOnly = only }
        var keys = KeyPass(plan: plan, existing: existing, insertOnly: insertOnly)
        keys.notesStoredRows = destination.syncs
        var entities: [EntityNumbers]
        switch plan.numbering {
        case .asRead(let slots):
            entities = slots.map { EntityNumbers(slots: $0) }
        case .byKeyPass:
            options.progress?("reading keys")
            var reading: (@Sendable (String) -> Void)?
            if let report = options.progress { reading = { report("reading " + $0) } }
            try keys.readKeys(progress: reading)
            if destination.syncs { leaveOutDeletedRows(&keys) }
            try keys.leaveOutUnresolved()
            try keys.leaveOutOrphans()
            timing.mark("pass 1: keys")
            options.progress?("linking relationships")
            try keys.numberAndLink()
            timing.mark("relationships")
            entities = keys.numbers
        }
        let rows = try destination.writer.map { writer in
            try RowWriter(writer: writer, seedPlan: seedPlan,
                          numberedByInsertion: seedPlan.entities.indices.map { plan.numbersByInsertion($0, updatesAStore: existing != nil) },
                          updatesAStore: existing != nil,
                          updateStatement: { entity, index, source in
                              try updateStatement(for: entity, toOneKeys: keys.states[index].numbers.toOneKeys, source: source, store: writer.store)
                          })
        }
        let indexes = rows?.prepared.indexes ?? RowStatements.Indexes.unwritten(seedPlan)
        var producer = RowProducer(plan: plan, entities: entities, statements: indexes, rejections: keys.rejections)
        producer.knownKeys = KnownKeys(&keys)
        entities = []  // the producer holds the only copy now
        let progress = options.progress.map { report in
            RowProgress(report: report, verb: rows == nil ? "checking rows" : "writing rows",
                        total: plan.isNumberedAsRead ? nil : keys.states.reduce(0) { $0 + $1.numbers.primaryKeys.count { $0 != 0 } })
        }
        if let rows {
            producer = try writeRows(producer, into: rows, progress: progress)
        } else {
            var progress = progress
            try producer.produce(send: { batch in
                progress?.add(batch.rows.count)
                return true
            })
        }
        timing.mark("pass 2: rows")

        var report = BuildReport()
        report.storedRowsBefore = existing.map { rows in rows.keys.reduce(0) { $0 + $1.count } }
        if existing != nil { report.storePath = options.into ?? finish.output }
        for (index, entity) in seedPlan.entities.enumerated() {
            let state = keys.states.isEmpty ? EntityState() : keys.states[index]
            report.entities.append(.init(name: entity.name, rows: producer.produced[index], rejected: state.rejected,
                                         updated: rows?.updated[index] ?? 0,
                                         unchanged: (rows?.unchanged[index] ?? 0) + producer.unchanged[index] + state.skippedExisting))
        }
        if existing == nil {
            for (entity, count) in zip(seedPlan.entities, report.entities) where count.rows == 0 && count.rejected == 0 {
                for source in entity.sources {
                    report.warnings.append(Diagnostic(.warning, at: seedPlan.spec.resolve(source.spec.path),
                                                      "source '\(source.name)' has no records: the store will hold no \(entity.name) rows"))
                }
            }
        }
        for join in seedPlan.layout.joinTables {
            if let joinRows = keys.joinRows[join.name], !joinRows.isEmpty { report.joinRows[join.name] = joinRows.count }
        }
        if rows != nil, !report.joinRows.isEmpty { options.progress?("writing join rows: \(report.joinRows.values.reduce(0, +))") }
        if let added = try rows?.writeJoinRows(keys.joinRows, layout: seedPlan.layout, ignoringDuplicates: existing != nil),
           existing != nil {
            report.joinRows = added.filter { $0.value > 0 }  // an update counts the links it added
        }
        if destination.syncs, let existing, let writer = destination.writer {
            options.progress?("deleting the rows no record names")
            let deletion = try deleteUnlisted(keys, existing: existing, store: writer.store, plan: plan, options: options,
                                              storePath: options.into ?? finish.output,
                                              recordsHistory: finish.recordsHistory, report: &report)
            finish.toleratedDangling = deletion.leftColumns
            // A dry run past a deletion history cannot record has said the run stops there: no history follows.
            if options.dryRun, !deletion.deleted.isEmpty { finish.recordsHistory = false }
        }
        report.droppedLinks = keys.droppedLinks
        report.filtered = producer.filtered
        report.unmatchedJoinKeys = producer.unmatchedJoinKeys
        producer.rejections.locatePending()
        report.rejected = producer.rejections.errors
        if options.failOnRejects && !report.rejected.isEmpty {
            throw BuildFailure(problems: report.rejected, report: report)
        }
        var maxPrimaryKeys = keys.maxPrimaryKeys
        if plan.isNumberedAsRead {
            for (index, entity) in seedPlan.entities.enumerated() { maxPrimaryKeys[entity.rootName] = Int64(producer.produced[index]) }
        }
        if rows != nil { options.progress?("checking the store (indexes, integrity, model)") }
        report.output = try finish.finish(maxPrimaryKeys: maxPrimaryKeys, updatedRows: report.entities.reduce(0) { $0 + $1.updated },
                                          addedJoinRows: report.joinRows)
        return report
    }

    /// Runs `producer` on a reading thread of its own while this thread writes what it hands over;
    /// returns the producer as it finished (its tallies and rejected values).
    private static func writeRows(_ producer: RowProducer, into rows: RowWriter, progress: RowProgress?) throws -> RowProducer {
        let handoff = BatchHandoff<RowBatch, any Error>(capacity: 3)
        let finished = BatchHandoff<RowProducer, any Error>(capacity: 1)
        handoff.producerStarting()
        let thread = Thread {
            var producer = producer
            var progress = progress
            do {
                try producer.produce(send: { batch in
                    progress?.add(batch.rows.count)
                    return handoff.put(batch)
                })
                handoff.finish(nil)
            } catch {
                handoff.finish(error)
            }
            finished.deliver(.success(producer))
        }
        thread.stackSize = 8 << 20
        thread.start()
        do {
            try rows.consume(handoff)
        } catch {
            let failure = handoff.cancelAndWait()
            _ = finished.wait()
            throw failure ?? error
        }
        let result = try finished.wait().get()
        PhaseTiming().mark(String(format: "  rows (reader waited %.2f s, SQLite waited %.2f s)", handoff.producerWaited, handoff.consumerWaited))
        return result
    }

    /// Checks that the store to update matches the model (as `verify` judges a store Core Data wrote:
    /// migration history is fine), copies it to the temporary file, and reads the keys of its rows.
    private static func openExisting(_ target: String, writingTo output: String?, versions: ModelVersions, model: Model,
                                     plan: BuildPlan, options: Options) throws -> (StoreWriter, ExistingRows, recordsHistory: Bool) {
        let configuration = options.configuration ?? plan.seedPlan.spec.configuration
        let single = ModelVersions(versions: [model], currentVersionName: model.versionName, path: versions.path)
        let report = try StoreVerifier(versions: single, configuration: configuration, timeout: options.timeout).verify(storeAt: target)
        guard report.isMatch else {
            // Another version of the model may have written it: say which, and the spec key to set.
            if report.matchedVersion == nil, versions.versions.count > 1,
               let other = try? StoreVerifier(versions: versions, configuration: configuration, timeout: options.timeout).verify(storeAt: target).matchedVersion,
               other != model.versionName {
                throw FileError(path: target, message: "the store to update was written by model version '\(other)', but the spec builds '\(model.versionName)': set \"modelVersion\": \"\(other)\" in the spec (or migrate the store to '\(model.versionName)' first)")
            }
            let more = report.differences.count > 1 ? " (and \(report.differences.count - 1) more; run coreseed verify)" : ""
            throw FileError(path: target, message: "the store to update does not match model version '\(model.versionName)': \(report.differences[0])\(more)")
        }
        let writer = try StoreWriter(updating: target, writingTo: output, layout: plan.seedPlan.layout, timeout: options.timeout)
        do {
            // Never silent: an update that records no history is invisible to CloudKit and extensions.
            // A tracked store gets this run's transaction (Finish), unless --no-history.
            let tracked = try !options.noHistory && PersistentHistory.isTracked(writer.store)
            if tracked { try PersistentHistory.watchUpdates(in: writer.store, layout: plan.seedPlan.layout) }
            return (writer, try ExistingRows.load(writer.store, plan: plan, storePath: target), tracked)
        } catch {
            writer.abandon()
            throw error
        }
    }

    /// `UPDATE` of the columns the input feeds, only when one of them changes: `Z_OPT` counts real
    /// changes. Returns the statement and, per table column, its parameter (nil: not updated).
    private static func updateStatement(for entity: EntityPlan, toOneKeys: [[Int64]], source: SourcePlan,
                                        store: SQLiteDatabase) throws -> (SQLiteStatement, [Int32?])? {
        var parameters: [Int32?] = []
        var columns: [String] = []
        for (offset, fill) in source.fills.enumerated() {
            let column = entity.table.columns[offset].name
            var fed: Bool
            switch fill {
            case .attribute(let attribute): fed = attribute.fieldIndex != nil || attribute.constant != nil
            case .toOne(let slot), .toOneEntity(let slot), .toOneOrder(let slot):
                fed = toOneKeys[slot].contains { $0 != 0 }
            default: fed = false
            }
            guard fed else { parameters.append(nil); continue }
            columns.append(column)
            parameters.append(Int32(columns.count))
        }
        guard !columns.isEmpty else { return nil }
        // A blank field arrives as NULL and leaves the stored value (onBlank: keep).
        let sql = CoreDataSQL.rowUpdate(table: entity.table.name, columns: columns, keepingBlanks: entity.keepsBlanks)
        return (try store.prepare(sql), parameters)
    }
}

/// The row pass's progress, counted per batch handed over (not per row): a line every 65,536 rows.
struct RowProgress: Sendable {
    let report: @Sendable (String) -> Void
    /// `writing rows`, or `checking rows` in a dry run.
    let verb: String
    /// The rows the pass will make, when a key pass counted them.
    let total: Int?
    private var rows = 0

    init(report: @escaping @Sendable (String) -> Void, verb: String, total: Int?) {
        self.report = report
        self.verb = verb
        self.total = total
        report(verb)
    }

    mutating func add(_ count: Int) {
        let before = rows
        rows += count
        guard before >> 16 != rows >> 16 else { return }
        if let total, total > 0 {
            report("\(verb): \(rows) of \(total) (\(min(100, rows * 100 / total))%)")
        } else {
            report("\(verb): \(rows)")
        }
    }
}

extension RowStatements.Indexes {
    /// The indexes of a dry run: no statement (rows are made and checked, never written).
    static func unwritten(_ seedPlan: SeedPlan) -> Self {
        var indexes = Self()
        indexes.insert = Array(repeating: -1, count: seedPlan.entities.count)
        indexes.update = seedPlan.entities.map { Array(repeating: nil, count: $0.sources.count) }
        indexes.numberedByInsertion = Array(repeating: false, count: seedPlan.entities.count)
        return indexes
    }
}
