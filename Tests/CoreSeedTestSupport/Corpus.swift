import Foundation
import Testing

// Both test targets gate their corpus tests with this one file (CoreSeedTestSupport); each has the
// test that always runs, `CorpusAvailabilityTests`, which calls `Corpus.checkAvailability()`.

/// The Core Data corpus: real stores from other projects, under several licences, so it stays outside
/// the repository (never copy any of it in) and a clone may not have it.
///
/// Looked for at `$CORESEED_CORPUS`, else `$CORESEED_SHARED/corpus`, else `../shared/corpus` beside the
/// repository; it is here when its `index.json` is. Tests that read it carry `.needsCorpus`: without
/// it they are skipped and the run says so in one line; with `CORESEED_REQUIRE_CORPUS=1` (`.ci/run`)
/// a missing corpus fails the run instead.
public enum Corpus {
    /// Where this run looks for the corpus (`location(environment:repositoryRoot:)` of this process).
    public static let url = location(environment: ProcessInfo.processInfo.environment, repositoryRoot: TestPaths.repositoryRoot)

    /// `$CORESEED_CORPUS`, else `$CORESEED_SHARED/corpus`, else `shared/corpus` beside `repositoryRoot`
    /// (an empty variable counts as unset).
    public static func location(environment: [String: String], repositoryRoot: URL) -> URL {
        if let path = environment["CORESEED_CORPUS"], !path.isEmpty { return URL(fileURLWithPath: path) }
        if let path = environment["CORESEED_SHARED"], !path.isEmpty {
            return URL(fileURLWithPath: path).appendingPathComponent("corpus")
        }
        return repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
    }

    public static let isPresent = FileManager.default.fileExists(atPath: url.appendingPathComponent("index.json").path)

    /// `CORESEED_REQUIRE_CORPUS=1`: a missing corpus is a failure, not a skip.
    public static let isRequired = ProcessInfo.processInfo.environment["CORESEED_REQUIRE_CORPUS"] == "1"

    /// The one line a run without the corpus prints.
    public static let skipLine = "note: corpus tests skipped: no Core Data corpus at \(url.path) (no index.json); "
        + "to run them, put it there or set CORESEED_CORPUS=/path/to/corpus"

    /// What a run that requires the corpus and lacks it fails with.
    public static let missingMessage = "CORESEED_REQUIRE_CORPUS=1, but there is no Core Data corpus at \(url.path) "
        + "(no index.json): put it at ../shared/corpus beside the repository or set CORESEED_CORPUS=/path/to/corpus"

    /// What each target's `CorpusAvailabilityTests` runs: nothing when the corpus is here; else a
    /// failure when it is required, or the skip line at exit.
    public static func checkAvailability(sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        guard !isPresent else { return }
        if isRequired {
            Issue.record(Comment(rawValue: missingMessage), sourceLocation: sourceLocation)
        } else {
            announceSkip()
        }
    }

    /// Prints `skipLine` once per process, when it exits: after the run's summary, so it ends the
    /// output instead of hiding among a thousand lines. Both test targets run in one process and each
    /// asks, so the first to create a file named for this process (exclusively: `O_EXCL`) prints; the
    /// file is removed then.
    public static func announceSkip() {
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
    public static var needsCorpus: Self {
        .enabled(if: Corpus.isPresent, "needs the Core Data corpus (../shared/corpus or $CORESEED_CORPUS)")
    }
}
