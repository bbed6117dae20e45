import Foundation

/// The program: parse, prepare each store (both platforms), then open it with Core Data (macOS).
enum CoreDataCheck {
    /// Runs the check on `arguments` and returns the exit status (see `Options.usage`).
    static func run(_ arguments: [String]) -> Int32 {
        #if canImport(CoreData)
        if arguments.first == MigrationStep.flag { return MigrationStep.run(Array(arguments.dropFirst())) }
        #endif
        let options: Options
        do {
            options = try Options(arguments)
        } catch {
            switch error {
            case .help:
                print(Options.usage)
                return 0
            case .missing(let message):
                printError("core-data-check: error: \(message)")
                return 66
            case .usage(let message), .failed(let message):
                printError("core-data-check: error: \(message)")
                printError(Options.usageLine)
                printError("see 'core-data-check --help'")
                return 64
            }
        }
        let workspace: Workspace
        do {
            workspace = try Workspace(options)
        } catch {
            if case .failed(let message) = error { printError("core-data-check: error: \(message)") }
            return 73
        }
        defer { workspace.cleanUp() }

        var failed = false
        for (index, store) in options.stores.enumerated() {
            var report = StoreReport(store: store)
            if let prepared = Preparation.prepare(store, index: index, options: options, work: workspace.url, report: &report) {
                #if canImport(CoreData)
                CoreDataChecks.run(prepared, options: options, report: &report)
                #else
                _ = prepared
                #endif
            }
            report.print()
            failed = failed || !report.ok
        }
        if failed { return 1 }
        #if canImport(CoreData)
        return 0
        #else
        printError("core-data-check: Core Data is not available on this platform: \(options.stores.count) store(s) copied with their support folders into \(workspace.url.path) and checked with coreseed; nothing opened with Core Data (run it on macOS)")
        return 77
        #endif
    }
}
