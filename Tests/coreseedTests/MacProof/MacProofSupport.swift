import Foundation
import Testing
import CoreSeedTestSupport

/// What the issue-29 tests share: Tools/CoreDataCheck compiled once per test run, and the stores of
/// `make seed` built once, both in `.build/mac-proof-tests/` (replaced by each run).
enum MacProof {
    /// A failure to prepare, as a message (an error a static can hold).
    struct Failure: Error, Sendable, CustomStringConvertible {
        let description: String
    }

    static let root = BinaryRunner.repositoryRoot
    static let folder = root.appendingPathComponent(".build/mac-proof-tests")

    /// Whether this platform has Core Data, so that core-data-check runs its Core Data half.
    static let hasCoreData: Bool = {
        #if canImport(CoreData)
        return true
        #else
        return false
        #endif
    }()

    /// `.build/mac-proof-tests/core-data-check`, compiled by scripts/core-data-check.sh (unoptimized:
    /// it checks a few small stores) the first time a test asks.
    static let checker: Result<URL, Failure> = {
        try? FileManager.default.removeItem(at: folder)
        let output = folder.appendingPathComponent("core-data-check")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let result = try BinaryRunner.run(executable: URL(fileURLWithPath: "/usr/bin/env"), ["bash", "scripts/core-data-check.sh", output.path],
                                              environment: ["OPTIMIZATION": "-Onone"])
            guard result.status == 0 else { return .failure(Failure(description: "scripts/core-data-check.sh: \(result.stderr)")) }
        } catch {
            return .failure(Failure(description: "cannot compile Tools/CoreDataCheck: \(error)"))
        }
        return .success(output)
    }()

    /// The stores `make seed` writes, built from the same specs with the binary under test into
    /// `.build/mac-proof-tests/Outputs/` (after `checker`, which empties the folder first).
    static let seeded: Result<URL, Failure> = {
        _ = checker
        let outputs = folder.appendingPathComponent("Outputs")
        for (spec, store) in [("Inputs/seed.json", "Carriers.sqlite"), ("Inputs/failedbanks-sqlite.json", "FailedBanksCD.sqlite"),
                              ("Inputs/failedbanks-csv.json", "FailedBanksCD-csv.sqlite")] {
            let result = try? BinaryRunner.run(["build", spec, "--output", outputs.appendingPathComponent(store).path, "--quiet"])
            guard let result, result.status == 0 else { return .failure(Failure(description: "coreseed build \(spec): \(result?.stderr ?? "did not run")")) }
        }
        return .success(outputs)
    }()

    /// Runs the compiled check with `arguments` (the binary under test as its coreseed).
    static func check(_ arguments: [String]) throws -> BinaryRunner.Result {
        let checker = try checker.get()
        return try BinaryRunner.run(executable: checker, ["--coreseed", BinaryRunner.binary.path] + arguments)
    }

    /// Relative path → bytes of every file below `folder`.
    static func files(below folder: URL) -> [String: Data] {
        var files: [String: Data] = [:]
        for path in FileManager.default.subpaths(atPath: folder.path) ?? [] {
            var isDirectory: ObjCBool = false
            let url = folder.appendingPathComponent(path)
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[path] = FileManager.default.contents(atPath: url.path)
            }
        }
        return files
    }

    /// A model version file as Xcode writes it (the header momc expects), around `entities`.
    static func xcodeModel(_ entities: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
        \(entities)
        </model>

        """
    }
}
