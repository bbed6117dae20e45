// NOT Xcode's XcodeProjectPlugin. The declarations Plugins/SeedPlugin/SeedPlugin+Xcode.swift uses,
// as Xcode's XcodeProjectPlugin.swiftinterface declares them (XcodeCommandPlugin, XcodePluginContext
// with tool(named:), XcodeProject with directoryURL), with trapping bodies. Only Xcode ships the real
// module, so `scripts/plugin-typecheck.sh` (make lint) compiles this into a module of that name to
// type-check the Xcode conformance on Linux too. SwiftPM never builds it: the plugin target's path is
// Plugins/SeedPlugin.
import Foundation
import PackagePlugin

public protocol XcodeCommandPlugin {
    func performCommand(context: XcodePluginContext, arguments: [String]) throws
}

public struct XcodePluginContext {
    public var xcodeProject: XcodeProject { fatalError("type-check stub") }
    public var pluginWorkDirectoryURL: URL { fatalError("type-check stub") }
    public func tool(named name: String) throws -> PluginContext.Tool { fatalError("type-check stub") }
}

public struct XcodeProject {
    public var displayName: String { fatalError("type-check stub") }
    public var directoryURL: URL { fatalError("type-check stub") }
}
