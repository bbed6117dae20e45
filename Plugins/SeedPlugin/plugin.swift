import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory seed [SPEC] [build options]`: runs
/// `coreseed build SPEC` in the package that depends on CoreSeed, so its seed store is built with the
/// CoreSeed version its manifest pins.
///
/// SPEC is relative to that package's folder (default `Inputs/seed.json`); the options after it go to
/// `coreseed build` as they are (`--output`, `--quiet`, `--max-errors N`, …). The store is written
/// where the spec says, normally inside the package: hence the write permission.
@main
struct SeedPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let coreseed = try context.tool(named: "coreseed")
        var options = arguments
        var spec = "Inputs/seed.json"
        if let first = options.first, !first.hasPrefix("-") {
            spec = first
            options.removeFirst()
        }
        let package = context.package.directoryURL

        let process = Process()
        process.executableURL = coreseed.url
        process.arguments = ["build", spec] + options
        // coreseed resolves SPEC and its paths from here; its own messages name SPEC as given.
        process.currentDirectoryURL = package
        try process.run()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw SeedPluginError(spec: spec, package: package.path, status: process.terminationStatus)
        }
    }
}

/// `coreseed build` failed; its own diagnostics are already on stderr.
struct SeedPluginError: Error, CustomStringConvertible {
    let spec: String
    let package: String
    let status: Int32

    var description: String { "coreseed build \(spec) failed in \(package) (exit status \(status))" }
}
