import Foundation
import Testing
import CoreSeedTestSupport

/// Where the tests look for the corpus: `$CORESEED_CORPUS`, else `$CORESEED_SHARED/corpus`, else
/// `../shared/corpus` beside the repository (an empty variable is unset).
@Suite struct CorpusLocationTests {
    static let root = URL(fileURLWithPath: "/work/repo")

    @Test func besideTheRepositoryByDefault() {
        #expect(Corpus.location(environment: [:], repositoryRoot: Self.root).path == "/work/shared/corpus")
        #expect(Corpus.location(environment: ["CORESEED_CORPUS": "", "CORESEED_SHARED": ""], repositoryRoot: Self.root).path
                == "/work/shared/corpus")
    }

    @Test func theEnvironmentOverrides() {
        #expect(Corpus.location(environment: ["CORESEED_SHARED": "/data/shared"], repositoryRoot: Self.root).path == "/data/shared/corpus")
        #expect(Corpus.location(environment: ["CORESEED_CORPUS": "/data/c", "CORESEED_SHARED": "/data/shared"],
                                repositoryRoot: Self.root).path == "/data/c")
    }

    /// This run's corpus is found where the rules say, from the repository root the tests found.
    @Test func thisRunLooksWhereTheRulesSay() {
        #expect(Corpus.url == Corpus.location(environment: ProcessInfo.processInfo.environment, repositoryRoot: TestPaths.repositoryRoot))
        #expect(FileManager.default.fileExists(atPath: TestPaths.repositoryRoot.appendingPathComponent("Package.swift").path))
    }
}
