import Foundation
import Testing

/// `.github/workflows/macos.yml` as issue 29 has it: it parses, pins its macOS image and Xcode by
/// path, keys its cache on the Xcode version, keeps hidden folders in every artifact, runs the Core
/// Data check on every store make seed writes and on the test suite's, and has a job that compares
/// the Mac's and Linux's make seed byte for byte. It cannot run here; these are its promises.
@Suite struct WorkflowTests {
    static let path = MacProof.root.appendingPathComponent(".github/workflows/macos.yml")

    static func workflow() throws -> YAML { try YAML.parse(String(contentsOf: path, encoding: .utf8)) }

    static func steps(_ job: String) throws -> [YAML] { try workflow()["jobs"]?[job]?["steps"]?.items ?? [] }

    /// Every `run:` of a job, joined.
    static func runs(_ job: String) throws -> String { try steps(job).compactMap { $0["run"]?.string }.joined(separator: "\n") }

    @Test func itParsesIntoItsThreeJobs() throws {
        let workflow = try Self.workflow()
        #expect(workflow["name"]?.string == "macos")
        #expect(workflow["jobs"]?.members.map(\.key) == ["core-data", "linux-seed", "compare-outputs"])
        #expect(workflow["on"]?.members.map(\.key) == ["push", "pull_request", "workflow_dispatch"])
    }

    @Test func theMacJobPinsItsImageAndXcodeByPath() throws {
        let workflow = try Self.workflow()
        let job = workflow["jobs"]?["core-data"]
        #expect(job?["runs-on"]?.string == "macos-26")
        #expect(job?["env"]?["DEVELOPER_DIR"]?.string == "/Applications/Xcode_26.4.1.app/Contents/Developer")
        #expect(workflow["env"]?["SWIFT_VERSION"]?.string == "6.3.1")
        let runs = try Self.runs("core-data")
        #expect(runs.contains(#"grep -q "Swift version $SWIFT_VERSION " swift-version.txt"#))
        // No Xcode picked by listing /Applications (the newest can be a beta), no macos-latest.
        let text = try String(contentsOf: Self.path, encoding: .utf8)
        #expect(!text.contains("ls -d /Applications") && !text.contains("macos-latest"))
    }

