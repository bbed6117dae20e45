/// One `coreseed` sub-command.
protocol Command {
    /// The word after `coreseed`.
    static var name: String { get }
    /// One line for the command list.
    static var summary: String { get }
    /// The usage line(s) and an example, printed by `--help` and after a usage error.
    static var usage: String { get }
    /// Runs with the words after the command name.
    static func run(_ words: [String]) throws -> ExitStatus
}
