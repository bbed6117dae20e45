/// A compiled XML field path, relative to the record element.
///
/// - `"name"`, `"gsm/apn"`: the text of that descendant element (all its text, markup removed)
/// - `"@code"`, `"gsm/network-id/@mcc"`: an attribute of the record or of a descendant
/// - `"."`: the record element's own text (its direct text children)
/// - `"../@code"`, `"../../@id"`: an attribute of an ancestor
/// - `"../name"`, `"../../name"`: the text of an ancestor's child element that comes before the
///   record (the reader streams: an ancestor's later children are not read yet)
enum XMLFieldPath: Equatable {
    case text(elements: [String])
    case attribute(elements: [String], name: String)
    case ownText
    case ancestorAttribute(levels: Int, name: String)
    case ancestorText(levels: Int, element: String)
    /// `#`, `../#`: the 1-based position of the record (or an ancestor) among the elements of the same
    /// path, in document order — a key for data that has none.
    case ordinal(levels: Int)

    /// Splits a trailing `[n]` (1-based) off `path`: the nth of a repeated value instead of a list.
    static func splitIndex(_ path: String) -> (path: String, index: Int?)? {
        guard path.hasSuffix("]"), let open = path.lastIndex(of: "[") else { return (path, nil) }
        guard let index = Int(path[path.index(after: open)..<path.index(before: path.endIndex)]), index >= 1 else { return nil }
        return (String(path[..<open]), index)
    }

    /// Parses `path`, or nil when it is not one of the supported shapes.
    init?(_ path: String) {
        if path == "." {
            self = .ownText
            return
        }
        var segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        var levels = 0
        while segments.first == ".." {
            levels += 1
            segments.removeFirst()
        }
        guard let last = segments.last else { return nil }
        if last == "#" {
            guard segments.count == 1 else { return nil }
            self = .ordinal(levels: levels)
            return
        }
        let elements = segments.dropLast()
        guard elements.allSatisfy(Self.isName) else { return nil }
        if last.hasPrefix("@") {
            let name = String(last.dropFirst())
            guard Self.isName(name) else { return nil }
            if levels > 0 {
                guard elements.isEmpty else { return nil }
                self = .ancestorAttribute(levels: levels, name: name)
            } else {
                self = .attribute(elements: Array(elements), name: name)
            }
        } else {
            guard Self.isName(last) else { return nil }
            if levels > 0 {
                guard elements.isEmpty else { return nil }
                self = .ancestorText(levels: levels, element: last)
            } else {
                self = .text(elements: Array(elements) + [last])
            }
        }
    }

    private static func isName(_ text: String) -> Bool {
        !text.isEmpty && text != "." && text != ".." && !text.contains(where: { "@*[]()=\"' ".contains($0) })
    }
}
