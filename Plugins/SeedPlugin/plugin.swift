import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory seed [SPEC] [build options]`: runs
/// `coreseed build SPEC` in the package that depends on CoreSeed, so its seed store is built with the
/// CoreSeed version its manifest pins. From an Xcode project, the same command runs from the
/// project's context menu (`SeedPlugin+Xcode.swift`).
///
/// SPEC is relative to that package's folder (default `Inputs/seed.json`); the options after it go to
/// `coreseed build` as they are (`--output`, `--quiet`, `--max-errors N`, …). The store is written
/// where the spec says, normally inside the package: hence the write permission.
@main
struct SeedPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        try SeedPlugin.build(with: try context.tool(named: "coreseed").url, in: context.package.directoryURL, arguments: arguments)
    }

    /// Runs `coreseed build SPEC [options]` in `folder`, SPEC being the first argument unless it is an option.
    static func build(with coreseed: URL, in folder: URL, arguments: [String]) throws {
        var options = arguments
        var spec = "Inputs/seed.json"
        if let first = options.first, !first.hasPrefix("-") {
            spec = first
            options.removeFirst()
        }
        let process = Process()
        process.executableURL = coreseed
        process.arguments = ["build", spec] + options
        // coreseed resolves SPEC and its paths from here; its own messages name SPEC as given.
        process.currentDirectoryURL = folder
        try process.run()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw SeedPluginError(spec: spec, folder: folder.path, status: process.terminationStatus)
        }
    }
}

/// `coreseed build` failed; its own diagnostics are already on stderr.
struct SeedPluginError: Error, CustomStringConvertible {
    let spec: String
    let folder: String
    let status: Int32

    var description: String { "coreseed build \(spec) failed in \(folder) (exit status \(status))" }
}
