/// SQL identifiers in SQL text: the one way names (tables, columns) are written into a statement,
/// where values would be bound but names cannot be.
enum SQLIdentifier {
    /// `identifier` in double quotes, embedded quotes doubled: any name a store holds reads as that
    /// name, never as SQL. (CoreSeed's own layout names are also validated: letters, digits, underscores.)
    static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `identifier` as Core Data's own SQL writes it: bare when it is a plain name (ASCII letters, digits
    /// and underscores, not starting with a digit, as every layout name is), quoted otherwise, so that
    /// a name that is not plain still reads as that name, never as SQL.
    static func plain(_ identifier: String) -> String {
        isPlain(identifier) ? identifier : quoted(identifier)
    }

    /// Letters, digits and underscore, not starting with a digit: a name SQL reads bare.
    static func isPlain(_ identifier: String) -> Bool {
        guard let first = identifier.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return identifier.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
        }
    }
}
