/// A compiled field path: how many records up (`../`), then the record's position, its key, or steps
/// into its value.
struct JSONFieldPath: Sendable {
    enum Step: Sendable, Equatable {
        /// A member of an object.
        case key(String)
        /// An element of an array, 0-based (`tags[0]`).
        case index(Int)
        /// Every element of an array, each followed by the steps after it (`lines[].sku`).
        case each
    }

    enum Target: Sendable {
        case steps([Step])
        case position
        case key
    }

    var up = 0
    var target: Target

    init(steps: [Step]) {
        target = .steps(steps)
    }

    /// Compiles `text`; nil when it is not a path this reader takes.
    init?(_ text: String) {
        var rest = Substring(text)
        while rest.hasPrefix("../") {
            up += 1
            rest = rest.dropFirst(3)
        }
        switch rest {
        case "#": target = .position; return
        case "$key": target = .key; return
        case ".": target = .steps([]); return
        default: break
        }
        var steps: [Step] = []
        for part in rest.split(separator: ".", omittingEmptySubsequences: false) {
            var name = part
            var brackets: [Step] = []
            while name.hasSuffix("]"), let open = name.lastIndex(of: "[") {
                let inside = name[name.index(after: open)..<name.index(before: name.endIndex)]
                if inside.isEmpty {
                    brackets.insert(.each, at: 0)
                } else if let index = Int(inside), index >= 0 {
                    brackets.insert(.index(index), at: 0)
                } else {
                    return nil
                }
                name = name[..<open]
            }
            guard !name.isEmpty || !brackets.isEmpty, !name.contains("["), !name.contains("]") else { return nil }
            if !name.isEmpty { steps.append(.key(String(name))) }
            steps += brackets
        }
        guard !steps.isEmpty else { return nil }
        target = .steps(steps)
    }

    /// The field's value in `record` (`levels`: the enclosing records' kept members, key and position,
    /// the record's own last) and where it is, when it comes from the record's text.
    func value(in record: JSONNode, levels: ArraySlice<(members: [String: JSONNode], key: String?, position: Int)>,
               name: String, file: String) throws(ReaderError) -> (FieldValue, (line: Int, column: Int)?) {
        let levelIndex = levels.endIndex - 1 - up
        guard levelIndex >= levels.startIndex else { return (.null, nil) }
        let level = levels[levelIndex]
        switch target {
        case .position: return (.integer(Int64(level.position)), nil)
        case .key: return (level.key.map(FieldValue.text) ?? .null, nil)
        case .steps(let steps):
            if up == 0 { return try Self.evaluate(record, steps[...], name: name, file: file) }
            guard case .key(let first)? = steps.first, let node = level.members[first] else { return (.null, nil) }
            return try Self.evaluate(node, steps.dropFirst(), name: name, file: file)
        }
    }

    static func evaluate(_ node: JSONNode, _ steps: ArraySlice<Step>, name: String,
                                 file: String) throws(ReaderError) -> (FieldValue, (line: Int, column: Int)?) {
        guard let step = steps.first else { return (try scalar(node, name: name, file: file), (node.line, node.column)) }
        switch (step, node.value) {
        case (.key(let key), .object(let members)):
            guard let member = members.first(where: { $0.key == key }) else { return (.null, nil) }
            return try evaluate(member.node, steps.dropFirst(), name: name, file: file)
        case (.index(let index), .array(let elements)):
            guard index < elements.count else { return (.null, nil) }
            return try evaluate(elements[index], steps.dropFirst(), name: name, file: file)
        case (.each, .array(let elements)):
            var values: [FieldValue] = []
            for element in elements {
                let (value, _) = try evaluate(element, steps.dropFirst(), name: name, file: file)
                if case .list(let inner) = value { values += inner } else if value != .null { values.append(value) }
            }
            return (.list(values), (node.line, node.column))
        default:
            return (.null, nil)
        }
    }

    /// A leaf: text, an integer, a list of scalars; an object is an error (name a key inside it).
    static func scalar(_ node: JSONNode, name: String, file: String, inArray: Bool = false) throws(ReaderError) -> FieldValue {
        switch node.value {
        case .null: return .null
        case .boolean(let flag): return .text(flag ? "true" : "false")
        case .string(let text): return .text(text)
        case .number(let text):
            if !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }), let number = Int64(text) { return .integer(number) }
            return .text(text)
        case .array(let elements):
            return .list(try elements.map { element throws(ReaderError) in try scalar(element, name: name, file: file, inArray: true) })
        case .object:
            throw ReaderError(inArray ? .jsonObjectsInArray(field: name) : .jsonObjectValue(field: name),
                              at: SourceLocation(file: file, line: node.line, column: node.column))
        }
    }
}
