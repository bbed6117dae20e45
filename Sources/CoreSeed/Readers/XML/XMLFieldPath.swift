/// A compiled XML field path, relative to the record element.
///
/// - `"name"`, `"gsm/apn"`: the text of that descendant element (all its text, markup removed)
/// - `"@code"`, `"gsm/network-id/@mcc"`: an attribute of the record or of a descendant
/// - `"."`: the record element's own text (its direct text children)
/// - `"../@code"`, `"../../@id"`: an attribute of an ancestor (only attributes: the reader streams,
///   and an ancestor's later children are not read yet)
enum XMLFieldPath: Equatable {
    case text(elements: [String])
    case attribute(elements: [String], name: String)
    case ownText
    case ancestorAttribute(levels: Int, name: String)

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
            guard levels == 0, Self.isName(last) else { return nil }
            self = .text(elements: Array(elements) + [last])
        }
    }

    private static func isName(_ text: String) -> Bool {
        !text.isEmpty && text != "." && text != ".." && !text.contains(where: { "@*[]()=\"' ".contains($0) })
    }
}
