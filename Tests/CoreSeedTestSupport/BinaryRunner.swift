import Foundation

/// Runs the built `coreseed` binary and captures what a user sees.
public struct BinaryRunner {
    /// What the run printed and how it ended.
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String

        public init(status: Int32, stdout: String, stderr: String) {
            self.status = status
            self.stdout = stdout
            self.stderr = stderr
        }
    }

    /// The repository root (`TestPaths.repositoryRoot`): where the binary runs unless told otherwise.
    public static var repositoryRoot: URL { TestPaths.repositoryRoot }

    /// The binary next to the test bundle (same build folder).
    public static let binary: URL = {
        var url = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = url.appendingPathComponent("coreseed")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            url.deleteLastPathComponent()
        }
        return repositoryRoot.appendingPathComponent(".build/debug/coreseed")
    }()

    /// Runs the binary with `arguments` in `directory`; `environment` is added to this process's.
    /// `stdout` and `stderr`, when given, are where its output goes (then that part of the result is empty).
    public static func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:],
                    stdout: FileHandle? = nil, stderr: FileHandle? = nil) throws -> Result {
        try run(executable: binary, arguments, in: directory, environment: environment, stdout: stdout, stderr: stderr)
    }

    /// Runs `executable` (a wrapper of the binary) as ``run(_:in:environment:stdout:stderr:)`` runs the binary.
    public static func run(executable: URL, _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:],
                    stdout: FileHandle? = nil, stderr: FileHandle? = nil) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? repositoryRoot
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        let out = Pipe(), err = Pipe()
        process.standardOutput = stdout ?? out
        process.standardError = stderr ?? err
        try process.run()
        let outData = stdout == nil ? out.fileHandleForReading.readDataToEndOfFile() : Data()
        let errData = stderr == nil ? err.fileHandleForReading.readDataToEndOfFile() : Data()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }
}
