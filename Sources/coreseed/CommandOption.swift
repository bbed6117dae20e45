/// One option of a command, declared once: ``Arguments`` parses by it and the help lists it, so the two
/// cannot drift apart.
struct CommandOption: Sendable {
    /// What follows the option's name.
    enum Kind: Sendable, Equatable {
        /// Nothing: the option is a flag.
        case flag
        /// Any text, shown in the help as this placeholder (`PATH`, `NAME`).
        case value(String)
        /// A non-negative integer, shown as this placeholder (`N`).
        case count(String)
        /// One of these words, shown as `a|b|c`.
        case choice([String])
    }

    /// The name without its leading `--`.
    let name: String
    let kind: Kind
    /// Whether the command needs it (shown without brackets in the usage line).
    let isRequired: Bool
    /// One line for the help: lower case, no full stop.
    let help: String

    static func flag(_ name: String, _ help: String) -> Self {
        Self(name: name, kind: .flag, isRequired: false, help: help)
    }

    static func value(_ name: String, _ placeholder: String, _ help: String, required: Bool = false) -> Self {
        Self(name: name, kind: .value(placeholder), isRequired: required, help: help)
    }

    static func count(_ name: String, _ placeholder: String, _ help: String) -> Self {
        Self(name: name, kind: .count(placeholder), isRequired: false, help: help)
    }

    static func choice(_ name: String, _ choices: [String], _ help: String) -> Self {
        Self(name: name, kind: .choice(choices), isRequired: false, help: help)
    }

    /// `--timeout SECONDS`, shared by every command that opens an existing store.
    static let timeout = count("timeout", "SECONDS", "wait this long for a store another process has locked (default 10)")

    var takesValue: Bool { kind != .flag }

    /// `--name` or `--name VALUE`, as the usage line and the help show it.
    var label: String {
        switch kind {
        case .flag: "--\(name)"
        case .value(let placeholder), .count(let placeholder): "--\(name) \(placeholder)"
        case .choice(let choices): "--\(name) \(choices.joined(separator: "|"))"
        }
    }
}

/// One positional argument of a command, declared once for the parser and the help.
struct CommandArgument: Sendable {
    /// The placeholder (`STORE`, `MODEL`).
    let name: String
    let isOptional: Bool
    /// One line for the help: lower case, no full stop.
    let help: String

    static func required(_ name: String, _ help: String) -> Self { Self(name: name, isOptional: false, help: help) }
    static func optional(_ name: String, _ help: String) -> Self { Self(name: name, isOptional: true, help: help) }
}
