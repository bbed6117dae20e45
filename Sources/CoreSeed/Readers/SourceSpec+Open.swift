extension SourceSpec {
    /// Opens the reader for this source. `directory` is the spec file's directory; a relative
    /// source path is taken from there and locations show the joined path (`Inputs/banklist.csv`).
    public func openReader(relativeTo directory: String) throws(ReaderError) -> any RecordReader {
        let file = Self.resolve(path, relativeTo: directory)
        switch self {
        case .sqlite(_, let selection, let maxRows):
            return try SQLiteRecordReader(path: file, selection: selection, maxRows: maxRows)
        case .csv(_, let options):
            return try CSVReader(path: file, options: options)
        case .xml(_, let records, let fields):
            return try XMLRecordReader(path: file, records: records, fields: fields)
        case .json(_, let records, let fields):
            return try JSONRecordReader(path: file, file: file, records: records, fields: fields)
        case .computed(let base, let fields, let filter):
            return try ComputedFieldsReader(base: try base.openReader(relativeTo: directory), fields: fields, filter: filter,
                                            file: file, directory: directory)
        }
    }

    /// `path` joined to `directory` unless it is absolute or the directory is the current one.
    static func resolve(_ path: String, relativeTo directory: String) -> String {
        if path.hasPrefix("/") || directory.isEmpty || directory == "." { return path }
        return directory.hasSuffix("/") ? directory + path : directory + "/" + path
    }
}
