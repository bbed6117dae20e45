import Foundation

/// Every version of a model (`.xcdatamodeld`), or the single version of an `.xcdatamodel`.
public struct ModelVersions: Sendable {
    /// The versions, sorted by name.
    public var versions: [Model]
    /// The version `.xccurrentversion` names (or the only one).
    public var currentVersionName: String
    /// The path the user gave.
    public var path: String

    /// Reads `path`: an `.xcdatamodeld` folder, an `.xcdatamodel` folder, or a `contents` file.
    public static func load(path: String) throws(FileError) -> ModelVersions {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw FileError(.unreadableInput, path: path, message: "no model at this path")
        }
        let url = URL(fileURLWithPath: path)
        if !isDirectory.boolValue {
            let name = url.deletingLastPathComponent().deletingPathExtension().lastPathComponent
            let model = try ModelParser.parse(contentsOf: path, versionName: name)
            return ModelVersions(versions: [model], currentVersionName: model.versionName, path: path)
        }
        if url.pathExtension == "xcdatamodeld" {
            return try loadBundle(url: url, path: path)
        }
        let model = try loadVersion(url: url)
        return ModelVersions(versions: [model], currentVersionName: model.versionName, path: path)
    }

    private static func loadVersion(url: URL) throws(FileError) -> Model {
        let contents = url.appendingPathComponent("contents").path
        let name = url.deletingPathExtension().lastPathComponent
        guard FileManager.default.fileExists(atPath: contents) else {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("elements").path) {
                throw FileError(.unreadableInput, path: url.path, message: "this is an old binary model (Xcode 3 'elements' file); open it in Xcode and save it to get the XML 'contents' file")
            }
            throw FileError(.unreadableInput, path: url.path, message: "no 'contents' file in this .xcdatamodel")
        }
        return try ModelParser.parse(contentsOf: contents, versionName: name)
    }

    private static func loadBundle(url: URL, path: String) throws(FileError) -> ModelVersions {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: url.path)
                .filter { $0.hasSuffix(".xcdatamodel") }
                .sorted()
        } catch {
            throw FileError(.unreadableInput, path: path, message: "cannot list the model versions: \(error.localizedDescription)")
        }
        guard !names.isEmpty else { throw FileError(.unreadableInput, path: path, message: "no .xcdatamodel version inside") }
        var versions: [Model] = []
        for name in names {
            versions.append(try loadVersion(url: url.appendingPathComponent(name)))
        }
        versions.sort { $0.versionName < $1.versionName }
        var current = versions.count == 1 ? versions[0].versionName : ""
        let marker = url.appendingPathComponent(".xccurrentversion")
        if let data = FileManager.default.contents(atPath: marker.path) {
            guard let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
                  let value = plist["_XCCurrentVersionName"] as? String else {
                throw FileError(.unreadableInput, path: marker.path, message: "cannot read _XCCurrentVersionName from this property list")
            }
            current = ModelVersions.stripSuffix(value)
            guard versions.contains(where: { $0.versionName == current }) else {
                throw FileError(.unreadableInput, path: marker.path, message: "names version '\(value)', which is not in the bundle")
            }
        } else if versions.count > 1 {
            throw FileError(.unreadableInput, path: path, message: "several versions and no .xccurrentversion; pick one with --model-version")
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
