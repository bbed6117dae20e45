import CoreSeed
import Foundation

/// The one exit point: run the command, print its diagnostics, exit with its status.
InterruptCleanup.installHandlers()
// A closed pipe is a write error (EPIPE) that the command reports and exits 74 for, not a silent death.
signal(SIGPIPE, SIG_IGN)
// Past a file size limit (ulimit -f) a write fails with EFBIG and the command says so, instead of the
// process dying silently with its temporary files left behind.
signal(SIGXFSZ, SIG_IGN)
// Phase durations on stderr for profiling (BENCHMARKS.md); the library only hands them over.
if ProcessInfo.processInfo.environment["CORESEED_TIMING"] != nil {
    PhaseTiming.report(to: { Terminal.error("timing: " + $0) })
}
// The library names the options its messages suggest; the command line spells them as its flags.
RunOption.spell(with: { $0.flag })
var status = CommandLineTool.run(Array(CommandLine.arguments.dropFirst()))
// Diagnostics that could not reach stderr: a run that would have succeeded did not say all it had to.
if status == .success && Terminal.stderrFailed { status = .ioError }
exit(status.rawValue)
