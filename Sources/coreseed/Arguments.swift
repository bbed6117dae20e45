/// A small command-line parser: positional arguments, `--flag`, and `--option VALUE` / `--option=VALUE`.
struct Arguments {
    private(set) var positionals: [String] = []
    private var options: [String: String] = [:]
    private var flags: Set<String> = []

    /// A usage problem, printed with the command's usage line and exit code 64.
    struct UsageError: Error {
        let message: String
    }

    /// Parses `words` knowing which names take a value and which are flags; anything else is an error.
    init(_ words: [String], options valued: Set<String>, flags known: Set<String>) throws(UsageError) {
        var index = 0
        var onlyPositionals = false
        while index < words.count {
            let word = words[index]
            index += 1
            if onlyPositionals || !word.hasPrefix("--") || word == "-" {
                positionals.append(word)
                continue
            }
            if word == "--" { onlyPositionals = true; continue }
            var name = String(word.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if valued.contains(name) {
                if let inlineValue {
                    options[name] = inlineValue
                } else {
                    guard index < words.count else { throw UsageError(message: "option --\(name) needs a value") }
                    options[name] = words[index]
                    index += 1
                }
            } else if known.contains(name) {
                guard inlineValue == nil else { throw UsageError(message: "flag --\(name) takes no value") }
                flags.insert(name)
            } else {
                throw UsageError(message: "unknown option --\(name)")
            }
        }
    }

    func option(_ name: String) -> String? { options[name] }
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// An integer option, or `defaultValue` when absent.
    func integer(_ name: String, default defaultValue: Int) throws(UsageError) -> Int {
        guard let text = options[name] else { return defaultValue }
        guard let value = Int(text), value >= 0 else {
            throw UsageError(message: "option --\(name) needs a non-negative integer, got '\(text)'")
        }
        return value
    }

    /// Exactly `count` positionals, else a usage error naming what is missing.
    func requirePositionals(_ names: [String], optional: Int = 0) throws(UsageError) {
        if positionals.count < names.count - optional {
            throw UsageError(message: "missing \(names[positionals.count])")
        }
        if positionals.count > names.count {
            throw UsageError(message: "unexpected argument '\(positionals[names.count])'")
        }
    }
}
