import Foundation
import Testing
import CoreSeedTestSupport

/// Tools/CoreDataCheck's Linux half (issue 29): option handling, and each store copied with its
/// support folder under its own name, checked with coreseed and exported, on the stores `make seed`
/// writes and on a configuration store. On macOS the check opens stores with Core Data instead (the
/// workflow's own steps run it), so these expectations of exit status 77 do not apply there.
@Suite(.serialized, .disabled(if: MacProof.hasCoreData, "on macOS core-data-check runs its Core Data half; .github/workflows/macos.yml runs it"))
struct MacProofTests {
    static func unavailableLine(_ count: Int, _ work: URL) -> String {
        "core-data-check: Core Data is not available on this platform: \(count) store(s) copied with their support folders into "
            + "\(work.path) and checked with coreseed; nothing opened with Core Data (run it on macOS)\n"
    }

    @Test func eachStoreIsCopiedWithItsSupportFolderUnderItsOwnName() throws {
        let outputs = try MacProof.seeded.get()
        let scratch = try Scratch()
        let work = scratch.url.appendingPathComponent("work")
        let store = outputs.appendingPathComponent("Carriers.sqlite")
        let result = try MacProof.check(["--work", work.path, "--model", "Inputs/Carriers.xcdatamodeld",
                                         "--next-version", "Tools/CoreDataCheck/Fixtures/Carriers 2.xcdatamodel", store.path])
        #expect(result.status == 77, "\(result.stderr)")
        #expect(result.stderr == Self.unavailableLine(1, work))
        #expect(result.stdout.hasSuffix("\(store.path): OK\n"), "\(result.stdout)")
        #expect(result.stdout.contains("\(store.path): next model version 'Carriers 2' (the version \(MacProof.root.path)/Tools/CoreDataCheck/Fixtures/Carriers 2.xcdatamodel) changes the version hashes of AccessPoint, Country, Note\n"))

        // The copy keeps the store's name, so the support folder beside it is the one Core Data derives.
        let read = work.appendingPathComponent("1-Carriers/read")
        #expect(try Data(contentsOf: read.appendingPathComponent("Carriers.sqlite")) == Data(contentsOf: store))
        let original = MacProof.files(below: outputs.appendingPathComponent(".Carriers_SUPPORT"))
        #expect(original.count > 1 && original.keys.allSatisfy { $0.hasPrefix("_EXTERNAL_DATA/") }, "\(original.keys.sorted())")
        #expect(MacProof.files(below: read.appendingPathComponent(".Carriers_SUPPORT")) == original)
        let exports = try FileManager.default.contentsOfDirectory(atPath: work.appendingPathComponent("1-Carriers/export").path).sorted()
        #expect(exports == ["AccessPoint.json", "Country.json", "Flag.json", "Network.json", "Provider.json"])

        // The migration's model folders: every version plus the next one, current; the next one alone.
        let next = work.appendingPathComponent("1-Carriers/next")
        let with = next.appendingPathComponent("with/Carriers.xcdatamodeld")
        #expect(try FileManager.default.contentsOfDirectory(atPath: with.path).sorted() == [".xccurrentversion", "Carriers 2.xcdatamodel", "Carriers.xcdatamodel"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: next.appendingPathComponent("without/Carriers.xcdatamodeld").path).sorted()
                == [".xccurrentversion", "Carriers 2.xcdatamodel"])
        let current = try PropertyListSerialization.propertyList(from: Data(contentsOf: with.appendingPathComponent(".xccurrentversion")), format: nil)
        #expect((current as? [String: Any])?["_XCCurrentVersionName"] as? String == "Carriers 2.xcdatamodel")
    }

    /// Two stores of one model: each in its own numbered folder; the default next version adds an
    /// optional attribute to the first entity.
    @Test func storesOfOneModelGoToTheirOwnFolders() throws {
        let outputs = try MacProof.seeded.get()
        let scratch = try Scratch()
        let work = scratch.url.appendingPathComponent("work")
        let stores = ["FailedBanksCD.sqlite", "FailedBanksCD-csv.sqlite"].map { outputs.appendingPathComponent($0).path }
        let result = try MacProof.check(["--work", work.path, "--model", "Inputs/FailedBanksCD.xcdatamodeld"] + stores)
        #expect(result.status == 77, "\(result.stderr)")
        #expect(result.stderr == Self.unavailableLine(2, work))
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.path).sorted() == ["1-FailedBanksCD", "2-FailedBanksCD-csv"])
        for (index, store) in stores.enumerated() {
            #expect(result.stdout.contains("\(store): next model version 'FailedBanksCD CoreDataCheck' (FailedBanksCD plus the optional String FailedBankDetails.coreDataCheckAdded) changes the version hashes of FailedBankDetails\n"))
            let copy = work.appendingPathComponent(index == 0 ? "1-FailedBanksCD/read/FailedBanksCD.sqlite" : "2-FailedBanksCD-csv/read/FailedBanksCD-csv.sqlite")
            #expect(try Data(contentsOf: copy) == Data(contentsOf: URL(fileURLWithPath: store)))
        }
    }

    /// A store built for one configuration has no tables for the others' entities: without
    /// --configuration it is refused, naming them; with it, each entity it holds is exported alone.
    @Test func aConfigurationStoreIsCheckedInItsConfiguration() throws {
        let scratch = try Scratch()
        let store = try MacProofStores.buildConfigurationStore(in: scratch)
        let work = scratch.url.appendingPathComponent("work")
        let refused = try MacProof.check(["--work", work.path, "--model", scratch.path("Split.xcdatamodeld"), store.path])
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("\(store.path): error: the store has no tables for entities Note: it was built for one configuration; give it with --configuration\n"), "\(refused.stderr)")

        let configured = scratch.url.appendingPathComponent("configured")
        let result = try MacProof.check(["--work", configured.path, "--configuration", "Seed", "--model", scratch.path("Split.xcdatamodeld"), store.path])
        #expect(result.status == 77, "\(result.stderr)")
        #expect(result.stdout.contains("coreseed verify: model version 'Split', configuration 'Seed'; coreseed export: 5 rows in 2 entities, as coreseed inspect counts them\n"), "\(result.stdout)")
        let export = configured.appendingPathComponent("1-Split/export")
        #expect(try FileManager.default.contentsOfDirectory(atPath: export.path).sorted() == ["Bank", "Branch"])
        #expect(FileManager.default.fileExists(atPath: export.appendingPathComponent("Bank/Bank.json").path))
        #expect(FileManager.default.fileExists(atPath: export.appendingPathComponent("Branch/Branch.json").path))
    }

    /// Each mistake on the command line: its one error line, its exit status, and no work done.
    @Test(arguments: [
        ([String](), 64, "core-data-check: error: --model MODEL is required (the stores' .xcdatamodeld)"),
        (["--model", "Inputs/Carriers.xcdatamodeld"], 64, "core-data-check: error: no STORE given"),
        (["--model", "Inputs/Carriers.xcdatamodeld", "--frobnicate", "x.sqlite"], 64, "core-data-check: error: unknown option '--frobnicate'"),
        (["--model", "Inputs", "x.sqlite"], 64, "core-data-check: error: --model takes an .xcdatamodeld folder, not 'Inputs'"),
        (["--model", "Inputs/Carriers.xcdatamodeld", "--batch", "0", "x.sqlite"], 64, "core-data-check: error: --batch takes a whole number from 1, not '0'"),
        (["--model", "Inputs/Carriers.xcdatamodeld", "--sample"], 64, "core-data-check: error: --sample needs a value"),
        (["--model", "Inputs/Carriers.xcdatamodeld", "--next-version", "Inputs", "x.sqlite"], 64,
         "core-data-check: error: --next-version takes an .xcdatamodel folder, not 'Inputs'"),
        (["--model", "Inputs/Carriers.xcdatamodeld", "--model-version", "Carriers 9", "Inputs/serviceproviders.xml"], 64,
         "core-data-check: error: --model-version: Inputs/Carriers.xcdatamodeld has no version 'Carriers 9' (versions: Carriers)"),
        (["--model", "Inputs/Nowhere.xcdatamodeld", "x.sqlite"], 66, "core-data-check: error: Inputs/Nowhere.xcdatamodeld: no such model"),
        (["--model", "Inputs/Carriers.xcdatamodeld", "Outputs/none.sqlite"], 66, "core-data-check: error: Outputs/none.sqlite: no such store"),
    ])
    func usageMistakes(arguments: [String], status: Int32, line: String) throws {
        let result = try MacProof.check(arguments)
        #expect(result.status == status)
        #expect(result.stderr.split(separator: "\n").first.map(String.init) == line, "\(result.stderr)")
        if status == 64 { #expect(result.stderr.hasSuffix("see 'core-data-check --help'\n")) }
        #expect(result.stdout.isEmpty)
    }

    @Test func helpGoesToStandardOutput() throws {
        let result = try BinaryRunner.run(executable: try MacProof.checker.get(), ["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("Usage: core-data-check --model MODEL [--model-version NAME] [--configuration NAME] [--next-version DIR]\n"))
        #expect(result.stdout.contains("\nExample:\n  core-data-check --model Inputs/Carriers.xcdatamodeld Outputs/Carriers.sqlite\n"))
        #expect(result.stderr.isEmpty)
    }

    /// A --work folder that already holds something is refused before anything is copied into it.
    @Test func aWorkFolderInUseIsRefused() throws {
        let scratch = try Scratch()
        try scratch.write("work/keep.txt", "mine")
        let result = try MacProof.check(["--work", scratch.path("work"), "--model", "Inputs/Carriers.xcdatamodeld", "Inputs/serviceproviders.xml"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("core-data-check: error: --work \(scratch.path("work")) is not empty; give a new folder (the copies are written there)\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path("work")) == ["keep.txt"])
    }
}