    @Test func theCacheKeyNamesTheXcodeVersion() throws {
        let steps = try Self.steps("core-data")
        let caches = steps.filter { $0["uses"]?.string?.hasPrefix("actions/cache@") == true }
        #expect(caches.count == 1)
        #expect(caches.first?["with"]?["key"]?.string?.hasPrefix("core-data-macos-26-xcode-${{ env.XCODE_VERSION }}-${{ hashFiles(") == true)
        #expect(caches.first?["with"]?["restore-keys"]?.string == "core-data-macos-26-xcode-${{ env.XCODE_VERSION }}-")
        // XCODE_VERSION is set before the cache step, from xcodebuild -version.
        let setter = steps.firstIndex { $0["run"]?.string?.contains(#"echo "XCODE_VERSION=$(xcodebuild -version"#) == true }
        let cache = steps.firstIndex { $0["uses"]?.string?.hasPrefix("actions/cache@") == true }
        #expect(setter != nil && cache != nil && setter! < cache!)
    }

    @Test func everyArtifactKeepsHiddenFolders() throws {
        let jobs = try Self.workflow()["jobs"]?.members ?? []
        let uploads = jobs.flatMap { $0.value["steps"]?.items ?? [] }.filter { $0["uses"]?.string?.hasPrefix("actions/upload-artifact@v4") == true }
        #expect(uploads.count == 4)
        for upload in uploads {
            #expect(upload["with"]?["include-hidden-files"]?.string == "true", "\(upload["with"]?["name"]?.string ?? "?")")
        }
        #expect(uploads.contains { $0["with"]?["name"]?.string == "macos-outputs" && $0["with"]?["path"]?.string == "Outputs/" })
        #expect(uploads.contains { $0["with"]?["name"]?.string == "linux-outputs" && $0["with"]?["path"]?.string == "Outputs/" })
    }

    /// make seed and make test on the Mac, then the check on each store make seed writes (the names
    /// scripts/seed.sh builds), the every-attribute-kind store and the configuration store.
    @Test func theMacJobChecksEveryStore() throws {
        let runs = try Self.runs("core-data")
        for command in ["make seed", "make test", "make core-data-check", #"make artifactbundle BUILD_FLAGS="--arch arm64 --arch x86_64""#] {
            #expect(runs.contains(command), "\(command)")
        }
        let seed = try String(contentsOf: MacProof.root.appendingPathComponent("scripts/seed.sh"), encoding: .utf8)
        let stores = Set(seed.split(whereSeparator: { " \n".contains($0) }).filter { $0.hasPrefix("Outputs/") && $0.hasSuffix(".sqlite") }.map(String.init))
        #expect(stores == ["Outputs/Carriers.sqlite", "Outputs/FailedBanksCD.sqlite", "Outputs/FailedBanksCD-csv.sqlite", "Outputs/World.sqlite"])
        for store in stores { #expect(runs.contains(store), "\(store)") }
        #expect(runs.contains(#"--next-version "Tools/CoreDataCheck/Fixtures/Carriers 2.xcdatamodel""#))
        #expect(runs.contains(#""$stores/all-types/Kitchen.sqlite""#))
        #expect(runs.contains(#"--configuration Seed --model "$stores/configuration/Split.xcdatamodeld""#))
        let test = try Self.steps("core-data").first { $0["run"]?.string == "make test" }
        #expect(test?["env"]?["CORESEED_CHECK_STORES"]?.string == "${{ runner.temp }}/check-stores")
    }

    /// A failing unit test must not hide what Core Data makes of the stores: every step of the Mac job
    /// after `make test` runs unless the run was cancelled, uploads always (the job still fails).
    @Test func theCoreDataStepsRunEvenWhenATestFails() throws {
        let steps = try Self.steps("core-data")
        let test = try #require(steps.firstIndex { $0["run"]?.string == "make test" })
        let after = steps[(test + 1)...]
        #expect(!after.isEmpty)
        for step in after {
            let condition = step["if"]?.string
            #expect(condition == "${{ !cancelled() }}" || condition == "always()", "\(step["name"]?.string ?? "a step")")
        }
    }

    @Test func aJobComparesTheMacsOutputsWithLinuxsByteForByte() throws {
        let jobs = try Self.workflow()["jobs"]
        let linux = jobs?["linux-seed"]
        #expect(linux?["container"]?.string == "swift:6.3.1-bookworm")
        #expect(try Self.runs("linux-seed").contains("make seed"))
        let compare = jobs?["compare-outputs"]
        #expect(compare?["needs"] == .sequence([.scalar("core-data"), .scalar("linux-seed")]))
        let downloads = try Self.steps("compare-outputs").filter { $0["uses"]?.string?.hasPrefix("actions/download-artifact@v4") == true }
        #expect(downloads.map { $0["with"]?["name"]?.string ?? "" } == ["linux-outputs", "macos-outputs"])
        let runs = try Self.runs("compare-outputs")
        #expect(runs.contains(#"cmp -s "linux/$file" "macos/$file""#))
        #expect(runs.contains("diff -r linux macos"))
        #expect(runs.contains(#"test -d "$side/.Carriers_SUPPORT/_EXTERNAL_DATA""#))
    }

    /// README and docs/INTEGRATION.md name one Swift version, the workflow's.
    @Test func oneToolchainVersionEverywhere() throws {
        for document in ["README.md", "docs/INTEGRATION.md"] {
            let text = try String(contentsOf: MacProof.root.appendingPathComponent(document), encoding: .utf8)
            let versions = Set(text.matches(of: /Swift (\d+\.\d+(?:\.\d+)?)/).map { String($0.1) })
            #expect(versions == ["6.3.1"], "\(document): \(versions.sorted())")
            #expect(text.contains("Xcode 26.4.1"), "\(document)")
        }
    }

    @Test func theParserRefusesWhatItDoesNotRead() throws {
        #expect(throws: YAML.SyntaxError.self) { try YAML.parse("a:\n\tb: 1\n") }
        #expect(throws: YAML.SyntaxError.self) { try YAML.parse("a: &anchor 1\n") }
        #expect(throws: YAML.SyntaxError.self) { try YAML.parse("a:\n  b: 1\n c: 2\n") }
        #expect(try YAML.parse("a:\n  - x: 1\n    y: [p, 'q']\n  - z\nb: |\n  one\n  # two\n") ==
                .mapping([("a", .sequence([.mapping([("x", .scalar("1")), ("y", .sequence([.scalar("p"), .scalar("q")]))]), .scalar("z")])),
                          ("b", .scalar("one\n# two\n"))]))
    }
}
