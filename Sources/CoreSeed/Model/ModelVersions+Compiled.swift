import Foundation

/// Compiled models as model inputs: a `.momd` folder, a `.mom` file, or a Core Data store's own model
/// (`Z_MODELCACHE`). Each is the `NSManagedObjectModel` keyed archive ``CompiledModelReader`` decodes.
extension ModelVersions {
    /// What a model path holds.
    public enum Kind: Sendable, Equatable {
        case source, compiledBundle, compiledModel, store
    }

    /// Reads `path`, whatever model it holds: an `.xcdatamodeld` folder, an `.xcdatamodel` folder, a
    /// `contents` file, a compiled `.momd` folder or `.mom` file, or a Core Data store (its own model,
    /// `Z_MODELCACHE`): the one entry point every command's model input goes through.
    public static func load(path: String) throws(FileError) -> ModelVersions {
        guard FileManager.default.fileExists(atPath: path) else {
            throw FileError(.unreadableInput, path: path, message: "no model at this path")
        }
        try FileError.refuseIrregular(path, role: "the model", folderAllowed: true)  // before its first bytes are read
        switch kind(ofPath: path) {
        case .store: return try loadStore(path: path)
        case .compiledModel: return try loadCompiledModel(path: path)
        case .compiledBundle: return try loadCompiledBundle(path: path)
        case .source: return try loadSource(path: path)
        }
    }

    /// The kind of model at `path`, by extension and, for a file, its first bytes.
    public static func kind(ofPath path: String) -> Kind {
        var isDirectory: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        let pathExtension = (path as NSString).pathExtension
        if isDirectory.boolValue { return pathExtension == "momd" ? .compiledBundle : .source }
        if pathExtension == "mom" { return .compiledModel }
        guard let handle = FileHandle(forReadingAtPath: path) else { return .source }
        defer { try? handle.close() }
        let head = [UInt8]((try? handle.read(upToCount: 16)) ?? Data())
        if head.starts(with: Array("SQLite format 3".utf8)) { return .store }
        if head.starts(with: Array("bplist00".utf8)) { return .compiledModel }
        return .source
    }

    /// The model of the Core Data store at `path`, read from its `Z_MODELCACHE`.
    public static func loadStore(path: String) throws(FileError) -> ModelVersions {
        let archive: [UInt8]
        do { archive = try StoreModelCache.archive(ofStoreAt: path) } catch {
            throw FileError(.unreadableInput, path: path, message: error.message)
        }
        let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        let model = try decode(archive, versionName: name, path: path, what: "the store's cached model (Z_MODELCACHE)")
        return ModelVersions(versions: [model], currentVersionName: name, path: path)
    }

    /// One compiled `.mom` file.
    static func loadCompiledModel(path: String) throws(FileError) -> ModelVersions {
        let model = try compiledVersion(path)
        return ModelVersions(versions: [model], currentVersionName: model.versionName, path: path)
    }

    private static func compiledVersion(_ path: String) throws(FileError) -> Model {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FileError(.unreadableInput, path: path, message: "cannot read the compiled model file")
        }
        let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        return try decode([UInt8](data), versionName: name, path: path, what: "a compiled model (.mom)")
    }

    private static func decode(_ bytes: [UInt8], versionName: String, path: String, what: String) throws(FileError) -> Model {
        let model: Model
        do { model = try CompiledModelReader.model(bytes, versionName: versionName, path: path) } catch {
            throw FileError(.unreadableInput, path: path, message: "not readable as \(what): \(error.message)")
        }
        try ModelValidator.validate(model)
        return model
    }

    /// A compiled `.momd` folder: every `.mom` version, the current one named by `VersionInfo.plist`'s
    /// `NSManagedObjectModel_CurrentVersionName`.
    static func loadCompiledBundle(path: String) throws(FileError) -> ModelVersions {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".mom") }.sorted()
        } catch {
            throw FileError(.unreadableInput, path: path, message: "cannot list the compiled model versions: \(error.localizedDescription)")
        }
        guard !names.isEmpty else { throw FileError(.unreadableInput, path: path, message: "no .mom version inside this .momd") }
        let folder = path.hasSuffix("/") ? path : path + "/"
        var versions: [Model] = []
        for name in names { versions.append(try compiledVersion(folder + name)) }
        let info = folder + "VersionInfo.plist"
        var current = versions.count == 1 ? versions[0].versionName : ""
        if let data = FileManager.default.contents(atPath: info) {
            guard let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
                  let value = plist["NSManagedObjectModel_CurrentVersionName"] as? String else {
                throw FileError(.unreadableInput, path: info, message: "cannot read NSManagedObjectModel_CurrentVersionName from this property list")
            }
            current = value
            guard versions.contains(where: { $0.versionName == current }) else {
                throw FileError(.unreadableInput, path: info, message: "names version '\(value)', which is not in the .momd")
            }
        } else if versions.count > 1 {
            throw FileError(.unreadableInput, path: path, message: "several versions and no VersionInfo.plist; pick one with \(RunOption.modelVersion)")
        }
        return ModelVersions(versions: versions, currentVersionName: current, path: path)
    }
}
