import CoreSeed
import Foundation

/// Dispatches to commands and turns every error into a diagnostic and an exit status.
enum CommandLineTool {
    static var commands: [any Command.Type] {
        [
            BuildCommand.self,
            PreviewCommand.self,
            SchemaCommand.self,
            HashesCommand.self,
            VerifyCommand.self,
            InspectCommand.self,
            ExportCommand.self,
            BackupCommand.self,
        ]
    }

    static var overview: String {
        var text = "coreseed: build Core Data SQLite stores from legacy data.\n\nUsage: coreseed <command> [options]\n\nCommands:\n"
        for command in commands {
            text += "  " + command.name.padding(toLength: 10, withPad: " ", startingAt: 0) + command.summary + "\n"
        }
        text += "\nRun 'coreseed <command> --help' for a command's options."
        return text
    }

    static func run(_ words: [String]) -> ExitStatus {
        guard let first = words.first else {
            Terminal.error(overview)
            return .usage
        }
        if first == "--help" || first == "-h" || first == "help" {
            Terminal.out(overview)
            return .success
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            Terminal.error("error: unknown command '\(first)'")
            Terminal.error(overview)
            return .usage
        }
        let rest = Array(words.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            Terminal.out(command.help)
            return .success
        }
        do {
            return try command.run(try Arguments(rest, for: command))
        } catch let error as Arguments.UsageError {
            Terminal.error("error: \(error.message)")
            Terminal.error(command.usage)
            return .usage
        } catch let error as any Diagnosable {
            for line in error.diagnosticLines { Terminal.error(line) }
            return ExitStatus(error.kind)
        } catch {
            Terminal.error("error: \(error)")
            return .failure
        }
    }
}
