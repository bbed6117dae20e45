import Foundation

/// Every version of a model (`.xcdatamodeld`), or the single version of an `.xcdatamodel`.
public struct ModelVersions: Sendable {
    /// The versions, sorted by name.
    public var versions: [Model]
    /// The version `.xccurrentversion` names (or the only one).
    public var currentVersionName: String
    /// The path the user gave.
    public var path: String

    /// Reads the model source at `path`: an `.xcdatamodeld` folder, an `.xcdatamodel` folder, or a
    /// `contents` file (``load(path:)`` takes compiled models and stores too).
    public static func loadSource(path: String) throws(FileError) -> ModelVersions {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw FileError(.unreadableInput, path: path, message: "no model at this path")
        }
        try FileError.refuseIrregular(path, role: "the model", folderAllowed: true)
        // Paths are joined as text, so messages name files the way the user named the model.
        if !isDirectory.boolValue {
            let name = ModelVersions.baseName((path as NSString).deletingLastPathComponent)
            let model = try ModelParser.parse(contentsOf: path, versionName: name)
            return ModelVersions(versions: [model], currentVersionName: model.versionName, path: path)
        }
        if (path as NSString).pathExtension == "xcdatamodeld" {
            return try loadBundle(path: path)
        }
        let model = try loadVersion(folder: path)
        return ModelVersions(versions: [model], currentVersionName: model.versionName, path: path)
    }

    /// `folder`'s last component without its extension: the version name.
    private static func baseName(_ folder: String) -> String {
        ((folder as NSString).lastPathComponent as NSString).deletingPathExtension
    }

    private static func child(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    private static func loadVersion(folder: String) throws(FileError) -> Model {
        let contents = child(folder, "contents")
        let name = baseName(folder)
        guard FileManager.default.fileExists(atPath: contents) else {
            if FileManager.default.fileExists(atPath: child(folder, "elements")) {
                throw FileError(.unreadableInput, path: folder, message: "this is an old binary model (Xcode 3 'elements' file); open it in Xcode and save it to get the XML 'contents' file")
            }
            throw FileError(.unreadableInput, path: folder, message: "no 'contents' file in this .xcdatamodel")
        }
        try FileError.refuseIrregular(contents, role: "the model's 'contents'")
        return try ModelParser.parse(contentsOf: contents, versionName: name)
    }

    private static func loadBundle(path: String) throws(FileError) -> ModelVersions {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path)
                .filter { $0.hasSuffix(".xcdatamodel") }
                .sorted()
        } catch {
            throw FileError(.unreadableInput, path: path, message: "cannot list the model versions: \(error.localizedDescription)")
        }
        guard !names.isEmpty else { throw FileError(.unreadableInput, path: path, message: "no .xcdatamodel version inside") }
        var versions: [Model] = []
        for name in names {
            versions.append(try loadVersion(folder: child(path, name)))
        }
        versions.sort { $0.versionName < $1.versionName }
        var current = versions.count == 1 ? versions[0].versionName : ""
        let marker = child(path, ".xccurrentversion")
        if let data = FileManager.default.contents(atPath: marker) {
            guard let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
                  let value = plist["_XCCurrentVersionName"] as? String else {
                throw FileError(.unreadableInput, path: marker, message: "cannot read _XCCurrentVersionName from this property list")
            }
            current = ModelVersions.stripSuffix(value)
            guard versions.contains(where: { $0.versionName == current }) else {
                throw FileError(.unreadableInput, path: marker, message: "names version '\(value)', which is not in the bundle")
            }
        } else if versions.count > 1 {
            throw FileError(.unreadableInput, path: path, message: "several versions and no .xccurrentversion; pick one with \(RunOption.modelVersion)")
        }
        return ModelVersions(versions: versions, currentVersionName: current, path: path)
    }

    static func stripSuffix(_ name: String) -> String {
        name.hasSuffix(".xcdatamodel") ? String(name.dropLast(".xcdatamodel".count)) : name
    }

    /// The version named `name` (with or without `.xcdatamodel`), or the current one when nil.
    public func version(named name: String?) throws(FileError) -> Model {
        let wanted = name.map(ModelVersions.stripSuffix) ?? currentVersionName
        guard let model = versions.first(where: { $0.versionName == wanted }) else {
            let known = versions.map(\.versionName).joined(separator: ", ")
            throw FileError(.unreadableInput, path: path, message: "no model version '\(wanted)' (versions: \(known))")
        }
        return model
    }

    /// The current version.
    public var current: Model {
        versions.first { $0.versionName == currentVersionName } ?? versions[0]
    }
}
