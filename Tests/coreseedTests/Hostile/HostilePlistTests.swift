import Foundation
import Testing
import CoreSeed
import CoreSeedTestSupport

/// Issue 24, item 9: a `Z_PLIST` or a Transformable archive of arrays that each hold the next twice
/// (shared references: a few hundred bytes, 2^40 paths) hung `verify`, `inspect`, `export` and
/// `build --into` until memory ran out. Each command runs under `timeout` and a memory limit, so a
/// regression fails here instead of hanging the suite.
@Suite struct HostilePlistTests {
    /// Runs the binary in `scratch` killed after 30 s or beyond 4 GB; status 137 or 124 means it was.
    static func bounded(_ scratch: Scratch, _ arguments: [String]) throws -> (result: BinaryRunner.Result, seconds: Double) {
        let started = Date()
        // An AddressSanitizer build (scripts/memcheck.sh asan) reserves terabytes of shadow memory, so
        // an address-space limit stops it at start-up: there ASan's own resident-memory limit holds it.
        let sanitized = ProcessInfo.processInfo.environment["ASAN_OPTIONS"] != nil
        let limit = sanitized ? "export ASAN_OPTIONS=\"$ASAN_OPTIONS:hard_rss_limit_mb=4000\"" : "ulimit -v 4000000"
        let command = limit + "; exec timeout -s KILL 30 \"$0\" \"$@\""
        let result = try BinaryRunner.run(executable: URL(fileURLWithPath: "/bin/sh"), ["-c", command, BinaryRunner.binary.path] + arguments,
                                          in: scratch.url)
        return (result, Date().timeIntervalSince(started))
    }

    struct Outcome: Equatable { let message: String, isLimit: Bool }

    /// How reading `archive` failed (nil when it did not).
    static func failure(_ archive: [UInt8]) -> Outcome? {
        do {
            _ = try KeyedUnarchiver.value(archive)
            return nil
        } catch {
            return Outcome(message: error.message, isLimit: error.isLimit)
        }
    }

