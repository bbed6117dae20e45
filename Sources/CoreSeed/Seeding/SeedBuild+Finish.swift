import Foundation
import Synchronization

extension SeedBuild {
    /// The end of a build: metadata, a store UUID derived from the inputs (hashed on a thread of its
    /// own while the rows are written), the writer's own checks, and the rename over the output.
    ///
    /// Not `Sendable`: it holds the store being written.
    final class Finish {
        let plan: BuildPlan
        let options: Options
        let destination: Destination
        let output: String
        /// Whether the updated store tracks persistent history and gets this run's transaction.
        var recordsHistory = false
        /// The store UUID being hashed from the inputs.
        private var pendingUUID: BatchHandoff<String, any Error>?
        private let uuidStop = StopFlag()
        /// Key columns ("TABLE.COLUMN") a sync left pointing at deleted rows (No Action, as Core Data
        /// leaves them): the self-check reports them as warnings there, not as differences.
        var toleratedDangling: Set<String> = []

        init(plan: BuildPlan, options: Options, destination: Destination, output: String) {
            self.plan = plan
            self.options = options
            self.destination = destination
            self.output = output
        }

        /// Finishes the store; returns where it went (nil in a dry run). `updatedRows` and `addedJoinRows`:
        /// what an update changed, which decides whether its history can be recorded.
        func finish(maxPrimaryKeys: [String: Int64], updatedRows: Int = 0, addedJoinRows: [String: Int] = [:]) throws -> String? {
            let timing = PhaseTiming()
            defer { timing.mark("finish: indexes, metadata, integrity check, verification") }
            let seedPlan = plan.seedPlan
            switch destination {
            case .nowhere:
                return nil
            case .existingStore(let writer, let existing, _, _):
                // The history first, into the copy: a dry run then says what a real run would refuse.
                if recordsHistory {
                    try writer.recordUpdateHistory(options.historyTransaction, formerMaxima: existing.maxPrimaryKeys,
                                                   updatedRows: updatedRows, addedJoinRows: addedJoinRows)
                }
                // A dry run made its changes in the copy only: the store stays as it was.
                if options.dryRun {
                    writer.abandon()
                    return nil
                }
                var extra = seedPlan.spec.metadata
                if let version = seedPlan.spec.seedVersion { extra["CoreSeedVersion"] = .string(version) }
                // A store without a cached model (an older CoreSeed's) gets one where it is proven.
                try writer.finishUpdate(maxPrimaryKeys: maxPrimaryKeys, extraMetadata: extra,
                                        modelCache: try modelCache(framework: seedPlan.layout.framework), check: selfCheck)
                return writer.targetPath
            case .newStore(let writer):
                let framework = seedPlan.layout.framework
                var other = seedPlan.spec.metadata
                if let version = seedPlan.spec.seedVersion { other["CoreSeedVersion"] = .string(version) }
                var metadata = StoreMetadata(model: seedPlan.model, frameworkVersion: framework.rawValue, other: other)
                if !framework.hasHashesDigest { metadata.hashesDigest = nil }
                if !framework.hasChecksum { metadata.checksum = nil }
                if framework.hasMaximumFrameworkVersion {
                    metadata.other[StoreMetadata.Key.maximumFrameworkVersion] = metadata.other[StoreMetadata.Key.maximumFrameworkVersion]
                        ?? .integer(Int64(framework.rawValue))
                }
                if maxPrimaryKeys.values.allSatisfy({ $0 == 0 }) && !options.allowEmpty, let held = Finish.rowsHeld(at: output, timeout: options.timeout), held > 0 {
                    throw FileError(path: output, message: "the build wrote no rows and would replace this store, which holds \(held) rows, with an empty one: nothing was replaced; check the sources (a CSV with only its header?) or pass \(RunOption.allowEmpty) to replace it")
                }
                let uuid = try seedPlan.spec.storeUUID ?? inputUUID()
                PhaseTiming().mark("  store UUID from the inputs")
                try writer.finish(maxPrimaryKeys: maxPrimaryKeys, uuid: uuid, metadata: metadata, modelCache: try modelCache(framework: framework),
                                  history: seedPlan.spec.historyTracking ? options.historyTransaction : nil, check: selfCheck)
                return output
            }
        }

