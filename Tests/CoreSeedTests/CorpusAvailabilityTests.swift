import Testing
import CoreSeedTestSupport

/// Runs whatever is there: says in one line that the corpus tests were skipped, or fails when the corpus
/// is required (`CORESEED_REQUIRE_CORPUS=1`). Parameterised tests over the corpus index are skipped too,
/// not run with zero cases. Each test target has this test, so each run of either says it.
@Suite struct CorpusAvailabilityTests {
    @Test func corpusIsHereOrItsAbsenceIsSaid() {
        Corpus.checkAvailability()
    }
}
