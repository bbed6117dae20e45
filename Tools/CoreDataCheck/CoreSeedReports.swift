import Foundation

/// `coreseed inspect STORE --json`, the parts the check uses. An entity the store has no table for
/// (a store built for one configuration) has `rows: null`, so rows are optional.
struct Inspection: Decodable {
    struct Entity: Decodable {
        let number: Int
        let name: String
        /// `Z_PRIMARYKEY.Z_MAX` (kept on the root entity of a hierarchy).
        let max: Int?
        /// Rows of this entity (its own `Z_ENT`); nil when the store has no table for it.
        let rows: Int?
    }

    struct Sidecar: Decodable {
        let name: String
    }

    struct ExternalData: Decodable {
        let folder: String
        let files: Int
        let bytes: Int
    }

    let uuid: String
    let journalMode: String
    let sidecars: [Sidecar]
    let externalData: ExternalData?
    let entities: [Entity]

    static func read(_ store: String, coreseed: String) throws(CheckFailure) -> Inspection {
        let result = try Subprocess.succeed(coreseed, ["inspect", store, "--json"])
        do {
            return try JSONDecoder().decode(Inspection.self, from: result.output)
        } catch {
            throw .failed("\(result.command) printed JSON this check cannot read: \(error)")
        }
    }

    /// The entities the store has rows for (its tables exist), by name.
    var storedEntities: [String: Entity] {
        Dictionary(entities.filter { $0.rows != nil }.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }
}

/// `coreseed verify STORE --model MODEL [--configuration NAME] --json`.
struct Verification: Decodable {
    let ok: Bool
    let modelVersion: String?
    let frameworkVersion: Int?
    let differences: [String]
    let warnings: [String]
    let notes: [String]

    /// Runs it; a store that does not verify is a result (`ok` false), not a failure of the run.
    static func run(_ store: String, model: String, configuration: String?, coreseed: String) throws(CheckFailure) -> Verification {
        let result = try Subprocess.run(coreseed, ["verify", store, "--model", model, "--json"]
                                        + (configuration.map { ["--configuration", $0] } ?? []))
        guard result.status == 0 || result.status == 1, let verification = try? JSONDecoder().decode(Verification.self, from: result.output) else {
            throw .failed("\(result.command) failed (exit status \(result.status)): \(result.firstErrorLine)")
        }
        return verification
    }

    /// The differences as one line, for a problem.
    var summary: String {
        differences.isEmpty ? "no differences" : differences.joined(separator: "; ")
    }
}

/// The model folder's own idea of its current version: `.xccurrentversion`'s `_XCCurrentVersionName`
/// (`Carriers.xcdatamodel` → `Carriers`), or the only version when there is no such file.
func currentVersionName(ofModelAt model: String) -> String? {
    let folder = URL(fileURLWithPath: model)
    if let data = try? Data(contentsOf: folder.appendingPathComponent(".xccurrentversion")),
       let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
       let name = plist["_XCCurrentVersionName"] as? String {
        return (name as NSString).deletingPathExtension
    }
    let versions = ((try? FileManager.default.contentsOfDirectory(atPath: model)) ?? []).filter { $0.hasSuffix(".xcdatamodel") }
    return versions.count == 1 ? (versions[0] as NSString).deletingPathExtension : nil
}
