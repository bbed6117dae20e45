import CoreSeed
import Foundation

/// The one exit point: run the command, print its diagnostics, exit with its status.
InterruptCleanup.installHandlers()
let status = CommandLineTool.run(Array(CommandLine.arguments.dropFirst()))
exit(status.rawValue)
