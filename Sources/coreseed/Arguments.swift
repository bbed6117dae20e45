import CoreSeed
/// A command's words, parsed by its declaration (``Command/arguments``, ``Command/options``): positional
/// arguments, `--flag`, and `--option VALUE` / `--option=VALUE`; `--` ends the options.
///
/// Every check that needs no file is made here, before the command runs: unknown options, missing
/// values, values not of the option's kind, missing or extra arguments, missing required options.
struct Arguments {
    private(set) var positionals: [String] = []
    private var values: [String: String] = [:]
    private var counts: [String: Int] = [:]
    private var flags: Set<String> = []
    private let declared: [String: CommandOption]

    /// A usage problem, printed with the command's usage line and exit code 64.
    struct UsageError: Error {
        let message: String
    }

    /// Parses `words` as `command` declares them.
    init(_ words: [String], for command: any Command.Type) throws(UsageError) {
        try self.init(words, arguments: command.arguments, options: command.options)
    }

    init(_ words: [String], arguments: [CommandArgument], options: [CommandOption]) throws(UsageError) {
        declared = Dictionary(options.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var index = 0
        var onlyPositionals = false
        while index < words.count {
            let word = words[index]
            index += 1
            if onlyPositionals || !word.hasPrefix("-") || word == "-" {
                positionals.append(word)
                continue
            }
            if word == "--" { onlyPositionals = true; continue }
            guard word.hasPrefix("--") else { throw UsageError(message: "unknown option \(word)") }
            var name = String(word.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let option = declared[name] else { throw UsageError(message: "unknown option --\(name)") }
            guard option.takesValue else {
                guard inlineValue == nil else { throw UsageError(message: "--\(name) takes no value") }
                flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < words.count else { throw UsageError(message: "--\(name) needs a value") }
                value = words[index]
                index += 1
            }
            try take(value, for: option)
        }
        let required = arguments.filter { !$0.isOptional }.count
        if positionals.count < required {
            throw UsageError(message: "missing \(arguments[positionals.count].name)")
        }
        if positionals.count > arguments.count {
            throw UsageError(message: "unexpected argument '\(positionals[arguments.count])'")
        }
        for option in options where option.isRequired && values[option.name] == nil {
            throw UsageError(message: "missing \(option.label)")
        }
    }

    private mutating func take(_ value: String, for option: CommandOption) throws(UsageError) {
        switch option.kind {
        case .flag:
            preconditionFailure("a flag takes no value")
        case .value:
            break
        case .count:
            if value == "all" {  // no limit
                counts[option.name] = Int.max
                break
            }
            guard let number = Int(value), number >= 0 else {
                throw UsageError(message: "--\(option.name) must be a non-negative integer, not '\(value)'")
            }
            counts[option.name] = number
        case .choice(let choices):
            guard choices.contains(value) else {
                let listed = choices.dropLast().joined(separator: ", ") + (choices.count > 1 ? " or " : "") + choices.last!
                throw UsageError(message: "--\(option.name) must be \(listed), not '\(value)'")
            }
        }
        values[option.name] = value
    }

    /// The value of a declared option that takes one, or nil when it was not given.
    func option(_ name: String) -> String? {
        precondition(declared[name]?.takesValue == true, "--\(name) is not a declared option with a value")
        return values[name]
    }

    /// Whether a declared flag was given.
    func flag(_ name: String) -> Bool {
        precondition(declared[name]?.kind == .flag, "--\(name) is not a declared flag")
        return flags.contains(name)
    }

    /// A declared ``CommandOption/Kind/count`` option's number, or `defaultValue` when it was not given.
    func count(_ name: String, default defaultValue: Int) -> Int {
        count(name) ?? defaultValue
    }

    /// `--timeout SECONDS` as a duration (the library's default when not given).
    var timeout: Duration {
        count("timeout").map { .seconds($0) } ?? StoreSnapshot.defaultTimeout
    }

    /// A declared ``CommandOption/Kind/count`` option's number, or nil when it was not given.
    func count(_ name: String) -> Int? {
        guard case .count = declared[name]?.kind else { preconditionFailure("--\(name) is not a declared count") }
        return counts[name]
    }
}
