/// Checks what Core Data would refuse and what the SQL layer relies on: names, references, inheritance.
enum ModelValidator {
    /// Letters, digits and underscore, not starting with a digit: the names Core Data's unquoted DDL can hold.
    static func isValidName(_ name: String) -> Bool { SQLIdentifier.isPlain(name) }

    /// Why `name` is not a valid name, as the end of a message: the first character that is not an ASCII
    /// letter, digit or underscore is named, so that `é` is not called "not a letter". Non-ASCII names
    /// are refused because the table and column names are the name upper-cased (`ZCAFÉ`?), and no
    /// evidence says how Core Data upper-cases beyond ASCII.
    static func nameRule(_ name: String) -> String {
        let rule = "must be ASCII letters, digits and underscores, not starting with a digit"
        if let first = name.first, first.isASCII, first.isNumber { return rule + " (it starts with '\(first)')" }
        guard let bad = name.first(where: { !($0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_")) }) else { return rule }
        let shown = bad == " " ? "a space" : "'\(bad)'"
        return rule + " (\(shown) is not\(bad.isLetter ? " an ASCII letter: CoreSeed names tables and columns in ASCII only" : " one"))"
    }

    static func validate(_ model: Model) throws(FileError) {
        var names = Set<String>()
        for entity in model.entities {
            func fail(_ line: Int, _ message: String) -> FileError {
                FileError(.unreadableInput, path: model.path, line: line > 0 ? line : nil, message: message)
            }
            guard isValidName(entity.name) else {
                throw fail(entity.line, "entity name '\(entity.name)' \(nameRule(entity.name))")
            }
            guard names.insert(entity.name).inserted else { throw fail(entity.line, "entity '\(entity.name)' is declared twice") }
            if let parent = entity.parentName, model.entity(named: parent) == nil {
                throw fail(entity.line, "entity '\(entity.name)' has unknown parentEntity '\(parent)'")
            }
            var propertyNames = Set<String>()
            for attribute in entity.attributes {
                guard isValidName(attribute.name) else {
                    throw fail(attribute.line, "attribute '\(entity.name).\(attribute.name)' \(nameRule(attribute.name))")
                }
                guard propertyNames.insert(attribute.name).inserted else {
                    throw fail(attribute.line, "property '\(entity.name).\(attribute.name)' is declared twice")
                }
                if attribute.type == .composite, let composite = attribute.compositeName, model.composites[composite] == nil {
                    throw fail(attribute.line, "attribute '\(entity.name).\(attribute.name)' uses unknown composite '\(composite)'")
                }
            }
            for relationship in entity.relationships {
                guard isValidName(relationship.name) else {
                    throw fail(relationship.line, "relationship '\(entity.name).\(relationship.name)' \(nameRule(relationship.name))")
                }
                guard propertyNames.insert(relationship.name).inserted else {
                    throw fail(relationship.line, "property '\(entity.name).\(relationship.name)' is declared twice")
                }
                guard model.entity(named: relationship.destinationEntity) != nil else {
                    throw fail(relationship.line, "relationship '\(entity.name).\(relationship.name)' has unknown destination '\(relationship.destinationEntity)'")
                }
            }
        }
        // Inheritance must be acyclic.
        for entity in model.entities {
            var seen: Set<String> = [entity.name]
            var parent = entity.parentName
            while let name = parent {
                guard seen.insert(name).inserted else {
                    throw FileError(.unreadableInput, path: model.path, line: entity.line, message: "entity '\(entity.name)' inherits from itself")
                }
                parent = model.entity(named: name)?.parentName
            }
        }
    }
}
