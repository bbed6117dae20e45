import Foundation

/// Whether two paths name the same file: the same device and inode when both exist (hard links,
/// symlinks, `..`, case-insensitive file systems), else the same path once symlinks and `.`/`..` are
/// resolved. Used to refuse an output that would overwrite one of the build's inputs.
enum FileIdentity {
    static func sameFile(_ a: String, _ b: String) -> Bool {
        if let first = try? FileSystem.status(FilePath(a)), let second = try? FileSystem.status(FilePath(b)) {
            return first.isSameFile(as: second)
        }
        return canonical(a) == canonical(b)
    }

    /// Whether `path` is `directory` or lies inside it.
    static func isInside(_ path: String, _ directory: String) -> Bool {
        let inner = canonical(path), outer = canonical(directory)
        return inner == outer || inner.hasPrefix(outer.hasSuffix("/") ? outer : outer + "/")
    }

    static func canonical(_ path: String) -> String {
        URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
    }
}

extension SeedSpec {
    /// Every file the build reads, with what it is in the spec's words: the spec, the model, each source.
    public var inputs: [(path: String, role: String)] {
        var result: [(String, String)] = [(path, "the spec"), (resolve(model), "the model")]
        for (name, source) in sources.sorted(by: { $0.key < $1.key }) {
            result.append((resolve(source.path), "source '\(name)'"))
        }
        return result
    }

    /// Refuses an output (`what`: "output", "report", …) that is, or lies inside, one of the build's
    /// inputs, before any work: the inputs are never written.
    public func refuseOverwritingInputs(_ output: String, as what: String, also others: [(path: String, role: String)] = []) throws(FileError) {
        for (input, role) in inputs + others {
            let isModel = role == "the model"
            if FileIdentity.sameFile(output, input) || (isModel && FileIdentity.isInside(output, input)) {
                throw FileError(.badRequest, path: output,
                                message: "the \(what) would overwrite \(role) (\(input)); choose another \(what) path")
            }
        }
    }
}

extension SeedSpec {
    /// Refuses an output (`what`: "output", "report") that is an existing folder, before any work:
    /// found at the end, it would cost the whole build.
    public static func refuseFolder(_ output: String, as what: String) throws(FileError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory), isDirectory.boolValue else { return }
        throw FileError(.badRequest, path: output,
                        message: "the \(what) is a folder; name a file (for example \(output)/NAME.sqlite for a store), or remove the folder")
    }

    /// Refuses an input that is not a regular file (or, for the model, a folder): a pipe, FIFO,
    /// socket or device. A build reads a source more than once (field probe, rows, the input's digest),
    /// and a pipe gives its bytes only once, so it would build from part of the input or block.
    public func refuseIrregularInputs() throws(FileError) {
        for (input, role) in inputs {
            try SeedSpec.refuseIrregular(input, role: role, folderAllowed: role == "the model")
        }
    }

    /// Throws when `path` exists and is neither a regular file nor (with `folderAllowed`) a folder
    /// (`FileError.refuseIrregular`).
    public static func refuseIrregular(_ path: String, role: String, folderAllowed: Bool = false) throws(FileError) {
        try FileError.refuseIrregular(path, role: role, folderAllowed: folderAllowed)
    }
}
