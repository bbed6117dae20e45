import CoreSeed
import Foundation
import Testing
import CoreSeedTestSupport

/// `make artifactbundle` (scripts/artifactbundle.sh) from a Linux build: the layout and `info.json` of
/// SwiftPM's artifact bundle format (SE-0305: "schemaVersion" "1.0", artifacts of type executable,
/// variants with a path and supportedTriples), its zip and checksum, and the CoreSeedPlugin package.
/// scripts/plugin-test.sh runs the seed plugin through that package for real.
@Suite struct ArtifactBundleTests {
    static func makeBundle() throws -> (scratch: Scratch, out: URL) {
        let scratch = try Scratch()
        let out = scratch.url.appendingPathComponent("artifactbundle")
        let result = try BinaryRunner.run(executable: URL(fileURLWithPath: "/usr/bin/env"),
                                          ["bash", "scripts/artifactbundle.sh", BinaryRunner.binary.path, out.path])
        guard result.status == 0 else { throw MacProof.Failure(description: "scripts/artifactbundle.sh: \(result.stderr)") }
        return (scratch, out)
    }

    /// The triple SwiftPM matches a variant against on this machine.
    static var hostTriple: String {
        #if os(macOS)
        return "\(hostArchitecture == "x86_64" ? "x86_64" : "arm64")-apple-macosx"
        #else
        return "\(hostArchitecture)-unknown-linux-gnu"
        #endif
    }

    static var hostArchitecture: String {
        #if arch(x86_64)
        return "x86_64"
        #elseif arch(arm64)
        return "aarch64"
        #else
        return "unknown"
        #endif
    }

    @Test func theBundleHasSwiftPMsLayoutAndInfoJSON() throws {
        let (scratch, out) = try Self.makeBundle()
        defer { withExtendedLifetime(scratch) {} }
        let bundle = out.appendingPathComponent("coreseed.artifactbundle")
        let version = try BinaryRunner.run(["--version"]).stdout.split(separator: " ").last.map { String($0.dropLast()) } ?? ""
        #expect(!version.isEmpty)

        let info = try JSONSerialization.jsonObject(with: Data(contentsOf: bundle.appendingPathComponent("info.json"))) as? [String: Any]
        #expect(info?["schemaVersion"] as? String == "1.0")
        let artifacts = info?["artifacts"] as? [String: Any]
        #expect(artifacts.map { Array($0.keys) } == ["coreseed"])
        let artifact = artifacts?["coreseed"] as? [String: Any]
        #expect(artifact?["type"] as? String == "executable")
        #expect(artifact?["version"] as? String == version)
        let variants = artifact?["variants"] as? [[String: Any]] ?? []
        #expect(variants.count == 1)
        let platform = MacProof.hasCoreData ? "macos" : "linux"
        #expect(variants.first?["path"] as? String == "coreseed-\(version)-\(platform)/bin/coreseed")
        #expect(variants.first?["supportedTriples"] as? [String] == [Self.hostTriple])

        // The variant's path is the binary, executable, the very one it was made from.
        let binary = bundle.appendingPathComponent("coreseed-\(version)-\(platform)/bin/coreseed")
        #expect(FileManager.default.isExecutableFile(atPath: binary.path))
        #expect(try Data(contentsOf: binary) == Data(contentsOf: BinaryRunner.binary))
        #expect(try FileManager.default.contentsOfDirectory(atPath: bundle.path).sorted() == ["coreseed-\(version)-\(platform)", "info.json"])
        #expect(try BinaryRunner.run(executable: binary, ["--version"]).stdout == "coreseed \(version)\n")
    }

    /// What `binaryTarget(url:checksum:)` downloads: the zip, and the SHA-256 SwiftPM's
    /// `swift package compute-checksum` gives for it.
    @Test func theZipAndItsChecksum() throws {
        let (scratch, out) = try Self.makeBundle()
        defer { withExtendedLifetime(scratch) {} }
        let zip = try Data(contentsOf: out.appendingPathComponent("coreseed.artifactbundle.zip"))
        #expect(zip.starts(with: [0x50, 0x4B, 0x03, 0x04]))
        let checksum = try String(contentsOf: out.appendingPathComponent("coreseed.artifactbundle.zip.sha256"), encoding: .utf8)
        let expected = SHA2.sha256([UInt8](zip)).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        #expect(checksum == expected + "\n")
        let listing = try BinaryRunner.run(executable: URL(fileURLWithPath: "/usr/bin/unzip"), ["-Z1", out.appendingPathComponent("coreseed.artifactbundle.zip").path])
        #expect(listing.stdout.split(separator: "\n").contains("coreseed.artifactbundle/info.json"))
    }

    /// CoreSeedPlugin: a package vending the seed plugin (the repository's own sources) over the bundle.
    @Test func thePluginPackageUsesTheBundle() throws {
        let (scratch, out) = try Self.makeBundle()
        defer { withExtendedLifetime(scratch) {} }
        let package = out.appendingPathComponent("CoreSeedPlugin")
        let manifest = try String(contentsOf: package.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(manifest.hasPrefix("// swift-tools-version:6.0\n"))
        #expect(manifest.contains(#".binaryTarget(name: "coreseed", path: "coreseed.artifactbundle"),"#))
        #expect(manifest.contains(#"dependencies: ["coreseed"],"#))
        #expect(manifest.contains(#"products: [.plugin(name: "seed", targets: ["seed"])],"#))
        #expect(MacProof.files(below: package.appendingPathComponent("Plugins/SeedPlugin"))
                == MacProof.files(below: MacProof.root.appendingPathComponent("Plugins/SeedPlugin")))
        #expect(MacProof.files(below: package.appendingPathComponent("coreseed.artifactbundle"))
                == MacProof.files(below: out.appendingPathComponent("coreseed.artifactbundle")))
    }

    @Test func aMissingBinaryIsSaidInOneLine() throws {
        let scratch = try Scratch()
        let result = try BinaryRunner.run(executable: URL(fileURLWithPath: "/usr/bin/env"), ["bash", "scripts/artifactbundle.sh", scratch.path("none"), scratch.path("out")])
        #expect(result.status == 66)
        #expect(result.stderr == "artifactbundle: \(scratch.path("none")) is not an executable coreseed (make build first)\n")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("out")))
    }
}
