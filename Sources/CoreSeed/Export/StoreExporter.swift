import Foundation

/// Reads a store's rows back out as one file per concrete entity (CSV or JSON) and, for CSV, a seed
/// spec that `build` runs to rebuild the same rows (the restore path).
///
/// Each file has a `pk` column (the row's `Z_PK`, its key in the spec), the entity's stored attributes
/// (inherited ones included) named as in the model, a column per to-one relationship holding the
/// destination's `pk`, and for ordered one-to-many and many-to-many relationships a column holding the
/// destinations' `pk`s joined with ";" in the relationship's order. Rows are written in `Z_PK` order, so
/// a rebuild numbers them the same way. The store is read through a `StoreSnapshot` (one committed state,
/// never modified), and refused when a table it reads is a view or it holds a trigger the model does not
/// define.
public struct StoreExporter {
    /// The file format of the entity files.
    public enum Format: String, Sendable, CaseIterable {
        /// RFC 4180, a header line; NULL is an empty field.
        case csv
        /// A JSON array of objects, one object per line; NULL is `null`.
        case json
    }

    /// What one export wrote.
    public struct Result: Sendable {
        /// Entity name, file path and row count, in `Z_ENT` order.
        public var files: [(entity: String, path: String, rows: Int)] = []
        /// The spec file, when one was asked for.
        public var specPath: String?
        /// Values or relationships that a rebuild cannot reproduce exactly.
        public var warnings: [String] = []
        /// The model version the store was read with.
        public var modelVersion = ""
    }

    /// The separator of key lists in to-many columns.
    public static let listSeparator = ";"

    public let versions: ModelVersions
    /// The model version to read with; by default the one whose version hashes equal the store's.
    public let modelVersion: String?
    /// How long a lock another process holds on the store is waited for before it is said to be in use.
    public var timeout: Duration

    public init(versions: ModelVersions, modelVersion: String? = nil, timeout: Duration = StoreSnapshot.defaultTimeout) {
        self.versions = versions
        self.modelVersion = modelVersion
        self.timeout = timeout
    }

    /// Exports the store at `storePath` into `directory` (created if missing).
    ///
    /// - Parameters:
    ///   - entity: only this entity (and its sub-entities); all concrete entities by default.
    ///   - specModelPath: when set, also writes `seed.json` (reading the CSV or JSON files) with this as its `"model"`.
    public func export(storeAt storePath: String, to directory: String, format: Format, entity: String? = nil,
                       specModelPath: String? = nil) throws -> Result {
        return try StoreSnapshot.read(path: storePath, timeout: timeout) { snapshot in
            try export(snapshot.database, storePath: storePath, to: directory, format: format, entity: entity,
                       specModelPath: specModelPath)
        }
    }

    private func export(_ database: SQLiteDatabase, storePath: String, to directory: String, format: Format,
                        entity: String?, specModelPath: String?) throws -> Result {
        let schema = try StoredSchema.read(database)
        let own = "Core Data's own table"
        try schema.refuseAlteredObjects(reading: [(CoreDataSchema.metadataTable, own), (CoreDataSchema.primaryKeyTable, own)],
                                        allowedTriggers: nil, path: storePath)
        let (uuid, metadata): (String, StoreMetadata)
        do {
            (uuid, metadata) = try StoreMetadata.read(from: database)
        } catch let error as FileError {
            throw FileError(error.kind, path: storePath, message: error.message)
        }
        let model = try chooseModel(metadata: metadata, storePath: storePath)
        let layout = try Self.layout(model: model, schema: schema, framework: FrameworkVersion(metadata.frameworkVersion))
        let graph = EntityGraph(model: model)
        let tables = layout.tables.map { table in
            let names = layout.entities.filter { $0.tableName == table.name }.map(\.name)
            return (table.name, "the table of \(names.count == 1 ? "entity" : "entities") \(names.joined(separator: ", "))")
        } + layout.joinTables.map { join in
            (join.name, "the join table of \(join.firstEntity).\(join.firstRelationship) ↔ \(join.secondEntity).\(join.secondRelationship)")
        }
        try schema.refuseAlteredObjects(reading: tables, allowedTriggers: Set(layout.triggers), path: storePath)

        var selected = layout.entities.filter { !$0.isAbstract && $0.isInConfiguration && layout.table(forEntity: $0.name) != nil }
        if let entity {
            guard layout.entity(named: entity) != nil else {
                throw FileError(.badRequest, path: storePath, message: "model version '\(model.versionName)' has no entity '\(entity)' (entities: \(layout.entities.map(\.name).joined(separator: ", ")))")
            }
            selected = selected.filter { info in graph.lineage(info.name).contains { $0.name == entity } }
        }

        let fileNames = selected.map { "\($0.name).\(format.rawValue)" } + (specModelPath == nil ? [] : [ExportSpec.fileName])
        let folder = try ExportFolder(directory: directory, names: fileNames)
        var result = Result()
        result.modelVersion = model.versionName
        let exported = Set(selected.map(\.name))
        var plans: [EntityExport] = []
        for info in selected {
            var plan = try EntityExport(info: info, layout: layout, graph: graph, warnings: &result.warnings)
            let fileName = "\(info.name).\(format.rawValue)"
            plan.rows = try plan.write(from: database, format: format, to: folder.stagingPath(fileName), name: folder.finalPath(fileName),
                                       externalData: ExternalBinary.dataDirectory(forStoreAt: storePath))
            result.files.append((info.name, folder.finalPath(fileName), plan.rows))
            plans.append(plan)
        }
        if let specModelPath {
            let outputName = URL(fileURLWithPath: storePath).lastPathComponent
            var spec = ExportSpec(modelPath: specModelPath, modelVersion: versions.versions.count > 1 ? model.versionName : nil,
                                  output: outputName, metadata: metadata, uuid: uuid, plans: plans, exported: exported, format: format)
            spec.tracksHistory = try PersistentHistory.isTracked(database)
            let text = spec.text(warnings: &result.warnings)
            try ExportFile.write(Data(text.utf8), to: folder.stagingPath(ExportSpec.fileName), name: folder.finalPath(ExportSpec.fileName))
            result.specPath = folder.finalPath(ExportSpec.fileName)
        }
        try folder.commit()
        return result
    }

    /// The layout of the whole model when the store holds a table for each of its entities, else the
    /// layout of the first configuration whose entities' tables it holds (a store built for one
    /// configuration has only that configuration's tables).
    private static func layout(model: Model, schema: StoredSchema, framework: FrameworkVersion) throws -> StoreLayout {
        let whole = try StoreLayout(model: model, configuration: nil, framework: framework)
        func held(_ layout: StoreLayout) -> Bool {
            layout.entities.allSatisfy { info in
                !info.isInConfiguration || info.isAbstract || layout.table(forEntity: info.name).map { schema.table($0.name) != nil } ?? true
            }
        }
        if held(whole) { return whole }
        for configuration in model.configurations {
            let layout = try StoreLayout(model: model, configuration: configuration.name, framework: framework)
            if held(layout) { return layout }
        }
        return whole
    }

    /// The version named by `modelVersion`, else the one whose hashes equal the store's.
    private func chooseModel(metadata: StoreMetadata, storePath: String) throws -> Model {
        if let modelVersion { return try versions.version(named: modelVersion) }
        if let model = versions.versions.first(where: { ModelHashes.compute(for: $0).entities == metadata.versionHashes }) {
            return model
        }
        throw FileError(path: storePath, message: "no version of the model matches the store's version hashes (versions: \(versions.versions.map(\.versionName).joined(separator: ", "))); name one with \(RunOption.modelVersion)")
    }
}