        /// The model's archive for `Z_MODELCACHE` where it is proven to be Core Data's own
        /// (``ModelArchiver/storeCache(for:framework:)``); nil where the store has no such table or the
        /// archive is not proven.
        func modelCache(framework: FrameworkVersion) throws -> [UInt8]? {
            guard framework.hasModelCache else { return nil }
            do throws(RawDeflate.Failure) {
                return try ModelArchiver.storeCache(for: plan.seedPlan.model, framework: framework.rawValue)
            } catch {
                throw FileError(path: output, message: "cannot compress the model for the store's Z_MODELCACHE: \(error.message); nothing was written")
            }
        }

        /// How many rows the Core Data tables of the store at `path` hold; nil when there is no file
        /// or it is not a store that can be read. Only validated names reach the SQL, quoted.
        static func rowsHeld(at path: String, timeout: Duration) -> Int? {
            guard FileManager.default.fileExists(atPath: path) else { return nil }
            return try? StoreSnapshot.read(path: path, timeout: timeout) { snapshot in
                let database = snapshot.database
                var total = 0
                for row in try database.rows("SELECT name FROM sqlite_master WHERE type = 'table'") {
                    guard case .text(let name) = row[0], name.hasPrefix("Z"), ![CoreDataSchema.primaryKeyTable, CoreDataSchema.metadataTable, CoreDataSchema.modelCacheTable].contains(name),
                          ModelValidator.isValidName(name),
                          case .integer(let count)? = try database.scalar(CoreDataSQL.rowCount(storedTable: name)) else { continue }
                    total += Int(count)
                }
                return total
            }
        }

        /// The writer's own verification of the finished file against the model.
        ///
        /// `PRAGMA quick_check` runs on a second, read-only connection on the other core while this one
        /// checks schema, keys and metadata: the two together take the time of the longer. The quick form:
        /// every page, b-tree and record of the new file is checked, but not each index entry against its
        /// row — the indexes were created by SQLite from the finished tables in the same transaction, and
        /// that look-up would cost more than the whole check (`coreseed verify` runs the full one).
        func selfCheck(_ database: SQLiteDatabase) throws -> [String] {
            let model = plan.seedPlan.model
            let versions = ModelVersions(versions: [model], currentVersionName: model.versionName, path: model.path)
            let result = BatchHandoff<[String], any Error>(capacity: 1)
            let path = database.path
            let thread = Thread {
                do {
                    let reader = try SQLiteDatabase(path: path, mode: .readOnly(immutable: false))
                    reader.setBusyTimeout(milliseconds: 10_000)
                    result.deliver(.success(try StoreVerifier.integrityProblems(reader, quick: true)))
                } catch {
                    result.deliver(.failure(error))
                }
            }
            thread.start()
            var check = StoreVerifier.Report()
            // A new store must be a fresh Core Data store to the letter; an updated one keeps its history.
            let standard: StoreVerifier.Standard = if case .newStore = destination { .freshStore } else { .runTime }
            let verifier = StoreVerifier(versions: versions, configuration: options.configuration ?? plan.seedPlan.spec.configuration,
                                         standard: standard, toleratedDangling: toleratedDangling)
            let verified = Result { try verifier.verify(database, into: &check, integrity: false, values: false) }
            let integrity = try result.wait().get()
            try verified.get()
            return check.differences + integrity
        }

        /// A UUID derived from the inputs (spec, model hashes, every source file's bytes), so identical
        /// inputs give a byte-identical store. Uppercase, as Core Data writes `Z_UUID`.
        func inputUUID() throws -> String {
            if let pending = pendingUUID { return try pending.wait().get() }
            return try SeedBuild.inputUUID(specPath: plan.specPath, spec: plan.seedPlan.spec, model: plan.seedPlan.model)
        }

        /// Starts hashing the inputs on a thread of its own, while the rows are read and written.
        func startInputUUID() {
            guard plan.seedPlan.spec.storeUUID == nil else { return }
            let result = BatchHandoff<String, any Error>(capacity: 1)
            let (specPath, spec, model, stop) = (plan.specPath, plan.seedPlan.spec, plan.seedPlan.model, uuidStop)
            Thread {
                result.deliver(Result { try SeedBuild.inputUUID(specPath: specPath, spec: spec, model: model, stop: stop) })
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
                // SAFETY: the digest reads the chunk inside the closure and keeps no pointer to it.
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
