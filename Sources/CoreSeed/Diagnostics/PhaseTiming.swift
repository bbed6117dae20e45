import Foundation
import Synchronization

/// Phase durations of a build, for profiling (BENCHMARKS.md): each mark hands `"<phase> <seconds> s"`
/// to the sink its caller installed with ``report(to:)``. The library neither reads the environment
/// nor writes to a stream: the command line installs a sink (stderr, when `CORESEED_TIMING` is set).
/// With none installed, the default, a mark does nothing.
public final class PhaseTiming {
    private static let sink = Mutex<(@Sendable (String) -> Void)?>(nil)
    private var last = Date()
    private let report: (@Sendable (String) -> Void)?

    /// Where every later timing's marks go (nil: nowhere). Set once, before the work, by the caller.
    public static func report(to sink: (@Sendable (String) -> Void)?) {
        self.sink.withLock { $0 = sink }
    }

    init() {
        report = Self.sink.withLock { $0 }
    }

    func mark(_ phase: String) {
        guard let report else { return }
        let now = Date()
        report("\(phase) \(String(format: "%.2f", now.timeIntervalSince(last))) s")
        last = now
    }
}
