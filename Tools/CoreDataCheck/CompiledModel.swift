#if canImport(CoreData)
import CoreData
import Foundation

/// A model folder compiled by `xcrun momc` into a `.momd`: every version, and the one its
/// `VersionInfo.plist` names current (`NSManagedObjectModel_CurrentVersionName`), which is the
/// version an app bundling this `.momd` opens its stores with.
struct CompiledModel {
    let momd: URL
    let currentVersion: String
    /// Version name → the model Core Data loads from `<name>.mom`.
    let versions: [String: NSManagedObjectModel]

    /// Runs `xcrun momc SOURCE FOLDER` as Xcode's DataModelVersionCompile step does (the destination
    /// is the folder the `.momd` goes into, named after SOURCE) and loads `momd`, which must be
    /// `FOLDER/<SOURCE name>.momd`.
    static func compile(_ source: URL, into momd: URL) throws(CheckFailure) -> CompiledModel {
        let folder = momd.deletingLastPathComponent()
        guard momd.lastPathComponent == source.deletingPathExtension().lastPathComponent + ".momd" else {
            throw .failed("momc names the compiled model after \(source.lastPathComponent), not \(momd.lastPathComponent)")
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .failed("cannot create \(folder.path): \(error.localizedDescription)")
        }
        let result = try Subprocess.succeed("/usr/bin/xcrun", ["momc", source.path, folder.path])
        guard FileManager.default.fileExists(atPath: momd.path) else {
            throw .failed("\(result.command) wrote no \(momd.path) (\(folder.path) holds \(((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted().joined(separator: ", ")))")
        }
        return try load(momd)
    }

    /// Loads every version of a compiled `.momd`. Each entity's class becomes `NSManagedObject`
    /// (this process has none of the app's classes; the class is not part of any version hash), so
    /// Core Data does not warn once per entity that it cannot find one.
    static func load(_ momd: URL) throws(CheckFailure) -> CompiledModel {
        let info = momd.appendingPathComponent("VersionInfo.plist")
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: momd.path)) ?? []).filter { $0.hasSuffix(".mom") }
        let plist = (try? Data(contentsOf: info)).flatMap { try? PropertyListSerialization.propertyList(from: $0, format: nil) as? [String: Any] }
        // A model folder without `.xccurrentversion` (Inputs/Carriers.xcdatamodeld has none) may
        // compile without a current version named; its only version is then the one an app opens.
        let named = plist?["NSManagedObjectModel_CurrentVersionName"] as? String
        guard let current = named ?? (files.count == 1 ? (files[0] as NSString).deletingPathExtension : nil) else {
            throw .failed("\(info.path): no NSManagedObjectModel_CurrentVersionName and \(files.count) versions: which one is current is unknown (give the model folder a .xccurrentversion)")
        }
        var versions: [String: NSManagedObjectModel] = [:]
        for file in files {
            let url = momd.appendingPathComponent(file)
            guard let model = NSManagedObjectModel(contentsOf: url) else {
                throw .failed("\(url.path): Core Data cannot load this compiled model version")
            }
            for entity in model.entities { entity.managedObjectClassName = NSStringFromClass(NSManagedObject.self) }
            versions[(file as NSString).deletingPathExtension] = model
        }
        guard versions[current] != nil else {
            throw .failed("\(momd.path): VersionInfo.plist names the current version '\(current)', but there is no \(current).mom")
        }
        return CompiledModel(momd: momd, currentVersion: current, versions: versions)
    }

    /// The versions Core Data finds compatible with a store's metadata (no migration needed).
    func versions(compatibleWith metadata: [String: Any], configuration: String?) -> [String] {
        versions.filter { $0.value.isConfiguration(withName: configuration, compatibleWithStoreMetadata: metadata) }.keys.sorted()
    }
}

extension NSManagedObjectModel {
    /// The entities a store of `configuration` holds (all of them without one), by name.
    func storedEntities(configuration: String?) -> [NSEntityDescription] {
        let stored = configuration.flatMap { self.entities(forConfigurationName: $0) } ?? self.entities
        return stored.sorted { ($0.name ?? "") < ($1.name ?? "") }
    }
}

extension NSEntityDescription {
    /// The root of this entity's hierarchy, whose table holds its rows.
    var root: NSEntityDescription {
        var entity = self
        while let parent = entity.superentity { entity = parent }
        return entity
    }

    /// Names of the attributes in a uniqueness constraint (entries are names or property descriptions).
    var constrainedAttributeNames: Set<String> {
        var names = Set<String>()
        for constraint in uniquenessConstraints {
            for element in constraint {
                if let name = element as? String { names.insert(name) }
                if let property = element as? NSPropertyDescription { names.insert(property.name) }
            }
        }
        return names
    }

    /// The attributes with a column: all but transient ones (derived ones have a column too).
    var storedAttributes: [NSAttributeDescription] {
        attributesByName.values.filter { !$0.isTransient }.sorted { $0.name < $1.name }
    }
}

extension NSAttributeDescription {
    var isDerived: Bool { self is NSDerivedAttributeDescription }
}

/// The `Z_PK` of an object: Core Data's object ID URIs end in `p<Z_PK>` for SQLite stores
/// (`x-coredata://<store UUID>/<Entity>/p12`); nil for a temporary ID.
func primaryKey(of objectID: NSManagedObjectID) -> Int64? {
    let last = objectID.uriRepresentation().lastPathComponent
    guard !objectID.isTemporaryID, last.hasPrefix("p") else { return nil }
    return Int64(last.dropFirst())
}

/// A Core Data error in one line: its message, domain and code, and the first underlying errors
/// (validation errors come as `NSDetailedErrorsKey`, each naming its object and key).
func describe(_ error: Error) -> String {
    let error = error as NSError
    var text = "\(error.localizedDescription) (\(error.domain) \(error.code))"
    if let key = error.userInfo[NSValidationKeyErrorKey] as? String { text += " key '\(key)'" }
    if let object = error.userInfo[NSValidationObjectErrorKey] as? NSManagedObject { text += " of a \(object.entity.name ?? "?")" }
    if let details = error.userInfo[NSDetailedErrorsKey] as? [NSError] {
        text += ": " + details.prefix(3).map { describe($0) }.joined(separator: "; ")
        if details.count > 3 { text += "; and \(details.count - 3) more" }
    }
    if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError { text += "; underlying: \(describe(underlying))" }
    return text
}

/// Bytes in the store's `Z_MODELCACHE` (the cached model Core Data migrates from when the app no
/// longer ships the store's version), read with macOS's `/usr/bin/sqlite3`; nil without the table.
func modelCacheBytes(of store: URL) -> Int? {
    guard let result = try? Subprocess.run("/usr/bin/sqlite3", ["-readonly", store.path,
                                                               "SELECT coalesce(sum(length(Z_CONTENT)), 0) FROM Z_MODELCACHE"]),
          result.status == 0 else { return nil }
    return Int(result.text.trimmingCharacters(in: .whitespacesAndNewlines))
}
#endif
