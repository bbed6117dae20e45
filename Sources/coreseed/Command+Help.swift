/// The help of a command, made from its declaration: usage line, discussion, arguments, options,
/// examples.
extension Command {
    /// Columns the usage line wraps at.
    static var helpWidth: Int { 100 }

    /// `Usage: coreseed NAME ARG [--required VALUE] [--option VALUE] …`, wrapped under its first
    /// argument: printed at the head of the help and after a usage error.
    static var usage: String {
        var words = arguments.map { $0.isOptional ? "[\($0.name)]" : $0.name }
        words += options.filter(\.isRequired).map(\.label)
        words += options.filter { !$0.isRequired }.map { "[\($0.label)]" }
        let head = "Usage: coreseed \(name)"
        let indent = String(repeating: " ", count: head.count + 1)
        var lines: [String] = [], line = head
        for word in words {
            if line.count + 1 + word.count > helpWidth && line.count > indent.count {
                lines.append(line)
                line = indent + word
            } else {
                line += " " + word
            }
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    /// The whole help, as `coreseed NAME --help` and `coreseed help NAME` print it.
    static var help: String {
        let helpOption = (label: "-h, --help", text: "show this help")
        let labels = arguments.map(\.name) + options.map(\.label) + [helpOption.label]
        let column = labels.map(\.count).max()! + 3
        func row(_ label: String, _ text: String) -> String {
            "  " + label + String(repeating: " ", count: column - label.count) + text
        }
        var sections = [usage, discussion]
        if !arguments.isEmpty {
            sections.append((["Arguments:"] + arguments.map { row($0.name, $0.help) }).joined(separator: "\n"))
        }
        sections.append((["Options:"] + options.map { row($0.label, $0.help) } + [row(helpOption.label, helpOption.text)])
            .joined(separator: "\n"))
        sections.append(([examples.count == 1 ? "Example:" : "Examples:"] + examples.map { "  " + $0 }).joined(separator: "\n"))
        return sections.joined(separator: "\n\n")
    }
}
