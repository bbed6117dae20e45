import Foundation

/// Parses one `.xcdatamodel/contents` file into a `Model`.
///
/// Read with libxml2's SAX2 parser as every XML input is (``XMLElementParser``): no network, no DTD
/// loaded, no entity substituted, and a DOCTYPE that declares entities refused; processing
/// instructions and comments are skipped. Names are validated the way Core Data's SQL layer needs
/// them (letters, digits, underscore) before anything reaches SQL text.
enum ModelParser {
    static func parse(contentsOf path: String, versionName: String) throws(FileError) -> Model {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FileError(.unreadableInput, path: path, message: "cannot read the model file")
        }
        return try parse(data: data, path: path, versionName: versionName)
    }

    static func parse(data: Data, path: String, versionName: String) throws(FileError) -> Model {
        // Checked before parsing, to say so with its line (libxml2 would stop at the first such byte
        // with its own words). Xcode writes models in UTF-8; a UTF-16 file (with its BOM) is left to the parser.
        if !(data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF])), let line = firstInvalidUTF8Line(data) {
            throw FileError(.unreadableInput, path: path, line: line,
                            message: "not a valid model file: the text is not valid UTF-8 (Xcode writes models in UTF-8)")
        }
        let builder = ModelBuilder(path: path, versionName: versionName)
        let problem = XMLElementParser.parse([UInt8](data), handler: builder)
        if let error = builder.error { throw error }
        switch problem {
        case .malformed(let code, let line)?:
            throw FileError(.unreadableInput, path: path, line: line, message: "not a valid model file: \(ModelParser.words(forCode: code))")
        case .entityDeclared(let line)?:
            throw FileError(.unreadableInput, path: path, line: line,
                            message: "not a valid model file: its DOCTYPE declares an entity, which Xcode never writes and CoreSeed never reads; remove the DOCTYPE")
        case nil:
            break
        }
        guard let model = builder.model else {
            throw FileError(.unreadableInput, path: path, line: 1, message: "no <model> element: this is not a Core Data model")
        }
        try ModelValidator.validate(model)
        return model
    }

    /// libxml2's error code (`xmlParserErrors` in xmlerror.h) in words ("the document ends before
    /// its elements are closed", not "error 5").
    static func words(forCode code: Int) -> String {
        let words: [Int: String] = [
            4: "the file is empty", 5: "the document ends before its elements are closed",
            9: "a character XML does not allow", 26: "an entity that is not declared",
            38: "'<' inside an attribute value", 39: "an attribute value without quotes",
            41: "an attribute without a value", 42: "an attribute given twice",
            68: "a name is missing", 73: "'>' is missing", 76: "an end tag does not match its start tag",
            77: "an element is not finished", 85: "elements are not nested properly",
            86: "extra content after the document's end", 89: "an entity refers to itself",
        ]
        return words[code] ?? "malformed XML (libxml2 error \(code))"
    }
}

/// The 1-based line of the first byte sequence that is not valid UTF-8, or nil when all of it is.
private func firstInvalidUTF8Line(_ data: Data) -> Int? {
    var line = 1
    var iterator = data.makeIterator()
    var decoder = UTF8()
    while true {
        switch decoder.decode(&iterator) {
        case .scalarValue(let scalar): if scalar == "\n" { line += 1 }
        case .emptyInput: return nil
        case .error: return line
        }
    }
}
