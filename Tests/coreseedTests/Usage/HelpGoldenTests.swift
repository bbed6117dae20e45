import Foundation
import Testing
import CoreSeedTestSupport

/// Every help text exactly as the binary prints it, in golden files (`Golden/help.txt`, and
/// `Golden/help-COMMAND.txt` for each command): a change to any help shows as a diff of that file.
/// `CORESEED_RECORD_GOLDEN=1` rewrites them, and fails (`assertGolden`).
@Suite struct HelpGoldenTests {
    /// The commands the top-level help lists, each with a golden file of its own.
    static let commands = ["build", "preview", "schema", "model", "hashes", "verify", "inspect", "export", "backup"]

    @Test func topLevelHelp() throws {
        let result = try BinaryRunner.run(["--help"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        assertGolden(result.stdout, file: "help.txt")
    }

    /// The golden files cover every command: the list above is the top-level help's "Commands:".
    @Test func everyCommandHasAGoldenHelp() throws {
        let help = try BinaryRunner.run(["--help"]).stdout
        let section = try #require(help.components(separatedBy: "\nCommands:\n").dropFirst().first)
        let listed = section.components(separatedBy: "\n\n")[0].split(separator: "\n")
            .map { $0.split(separator: " ", omittingEmptySubsequences: true)[0] }.map(String.init)
        #expect(listed == Self.commands)
    }

    @Test(arguments: commands) func commandHelp(command: String) throws {
        let result = try BinaryRunner.run([command, "--help"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        assertGolden(result.stdout, file: "help-\(command).txt")
    }
}
