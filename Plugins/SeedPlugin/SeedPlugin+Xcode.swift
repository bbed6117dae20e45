// Only Xcode has XcodeProjectPlugin: elsewhere (swift package, Linux) this file compiles to nothing.
#if canImport(XcodeProjectPlugin)
import Foundation
import PackagePlugin
import XcodeProjectPlugin

/// The `seed` command in an Xcode project (.xcodeproj): right-click the project in the navigator,
/// choose `seed` under the CoreSeed package, and Xcode runs `coreseed build SPEC` in the project's
/// folder, SPEC relative to it (default `Inputs/seed.json`; type another, and build options, in the
/// arguments field). Xcode adds `--target NAME` for each target selected in its dialog; the store
/// belongs to no target, so those are dropped.
extension SeedPlugin: XcodeCommandPlugin {
    func performCommand(context: XcodePluginContext, arguments: [String]) throws {
        var extractor = ArgumentExtractor(arguments)
        _ = extractor.extractOption(named: "target")
        try SeedPlugin.build(with: try context.tool(named: "coreseed").url, in: context.xcodeProject.directoryURL,
                             arguments: extractor.remainingArguments)
    }
}
#endif
