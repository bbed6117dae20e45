import Foundation
import Synchronization

/// Pass 2: every kept record becomes one complete row; then join rows, metadata, checks, rename.
extension SeedBuild {
    /// The statements of pass 2: one insert per entity, one update per entity and source (upserts).
    struct RowStatements {
        var statements: [SQLiteStatement] = []
        /// Per entity: its insert statement's index.
        var insert: [Int32] = []
        /// Per statement: the index of its `insertRunLength`-row form, or -1 (updates, upserts).
        var insertRun: [Int32] = []
        /// Per entity and source: the update statement's index and, per column, its parameter.
        var update: [[(statement: Int32, parameters: [Int32?])?]] = []
    }

    /// Per-entity tallies of pass 2.
    struct RowCounts {
        var inserted: [Int]
        var updated: [Int]
        var unchanged: [Int]
    }

    func writeRows() throws {
        let writer = self.writer
        var prepared = RowStatements()
        for (index, entity) in plan.entities.enumerated() {
            if let writer {
                prepared.insert.append(Int32(prepared.statements.count))
                prepared.statements.append(try writer.rowInserter(for: entity.table, entityNumber: entity.number,
                                                                  numberedByInsertion: streaming != nil))
            } else {
                prepared.insert.append(-1)
            }
            if let writer, existing == nil {
                prepared.insertRun.append(Int32(prepared.statements.count))
                prepared.statements.append(try writer.rowInserter(for: entity.table, entityNumber: entity.number,
                                                                  numberedByInsertion: streaming != nil, rows: SeedBuild.insertRunLength))
            }
            var updates: [(statement: Int32, parameters: [Int32?])?] = []
            for source in entity.sources {
                if existing != nil, let (statement, parameters) = try updateStatement(for: entity, index: index, source: source) {
                    updates.append((Int32(prepared.statements.count), parameters))
                    prepared.statements.append(statement)
                } else {
                    updates.append(nil)
                }
            }
            prepared.update.append(updates)
        }
        var counts = RowCounts(inserted: Array(repeating: 0, count: plan.entities.count),
                               updated: Array(repeating: 0, count: plan.entities.count),
                               unchanged: Array(repeating: 0, count: plan.entities.count))
        if writer != nil {
            // Read and convert on a second thread; bind and step here.
            let pipe = RowPipe()
            let box = UncheckedSendable(value: (self, prepared))
            let thread = Thread {
                let (build, prepared) = box.value
                do {
                    try build.produceRows(prepared, send: pipe.send)
                    pipe.close()
                } catch {
                    pipe.close(failure: error)
                }
            }
            thread.stackSize = 8 << 20
            thread.start()
            do {
                try consumeRows(pipe, prepared, counts: &counts)
            } catch {
                pipe.cancel()
                pipe.waitUntilClosed()
                throw pipe.failure ?? error
            }
            pipe.waitUntilClosed()
            if let failure = pipe.failure { throw failure }
            PhaseTiming().mark(String(format: "  rows (reader waited %.2f s, SQLite waited %.2f s)", pipe.producerWaited, pipe.consumerWaited))
        } else {
            try produceRows(prepared, send: { _ in true })
        }
        for (index, entity) in plan.entities.enumerated() {
            report.entities.append(.init(name: entity.name, rows: producedRows[index], rejected: states[index].rejected,
                                         updated: counts.updated[index],
                                         unchanged: counts.unchanged[index] + producedUnchanged[index] + states[index].skippedExisting))
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
        if streaming != nil {
            for (index, entity) in plan.entities.enumerated() { maxPrimaryKeys[entity.rootName] = Int64(producedRows[index]) }
        }
        guard let writer else { return }
        let timing = PhaseTiming()
        defer { timing.mark("finish: indexes, metadata, integrity check, verification") }
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

    /// Rows per multi-row insert: the statement overhead (cursor, halt, reset) is paid once per run.
    static let insertRunLength = 16

    /// The SQLite side of pass 2: binds each row's values to its statement and steps it. New rows of one
    /// table go in runs of ``insertRunLength`` through the multi-row insert, in their order (so rows
    /// numbered by insertion keep their numbers); the rest of a batch's rows one by one at its end.
    private func consumeRows(_ pipe: RowPipe, _ prepared: RowStatements, counts: inout RowCounts) throws {
        var updateEntity: [Int32: Int] = [:]
        for (index, updates) in prepared.update.enumerated() {
            for update in updates { if let update { updateEntity[update.statement] = index } }
        }
        // Per statement: its run form, and the value offsets of the rows waiting for a run.
        var runOf = Array(repeating: Int32(-1), count: prepared.statements.count)
        for (entity, run) in prepared.insertRun.enumerated() { runOf[Int(prepared.insert[entity])] = run }
        var waiting = Array(repeating: [Int](), count: prepared.statements.count)
        var waitingCount = Array(repeating: 0, count: prepared.statements.count)  // values per waiting row
        let store = writer?.store
        while let batch = pipe.receive() {
            try batch.bytes.withUnsafeBufferPointer { bytes in
                let base = bytes.baseAddress
                /// Binds the `count` values at `offset` from parameter `first` on.
                func bind(_ statement: SQLiteStatement, offset: Int, count: Int, first: Int32) {
                    for parameter in 0..<count {
                        let index = first + Int32(parameter)
                        switch batch.values[offset + parameter] {
                        case .integer(let value): statement.bindInteger(value, at: index)
                        case .null: statement.bindNull(at: index)
                        case .real(let value): statement.bindReal(value, at: index)
                        case .text(let start, let length): statement.bindStaticText(base.map { $0 + Int(start) }, count: Int(length), at: index)
                        case .blob(let start, let length): statement.bindStaticBlob(base.map { $0 + Int(start) }, count: Int(length), at: index)
                        }
                    }
                }
                var offset = 0
                for (statementIndex, count) in batch.rows {
                    let run = runOf[Int(statementIndex)]
                    if run >= 0 {
                        waiting[Int(statementIndex)].append(offset)
                        waitingCount[Int(statementIndex)] = Int(count)
                        offset += Int(count)
                        guard waiting[Int(statementIndex)].count == SeedBuild.insertRunLength else { continue }
                        let statement = prepared.statements[Int(run)]
                        for (row, start) in waiting[Int(statementIndex)].enumerated() {
                            bind(statement, offset: start, count: Int(count), first: Int32(row) * count + 1)
                        }
                        try statement.step()
                        statement.resetKeepingBindings()
                        waiting[Int(statementIndex)].removeAll(keepingCapacity: true)
                        continue
                    }
                    let statement = prepared.statements[Int(statementIndex)]
                    bind(statement, offset: offset, count: Int(count), first: 1)
                    offset += Int(count)
                    try statement.step()
                    statement.resetKeepingBindings()
                    if let entity = updateEntity[statementIndex] {
                        if store?.changes ?? 0 > 0 { counts.updated[entity] += 1 } else { counts.unchanged[entity] += 1 }
                    }
                }
                // Rows short of a run, one by one and in order, while the batch's bytes are alive.
                for statementIndex in waiting.indices where !waiting[statementIndex].isEmpty {
                    let statement = prepared.statements[statementIndex]
                    for start in waiting[statementIndex] {
                        bind(statement, offset: start, count: waitingCount[statementIndex], first: 1)
                        try statement.step()
                        statement.resetKeepingBindings()
                    }
                    waiting[statementIndex].removeAll(keepingCapacity: true)
                }
            }
        }
    }

    /// What the reading side of pass 2 needs of one entity, copied out of the build's state once so that
    /// the per-row loop reads local arrays (no exclusivity checks, no struct copies).
    struct RowContext {
        let entityIndex: Int
        let number: Int64
        let fills: [[ColumnFill]]
        let primaryKeys: [Int64]
        let matched: [Int64]
        let toOneKeys: [[Int64]]
        let toOneEntities: [[Int32]]
        let toOneOrders: [[Int64]]
        let hasUnresolved: Bool
        /// Streaming plan: rows numbered 1, 2, … by record, to-ones derived from the record number.
        let streaming: [SlotSource]?
        let insert: Int32
        let updates: [(statement: Int32, parameters: [Int32?])?]
        var produced = 0
        var unchanged = 0
        var ordinal = 0
    }

    /// The reading side of pass 2: every kept record of every entity becomes the values of one
    /// insert (or, for a row already in the store, one update), sent in batches.
    func produceRows(_ prepared: RowStatements, send: (RowPipe.Batch) -> Bool) throws {
        producedRows = Array(repeating: 0, count: plan.entities.count)
        producedUnchanged = Array(repeating: 0, count: plan.entities.count)
        var batch = RowPipe.Batch(capacity: 2048)
        for group in sourceGroups {
            var contexts = group.entities.map { index in
                let state = states[index]
                return RowContext(
                    entityIndex: index, number: Int64(plan.entities[index].number), fills: plan.entities[index].sources.map(\.fills),
                    primaryKeys: state.primaryKeys, matched: state.existingPrimaryKeys, toOneKeys: state.toOneKeys,
                    toOneEntities: state.toOneEntities, toOneOrders: state.toOneOrders, hasUnresolved: !state.unresolved.isEmpty,
                    streaming: streaming?[index], insert: prepared.insert[index], updates: prepared.update[index])
            }
            defer {
                for context in contexts {
                    producedRows[context.entityIndex] = context.produced
                    producedUnchanged[context.entityIndex] = context.unchanged
                }
            }
            // One duplicate index per distinct key: entities keyed alike see the same records, so the
            // first of them checks for all (the same key, the same verdict).
            var checkedKeys = Set<[Int]>()
            let duplicateIndexes = group.entities.map { index -> SharedKeyIndex? in
                guard streaming != nil, plan.entities[index].hasKey, checkedKeys.insert(duplicateIndexKey(index)).inserted else { return nil }
                return SharedKeyIndex()
            }
            let sourceCount = plan.entities[group.entities[0]].sources.count
            for sourceIndex in 0..<sourceCount {
                let first = plan.entities[group.entities[0]].sources[sourceIndex]
                let reader = try first.spec.openReader(relativeTo: specDirectory)
                reader.project(projection(group, sourceIndex: sourceIndex, fieldCount: first.fieldNames.count, values: true))
                // Per slot: the key's field when the key is one field (integer keys are checked without text).
                let singleKeyFields = contexts.map { context -> Int in
                    let keyFields = plan.entities[context.entityIndex].sources[sourceIndex].keyFields
                    return keyFields.count == 1 ? keyFields[0] : -1
                }
                // One record: its duplicate checks (one-field integer keys without text), then its rows.
                func handle<Input: RowInput>(_ input: inout Input) throws -> Bool {
                    for slot in contexts.indices {
                        if let index = duplicateIndexes[slot] {
                            let keyField = singleKeyFields[slot]
                            if keyField < 0 || !input.insertIfIntegerKey(field: keyField, into: index) {
                                try checkDuplicate(try input.record(), ordinal: contexts[slot].ordinal, entityIndex: contexts[slot].entityIndex,
                                                   sourceIndex: sourceIndex, index: index)
                            }
                        }
                        try produceRow(&input, sourceIndex: sourceIndex, context: &contexts[slot], batch: &batch)
                    }
                    if batch.rows.count >= 2048 {
                        guard send(batch) else { return false }
                        batch = RowPipe.Batch(capacity: 2048)
                    }
                    return true
                }
                // Fields are looked at in place (no `Record` unless a value needs one).
                func handleInPlace<Reader: FieldViewReader>(_ reader: Reader) throws -> Bool {
                    while try reader.nextRaw() {
                        var input = FieldViewInput(reader: reader)
                        guard try handle(&input) else { return false }
                    }
                    return true
                }
                // Each reader by its own type, so that the in-place path is compiled for it (no generic dispatch per field).
                if let csv = reader as? CSVReader, csv.readsRaw {
                    guard try handleInPlace(csv) else { return }
                } else if let xml = reader as? XMLRecordReader {
                    guard try handleInPlace(xml) else { return }
                } else if let table = reader as? SQLiteRecordReader, table.readsRaw {
                    guard try handleInPlace(table) else { return }
                } else {
                    while let record = try reader.next() {
                        var input = RecordInput(record: record)
                        guard try handle(&input) else { return }
                    }
                }
            }
        }
        if !batch.rows.isEmpty { _ = send(batch) }
    }

    @inline(__always)
    private func produceRow<Input: RowInput>(_ record: inout Input, sourceIndex: Int, context: inout RowContext, batch: inout RowPipe.Batch) throws {
        let ordinal = context.ordinal
        context.ordinal += 1
        let primaryKey = context.streaming == nil ? context.primaryKeys[ordinal] : Int64(ordinal + 1)
        guard primaryKey != 0 else { return }
        if context.hasUnresolved { try reportUnresolved(try record.record(), ordinal: ordinal, entityIndex: context.entityIndex, sourceIndex: sourceIndex) }
        if !context.matched.isEmpty, context.matched[ordinal] != 0 {
            // A row already in the store: update what changed, keep the rest.
            guard let update = context.updates[sourceIndex] else {
                context.unchanged += 1
                return
            }
            let count = try appendValues(&record, ordinal: ordinal, primaryKey: primaryKey, context: context,
                                         fills: context.fills[sourceIndex], parameters: update.parameters, to: &batch)
            batch.append(.integer(primaryKey))
            batch.rows.append((update.statement, Int32(count + 1)))
            return
        }
        let count = try appendValues(&record, ordinal: ordinal, primaryKey: primaryKey, context: context,
                                     fills: context.fills[sourceIndex], parameters: nil, constantsInlined: true, to: &batch)
        batch.rows.append((context.insert, Int32(count)))
        context.produced += 1
    }

    private func reportUnresolved(_ record: Record, ordinal: Int, entityIndex: Int, sourceIndex: Int) throws {
        guard let pending = states[entityIndex].unresolved[Int32(ordinal)] else { return }
        let entity = plan.entities[entityIndex]
        for (linkIndex, key) in pending {
            let link = entity.fieldLinks[linkIndex]
            try reject(mappingError(record, fieldIndex: entity.sources[sourceIndex].linkFields[linkIndex].first, field: link.fieldName,
                                    entity: entity.name, attribute: link.relationship.name,
                                    failure: .unresolvedKey(NaturalKey.display(key), destination: link.relationship.destinationEntity)))
        }
    }

    /// Appends the values of one row's columns (all, or those `parameters` names) and returns how many.
    /// A value that cannot be converted is rejected and NULL takes its place (the first pass has
    /// already left out such records when errors are tolerated).
    @inline(__always)
    private func appendValues<Input: RowInput>(_ record: inout Input, ordinal: Int, primaryKey: Int64, context: RowContext, fills: [ColumnFill],
                                               parameters: [Int32?]?, constantsInlined: Bool = false, to values: inout RowPipe.Batch) throws -> Int {
        var count = 0
        for offset in fills.indices {
            if let parameters, parameters[offset] == nil { continue }
            switch fills[offset] {
            case .entityNumber where constantsInlined, .optimisticLock where constantsInlined: continue
            case .primaryKey where constantsInlined && context.streaming != nil: continue
            default: count += 1
            }
            switch fills[offset] {
            case .primaryKey: values.append(.integer(primaryKey))
            case .entityNumber: values.append(.integer(context.number))
            case .optimisticLock: values.append(.integer(1))
            case .null: values.append(.null)
            case .attribute(let attribute):
                if record.appendFast(attribute, to: &values) { continue }
                let full = try record.record()
                do {
                    values.append(try value(attribute, full))
                } catch {
                    let entity = plan.entities[context.entityIndex]
                    try reject(mappingError(full, fieldIndex: attribute.fieldIndex, field: attribute.fieldName,
                                            entity: entity.name, attribute: attribute.attribute.name, failure: error))
                    values.append(.null)
                }
            case .toOne(let slot):
                if let streaming = context.streaming {
                    if case .sameRecord = streaming[slot] { values.append(.integer(Int64(ordinal + 1))) } else { values.append(.null) }
                    continue
                }
                let key = context.toOneKeys[slot][ordinal]
                values.append(key == 0 ? .null : .integer(key))
            case .toOneEntity(let slot):
                if let streaming = context.streaming {
                    if case .sameRecord(let number) = streaming[slot] { values.append(.integer(number)) } else { values.append(.null) }
                    continue
                }
                let number = context.toOneEntities[slot][ordinal]
                values.append(number == 0 ? .null : .integer(Int64(number)))
            case .toOneOrder(let slot):
                if context.streaming != nil {
                    values.append(.null)
                    continue
                }
                let order = context.toOneOrders[slot][ordinal]
                values.append(order == 0 ? .null : .integer(order))
            }
        }
        return count
    }

    /// Metadata, a UUID derived from the inputs, the writer's own checks, and the rename.
    private func finish(_ writer: StoreWriter) throws {
        let framework = plan.layout.framework
        var other: [String: PropertyListValue] = [:]
        if let version = plan.spec.seedVersion { other["CoreSeedVersion"] = .string(version) }
        var metadata = StoreMetadata(model: plan.model, frameworkVersion: framework.rawValue, other: other)
        if !framework.hasHashesDigest { metadata.hashesDigest = nil }
        if !framework.hasChecksum { metadata.checksum = nil }
        let timing = PhaseTiming()
        let uuid = try plan.spec.storeUUID ?? inputUUID()
        timing.mark("  store UUID from the inputs")
        try writer.finish(maxPrimaryKeys: maxPrimaryKeys, uuid: uuid, metadata: metadata, check: selfCheck)
    }

    /// The writer's own verification of the finished file against the model.
    ///
    /// `PRAGMA quick_check` runs on a second, read-only connection on the other core while this one
    /// checks schema, keys and metadata: the two together take the time of the longer. The quick form:
    /// every page, b-tree and record of the new file is checked, but not each index entry against its
    /// row — the indexes were created by SQLite from the finished tables in the same transaction, and
    /// that look-up would cost more than the whole check (`coreseed verify` runs the full one).
    func selfCheck(_ database: SQLiteDatabase) throws -> [String] {
        let versions = ModelVersions(versions: [plan.model], currentVersionName: plan.model.versionName, path: plan.model.path)
        let result = ThreadResult<[String]>()
        let path = database.path
        let thread = Thread {
            do {
                let reader = try SQLiteDatabase(path: path, mode: .readOnly(immutable: false))
                reader.setBusyTimeout(milliseconds: 10_000)
                result.set(.success(try StoreVerifier.integrityProblems(reader, quick: true)))
            } catch {
                result.set(.failure(error))
            }
        }
        thread.start()
        var check = StoreVerifier.Report()
        // A new store must be a fresh Core Data store to the letter; an updated one keeps its history.
        let verifier = StoreVerifier(versions: versions, configuration: options.configuration ?? plan.spec.configuration,
                                     standard: existing == nil ? .freshStore : .runTime)
        let verified = Result { try verifier.verify(database, into: &check, integrity: false) }
        let integrity = try result.wait().get()
        try verified.get()
        return check.differences + integrity
    }

    /// A UUID derived from the inputs (spec, model hashes, every source file's bytes), so identical
    /// inputs give a byte-identical store. Uppercase, as Core Data writes `Z_UUID`.
    func inputUUID() throws -> String {
        if let pending = pendingUUID { return try pending.wait().get() }
        return try SeedBuild.inputUUID(specPath: specPath, spec: plan.spec, model: plan.model)
    }

    /// Starts hashing the inputs on a thread of its own, while the rows are read and written.
    func startInputUUID() {
        guard plan.spec.storeUUID == nil else { return }
        let result = ThreadResult<String>()
        let inputs = UncheckedSendable(value: (specPath, plan.spec, plan.model))
        let stop = uuidStop
        Thread {
            let (specPath, spec, model) = inputs.value
            result.set(Result { try SeedBuild.inputUUID(specPath: specPath, spec: spec, model: model, stop: stop) })
        }.start()
        pendingUUID = result
    }

    /// Stops the hashing thread and waits for it (a failed build must not exit while it runs: the
    /// process's exit tears down libcrypto under it).
    func stopInputUUID() {
        guard let pending = pendingUUID else { return }
        uuidStop.stop()
        _ = pending.wait()
    }

    /// Tells a background task to give up.
    final class StopFlag: Sendable {
        private let flag = Atomic<Bool>(false)
        func stop() { flag.store(true, ordering: .relaxed) }
        var isStopped: Bool { flag.load(ordering: .relaxed) }
    }

    static func inputUUID(specPath: String, spec: SeedSpec, model: Model, stop: StopFlag? = nil) throws -> String {
        let hash = SHA256Stream()
        if let text = FileManager.default.contents(atPath: specPath) { hash.update([UInt8](text)) }
        hash.update(Array(ModelHashes.compute(for: model).digest.utf8))
        var paths = Set<String>()
        for source in spec.sources.values { paths.insert(spec.resolve(source.path)) }
        for path in paths.sorted() {
            guard let handle = FileHandle(forReadingAtPath: path) else { continue }
            defer { try? handle.close() }
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                if stop?.isStopped == true { throw CancellationError() }
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

/// A value computed on another thread, waited for. `@unchecked Sendable`: guarded by `condition`.
final class ThreadResult<Value>: @unchecked Sendable {
    private let condition = NSCondition()
    private var value: Result<Value, any Error>?

    func set(_ result: Result<Value, any Error>) {
        condition.lock()
        value = result
        condition.broadcast()
        condition.unlock()
    }

    func wait() -> Result<Value, any Error> {
        condition.lock()
        defer { condition.unlock() }
        while value == nil { condition.wait() }
        return value!
    }
}
