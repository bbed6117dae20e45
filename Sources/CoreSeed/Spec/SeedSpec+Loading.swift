import Foundation

extension SeedSpec {
    private struct Document: Decodable {
        var model: String
        var modelVersion: String?
        var configuration: String?
        var output: String?
        var mode: SeedSpec.Mode?
        var frameworkVersion: Int?
        var timeZone: String?
        var pivot: Int?
        var storeUUID: String?
        var seedVersion: String?
        var sources: [String: SourceSpec]
        var entities: [String: EntitySpec]?
        var onBlank: SeedSpec.BlankPolicy?
        var metadata: [String: SeedSpec.MetadataValue]?
        var externalAbove: Int?
        var historyTracking: Bool?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case model, modelVersion, configuration, output, mode, frameworkVersion, timeZone, pivot
            case storeUUID, seedVersion, sources, entities, onBlank, metadata, externalAbove, historyTracking
        }

        init(from decoder: any Decoder) throws {
            try SpecKeys.rejectUnknown(decoder, allowed: CodingKeys.allCases.map(\.rawValue), what: "the spec")
            let c = try decoder.container(keyedBy: CodingKeys.self)
            model = try c.decode(String.self, forKey: .model)
            modelVersion = try c.decodeIfPresent(String.self, forKey: .modelVersion)
            configuration = try c.decodeIfPresent(String.self, forKey: .configuration)
            output = try c.decodeIfPresent(String.self, forKey: .output)
            mode = try c.decodeIfPresent(SeedSpec.Mode.self, forKey: .mode)
            frameworkVersion = try c.decodeIfPresent(Int.self, forKey: .frameworkVersion)
            timeZone = try c.decodeIfPresent(String.self, forKey: .timeZone)
            pivot = try c.decodeIfPresent(Int.self, forKey: .pivot)
            storeUUID = try c.decodeIfPresent(String.self, forKey: .storeUUID)
            seedVersion = try c.decodeIfPresent(String.self, forKey: .seedVersion)
            sources = try c.decode([String: SourceSpec].self, forKey: .sources)
            entities = try c.decodeIfPresent([String: EntitySpec].self, forKey: .entities)
            onBlank = try c.decodeIfPresent(SeedSpec.BlankPolicy.self, forKey: .onBlank)
            metadata = try c.decodeIfPresent([String: SeedSpec.MetadataValue].self, forKey: .metadata)
            externalAbove = try c.decodeSizeIfPresent(forKey: .externalAbove)
            historyTracking = try c.decodeIfPresent(Bool.self, forKey: .historyTracking)
        }
    }

    /// Reads and decodes the spec at `path` (JSON5: comments and trailing commas allowed).
    public static func load(path: String) throws(FileError) -> SeedSpec {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FileError(.unreadableInput, path: path, message: "cannot read the spec file")
        }
        return try decode(data, path: path)
    }

    /// Decodes spec JSON; `path` names the file in errors and anchors relative paths.
    public static func decode(_ data: Data, path: String) throws(FileError) -> SeedSpec {
        do {
            try SpecSyntax.check([UInt8](data))
        } catch {
            throw FileError(path: path, line: error.line, column: error.column, message: error.message)
        }
        let decoder = JSONDecoder()
        decoder.allowsJSON5 = true
        let document: Document
        do {
            document = try decoder.decode(Document.self, from: data)
        } catch let error as DecodingError {
            throw FileError(path: path, message: describe(error))
        } catch {
            throw FileError(path: path, message: "not valid JSON: \(error.localizedDescription)")
        }
        if let version = document.frameworkVersion, !(1...100_000).contains(version) {
            throw FileError(path: path, message: "at frameworkVersion: \(version) is not a Core Data framework version (NSPersistenceFrameworkVersion, 241 to \(FrameworkVersion.newest) in real stores); leave it out for the newest")
        }
        if let zone = document.timeZone {
            do { _ = try DateZone(identifier: zone) } catch { throw FileError(path: path, message: "at timeZone: \(error.message)") }
        }
        for key in (document.metadata ?? [:]).keys.sorted() where SeedSpec.isCoreDataMetadataKey(key) {
            throw FileError(path: path, message: "at metadata.\(key): '\(key)' is Core Data's own metadata key, which CoreSeed writes from the model; give only the app's own keys")
        }
        if document.historyTracking == true, let version = document.frameworkVersion, version < SeedSpec.historyFramework {
            throw FileError(path: path, message: "at historyTracking: the history tables are known from a store of framework \(SeedSpec.historyFramework) (docs/LAYOUT.md), not from \(version); leave frameworkVersion out or set it to \(SeedSpec.historyFramework) or later")
        }
        var storeUUID = document.storeUUID
        if let text = storeUUID {
            guard let uuid = UUID(uuidString: text) else {
                throw FileError(path: path, message: "at storeUUID: \"\(text)\" is not a UUID (8-4-4-4-12 hexadecimal digits, as Core Data writes Z_UUID); leave it out to derive one from the inputs")
            }
            storeUUID = uuid.uuidString  // upper case, as Core Data writes it
        }
        var sources = document.sources, entities = document.entities ?? [:]
        try SeedSpec.expandComputed(sources: &sources, entities: &entities, path: path)
        return SeedSpec(
            model: document.model, modelVersion: document.modelVersion, configuration: document.configuration,
            output: document.output, mode: document.mode ?? .replace, frameworkVersion: document.frameworkVersion,
            timeZone: document.timeZone, pivot: document.pivot, storeUUID: storeUUID,
            seedVersion: document.seedVersion, sources: sources, entities: entities,
            onBlank: document.onBlank, metadata: (document.metadata ?? [:]).mapValues(\.propertyListValue), path: path, directory: SeedSpec.folder(of: path),
            externalAbove: document.externalAbove, historyTracking: document.historyTracking ?? false)
    }

    /// A JSON type as a message says it.
    private static func words(for type: Any.Type) -> String {
        if type == String.self { return "a string" }
        if type == Int.self { return "an integer" }
        if type == Double.self { return "a number" }
        if type == Bool.self { return "true or false" }
        let name = "\(type)"
        if name.hasPrefix("Dictionary") { return "an object ({ … })" }
        if name.hasPrefix("Array") { return "an array ([ … ])" }
        return name
    }

    private static func describe(_ error: DecodingError) -> String {
        func where_(_ path: [any CodingKey]) -> String {
            let text = path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            return text.isEmpty ? "" : "at \(text): "
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(where_(context.codingPath))missing key '\(key.stringValue)'"
        case .typeMismatch(let type, let context):
            // Foundation says "Expected to decode Dictionary<String, Any> but found an array instead."
            let found = context.debugDescription.range(of: "but found ").map { context.debugDescription[$0.upperBound...] }
                .map { ", found " + $0.replacingOccurrences(of: " instead.", with: "") } ?? ""
            return "\(where_(context.codingPath))expected \(words(for: type))\(found)"
        case .valueNotFound(_, let context):
            return "\(where_(context.codingPath))missing value"
        case .dataCorrupted(let context):
            let underlying = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return "\(where_(context.codingPath))\(underlying ?? context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}
