import CoreSeed
import Foundation

/// `coreseed hashes MODEL`: the version hashes Core Data will expect in a store of this model.
enum HashesCommand: Command {
    static let name = "hashes"
    static let summary = "print a model's entity version hashes, hashes digest and checksum"
    static let arguments: [CommandArgument] = [.required("MODEL", "an .xcdatamodeld, .xcdatamodel, 'contents', .momd, .mom, or a store (its Z_MODELCACHE)")]
    static let options: [CommandOption] = [
        .value("model-version", "NAME", "hash this version (with or without .xcdatamodel; default: the current one)"),
        .flag("json", "print the same as one JSON object (keys above)"),
    ]
    static let discussion = """
        Prints one line per entity, 'Name <base64 SHA-256>', sorted by name, then 'digest <…>'
        (NSStoreModelVersionHashesDigest) and 'checksum <…>' (NSStoreModelVersionChecksumKey): the
        version hashes Core Data will expect in a store of this model.

        --json prints {"entities": {"Name": "<base64>", …}, "digest": "…", "checksum": "…"}.
        """
    static let examples = ["coreseed hashes Inputs/Carriers.xcdatamodeld --json"]

    static func run(_ arguments: Arguments) throws -> ExitStatus {
        let versions = try ModelVersions.load(path: arguments.positionals[0])
        let model = try versions.version(named: arguments.option("model-version"))
        let hashes = ModelHashes.compute(for: model)
        try Terminal.out(arguments.flag("json") ? json(hashes) : text(hashes))
        return .success
    }

    static func text(_ hashes: ModelHashes) -> String {
        var lines = hashes.sortedEntityNames.map { "\($0) \(base64(hashes.entities[$0]))" }
        lines.append("digest \(hashes.digest)")
        lines.append("checksum \(hashes.checksum)")
        return lines.joined(separator: "\n")
    }

    /// Written by hand so the key order is fixed (entities by name, then digest, then checksum).
    static func json(_ hashes: ModelHashes) -> String {
        let entities = hashes.sortedEntityNames
            .map { "\(quoted($0)): \(quoted(base64(hashes.entities[$0])))" }
            .joined(separator: ", ")
        return "{\"entities\": {\(entities)}, \"digest\": \(quoted(hashes.digest)), \"checksum\": \(quoted(hashes.checksum))}"
    }

    private static func base64(_ bytes: [UInt8]?) -> String {
        Data(bytes ?? []).base64EncodedString()
    }

    /// A JSON string literal (RFC 8259 escaping).
    static func quoted(_ text: String) -> String { JSONWriter.quoted(text) }
}
