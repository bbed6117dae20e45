import CoreSeed
import Foundation

/// `coreseed preview SPEC SOURCE [--limit N]`: the records one source yields, as JSON lines.
enum PreviewCommand: Command {
    static let name = "preview"
    static let summary = "print the records one source of a spec yields, as JSON lines"
    static let arguments: [CommandArgument] = [
        .required("SPEC", "the seed spec (JSON; comments and trailing commas allowed)"),
        .required("SOURCE", "a name from the spec's \"sources\""),
    ]
    static let options: [CommandOption] = [
        .count("limit", "N", "stop after N records"),
    ]
    static let discussion = """
        Prints one line per record, {"location": "…", "fields": {…}}, fields in the source's order:
        integers and reals are numbers, text is a string, blobs are base64 strings, repeated XML values
        are arrays.
        """
    static let examples = ["coreseed preview Inputs/seed.json providers --limit 5"]

    /// The part of a seed spec that preview needs; "entities" and the rest are ignored here.
    struct Spec: Decodable {
        var model: String
        var sources: [String: SourceSpec]
    }

    static func run(_ arguments: Arguments) throws -> ExitStatus {
        let limit = arguments.count("limit")
        let specPath = arguments.positionals[0], sourceName = arguments.positionals[1]

        let spec = try SpecFile.load(specPath)
        guard let source = spec.sources[sourceName] else {
            let known = spec.sources.keys.sorted()
            throw Arguments.UsageError(message: "unknown source '\(sourceName)' (the spec has: \(known.isEmpty ? "none" : known.joined(separator: ", ")))")
        }
        let directory = (specPath as NSString).deletingLastPathComponent
        let reader = try source.openReader(relativeTo: directory)
        let output = JSONLineWriter()
        var count = 0
        while limit.map({ count < $0 }) ?? true, let record = try reader.next() {
            try output.write(record, fieldNames: reader.fieldNames)
            count += 1
        }
        try output.flush()
        return .success
    }
}

/// Reading and decoding a spec file, with its problems as diagnostics.
enum SpecFile {
    static func load(_ path: String) throws(FileError) -> PreviewCommand.Spec {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FileError(.unreadableInput, path: path, message: "no such file")
        }
        let decoder = JSONDecoder()
        decoder.allowsJSON5 = true
        do {
            return try decoder.decode(PreviewCommand.Spec.self, from: data)
        } catch let error as DecodingError {
            throw FileError(path: path, message: "invalid spec: " + describe(error))
        } catch {
            throw FileError(path: path, message: "invalid spec: \(FileError.words(error))")
        }
    }

    static func describe(_ error: DecodingError) -> String {
        func at(_ path: [any CodingKey]) -> String {
            path.isEmpty ? "" : " at '" + path.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".") + "'"
        }
        switch error {
        case .keyNotFound(let key, let context): return "missing key '\(key.stringValue)'\(at(context.codingPath))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            var text = context.debugDescription
            if let underlying = context.underlyingError as NSError?, let detail = underlying.userInfo[NSDebugDescriptionErrorKey] as? String {
                text += ": " + detail
            }
            return text + at(context.codingPath)
        @unknown default: return "\(error)"
        }
    }
}
