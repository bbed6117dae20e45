/// The store's `Z_MODELCACHE` against the model version whose hashes the store has (issue 26).
///
/// Core Data falls back to the cached model when an app no longer ships the version that wrote the
/// store (a lightweight migration's source model), and apps read it through
/// `cachedModelForPersistentStore(at:options:)`: a cache that holds another model, or one that cannot
/// be read, misleads both. It is a warning (`--strict` fails on it), and a difference in the build's
/// own check of the store it writes. An empty cache (CoreSeed's stores outside the frameworks whose
/// archive it has proven) is not compared.
extension StoreVerifier {
    func checkModelCache(_ database: SQLiteDatabase, _ schema: StoredSchema, matching hashes: ModelHashes, version: String,
                         fresh: Bool, into report: inout Report) throws {
        guard StoreVerifier.has(schema, table: CoreDataSchema.modelCacheTable, columns: [CoreDataSchema.modelCacheContentColumn]) else { return }
        func problem(_ text: String) {
            let line = "\(CoreDataSchema.modelCacheTable): \(text); Core Data reads this cached model when an app lacks model version \(version) (a migration's source)"
            if fresh { report.differences.append(line) } else { report.warnings.append(line) }
        }
        let rows = try database.rows(CoreDataSQL.modelCacheContent)
        guard !rows.isEmpty else { return }
        guard rows.count == 1, case .blob(let compressed) = rows[0][0] else {
            problem(rows.count == 1 ? "its Z_CONTENT is not a blob" : "\(rows.count) rows, not one model")
            return
        }
        let cached: Model
        do {
            let archive = try RawDeflate.inflate(compressed)
            cached = try CompiledModelReader.model(archive, versionName: CoreDataSchema.modelCacheTable, path: CoreDataSchema.modelCacheTable)
        } catch let failure as RawDeflate.Failure {
            problem("not a raw-deflated archive (\(failure.message))")
            return
        } catch let failure as CompiledModelReader.Failure {
            problem("not readable as a model (\(failure.message))")
            return
        }
        let cachedHashes = ModelHashes.compute(for: cached).entities
        guard cachedHashes != hashes.entities else { return }
        let differing = StoreVerifier.entityHashDifferences(cachedHashes, hashes.entities).map { entity, difference in
            switch difference {
            case .onlyInSecond: "\(entity) missing"
            case .onlyInFirst: "\(entity) not in the model"
            case .differs: "\(entity) with another version hash"
            }
        }
        let shown = differing.prefix(5).joined(separator: ", ") + (differing.count > 5 ? ", and \(differing.count - 5) more" : "")
        problem("holds another model than version \(version), whose hashes the store has (\(shown))")
    }
}
