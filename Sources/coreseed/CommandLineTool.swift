import CoreSeed
import Foundation

/// Dispatches to commands and turns every error into a diagnostic and an exit status.
enum CommandLineTool {
    static var commands: [any Command.Type] {
        [
            BuildCommand.self,
            PreviewCommand.self,
            SchemaCommand.self,
            ModelCommand.self,
            HashesCommand.self,
            VerifyCommand.self,
            InspectCommand.self,
            ExportCommand.self,
            BackupCommand.self,
        ]
    }

    /// `coreseed --help`: what the tool does, its commands, its exit statuses.
    static var overview: String {
        var text = """
            coreseed: build Core Data SQLite stores from legacy data.

            Usage: coreseed <command> [arguments] [options]
                   coreseed help <command>      (the same as 'coreseed <command> --help')
                   coreseed --version

            Commands:

            """
        for command in commands {
            text += "  " + command.name.padding(toLength: 10, withPad: " ", startingAt: 0) + command.summary + "\n"
        }
        text += """

            Exit status: 0 done; 1 invalid data or a failed check; 64 usage error; 66 an input is missing
            or unreadable; 73 an output cannot be created; 74 output could not be written (a full disk, a
            closed pipe).

            Run 'coreseed help <command>' for a command's arguments, options and an example.
            """
        return text
    }

    /// `coreseed --version`: one line.
    static var versionLine: String { "coreseed \(CoreSeedInfo.version)" }

    /// Runs the command `words` name; a failed write to stdout ends it with one line on stderr, exit 74.
    static func run(_ words: [String]) -> ExitStatus {
        do {
            return try dispatch(words)
        } catch {
            Terminal.error(error.message)
            return .ioError
        }
    }

    private static func dispatch(_ words: [String]) throws(Terminal.WriteError) -> ExitStatus {
        guard let first = words.first else {
            Terminal.error(overview)
            return .usage
        }
        switch first {
        case "--help", "-h":
            try Terminal.out(overview)
            return .success
        case "--version":
            try Terminal.out(versionLine)
            return .success
        case "help":
            return try help(Array(words.dropFirst()))
        default:
            break
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            return unknownCommand(first)
        }
        let rest = Array(words.dropFirst())
        if (rest.firstIndex(of: "--").map { rest[..<$0] } ?? rest[...]).contains(where: { $0 == "--help" || $0 == "-h" }) {
            try Terminal.out(command.help)
            return .success
        }
        do {
            return try command.run(try Arguments(rest, for: command))
        } catch let error as Terminal.WriteError {
            throw error
        } catch let error as Arguments.UsageError {
            usageError(error.message, command: command)
            return .usage
        } catch let error as any Diagnosable {
            for line in error.diagnosticLines { Terminal.error(line) }
            return ExitStatus(error.kind)
        } catch {
            Terminal.error("error: \(FileError.words(error))")
            return .failure
        }
    }

    /// `coreseed help [COMMAND]`: the overview, or that command's help.
    private static func help(_ words: [String]) throws(Terminal.WriteError) -> ExitStatus {
        guard let name = words.first else {
            try Terminal.out(overview)
            return .success
        }
        guard let command = commands.first(where: { $0.name == name }) else { return unknownCommand(name) }
        guard words.count == 1 else {
            Terminal.error("error: unexpected argument '\(words[1])'")
            Terminal.error("Usage: coreseed help <command>")
            Terminal.error("see 'coreseed --help'")
            return .usage
        }
        try Terminal.out(command.help)
        return .success
    }

    /// A usage error: the message, the command's usage line(s), where its help is.
    private static func usageError(_ message: String, command: any Command.Type) {
        Terminal.error("error: \(message)")
        Terminal.error(command.usage)
        Terminal.error("see 'coreseed \(command.name) --help'")
    }

    /// A word that names no command: the message, the commands' names, where the overview is.
    private static func unknownCommand(_ word: String) -> ExitStatus {
        let what = word.hasPrefix("-") ? "unknown option \(word)" : "unknown command '\(word)'"
        Terminal.error("error: \(what)")
        Terminal.error("commands: " + (commands.map { $0.name } + ["help"]).joined(separator: ", "))
        Terminal.error("see 'coreseed --help'")
        return .usage
    }
}
