/// One `coreseed` sub-command: what it takes, declared once (the parser and the help both read it),
/// and what it does.
protocol Command {
    /// The word after `coreseed`.
    static var name: String { get }
    /// One line for the command list: an imperative, lower case, no full stop.
    static var summary: String { get }
    /// Its positional arguments, in order.
    static var arguments: [CommandArgument] { get }
    /// Its options (`--help` is every command's and is not listed here).
    static var options: [CommandOption] { get }
    /// What it does and what it prints: paragraphs of sentences, lines of at most 100 columns.
    static var discussion: String { get }
    /// Whole command lines, each one a real use.
    static var examples: [String] { get }
    /// Runs with its words parsed.
    static func run(_ arguments: Arguments) throws -> ExitStatus
}
