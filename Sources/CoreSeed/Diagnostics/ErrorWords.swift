extension FileError {
    /// Any error in words for a message: its own words when it has them (`SQLiteError`, a `Diagnosable`), else
    /// Foundation's localized description — never a Swift debug dump of its fields.
    public static func words(_ error: any Error) -> String {
        if let error = error as? FileError { return error.message }
        if let error = error as? SQLiteError { return error.description }
        if let error = error as? any Diagnosable, let first = error.diagnostics.first { return first.message }
        return error.localizedDescription
    }
}
