import CoreSeed
import Foundation

/// `coreseed hashes MODEL`: the version hashes Core Data will expect in a store of this model.
enum HashesCommand: Command {
    static let name = "hashes"
    static let summary = "prints each entity's version hash, the hashes digest and checksum"
    static let usage = """
        Usage: coreseed hashes MODEL [--model-version NAME] [--json]

          MODEL                  an .xcdatamodeld, an .xcdatamodel, or a model 'contents' file
          --model-version NAME   the version to hash (with or without .xcdatamodel); default: the current one
          --json                 {"entities": {"Name": "<base64>", …}, "digest": "…", "checksum": "…"}

        Prints one line per entity, 'Name <base64 SHA-256>', sorted by name, then 'digest <…>'
        (NSStoreModelVersionHashesDigest) and 'checksum <…>' (NSStoreModelVersionChecksumKey).

        Example:
          coreseed hashes Moody.xcdatamodeld --model-version "Moody 2" --json
        """

    static func run(_ words: [String]) throws -> ExitStatus {
        let arguments = try Arguments(words, options: ["model-version"], flags: ["json"])
        try arguments.requirePositionals(["MODEL"])
        let versions = try ModelVersions.load(path: arguments.positionals[0])
        let model = try versions.version(named: arguments.option("model-version"))
        let hashes = ModelHashes.compute(for: model)
        Terminal.out(arguments.flag("json") ? json(hashes) : text(hashes))
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
