import Foundation
import Synchronization

/// A build's progress lines on stderr, as the reader of each kind of stderr wants them.
///
/// On a terminal: one line, rewritten in place at each report (the library reports phase changes and
/// every 65,536 rows, never per row). Otherwise (a CI log, a file): a plain line
/// `progress: 12 s: writing rows: 131072` at most once per interval, the first only after one interval,
/// so that a short build prints none. The interval is 5 seconds, or `CORESEED_PROGRESS_INTERVAL`
/// seconds (0: every report).
final class ProgressDisplay: Sendable {
    private let isTTY: Bool
    private let interval: Double
    private let started = ContinuousClock.now
    /// When the last plain line was printed (the start, before any).
    private let lastPrinted: Mutex<ContinuousClock.Instant>

    /// The default seconds between two plain lines.
    static let defaultInterval = 5.0

    init(isTTY: Bool = Terminal.stderrIsTTY, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.isTTY = isTTY
        interval = environment["CORESEED_PROGRESS_INTERVAL"].flatMap(Double.init).flatMap { $0 >= 0 ? $0 : nil }
            ?? Self.defaultInterval
        lastPrinted = Mutex(started)
    }

    /// Shows `line` (from any thread).
    func report(_ line: String) {
        if isTTY {
            Terminal.progress(line)
            return
        }
        let now = ContinuousClock.now
        let due = lastPrinted.withLock { last -> Bool in
            guard now - last >= .seconds(interval) else { return false }
            last = now
            return true
        }
        guard due else { return }
        let elapsed = now - started
        Terminal.progress(plain: "progress: \(elapsed.components.seconds) s: \(line)")
    }

    /// Clears the line on a terminal; a plain log keeps its lines.
    func finish() {
        if isTTY { Terminal.progress(nil) }
    }
}
