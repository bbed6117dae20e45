import Foundation

/// What the command line asked for (`core-data-check --help`).
struct Options {
    var coreseed = ".build/release/coreseed"
    var model = ""
    /// The model version the app ships; nil: the current version of the compiled model.
    var modelVersion: String?
    var configuration: String?
    /// The `.xcdatamodel` folder to migrate to; nil: the current version plus one optional attribute.
    var nextVersion: String?
    /// Where the copies go and stay; nil: a temporary folder, removed at the end.
    var work: String?
    var batch = 500
    var sample = 100
    var stores: [String] = []

    static let usageLine = """
        Usage: core-data-check --model MODEL [--model-version NAME] [--configuration NAME] [--next-version DIR]
                               [--coreseed PATH] [--work DIR] [--batch N] [--sample N] STORE...
        """

    static let usage = usageLine + """


        Proves on Apple's Core Data that each STORE (written by coreseed build) opens, reads and saves
        as the app would. Each STORE is copied with its sidecars and its support folder
        (.NAME_SUPPORT/_EXTERNAL_DATA) under its own name into a private folder, where the copy is
        checked with coreseed verify (against --model-version or the model's current version) and
        exported with coreseed export --format json. Then, on macOS, Core Data:
          1. opens a copy read-only with MODEL compiled by xcrun momc, in the version the app ships
             (--model-version, default the current version of the compiled .momd) and, with
             --configuration, in that configuration; it must be compatible with the store's metadata;
          2. fetches every entity in batches (--batch) and compares every attribute of every object,
             and every relationship the export writes, with the export;
          3. walks the relationships of up to --sample objects per entity to their inverses;
          4. opens another copy read-write, inserts one object per entity, edits and deletes one per
             entity, saves, reopens, reads the changes back and runs coreseed verify on the result;
          5. opens a copy with persistent history tracking on, saves a change and reads the history;
          6. copies the store with replacePersistentStore(at:…), as an app copies its bundled seed,
             and opens the copy (saying whether the support folder came along);
          7. migrates copies to the next model version (--next-version, default the current version
             plus one optional attribute), once with the source version in a bundle and once without.
        On Linux only the copies and the coreseed checks run, and the exit status is 77.

        Options:
          --model MODEL          the stores' model (.xcdatamodeld)
          --model-version NAME   the version the app ships (default: the current version)
          --configuration NAME   the stores hold this configuration's entities only
          --next-version DIR     the model version to migrate to (an .xcdatamodel folder)
          --coreseed PATH        the coreseed binary (default .build/release/coreseed)
          --work DIR             keep the copies in DIR (created; must be empty or missing);
                                 default: a temporary folder, removed at the end
          --batch N              objects fetched and compared at a time (default 500)
          --sample N             objects per entity whose relationships are walked (default 100)
          -h, --help             show this help

        Exit status: 0 every store passes, 1 a check failed, 64 usage error, 66 an input is missing,
        77 no Core Data on this platform (the copies and the coreseed checks passed).

        Example:
          core-data-check --model Inputs/Carriers.xcdatamodeld Outputs/Carriers.sqlite
        """

    /// Parses `words` (the arguments after the program name); validates them before any work.
    init(_ words: [String]) throws(CheckFailure) {
        var words = words[...]
        while let word = words.popFirst() {
            switch word {
            case "--coreseed": coreseed = try Self.value(of: word, from: &words)
            case "--model": model = try Self.value(of: word, from: &words)
            case "--model-version": modelVersion = try Self.value(of: word, from: &words)
            case "--configuration": configuration = try Self.value(of: word, from: &words)
            case "--next-version": nextVersion = try Self.value(of: word, from: &words)
            case "--work": work = try Self.value(of: word, from: &words)
            case "--batch": batch = try Self.count(of: word, from: &words, minimum: 1)
            case "--sample": sample = try Self.count(of: word, from: &words, minimum: 0)
            case "-h", "--help": throw .help
            default:
                guard !word.hasPrefix("-") else { throw .usage("unknown option '\(word)'") }
                stores.append(word)
            }
        }
        guard !model.isEmpty else { throw .usage("--model MODEL is required (the stores' .xcdatamodeld)") }
        guard model.hasSuffix(".xcdatamodeld") || model.hasSuffix(".xcdatamodeld/") else {
            throw .usage("--model takes an .xcdatamodeld folder, not '\(model)'")
        }
        guard !stores.isEmpty else { throw .usage("no STORE given") }
        if let nextVersion, !nextVersion.hasSuffix(".xcdatamodel"), !nextVersion.hasSuffix(".xcdatamodel/") {
            throw .usage("--next-version takes an .xcdatamodel folder, not '\(nextVersion)'")
        }
        for (path, what) in [(model, "model"), (coreseed, "coreseed binary")] + stores.map({ ($0, "store") })
            + (nextVersion.map { [($0, "next model version")] } ?? []) where !FileManager.default.fileExists(atPath: path) {
            throw .missing("\(path): no such \(what)")
        }
        if let modelVersion {
            let versions = ((try? FileManager.default.contentsOfDirectory(atPath: model)) ?? []).filter { $0.hasSuffix(".xcdatamodel") }
                .map { ($0 as NSString).deletingPathExtension }.sorted()
            guard versions.contains(modelVersion) else {
                throw .usage("--model-version: \(model) has no version '\(modelVersion)' (versions: \(versions.joined(separator: ", ")))")
            }
        }
        if let work, let contents = try? FileManager.default.contentsOfDirectory(atPath: work), !contents.isEmpty {
            throw .usage("--work \(work) is not empty; give a new folder (the copies are written there)")
        }
    }

    private static func value(of option: String, from words: inout ArraySlice<String>) throws(CheckFailure) -> String {
        guard let value = words.popFirst() else { throw .usage("\(option) needs a value") }
        return value
    }

    private static func count(of option: String, from words: inout ArraySlice<String>, minimum: Int) throws(CheckFailure) -> Int {
        let text = try value(of: option, from: &words)
        guard let number = Int(text), number >= minimum else {
            throw .usage("\(option) takes a whole number from \(minimum), not '\(text)'")
        }
        return number
    }
}

/// Why the run stops before checking stores, or why one check of a store cannot go on.
enum CheckFailure: Error {
    case help
    case usage(String)
    /// An input does not exist (exit status 66).
    case missing(String)
    /// A check failed in a way that stops the checks of this store.
    case failed(String)
}
