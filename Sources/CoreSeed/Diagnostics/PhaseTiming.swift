import Foundation

/// Phase durations on stderr when `CORESEED_TIMING` is set (for profiling builds; see BENCHMARKS.md).
final class PhaseTiming {
    private var last = Date()
    private let enabled = ProcessInfo.processInfo.environment["CORESEED_TIMING"] != nil

    func mark(_ phase: String) {
        guard enabled else { return }
        let now = Date()
        FileHandle.standardError.write(Data("timing: \(phase) \(String(format: "%.2f", now.timeIntervalSince(last))) s\n".utf8))
        last = now
    }
}
