import Foundation

/// The YAML of a GitHub Actions workflow, read by a small parser of the block subset workflows use:
/// mappings, sequences (`- `, including `- key: value` items), plain and quoted scalars, flow
/// sequences of scalars (`[a, b]`), literal block scalars (`|`), comments. Anything else (tabs,
/// anchors, a line indented where no value can start) is an error naming its line, so that a
/// workflow this reads is one whose structure was understood line by line. No YAML library: the
/// project has no dependencies, and the tests need only a few keys.
indirect enum YAML: Equatable {
    case scalar(String)
    case sequence([YAML])
    case mapping([(key: String, value: YAML)])

    static func == (a: YAML, b: YAML) -> Bool {
        switch (a, b) {
        case (.scalar(let x), .scalar(let y)): return x == y
        case (.sequence(let x), .sequence(let y)): return x == y
        case (.mapping(let x), .mapping(let y)): return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    struct SyntaxError: Error, CustomStringConvertible {
        let line: Int
        let message: String
        var description: String { "line \(line): \(message)" }
    }

    subscript(key: String) -> YAML? {
        guard case .mapping(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    var string: String? {
        if case .scalar(let text) = self { return text }
        return nil
    }

    var items: [YAML] {
        if case .sequence(let items) = self { return items }
        return []
    }

    var members: [(key: String, value: YAML)] {
        if case .mapping(let members) = self { return members }
        return []
    }

    static func parse(_ text: String) throws -> YAML {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let tabbed = lines.firstIndex(where: { $0.prefix { $0 == " " || $0 == "\t" }.contains("\t") }) {
            throw SyntaxError(line: tabbed + 1, message: "a tab in the indentation")
        }
        var parser = Parser(lines: lines)
        guard let first = parser.nextSignificant() else { return .mapping([]) }
        let node = try parser.node(indent: first.indent)
        if let extra = parser.nextSignificant() { throw SyntaxError(line: extra.number, message: "unexpected indentation") }
        return node
    }

    private struct Parser {
        let lines: [String]
        var index = 0

        /// The next line that is neither blank nor a comment (moving past those), without consuming it.
        mutating func nextSignificant() -> (indent: Int, text: String, number: Int)? {
            while index < lines.count {
                let line = lines[index]
                let text = line.drop { $0 == " " }
                if text.isEmpty || text.hasPrefix("#") { index += 1; continue }
                return (line.count - text.count, String(text), index + 1)
            }
            return nil
        }

        mutating func node(indent: Int) throws -> YAML {
            guard let line = nextSignificant() else { return .scalar("") }
            return line.text == "-" || line.text.hasPrefix("- ") ? try sequence(indent: indent) : try mapping(indent: indent, first: nil)
        }

        /// A mapping at `indent`; `first` is a key line already cut from a sequence item (`- key: value`).
        mutating func mapping(indent: Int, first: String?) throws -> YAML {
            var members: [(key: String, value: YAML)] = []
            var pending = first
            while true {
                let text: String, number: Int
                if let line = pending {
                    (text, number) = (line, index + 1)
                    pending = nil
                } else {
                    guard let line = nextSignificant(), line.indent == indent, !line.text.hasPrefix("- ") else { break }
                    (text, number) = (line.text, line.number)
                }
                index += 1
                guard let colon = Self.keyColon(in: text) else { throw SyntaxError(line: number, message: "expected 'key: value', found '\(text)'") }
                let key = Self.unquoted(String(text[..<colon]))
                let rest = Self.withoutComment(String(text[text.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
                if rest == "|" || rest == "|-" {
                    members.append((key, .scalar(blockScalar(deeperThan: indent))))
                } else if !rest.isEmpty {
                    members.append((key, try Self.scalarOrFlow(rest, line: number)))
                } else if let next = nextSignificant(), next.indent > indent || (next.indent == indent && next.text.hasPrefix("- ")) {
                    members.append((key, try node(indent: next.indent)))
                } else {
                    members.append((key, .scalar("")))
                }
            }
            return .mapping(members)
        }

        mutating func sequence(indent: Int) throws -> YAML {
            var items: [YAML] = []
            while let line = nextSignificant(), line.indent == indent, line.text == "-" || line.text.hasPrefix("- ") {
                let item = String(line.text.dropFirst(2))
                if Self.keyColon(in: item) != nil {
                    items.append(try mapping(indent: indent + 2, first: item))
                } else {
                    index += 1
                    items.append(try Self.scalarOrFlow(Self.withoutComment(item), line: line.number))
                }
            }
            return .sequence(items)
        }

        /// The lines indented deeper than `indent`, their common indentation removed, blank lines kept.
        mutating func blockScalar(deeperThan indent: Int) -> String {
            var block: [String] = []
            var common: Int?
            while index < lines.count {
                let line = lines[index]
                let text = line.drop { $0 == " " }
                let depth = line.count - text.count
                if !text.isEmpty && depth <= indent { break }
                if !text.isEmpty { common = min(common ?? depth, depth) }
                block.append(line)
                index += 1
            }
            while block.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { block.removeLast() }
            return block.map { String($0.dropFirst(min(common ?? 0, $0.count))) }.joined(separator: "\n") + "\n"
        }

        /// The colon that ends a key: the first `:` followed by a space or the end, outside quotes and `${{ }}`.
        static func keyColon(in text: String) -> String.Index? {
            var quote: Character?, depth = 0, index = text.startIndex
            while index < text.endIndex {
                let character = text[index]
                if let open = quote {
                    if character == open { quote = nil }
                } else if character == "\"" || character == "'" {
                    if index == text.startIndex { quote = character }
                } else if character == "{" { depth += 1 } else if character == "}" { depth -= 1 } else if character == ":", depth == 0 {
                    let next = text.index(after: index)
                    if next == text.endIndex || text[next] == " " { return index }
                }
                index = text.index(after: index)
            }
            return nil
        }

        static func withoutComment(_ text: String) -> String {
            guard !text.hasPrefix("\""), !text.hasPrefix("'"), let hash = text.range(of: " #") else { return text }
            return String(text[..<hash.lowerBound]).trimmingCharacters(in: .whitespaces)
        }

        static func unquoted(_ text: String) -> String {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if trimmed.count >= 2, let first = trimmed.first, first == "\"" || first == "'", trimmed.last == first {
                return String(trimmed.dropFirst().dropLast())
            }
            return trimmed
        }

        static func scalarOrFlow(_ text: String, line: Int) throws -> YAML {
            if text.hasPrefix("&") || text.hasPrefix("*") { throw SyntaxError(line: line, message: "anchors and aliases are not read") }
            guard text.hasPrefix("[") else { return .scalar(unquoted(text)) }
            guard text.hasSuffix("]") else { throw SyntaxError(line: line, message: "a flow sequence that does not end on its line") }
            let inner = text.dropFirst().dropLast().trimmingCharacters(in: .whitespaces)
            return .sequence(inner.isEmpty ? [] : inner.split(separator: ",").map { .scalar(unquoted(String($0))) })
        }
    }
}