    @Test func aZPlistOfSharedReferencesIsRefusedQuickly() throws {
        let scratch = try StoredNumberTests.itemStore()
        let metadata = try StoreMetadata.read(fromStoreAt: scratch.path("I.sqlite")).metadata
        let hostile = SharedPlist.metadata(metadata, adding: SharedPlist.doubling(depth: 40))
        #expect(hostile.count < 1200, "\(hostile.count) bytes")
        do {
            let store = try SQLiteDatabase(path: scratch.path("I.sqlite"), mode: .readWrite)
            _ = try store.rows("UPDATE Z_METADATA SET Z_PLIST = ?", [.blob(hostile)])
        }
        let limit = "Z_PLIST is refused: the property list expands to more than 1000000 values, counting each use of a shared object (CoreSeed's limit)\n"
        let commands: [([String], String)] = [
            (["verify", "I.sqlite", "--model", "I.xcdatamodeld"], "I.sqlite: error: Z_METADATA: " + limit),
            (["inspect", "I.sqlite"], "I.sqlite: error: Z_METADATA: " + limit),
            (["export", "I.sqlite", "--model", "I.xcdatamodeld", "--output", "ex"], "I.sqlite: error: " + limit),
            (["build", "spec.json", "--into", "I.sqlite", "--mode", "upsert"],
             "I.sqlite: error: the store to update does not match model version 'I': Z_METADATA: " + limit),
        ]
        for (arguments, stderr) in commands {
            let (result, seconds) = try Self.bounded(scratch, arguments)
            #expect(seconds < 10, "\(arguments[0]) took \(seconds) s")
            #expect(result.status == 1, "\(arguments[0]): status \(result.status)")
            #expect(result.stderr == stderr, "\(arguments[0]): \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.path("ex")))
    }

    @Test func aTransformableArchiveOfSharedReferencesIsRefusedQuickly() throws {
        let scratch = try TransformableTests.prepare()
        #expect(try scratch.run(["build", "spec.json", "--quiet"]).status == 0)
        let hostile = SharedPlist.doublingArchive(depth: 40)
        #expect(hostile.count < 4000, "\(hostile.count) bytes")
        do {
            let store = try SQLiteDatabase(path: scratch.path("T.sqlite"), mode: .readWrite)
            _ = try store.rows("UPDATE ZRECIPE SET ZINFO = ? WHERE Z_PK = 2", [.blob(hostile)])
        }
        let export = try Self.bounded(scratch, ["export", "T.sqlite", "--model", "T.xcdatamodeld", "--output", "ex"])
        #expect(export.seconds < 10, "export took \(export.seconds) s")
        #expect(export.result.status == 1, "status \(export.result.status)")
        #expect(export.result.stderr == "T.sqlite: error: ZRECIPE, Z_PK 2 (Recipe.info): the archive expands to more than 1000000 values, counting each use of a shared object (CoreSeed's limit); export cannot write it as JSON\n",
                "\(export.result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("ex")))
        // Core Data decodes each archived object once, so the store itself is readable: verify and
        // inspect pass it, quickly, and an update runs as usual.
        for arguments in [["verify", "T.sqlite", "--model", "T.xcdatamodeld"], ["inspect", "T.sqlite"],
                          ["build", "spec.json", "--into", "T.sqlite", "--mode", "upsert", "--quiet"]] {
            let (result, seconds) = try Self.bounded(scratch, arguments)
            #expect(seconds < 10, "\(arguments[0]) took \(seconds) s")
            #expect(result.status == 0, "\(arguments[0]): status \(result.status) \(result.stderr)")
        }
    }

    /// A shared object within the limits is read as the tree it stands for; one past them is refused.
    @Test func sharedObjectsWithinTheLimitsAreReadAsTrees() throws {
        func leaves(_ value: PropertyListValue?) -> Int {
            if case .array(let items)? = value { return items.map(leaves).reduce(0, +) }
            return 1
        }
        let metadata = StoreMetadata(frameworkVersion: 1518, versionHashes: ["Item": Array(repeating: 7, count: 32)])
        // 2^18 leaves and 2^18 - 1 arrays: within 1,000,000 values; 2^19 + 2^19 - 1 is not.
        let read = try StoreMetadata(propertyList: SharedPlist.metadata(metadata, adding: SharedPlist.doubling(depth: 18)))
        #expect(leaves(read.other["Hostile"]) == 1 << 18)
        #expect(read.versionHashes == metadata.versionHashes)
        #expect(throws: FileError(message: "Z_PLIST is refused: the property list expands to more than 1000000 values, counting each use of a shared object (CoreSeed's limit)")) {
            try StoreMetadata(propertyList: SharedPlist.metadata(metadata, adding: SharedPlist.doubling(depth: 19)))
        }
        func archivedLeaves(_ value: ArchivedValue) -> Int {
            if case .array(let items) = value { return items.map(archivedLeaves).reduce(0, +) }
            return 1
        }
        #expect(archivedLeaves(try KeyedUnarchiver.value(SharedPlist.doublingArchive(depth: 18))) == 1 << 18)
        #expect(Self.failure(SharedPlist.doublingArchive(depth: 19)) == Self.Outcome(message: "the archive expands to more than 1000000 values, counting each use of a shared object (CoreSeed's limit)", isLimit: true))
        // 20 levels of a 1 MB string used twice each: 2^20 MB of text, refused by bytes.
        let text = String(repeating: "x", count: 1 << 20)
        let big = SharedPlist.archive(arrays: (0..<20).map { [$0 + 2, $0 + 2] }, leaf: text)
        #expect(Self.failure(big) == Self.Outcome(message: "the archive expands to more than 268435456 bytes of text and data, counting each use of a shared object (CoreSeed's limit)", isLimit: true))
    }

    @Test func aCycleAndDeepNestingAreRefused() {
        #expect(Self.failure(SharedPlist.archive(arrays: [[2], [1]], leaf: "leaf")) == Self.Outcome(message: "the archive has an object that contains itself (a cycle)", isLimit: false))
        #expect(Self.failure(SharedPlist.archive(arrays: (0..<300).map { [$0 + 2] }, leaf: "leaf")) == Self.Outcome(message: "the archive is nested more than 256 levels deep (CoreSeed's limit)", isLimit: true))
        let deep = SharedPlist.doubling(depth: 300).kind
        #expect(throws: FileError(message: "Z_PLIST is refused: the property list is nested more than 256 levels deep (CoreSeed's limit)")) {
            try StoreMetadata(propertyList: SharedPlist.bytes(SharedPlistNode(.dictionary([("deep", SharedPlistNode(deep))]))))
        }
    }

    /// Item 3: the trailer's numbers (object count, top object, offset table) are checked against the
    /// file's size before any arithmetic, so a hostile one is an error, never an overflow trap.
    @Test(arguments: [8, 16, 24]) func aHostileTrailerNumberIsAnError(field: Int) {
        var bytes = StoreMetadata(frameworkVersion: 1518, versionHashes: ["Item": [1]]).binaryPropertyList()
        let start = bytes.count - 32 + field
        for index in start..<start + 8 { bytes[index] = 0xFF }
        #expect(throws: FileError(message: "Z_PLIST is not a property list (not a binary property list)")) {
            try StoreMetadata(propertyList: bytes)
        }
    }
}
