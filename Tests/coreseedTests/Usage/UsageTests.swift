import CoreSeed
import Foundation
import Testing
import CoreSeedTestSupport

/// The command line as people expect it: `--help`, `--version`, `help COMMAND`, and usage errors that
/// show the usage line and where the help is, all asserted exactly as printed.
@Suite struct UsageTests {
    static let commandNames = ["build", "preview", "schema", "model", "hashes", "verify", "inspect", "export", "backup"]

    @Test func helpGoesToStdoutWithExitZero() throws {
        let result = try BinaryRunner.run(["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("coreseed: build Core Data SQLite stores from legacy data."))
        #expect(result.stdout.contains("\nExit status: 0 done; 1 invalid data or a failed check; 64 usage error;"))
        #expect(result.stdout.contains(" 74 output could not be written"))
        #expect(result.stderr.isEmpty)
        #expect(try BinaryRunner.run(["help"]).stdout == result.stdout)
    }

    @Test func versionIsOneLine() throws {
        let result = try BinaryRunner.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout == "coreseed \(CoreSeedInfo.version)\n")
        #expect(result.stderr.isEmpty)
        #expect(CoreSeedInfo.version.split(separator: ".").map { Int($0) != nil } == [true, true, true])
    }

    @Test func helpCommandPrintsThatCommandsHelp() throws {
        let result = try BinaryRunner.run(["help", "build"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout == (try BinaryRunner.run(["build", "--help"])).stdout)
        #expect(result.stdout.hasPrefix("""
            Usage: coreseed build [SPEC] [--output PATH] [--dry-run] [--explain] [--report FILE]
                                  [--max-errors N] [--fail-on-rejects] [--allow-empty] [--configuration NAME]
                                  [--into STORE] [--mode replace|upsert|insert|sync] [--allow-deletes]
                                  [--no-history] [--author NAME] [--quiet] [--timeout SECONDS]

            Reads the spec's sources,
            """))
        #expect(result.stdout.hasSuffix("""

            Arguments:
              SPEC                                the seed spec (JSON; default Inputs/seed.json)

            Options:
              --output PATH                       write the store here instead of the spec's "output"
              --dry-run                           check every value and key, write nothing
              --explain                           print how each attribute and relationship is fed (field, conversion, first value); build nothing
              --report FILE                       write a JSON report: rows per entity, every rejected value and where
              --max-errors N                      tolerate N rejected values (or all), leaving their records out (default 0)
              --fail-on-rejects                   check every value, list every problem, then fail without writing if any was rejected
              --allow-empty                       let a build that wrote no rows replace an existing store that holds rows
              --configuration NAME                build a store of only this configuration's entities
              --into STORE                        update this existing store instead (it must match the model)
              --mode replace|upsert|insert|sync   replace: write a new store; upsert, insert, sync: update one (see above)
              --allow-deletes                     let --mode sync delete more than half of an entity's stored rows (nothing else deletes)
              --no-history                        update a store that tracks persistent history without recording this run
              --author NAME                       the history transaction's author (default coreseed; see "historyTracking")
              --quiet                             print no progress and no summary
              --timeout SECONDS                   wait this long for a store another process has locked (default 10)
              -h, --help                          show this help

            Example:
              coreseed build Inputs/seed.json --output Outputs/Carriers.sqlite --report build-report.json

            """))
    }

    @Test func unknownCommandListsTheCommands() throws {
        let expected = """
            commands: build, preview, schema, model, hashes, verify, inspect, export, backup, help
            see 'coreseed --help'

            """
        let result = try BinaryRunner.run(["frobnicate"])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "error: unknown command 'frobnicate'\n" + expected)
        let help = try BinaryRunner.run(["help", "nosuch"])
        #expect(help.status == 64)
        #expect(help.stdout.isEmpty)
        #expect(help.stderr == "error: unknown command 'nosuch'\n" + expected)
    }

    @Test func usageErrorShowsTheUsageLinesAndWhereTheHelpIs() throws {
        let result = try BinaryRunner.run(["build", "--frob"])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == """
            error: unknown option --frob
            Usage: coreseed build [SPEC] [--output PATH] [--dry-run] [--explain] [--report FILE]
                                  [--max-errors N] [--fail-on-rejects] [--allow-empty] [--configuration NAME]
                                  [--into STORE] [--mode replace|upsert|insert|sync] [--allow-deletes]
                                  [--no-history] [--author NAME] [--quiet] [--timeout SECONDS]
            see 'coreseed build --help'

            """)
    }

    /// Each usage error's message, in one voice; the usage lines and the help pointer follow each.
    @Test(arguments: [
        (["inspect"], "missing STORE"),
        (["inspect", "a.sqlite", "b.sqlite"], "unexpected argument 'b.sqlite'"),
        (["inspect", "a.sqlite", "--json=yes"], "--json takes no value"),
        (["inspect", "a.sqlite", "-j"], "unknown option -j"),
        (["preview", "seed.json", "banks", "--limit"], "--limit needs a value"),
        (["preview", "seed.json", "banks", "--limit", "-1"], "--limit must be a non-negative integer, not '-1'"),
        (["verify"], "missing STORE"),
        (["export", "store.sqlite", "--model", "M.xcdatamodeld", "--format=xml"], "--format must be csv or json, not 'xml'"),
        (["build", "--mode", "merge"], "--mode must be replace, upsert, insert or sync, not 'merge'"),
        // --into A --output B is allowed now (issue 14: A is left as it was); --mode needs --into.
        (["build", "--mode", "upsert"], "--mode upsert needs --into STORE, the store to update"),
        (["build", "--into", "a.sqlite", "--mode", "replace"], "--mode replace writes a new store; --into updates one: give one of them"),
    ])
    func usageErrors(_ words: [String], message: String) throws {
        let command = words[0]
        let usage = try #require(try BinaryRunner.run([command, "--help"]).stdout.components(separatedBy: "\n\n").first)
        let result = try BinaryRunner.run(words)
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "error: \(message)\n\(usage)\nsee 'coreseed \(command) --help'\n")
    }

    @Test func theCommandsAreTheOnesTheOverviewLists() throws {
        let overview = try BinaryRunner.run(["--help"]).stdout
        let section = try #require(overview.components(separatedBy: "Commands:\n").last?.components(separatedBy: "\n\n").first)
        #expect(section.split(separator: "\n").map { String($0.split(separator: " ")[0]) } == Self.commandNames)
    }

    /// Every option a command's help lists is one its parser takes (and its usage line shows): with
    /// each one, the command gets past its arguments to its missing input (exit 66), never a usage error.
    @Test(arguments: commandNames)
    func everyDocumentedOptionParses(_ command: String) throws {
        let help = try BinaryRunner.run([command, "--help"]).stdout
        let usage = try #require(help.components(separatedBy: "\n\n").first)
        let options = Self.section("Options:", of: help).filter { !$0.label.hasPrefix("-h, ") }
        let arguments = Self.section("Arguments:", of: help).map { "missing-\($0.label)" }
        let required = options.filter { option in usage.contains(" \(option.label)") && !usage.contains("[\(option.label)]") }
        #expect(command == "backup" || !options.isEmpty)
        var base = arguments
        for option in required { base += Self.words(option.label) }
        for option in options {
            #expect(usage.contains(option.label), "\(command): \(option.label) is not in the usage line")
            let words = required.contains { $0.label == option.label } ? base : base + Self.words(option.label)
            let result = try BinaryRunner.run([command] + words)
            #expect(result.status == 66, "coreseed \(command) \(words.joined(separator: " ")): \(result.stderr)")
            #expect(result.stderr.hasPrefix("missing-"), "\(command) \(option.label): \(result.stderr)")
        }
    }

    /// The rows of a help section: each row's label (`--name VALUE`, `NAME`).
    static func section(_ title: String, of help: String) -> [(label: String, help: String)] {
        guard let body = help.components(separatedBy: "\n\(title)\n").dropFirst().first else { return [] }
        return body.components(separatedBy: "\n\n")[0].split(separator: "\n").map { line in
            let text = line.dropFirst(2)
            let label = text.components(separatedBy: "   ")[0]
            return (label, String(text.dropFirst(label.count)).trimmingCharacters(in: .whitespaces))
        }
    }

    /// An option's words with a sample value: `--name` for a flag; a count gets 1, a choice its first word,
    /// any other value `missing-VALUE`.
    static func words(_ label: String) -> [String] {
        let parts = label.split(separator: " ").map(String.init)
        guard parts.count == 2 else { return parts }
        let value = parts[1]
        if value == "N" || value == "SECONDS" { return [parts[0], "1"] }
        if value.contains("|") { return [parts[0], String(value.split(separator: "|")[0])] }
        return [parts[0], "missing-\(value)"]
    }
}
