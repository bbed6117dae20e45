/// SQL identifiers in SQL text: the one way names (tables, columns) are written into a statement,
/// where values would be bound but names cannot be.
enum SQLIdentifier {
    /// `identifier` in double quotes, embedded quotes doubled: any name a store holds reads as that
    /// name, never as SQL. (CoreSeed's own layout names are also validated: letters, digits, underscores.)
    static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
