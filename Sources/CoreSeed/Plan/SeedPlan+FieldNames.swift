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

    /// The userInfo keys importers use to name an attribute's field, in the order tried: MagicalRecord's
    /// `mappedKeyName` and its numbered fallbacks, Groot's `JSONKeyPath`, Sync's `sync.remoteKey` and
    /// its older `hyper.remoteKey`.
    static let fieldAnnotations = ["mappedKeyName"] + (1...9).map { "mappedKeyName.\($0)" } + ["JSONKeyPath", "sync.remoteKey", "hyper.remoteKey"]

    /// The field feeding `attribute` and how it was found (what `build --explain` shows): the spec's,
    /// else the first userInfo annotation (``fieldAnnotations``) naming an existing field, else the
    /// field named exactly as the attribute, else the one field whose folded
    /// name matches. Two fields that fold to the attribute's name, neither of them exactly it, are an
    /// error listing both (a header `State,state` feeds `state` from `state`, `STATE,State` from neither).
    func fieldSource(for attribute: Attribute, spec attributeSpec: AttributeSpec?, names: [String],
                     context: String) throws -> (field: String, origin: String)? {
        if let field = attributeSpec?.field { return (field, "the spec") }
        if attributeSpec?.value != nil { return nil }
        let found = try matchedField(for: attribute, names: names, context: context)
        // Groot converts such a value with app code before storing it: CoreSeed cannot run that.
        if let found, let transformer = attribute.userInfo["JSONTransformerName"] {
            throw fail("\(context): '\(attribute.name)' has Groot's userInfo JSONTransformerName '\(transformer)', a value transformer in the app's code, which CoreSeed cannot run on field '\(found.field)': give the attribute's stored values with \"field\" (or compute them with {\"sql\": …}) in the spec")
        }
        return found
    }

    private func matchedField(for attribute: Attribute, names: [String], context: String) throws -> (field: String, origin: String)? {
        for key in PlanResolver.fieldAnnotations {
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
