import Foundation
import Synchronization
import Testing
@testable import CoreSeed

/// Phase timing goes to the sink the caller installs, and nowhere without one (issue 25: the library
/// does not read the environment or write to stderr itself).
@Suite struct PhaseTimingTests {
    @Test func marksGoToTheInstalledSinkOnly() {
        let lines = Mutex<[String]>([])
        PhaseTiming().mark("phase-timing-test before")
        PhaseTiming.report(to: { line in lines.withLock { $0.append(line) } })
        let timing = PhaseTiming()
        PhaseTiming.report(to: nil)
        timing.mark("phase-timing-test one")
        timing.mark("phase-timing-test two")
        PhaseTiming().mark("phase-timing-test after")
        let mine = lines.withLock { $0 }.filter { $0.hasPrefix("phase-timing-test") }
        #expect(mine.count == 2)
        #expect(mine.allSatisfy { $0.range(of: #"^phase-timing-test (one|two) \d+\.\d\d s$"#, options: .regularExpression) != nil })
    }
}
