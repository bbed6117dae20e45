import Foundation
import Testing

// This file is the same in Tests/CoreSeedTests/Support/ and Tests/coreseedTests/ (scripts/lint.sh
// checks): both test targets gate their corpus tests alike, and each has the test that always runs.

/// The Core Data corpus: real stores from other projects, under several licences, so it stays outside
/// the repository (never copy any of it in) and a clone may not have it.
///
/// Looked for at `$CORESEED_CORPUS`, else `$CORESEED_SHARED/corpus`, else `../shared/corpus` beside the
/// repository; it is here when its `index.json` is. Tests that read it carry `.needsCorpus`: without
/// it they are skipped and the run says so in one line; with `CORESEED_REQUIRE_CORPUS=1` (`.ci/run`)
/// a missing corpus fails the run instead.
enum Corpus {
    static let url: URL = {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["CORESEED_CORPUS"], !path.isEmpty { return URL(fileURLWithPath: path) }
        if let path = environment["CORESEED_SHARED"], !path.isEmpty {
            return URL(fileURLWithPath: path).appendingPathComponent("corpus")
        }
        return repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
    }()

    static let isPresent = FileManager.default.fileExists(atPath: url.appendingPathComponent("index.json").path)

    /// `CORESEED_REQUIRE_CORPUS=1`: a missing corpus is a failure, not a skip.
    static let isRequired = ProcessInfo.processInfo.environment["CORESEED_REQUIRE_CORPUS"] == "1"

    /// The one line a run without the corpus prints.
    static let skipLine = "note: corpus tests skipped: no Core Data corpus at \(url.path) (no index.json); "
        + "to run them, put it there or set CORESEED_CORPUS=/path/to/corpus"

    /// What a run that requires the corpus and lacks it fails with.
    static let missingMessage = "CORESEED_REQUIRE_CORPUS=1, but there is no Core Data corpus at \(url.path) "
        + "(no index.json): put it at ../shared/corpus beside the repository or set CORESEED_CORPUS=/path/to/corpus"

    /// The repository root, found from this file's path.
    private static let repositoryRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        preconditionFailure("Package.swift not found above \(#filePath)")
    }()

    /// Prints `skipLine` once per process, when it exits: after the run's summary, so it ends the
    /// output instead of hiding among a thousand lines. Both test targets run in one process and each
    /// asks, so the first to create a file named for this process (exclusively: `O_EXCL`) prints; the
    /// file is removed then.
    static func announceSkip() {
        let descriptor = open(markerPath(), O_CREAT | O_EXCL | O_WRONLY, 0o600)
        guard descriptor >= 0 else { return }
        close(descriptor)
        atexit {
            unlink(Corpus.markerPath())
            print(Corpus.skipLine)
        }
    }

    /// The process id and the address of the process's one `ProcessInfo` (the same for both targets,
    /// another in the next process) name the file.
    private static func markerPath() -> String {
        let process = UInt(bitPattern: ObjectIdentifier(ProcessInfo.processInfo))
        return FileManager.default.temporaryDirectory
            .appendingPathComponent("coreseed-corpus-note-\(getpid())-\(String(process, radix: 16))").path
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs a test or suite only when the corpus is here; otherwise Swift Testing lists it as skipped.
    static var needsCorpus: Self {
        .enabled(if: Corpus.isPresent, "needs the Core Data corpus (../shared/corpus or $CORESEED_CORPUS)")
    }
}

/// Runs whatever is there: says in one line that the corpus tests were skipped, or fails when the corpus
/// is required. Parameterised tests over the corpus index are skipped too, not run with zero cases.
@Suite struct CorpusAvailabilityTests {
    @Test func corpusIsHereOrItsAbsenceIsSaid() {
        guard !Corpus.isPresent else { return }
        if Corpus.isRequired {
            Issue.record(Comment(rawValue: Corpus.missingMessage))
        } else {
            Corpus.announceSkip()
        }
    }
}
