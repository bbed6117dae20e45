import Foundation
import Testing
import CoreSeed
import CoreSeedTestSupport

/// Issue 24, item 14: `verify` exited 0 when the support folder of a store CoreSeed built was
/// missing although its rows refer to external files, and took any entry of the folder with the
/// right name (a symbolic link, a FIFO) for the file.
@Suite struct ExternalVerifyTests {
    static let folder = "out/.R_SUPPORT/_EXTERNAL_DATA"

    /// A store with one external file; `seedVersion` makes its metadata say CoreSeed built it.
    static func built(seedVersion: Bool) throws -> (Scratch, String) {
        let scratch = try ExternalStorageTests.prepare()
        if seedVersion {
            let spec = try String(contentsOfFile: scratch.path("spec.json"), encoding: .utf8)
            try scratch.write("spec.json", spec.replacingOccurrences(of: "\"externalAbove\": 4,", with: "\"externalAbove\": 4, \"seedVersion\": \"1\","))
        }
        let build = try scratch.run(["build", "spec.json", "--quiet"])
        #expect(build.status == 0, "\(build.stderr)")
        let files = ExternalStorageTests.files(scratch, folder)
        #expect(files.count == 1)
        return (scratch, files[0])
    }

    @Test func aMissingSupportFolderFailsAStoreCoreSeedBuilt() throws {
        let (scratch, _) = try Self.built(seedVersion: true)
        try FileManager.default.removeItem(atPath: scratch.path("out/.R_SUPPORT"))
        let verify = try scratch.run(["verify", "out/R.sqlite", "--model", "R.xcdatamodeld"])
        #expect(verify.status == 1, "\(verify.stdout)\(verify.stderr)")
        #expect((verify.stdout + verify.stderr).contains("1 external binary value(s) refer to files in out/.R_SUPPORT/_EXTERNAL_DATA, which is not beside the store"),
                "\(verify.stdout)\(verify.stderr)")
    }

    @Test func aMissingSupportFolderIsAWarningOnAnyOtherStore() throws {
        let (scratch, _) = try Self.built(seedVersion: false)
        try FileManager.default.removeItem(atPath: scratch.path("out/.R_SUPPORT"))
        let verify = try scratch.run(["verify", "out/R.sqlite", "--model", "R.xcdatamodeld"])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        #expect((verify.stdout + verify.stderr).contains("which is not beside the store"), "\(verify.stdout)\(verify.stderr)")
        #expect(try scratch.run(["verify", "out/R.sqlite", "--model", "R.xcdatamodeld", "--strict"]).status == 1)
    }

    @Test(arguments: ["symlink", "fifo", "folder"])
    func anEntryThatIsNotARegularFileFails(kind: String) throws {
        let (scratch, uuid) = try Self.built(seedVersion: false)
        let path = scratch.path("\(Self.folder)/\(uuid)")
        try scratch.write("elsewhere.bin", String(repeating: "x", count: 10))
        try FileManager.default.removeItem(atPath: path)
        switch kind {
        case "symlink": try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: scratch.path("elsewhere.bin"))
        case "fifo": #expect(mkfifo(path, 0o644) == 0)
        default: try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        }
        let verify = try scratch.run(["verify", "out/R.sqlite", "--model", "R.xcdatamodeld"], within: 30)
        #expect(verify.status == 1, "\(verify.stdout)\(verify.stderr)")
        #expect((verify.stdout + verify.stderr).contains("ZRECIPE.ZPHOTO: 1 value(s) refer to entries of out/.R_SUPPORT/_EXTERNAL_DATA that are not regular files (a symbolic link, FIFO or folder) (Z_PK 2)"),
                "\(verify.stdout)\(verify.stderr)")
    }
}
