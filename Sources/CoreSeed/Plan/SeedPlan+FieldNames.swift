/// Which source field feeds an attribute, and where a named field is.
extension PlanResolver {
    func fieldIndex(_ field: String, in names: [String], source: String, context: String) throws -> Int {
        guard let index = names.firstIndex(of: field) else {
            if case .json(let path, _, nil)? = spec.sources[source] {
                throw fail("\(context): no record of \(spec.resolve(path)) has the key '\(field)'\(Suggestion.hint(for: field, in: names)) (keys found: \(names.joined(separator: ", ")))")
            }
            throw fail("\(context): source '\(source)' has no field '\(field)'\(Suggestion.hint(for: field, in: names)) (fields: \(names.joined(separator: ", ")))")
        }
        return index
    }

    /// The field feeding `attribute` and how it was found (what `build --explain` shows): the spec's,
    /// else a userInfo annotation (MagicalRecord `mappedKeyName`, Groot `JSONKeyPath`) naming an
    /// existing field, else the field named exactly as the attribute, else the one field whose folded
    /// name matches. Two fields that fold to the attribute's name, neither of them exactly it, are an
    /// error listing both (a header `State,state` feeds `state` from `state`, `STATE,State` from neither).
    func fieldSource(for attribute: Attribute, spec attributeSpec: AttributeSpec?, names: [String],
                     context: String) throws -> (field: String, origin: String)? {
        if let field = attributeSpec?.field { return (field, "the spec") }
        if attributeSpec?.value != nil { return nil }
        for key in ["mappedKeyName", "JSONKeyPath"] {
            if let field = attribute.userInfo[key], names.contains(field) { return (field, "userInfo \(key)") }
        }
        if names.contains(attribute.name) { return (attribute.name, "same name") }
        let folded = ASCII.foldedName(attribute.name)
        let matches = names.filter { ASCII.foldedName($0) == folded }
        if matches.count > 1 {
            let listed = matches.map { "'\($0)'" }.joined(separator: ", ")
            throw fail("\(context): fields \(listed) all match attribute '\(attribute.name)' once case and separators are folded, and none is named '\(attribute.name)' exactly: say which one feeds it with \"field\"")
        }
        return matches.first.map { ($0, "name match") }
    }
}
