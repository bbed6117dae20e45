import Foundation
import Testing
import CoreSeed
import CoreSeedTestSupport

/// The catalogue of bad inputs (issue 16): every kind of mistake a user makes in a spec, a model, a
/// source, a command line or a store path, each with the exact message and exit status it must give.
/// Every case starts from one small library (a model, two CSV files, a spec, a plain SQLite database);
/// `before` runs first (with the good files), then `files` replaces some of them.
@Suite struct BadInputCatalogueTests {
    struct BadInput: CustomTestStringConvertible, Sendable {
        let name: String
        let files: [String: String]
        let before: [[String]]
        let args: [String]
        let status: Int32
        let stderr: String
        init(_ name: String, files: [String: String], before: [[String]], args: [String], status: Int32, stderr: String) {
            (self.name, self.files, self.before, self.args, self.status, self.stderr) = (name, files, before, args, status, stderr)
        }
        var testDescription: String { name }
    }

    static let model = "<entity name=\"Author\"><attribute name=\"name\" attributeType=\"String\"/><relationship name=\"books\" optional=\"YES\" toMany=\"YES\" deletionRule=\"Nullify\" destinationEntity=\"Book\" inverseName=\"author\" inverseEntity=\"Book\"/></entity>\n<entity name=\"Book\"><attribute name=\"isbn\" attributeType=\"Integer 64\"/><attribute name=\"title\" attributeType=\"String\"/><attribute name=\"pages\" optional=\"YES\" attributeType=\"Integer 16\"/><attribute name=\"published\" optional=\"YES\" attributeType=\"Date\"/><attribute name=\"updated\" optional=\"YES\" attributeType=\"Date\"/><attribute name=\"price\" optional=\"YES\" attributeType=\"Decimal\"/><attribute name=\"code\" optional=\"YES\" attributeType=\"UUID\"/><attribute name=\"link\" optional=\"YES\" attributeType=\"URI\"/><attribute name=\"inPrint\" optional=\"YES\" attributeType=\"Boolean\"/><relationship name=\"author\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"Author\" inverseName=\"books\" inverseEntity=\"Author\"/></entity>"
    static let books = "isbn,title,pages,published,price,code,link,inPrint,author\n1,Alpha,100,2001-02-03,9.99,6B29FC40-CA47-1067-B31D-00DD010662DA,https://example.com/a,true,Ann\n"
    static let authors = "name\nAnn\n"
    static let spec = "{ \"model\": \"Library.xcdatamodeld\", \"output\": \"Library.sqlite\",\n  \"sources\": { \"books\": { \"csv\": \"books.csv\" }, \"authors\": { \"csv\": \"authors.csv\" } },\n  \"entities\": { \"Author\": { \"from\": \"authors\", \"key\": \"name\" },\n                \"Book\": { \"from\": \"books\", \"key\": \"isbn\", \"attributes\": { \"published\": { \"field\": \"published\", \"date\": \"yyyy-MM-dd\" } },\n                          \"relationships\": { \"author\": { \"key\": \"author\" } } } } }\n"

    /// Writes `text` to `name` in `scratch`; `<0xFF>` stands for the byte 0xFF (invalid UTF-8).
    static func put(_ scratch: Scratch, _ name: String, _ text: String) throws {
        var bytes: [UInt8] = []
        var rest = Substring(text)
        while let range = rest.range(of: "<0xFF>") {
            bytes += Array(rest[..<range.lowerBound].utf8) + [0xFF]
            rest = rest[range.upperBound...]
        }
        bytes += Array(rest.utf8)
        let url = scratch.url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    static let cases: [BadInput] = [
        BadInput("specSyntaxError", files: ["spec.json": "{ \"model\": \"Library.xcdatamodeld\", \"output\": \"Library.sqlite\"\n  \"sources\": { \"books\": { \"csv\": \"books.csv\" }, \"authors\": { \"csv\": \"authors.csv\" } },\n  \"entities\": { \"Author\": { \"from\": \"authors\", \"key\": \"name\" },\n                \"Book\": { \"from\": \"books\", \"key\": \"isbn\", \"attributes\": { \"published\": { \"field\": \"published\", \"date\": \"yyyy-MM-dd\" } },\n                          \"relationships\": { \"author\": { \"key\": \"author\" } } } } }\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "spec.json:2:3: error: expected ',' or '}' after the value of 'output', found '\"'\n"),
        BadInput("specDuplicateKey", files: ["spec.json": "{ \"model\": \"Library.xcdatamodeld\", \"output\": \"Library.sqlite\", \"output\": \"Other.sqlite\",\n  \"sources\": { \"books\": { \"csv\": \"books.csv\" }, \"authors\": { \"csv\": \"authors.csv\" } },\n  \"entities\": { \"Author\": { \"from\": \"authors\", \"key\": \"name\" },\n                \"Book\": { \"from\": \"books\", \"key\": \"isbn\", \"attributes\": { \"published\": { \"field\": \"published\", \"date\": \"yyyy-MM-dd\" } },\n                          \"relationships\": { \"author\": { \"key\": \"author\" } } } } }\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "spec.json:1:64: error: key 'output' is given twice in one object (first at line 1, column 36); keep one\n"),
        BadInput("specTopLevelTypo", files: ["spec.json": "{ \"model\": \"Library.xcdatamodeld\", \"output\": \"Library.sqlite\",\n  \"sorces\": {}, \"sources\": { \"books\": { \"csv\": \"books.csv\" }, \"authors\": { \"csv\": \"authors.csv\" } },\n  \"entities\": { \"Author\": { \"from\": \"authors\", \"key\": \"name\" },\n                \"Book\": { \"from\": \"books\", \"key\": \"isbn\", \"attributes\": { \"published\": { \"field\": \"published\", \"date\": \"yyyy-MM-dd\" } },\n                          \"relationships\": { \"author\": { \"key\": \"author\" } } } } }\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "spec.json: error: at sorces: unknown key 'sorces' in the spec (did you mean 'sources'?) (known: model, modelVersion, configuration, output, mode, frameworkVersion, timeZone, pivot, storeUUID, seedVersion, sources, entities, onBlank, metadata, externalAbove, historyTracking)\n"),
        BadInput("specEntityTypo", files: ["spec.json": "{ \"model\": \"Library.xcdatamodeld\", \"output\": \"Library.sqlite\",\n  \"sources\": { \"books\": { \"csv\": \"books.csv\" }, \"authors\": { \"csv\": \"authors.csv\" } },\n  \"entities\": { \"Auther\": { \"from\": \"authors\", \"key\": \"name\" },\n                \"Book\": { \"from\": \"books\", \"key\": \"isbn\", \"attributes\": { \"published\": { \"field\": \"published\", \"date\": \"yyyy-MM-dd\" } },\n                          \"relationships\": { \"author\": { \"key\": \"author\" } } } } }\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "spec.json: error: entities.Auther: the model has no entity 'Auther' (did you mean 'Author'?)\n"),
        BadInput("specAttributeTypo", files: ["spec.json": "{ \"model\": \"Library.xcdatamodeld\", \"output\": \"Library.sqlite\",\n  \"sources\": { \"books\": { \"csv\": \"books.csv\" }, \"authors\": { \"csv\": \"authors.csv\" } },\n  \"entities\": { \"Author\": { \"from\": \"authors\", \"key\": \"name\" },\n                \"Book\": { \"from\": \"books\", \"key\": \"isbn\", \"attributes\": { \"publishd\": { \"field\": \"published\", \"date\": \"yyyy-MM-dd\" } },\n                          \"relationships\": { \"author\": { \"key\": \"author\" } } } } }\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "spec.json: error: entities.Book.attributes: 'Book' has no stored attribute 'publishd' (did you mean 'published'?)\n"),
        BadInput("specRelationshipUnderAttributes", files: ["spec.json": "{ \"model\": \"Library.xcdatamodeld\", \"output\": \"Library.sqlite\",\n  \"sources\": { \"books\": { \"csv\": \"books.csv\" }, \"authors\": { \"csv\": \"authors.csv\" } },\n  \"entities\": { \"Author\": { \"from\": \"authors\", \"key\": \"name\" },\n                \"Book\": { \"from\": \"books\", \"key\": \"isbn\", \"attributes\": { \"author\": { \"field\": \"author\" }, \"published\": { \"field\": \"published\", \"date\": \"yyyy-MM-dd\" } },\n                          \"relationships\": { \"author\": { \"key\": \"author\" } } } } }\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "spec.json: error: entities.Book.attributes: 'author' is a relationship of 'Book', not an attribute; map it under \"relationships\" with its \"key\"\n"),
        BadInput("specNotAnObject", files: ["spec.json": "[1, 2]\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "spec.json: error: expected an object ({ … }), found an array\n"),
        BadInput("specEmpty", files: ["spec.json": ""],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "spec.json:1:1: error: a value is missing at the end of the file\n"),
        BadInput("specInvalidUTF8", files: ["spec.json": "{ \"model\": \"Lib<0xFF>rary\" }\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "spec.json:1:16: error: invalid UTF-8 byte 0xFF: a spec is UTF-8 text\n"),
        BadInput("specMissingSources", files: ["spec.json": "{ \"model\": \"Library.xcdatamodeld\", \"output\": \"Library.sqlite\", \"entities\": {} }\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "spec.json: error: missing key 'sources'\n"),
        BadInput("specMissingFile", files: [:],
                 before: [], args: ["build", "nothere.json"],
                 status: 66, stderr: "nothere.json: error: cannot read the spec file\n"),
        BadInput("modelMissing", files: ["spec.json": "{ \"model\": \"Missing.xcdatamodeld\", \"output\": \"Library.sqlite\",\n  \"sources\": { \"books\": { \"csv\": \"books.csv\" }, \"authors\": { \"csv\": \"authors.csv\" } },\n  \"entities\": { \"Author\": { \"from\": \"authors\", \"key\": \"name\" },\n                \"Book\": { \"from\": \"books\", \"key\": \"isbn\", \"attributes\": { \"published\": { \"field\": \"published\", \"date\": \"yyyy-MM-dd\" } },\n                          \"relationships\": { \"author\": { \"key\": \"author\" } } } } }\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 66, stderr: "Missing.xcdatamodeld: error: no model at this path\n"),
        BadInput("modelVersionUnknown", files: ["spec.json": "{ \"model\": \"Library.xcdatamodeld\", \"output\": \"Library.sqlite\", \"modelVersion\": \"Library 9\",\n  \"sources\": { \"books\": { \"csv\": \"books.csv\" }, \"authors\": { \"csv\": \"authors.csv\" } },\n  \"entities\": { \"Author\": { \"from\": \"authors\", \"key\": \"name\" },\n                \"Book\": { \"from\": \"books\", \"key\": \"isbn\", \"attributes\": { \"published\": { \"field\": \"published\", \"date\": \"yyyy-MM-dd\" } },\n                          \"relationships\": { \"author\": { \"key\": \"author\" } } } } }\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 66, stderr: "Library.xcdatamodeld: error: no model version 'Library 9' (versions: Library)\n"),
        BadInput("frameworkVersionNegative", files: ["spec.json": "{ \"model\": \"Library.xcdatamodeld\", \"output\": \"Library.sqlite\", \"frameworkVersion\": -5,\n  \"sources\": { \"books\": { \"csv\": \"books.csv\" }, \"authors\": { \"csv\": \"authors.csv\" } },\n  \"entities\": { \"Author\": { \"from\": \"authors\", \"key\": \"name\" },\n                \"Book\": { \"from\": \"books\", \"key\": \"isbn\", \"attributes\": { \"published\": { \"field\": \"published\", \"date\": \"yyyy-MM-dd\" } },\n                          \"relationships\": { \"author\": { \"key\": \"author\" } } } } }\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "spec.json: error: at frameworkVersion: -5 is not a Core Data framework version (NSPersistenceFrameworkVersion, 241 to 1518 in real stores); leave it out for the newest\n"),
        BadInput("storeUUIDMalformed", files: ["spec.json": "{ \"model\": \"Library.xcdatamodeld\", \"output\": \"Library.sqlite\", \"storeUUID\": \"abc\",\n  \"sources\": { \"books\": { \"csv\": \"books.csv\" }, \"authors\": { \"csv\": \"authors.csv\" } },\n  \"entities\": { \"Author\": { \"from\": \"authors\", \"key\": \"name\" },\n                \"Book\": { \"from\": \"books\", \"key\": \"isbn\", \"attributes\": { \"published\": { \"field\": \"published\", \"date\": \"yyyy-MM-dd\" } },\n                          \"relationships\": { \"author\": { \"key\": \"author\" } } } } }\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "spec.json: error: at storeUUID: \"abc\" is not a UUID (8-4-4-4-12 hexadecimal digits, as Core Data writes Z_UUID); leave it out to derive one from the inputs\n"),
        BadInput("outputIsTheCSV", files: ["spec.json": "{ \"model\": \"Library.xcdatamodeld\", \"output\": \"books.csv\",\n  \"sources\": { \"books\": { \"csv\": \"books.csv\" }, \"authors\": { \"csv\": \"authors.csv\" } },\n  \"entities\": { \"Author\": { \"from\": \"authors\", \"key\": \"name\" },\n                \"Book\": { \"from\": \"books\", \"key\": \"isbn\", \"attributes\": { \"published\": { \"field\": \"published\", \"date\": \"yyyy-MM-dd\" } },\n                          \"relationships\": { \"author\": { \"key\": \"author\" } } } } }\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 64, stderr: "books.csv: error: the output would overwrite source 'books' (books.csv); choose another output path\n"),
        BadInput("outputIsTheSpec", files: [:],
                 before: [], args: ["build", "spec.json", "--output", "spec.json"],
                 status: 64, stderr: "spec.json: error: the output would overwrite the spec (spec.json); choose another output path\n"),
        BadInput("sourceFileMissing", files: ["spec.json": "{ \"model\": \"Library.xcdatamodeld\", \"output\": \"Library.sqlite\",\n  \"sources\": { \"books\": { \"csv\": \"books.csv\" }, \"authors\": { \"csv\": \"writers.csv\" } },\n  \"entities\": { \"Author\": { \"from\": \"authors\", \"key\": \"name\" },\n                \"Book\": { \"from\": \"books\", \"key\": \"isbn\", \"attributes\": { \"published\": { \"field\": \"published\", \"date\": \"yyyy-MM-dd\" } },\n                          \"relationships\": { \"author\": { \"key\": \"author\" } } } } }\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 66, stderr: "writers.csv: error: no such file\n"),
        BadInput("sourceKindUnknown", files: ["spec.json": "{ \"model\": \"Library.xcdatamodeld\", \"output\": \"Library.sqlite\",\n  \"sources\": { \"books\": { \"csv\": \"books.csv\" }, \"authors\": { \"tsv\": \"authors.csv\" } },\n  \"entities\": { \"Author\": { \"from\": \"authors\", \"key\": \"name\" },\n                \"Book\": { \"from\": \"books\", \"key\": \"isbn\", \"attributes\": { \"published\": { \"field\": \"published\", \"date\": \"yyyy-MM-dd\" } },\n                          \"relationships\": { \"author\": { \"key\": \"author\" } } } } }\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "spec.json: error: at sources.authors: a source needs exactly one of \"sqlite\", \"csv\", \"xml\", \"json\" or \"jsonl\"\n"),
        BadInput("entityFromUnknownSource", files: ["spec.json": "{ \"model\": \"Library.xcdatamodeld\", \"output\": \"Library.sqlite\",\n  \"sources\": { \"books\": { \"csv\": \"books.csv\" }, \"authors\": { \"csv\": \"authors.csv\" } },\n  \"entities\": { \"Author\": { \"from\": \"writers\", \"key\": \"name\" },\n                \"Book\": { \"from\": \"books\", \"key\": \"isbn\", \"attributes\": { \"published\": { \"field\": \"published\", \"date\": \"yyyy-MM-dd\" } },\n                          \"relationships\": { \"author\": { \"key\": \"author\" } } } } }\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "spec.json: error: entities.Author.from: no source 'writers' (sources: authors, books)\n"),
        BadInput("keyFieldNotInHeader", files: ["spec.json": "{ \"model\": \"Library.xcdatamodeld\", \"output\": \"Library.sqlite\",\n  \"sources\": { \"books\": { \"csv\": \"books.csv\" }, \"authors\": { \"csv\": \"authors.csv\" } },\n  \"entities\": { \"Author\": { \"from\": \"authors\", \"key\": \"name\" },\n                \"Book\": { \"from\": \"books\", \"key\": \"ISBN\", \"attributes\": { \"published\": { \"field\": \"published\", \"date\": \"yyyy-MM-dd\" } },\n                          \"relationships\": { \"author\": { \"key\": \"author\" } } } } }\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "spec.json: error: entities.Book.key: source 'books' has no field 'ISBN' (did you mean 'isbn'?) (fields: isbn, title, pages, published, price, code, link, inPrint, author)\n"),
        BadInput("attributeFieldNotInHeader", files: ["spec.json": "{ \"model\": \"Library.xcdatamodeld\", \"output\": \"Library.sqlite\",\n  \"sources\": { \"books\": { \"csv\": \"books.csv\" }, \"authors\": { \"csv\": \"authors.csv\" } },\n  \"entities\": { \"Author\": { \"from\": \"authors\", \"key\": \"name\" },\n                \"Book\": { \"from\": \"books\", \"key\": \"isbn\", \"attributes\": { \"published\": { \"field\": \"pubdate\", \"date\": \"yyyy-MM-dd\" } },\n                          \"relationships\": { \"author\": { \"key\": \"author\" } } } } }\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "spec.json: error: entities.Book.attributes.published: source 'books' has no field 'pubdate' (fields: isbn, title, pages, published, price, code, link, inPrint, author)\n"),
        BadInput("badTimeZone", files: ["spec.json": "{ \"model\": \"Library.xcdatamodeld\", \"output\": \"Library.sqlite\",\n  \"sources\": { \"books\": { \"csv\": \"books.csv\" }, \"authors\": { \"csv\": \"authors.csv\" } },\n  \"entities\": { \"Author\": { \"from\": \"authors\", \"key\": \"name\" },\n                \"Book\": { \"from\": \"books\", \"key\": \"isbn\", \"attributes\": { \"published\": { \"field\": \"published\", \"date\": \"yyyy-MM-dd\", \"timeZone\": \"Mars/Olympus\" } },\n                          \"relationships\": { \"author\": { \"key\": \"author\" } } } } }\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "spec.json: error: entities.Book.attributes.published.timeZone: unknown time zone \"Mars/Olympus\": use an IANA name such as America/New_York, or UTC\n"),
        BadInput("badDatePattern", files: ["spec.json": "{ \"model\": \"Library.xcdatamodeld\", \"output\": \"Library.sqlite\",\n  \"sources\": { \"books\": { \"csv\": \"books.csv\" }, \"authors\": { \"csv\": \"authors.csv\" } },\n  \"entities\": { \"Author\": { \"from\": \"authors\", \"key\": \"name\" },\n                \"Book\": { \"from\": \"books\", \"key\": \"isbn\", \"attributes\": { \"published\": { \"field\": \"published\", \"date\": \"yyyy-QQ-dd\" } },\n                          \"relationships\": { \"author\": { \"key\": \"author\" } } } } }\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "spec.json: error: entities.Book.attributes.published: date pattern \"yyyy-QQ-dd\" uses the letter 'Q', which CoreSeed does not parse (quote literal text: 'T')\n"),
        BadInput("csvDelimiterTooLong", files: ["spec.json": "{ \"model\": \"Library.xcdatamodeld\", \"output\": \"Library.sqlite\",\n  \"sources\": { \"books\": { \"csv\": \"books.csv\", \"delimiter\": \";;\" }, \"authors\": { \"csv\": \"authors.csv\" } },\n  \"entities\": { \"Author\": { \"from\": \"authors\", \"key\": \"name\" },\n                \"Book\": { \"from\": \"books\", \"key\": \"isbn\", \"attributes\": { \"published\": { \"field\": \"published\", \"date\": \"yyyy-MM-dd\" } },\n                          \"relationships\": { \"author\": { \"key\": \"author\" } } } } }\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "spec.json: error: at sources.books.delimiter: delimiter must be a single ASCII character, got \";;\"\n"),
        BadInput("csvEncodingUnknown", files: ["spec.json": "{ \"model\": \"Library.xcdatamodeld\", \"output\": \"Library.sqlite\",\n  \"sources\": { \"books\": { \"csv\": \"books.csv\", \"encoding\": \"ebcdic\" }, \"authors\": { \"csv\": \"authors.csv\" } },\n  \"entities\": { \"Author\": { \"from\": \"authors\", \"key\": \"name\" },\n                \"Book\": { \"from\": \"books\", \"key\": \"isbn\", \"attributes\": { \"published\": { \"field\": \"published\", \"date\": \"yyyy-MM-dd\" } },\n                          \"relationships\": { \"author\": { \"key\": \"author\" } } } } }\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "spec.json: error: at sources.books.encoding: unknown encoding 'ebcdic' (use utf-8, utf-16le, utf-16be, windows-1252 or iso-8859-1)\n"),
        BadInput("maxErrorsNotANumber", files: [:],
                 before: [], args: ["build", "spec.json", "--max-errors", "abc"],
                 status: 64, stderr: "error: --max-errors must be a non-negative integer, not 'abc'\nUsage: coreseed build [SPEC] [--output PATH] [--dry-run] [--explain] [--report FILE]\n                      [--max-errors N] [--fail-on-rejects] [--allow-empty] [--configuration NAME]\n                      [--into STORE] [--mode replace|upsert|insert|sync] [--allow-deletes]\n                      [--no-history] [--author NAME] [--quiet] [--timeout SECONDS]\nsee 'coreseed build --help'\n"),
        BadInput("maxErrorsNegative", files: [:],
                 before: [], args: ["build", "spec.json", "--max-errors", "-1"],
                 status: 64, stderr: "error: --max-errors must be a non-negative integer, not '-1'\nUsage: coreseed build [SPEC] [--output PATH] [--dry-run] [--explain] [--report FILE]\n                      [--max-errors N] [--fail-on-rejects] [--allow-empty] [--configuration NAME]\n                      [--into STORE] [--mode replace|upsert|insert|sync] [--allow-deletes]\n                      [--no-history] [--author NAME] [--quiet] [--timeout SECONDS]\nsee 'coreseed build --help'\n"),
        BadInput("unknownOption", files: [:],
                 before: [], args: ["build", "spec.json", "--fast"],
                 status: 64, stderr: "error: unknown option --fast\nUsage: coreseed build [SPEC] [--output PATH] [--dry-run] [--explain] [--report FILE]\n                      [--max-errors N] [--fail-on-rejects] [--allow-empty] [--configuration NAME]\n                      [--into STORE] [--mode replace|upsert|insert|sync] [--allow-deletes]\n                      [--no-history] [--author NAME] [--quiet] [--timeout SECONDS]\nsee 'coreseed build --help'\n"),
        BadInput("modeWithoutInto", files: [:],
                 before: [], args: ["build", "spec.json", "--mode", "upsert"],
                 status: 64, stderr: "error: --mode upsert needs --into STORE, the store to update\nUsage: coreseed build [SPEC] [--output PATH] [--dry-run] [--explain] [--report FILE]\n                      [--max-errors N] [--fail-on-rejects] [--allow-empty] [--configuration NAME]\n                      [--into STORE] [--mode replace|upsert|insert|sync] [--allow-deletes]\n                      [--no-history] [--author NAME] [--quiet] [--timeout SECONDS]\nsee 'coreseed build --help'\n"),
        BadInput("buildWithoutSpec", files: [:],
                 before: [], args: ["build"],
                 status: 66, stderr: "Inputs/seed.json: error: cannot read the spec file\n"),
        BadInput("unknownCommand", files: [:],
                 before: [], args: ["bild", "spec.json"],
                 status: 64, stderr: "error: unknown command 'bild'\ncommands: build, preview, schema, model, hashes, verify, inspect, export, backup, help\nsee 'coreseed --help'\n"),
        BadInput("intoMissingStore", files: [:],
                 before: [], args: ["build", "spec.json", "--into", "Nothing.sqlite"],
                 status: 66, stderr: "Nothing.sqlite: error: no store at this path\n"),
        BadInput("integerNotANumber", files: ["books.csv": "isbn,title,pages,published,price,code,link,inPrint,author\n1,Alpha,many,,,,,,\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "books.csv:2:9: error: 'pages' value \"many\" is not an Integer 16 (Book.pages)\n"),
        BadInput("integer16OutOfRange", files: ["books.csv": "isbn,title,pages,published,price,code,link,inPrint,author\n1,Alpha,70000,,,,,,\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "books.csv:2:9: error: 'pages' value \"70000\" is out of range for Integer 16 (-32768…32767) (Book.pages)\n"),
        BadInput("dateNotMatching", files: ["books.csv": "isbn,title,pages,published,price,code,link,inPrint,author\n1,Alpha,,03/02/2001,,,,,\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "books.csv:2:10: error: 'published' value \"03/02/2001\" is not a date matching \"yyyy-MM-dd\"; \"M/d/yyyy\" or \"d/M/yyyy\" would read it (Book.published)\n"),
        BadInput("dateOneDigitMonth", files: ["books.csv": "isbn,title,pages,published,price,code,link,inPrint,author\n1,Alpha,,2001-2-03,,,,,\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "books.csv:2:10: error: 'published' value \"2001-2-03\" is not a date matching \"yyyy-MM-dd\"; \"yyyy-M-d\" would read it (M, d, H, h, m and s accept one or two digits) (Book.published)\n"),
        BadInput("dateBorrowsAnotherAttributesPatterns", files: ["books.csv": "isbn,title,published,updated,author\n1,Alpha,2001-02-03,2001/02/03,Ann\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "books.csv:2:20: error: 'updated' value \"2001/02/03\" is not a date matching \"yyyy-MM-dd\" (the patterns are published's, as 'updated' has no \"date\" of its own); \"yyyy/M/d\" would read it (Book.updated)\n"),
        BadInput("decimalGarbage", files: ["books.csv": "isbn,title,pages,published,price,code,link,inPrint,author\n1,Alpha,,,9.9.9,,,,\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "books.csv:2:11: error: 'price' value \"9.9.9\" is not a Decimal (Book.price)\n"),
        BadInput("uuidMalformed", files: ["books.csv": "isbn,title,pages,published,price,code,link,inPrint,author\n1,Alpha,,,,not-a-uuid,,,\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "books.csv:2:12: error: 'code' value \"not-a-uuid\" is not a UUID (Book.code)\n"),
        BadInput("uriWithSpace", files: ["books.csv": "isbn,title,pages,published,price,code,link,inPrint,author\n1,Alpha,,,,,http://a b,,\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "books.csv:2:13: error: 'link' value \"http://a b\" is not a URI (Book.link)\n"),
        BadInput("booleanMaybe", files: ["books.csv": "isbn,title,pages,published,price,code,link,inPrint,author\n1,Alpha,,,,,,maybe,\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "books.csv:2:14: error: 'inPrint' value \"maybe\" is not a Boolean (Book.inPrint)\n"),
        BadInput("nulInText", files: ["books.csv": "isbn,title,pages,published,price,code,link,inPrint,author\n1,Al\u{0}pha,,,,,,,\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "books.csv:2:3: error: 'title' value \"Al\\0pha\" holds a NUL character (U+0000), which CoreSeed does not store in text (C strings end at the first one): remove it from the source, or map the field to a Binary attribute (Book.title)\n"),
        BadInput("invalidUTF8InCSV", files: ["books.csv": "isbn,title,pages,published,price,code,link,inPrint,author\n1,Al<0xFF>pha,,,,,,,\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "books.csv:2:5: error: invalid UTF-8 byte 0xFF\nnote: declare the file's encoding, e.g. \"encoding\": \"windows-1252\"\n"),
        BadInput("unterminatedQuote", files: ["books.csv": "isbn,title,pages,published,price,code,link,inPrint,author\n1,\"Alpha,,,,,,,\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "books.csv:2:3: error: unterminated quoted field (the quote opens here)\n"),
        BadInput("raggedRow", files: ["books.csv": "isbn,title,pages,published,price,code,link,inPrint,author\n1,Alpha,,,,,,,,extra\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "books.csv:2:1: error: row has 10 fields, expected 9 (as in the header)\nnote: quote fields that contain the delimiter or a line break\n"),
        BadInput("duplicateKey", files: ["books.csv": "isbn,title,pages,published,price,code,link,inPrint,author\n1,Alpha,,,,,,,\n1,Beta,,,,,,,\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "books.csv:3:1: error: 'isbn' value \"1\" repeats a Book key first seen at books.csv:2:1 (Book.key)\n"),
        BadInput("unknownRelationshipKey", files: ["books.csv": "isbn,title,pages,published,price,code,link,inPrint,author\n1,Alpha,,,,,,,Bob\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "books.csv:2:15: error: 'author' value \"Bob\" matches no Author key (Book.author)\n"),
        BadInput("blankKey", files: ["books.csv": "isbn,title,pages,published,price,code,link,inPrint,author\n,Alpha,,,,,,,\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "books.csv:2:1: error: 'isbn' is empty, and every Book record needs a key (Book.key)\n"),
        BadInput("duplicateHeader", files: ["books.csv": "isbn,title,title,pages,published,price,code,link,inPrint,author\n1,A,B,,,,,,,\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "books.csv:1:12: error: duplicate header name 'title'\n"),
        BadInput("emptyCSVFile", files: ["books.csv": ""],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "books.csv:1:1: error: the file is empty, expected a header row\nnote: set \"header\": false for a file without a header row\n"),
        BadInput("headerOnlyReplacesRows", files: ["books.csv": "isbn,title,pages,published,price,code,link,inPrint,author\n"],
                 before: [["build", "spec.json", "--quiet", "--output", "Next.sqlite"], ["build", "spec.json", "--quiet"]], args: ["build", "spec.json", "--output", "Next.sqlite"],
                 status: 0, stderr: "books.csv: warning: source 'books' has no records: the store will hold no Book rows\n"),
        BadInput("headerOnlyEmptiesTheStore", files: ["books.csv": "isbn,title,pages,published,price,code,link,inPrint,author\n", "authors.csv": "name\n"],
                 before: [["build", "spec.json", "--quiet"]], args: ["build", "spec.json"],
                 status: 1, stderr: "Library.sqlite: error: the build wrote no rows and would replace this store, which holds 2 rows, with an empty one: nothing was replaced; check the sources (a CSV with only its header?) or pass --allow-empty to replace it\n"),
        BadInput("timeZoneOnANonDate", files: ["spec.json": "{ \"model\": \"Library.xcdatamodeld\", \"output\": \"Library.sqlite\",\n  \"sources\": { \"books\": { \"csv\": \"books.csv\" }, \"authors\": { \"csv\": \"authors.csv\" } },\n  \"entities\": { \"Author\": { \"from\": \"authors\", \"key\": \"name\" },\n                \"Book\": { \"from\": \"books\", \"key\": \"isbn\", \"attributes\": { \"inPrint\": { \"field\": \"inPrint\", \"timeZone\": \"UTC\" }, \"published\": { \"field\": \"published\", \"date\": \"yyyy-MM-dd\" } },\n                          \"relationships\": { \"author\": { \"key\": \"author\" } } } } }\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "spec.json: error: entities.Book.attributes.inPrint.timeZone: a time zone applies to Date attributes; 'inPrint' is a Boolean\n"),
        BadInput("topLevelTimeZoneBad", files: ["spec.json": "{ \"model\": \"Library.xcdatamodeld\", \"output\": \"Library.sqlite\", \"timeZone\": \"Europe/Pariss\",\n  \"sources\": { \"books\": { \"csv\": \"books.csv\" }, \"authors\": { \"csv\": \"authors.csv\" } },\n  \"entities\": { \"Author\": { \"from\": \"authors\", \"key\": \"name\" },\n                \"Book\": { \"from\": \"books\", \"key\": \"isbn\", \"attributes\": { \"published\": { \"field\": \"published\", \"date\": \"yyyy-MM-dd\" } },\n                          \"relationships\": { \"author\": { \"key\": \"author\" } } } } }\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "spec.json: error: at timeZone: unknown time zone \"Europe/Pariss\" (did you mean 'Europe/Paris'?): use an IANA name such as America/New_York, or UTC\n"),
        BadInput("relationshipTypo", files: ["spec.json": "{ \"model\": \"Library.xcdatamodeld\", \"output\": \"Library.sqlite\",\n  \"sources\": { \"books\": { \"csv\": \"books.csv\" }, \"authors\": { \"csv\": \"authors.csv\" } },\n  \"entities\": { \"Author\": { \"from\": \"authors\", \"key\": \"name\" },\n                \"Book\": { \"from\": \"books\", \"key\": \"isbn\", \"attributes\": { \"published\": { \"field\": \"published\", \"date\": \"yyyy-MM-dd\" } },\n                          \"relationships\": { \"autor\": { \"key\": \"author\" } } } } }\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "spec.json: error: entities.Book.relationships.autor: 'Book' has no relationship 'autor' (did you mean 'author'?)\n"),
        BadInput("sqliteNotADatabase", files: ["spec.json": "{ \"model\": \"Library.xcdatamodeld\", \"output\": \"Library.sqlite\",\n  \"sources\": { \"books\": { \"csv\": \"books.csv\" }, \"authors\": { \"sqlite\": \"authors.csv\", \"table\": \"authors\" } },\n  \"entities\": { \"Author\": { \"from\": \"authors\", \"key\": \"name\" },\n                \"Book\": { \"from\": \"books\", \"key\": \"isbn\", \"attributes\": { \"published\": { \"field\": \"published\", \"date\": \"yyyy-MM-dd\" } },\n                          \"relationships\": { \"author\": { \"key\": \"author\" } } } } }\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "authors.csv: error: not a SQLite database (file is not a database)\n"),
        BadInput("sqliteMultiStatement", files: ["spec.json": "{ \"model\": \"Library.xcdatamodeld\", \"output\": \"Library.sqlite\",\n  \"sources\": { \"books\": { \"csv\": \"books.csv\" }, \"authors\": { \"sqlite\": \"legacy.sqlite\", \"query\": \"SELECT 'Ann' AS name; SELECT 2\" } },\n  \"entities\": { \"Author\": { \"from\": \"authors\", \"key\": \"name\" },\n                \"Book\": { \"from\": \"books\", \"key\": \"isbn\", \"attributes\": { \"published\": { \"field\": \"published\", \"date\": \"yyyy-MM-dd\" } },\n                          \"relationships\": { \"author\": { \"key\": \"author\" } } } } }\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "legacy.sqlite:query: error: the query holds more than one statement; only the first would run (then: SELECT 2)\nnote: give one SELECT statement per source; join or UNION what you need in it\n"),
        BadInput("sqliteEmptyQuery", files: ["spec.json": "{ \"model\": \"Library.xcdatamodeld\", \"output\": \"Library.sqlite\",\n  \"sources\": { \"books\": { \"csv\": \"books.csv\" }, \"authors\": { \"sqlite\": \"legacy.sqlite\", \"query\": \" \" } },\n  \"entities\": { \"Author\": { \"from\": \"authors\", \"key\": \"name\" },\n                \"Book\": { \"from\": \"books\", \"key\": \"isbn\", \"attributes\": { \"published\": { \"field\": \"published\", \"date\": \"yyyy-MM-dd\" } },\n                          \"relationships\": { \"author\": { \"key\": \"author\" } } } } }\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "legacy.sqlite:query: error: the query is empty\nnote: give a SELECT statement, e.g. SELECT * FROM t, or \"table\" instead of \"query\"\n"),
        BadInput("sqliteQueryWrites", files: ["spec.json": "{ \"model\": \"Library.xcdatamodeld\", \"output\": \"Library.sqlite\",\n  \"sources\": { \"books\": { \"csv\": \"books.csv\" }, \"authors\": { \"sqlite\": \"legacy.sqlite\", \"query\": \"DELETE FROM people\" } },\n  \"entities\": { \"Author\": { \"from\": \"authors\", \"key\": \"name\" },\n                \"Book\": { \"from\": \"books\", \"key\": \"isbn\", \"attributes\": { \"published\": { \"field\": \"published\", \"date\": \"yyyy-MM-dd\" } },\n                          \"relationships\": { \"author\": { \"key\": \"author\" } } } } }\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "legacy.sqlite:query: error: the query would modify the database\nnote: a source query must only read, e.g. SELECT * FROM t\n"),
        BadInput("sqliteTableMissing", files: ["spec.json": "{ \"model\": \"Library.xcdatamodeld\", \"output\": \"Library.sqlite\",\n  \"sources\": { \"books\": { \"csv\": \"books.csv\" }, \"authors\": { \"sqlite\": \"legacy.sqlite\", \"table\": \"writers\" } },\n  \"entities\": { \"Author\": { \"from\": \"authors\", \"key\": \"name\" },\n                \"Book\": { \"from\": \"books\", \"key\": \"isbn\", \"attributes\": { \"published\": { \"field\": \"published\", \"date\": \"yyyy-MM-dd\" } },\n                          \"relationships\": { \"author\": { \"key\": \"author\" } } } } }\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "legacy.sqlite: error: no table or view named 'writers'\nnote: tables: people\n"),
        BadInput("xmlMalformed", files: ["authors.xml": "<authors><author><name>Ann</name></authors>\n", "spec.json": "{ \"model\": \"Library.xcdatamodeld\", \"output\": \"Library.sqlite\",\n  \"sources\": { \"books\": { \"csv\": \"books.csv\" }, \"authors\": { \"xml\": \"authors.xml\", \"records\": \"/authors/author\", \"fields\": { \"name\": \"name\" } } },\n  \"entities\": { \"Author\": { \"from\": \"authors\", \"key\": \"name\" },\n                \"Book\": { \"from\": \"books\", \"key\": \"isbn\", \"attributes\": { \"published\": { \"field\": \"published\", \"date\": \"yyyy-MM-dd\" } },\n                          \"relationships\": { \"author\": { \"key\": \"author\" } } } } }\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "authors.xml:1:44: error: XML error: Opening and ending tag mismatch: author line 1 and authors\n"),
        BadInput("xmlExternalEntity", files: ["authors.xml": "<?xml version=\"1.0\"?>\n<!DOCTYPE authors [<!ENTITY e SYSTEM \"file:///etc/hostname\">]>\n<authors><author><name>&e;</name></author></authors>\n", "spec.json": "{ \"model\": \"Library.xcdatamodeld\", \"output\": \"Library.sqlite\",\n  \"sources\": { \"books\": { \"csv\": \"books.csv\" }, \"authors\": { \"xml\": \"authors.xml\", \"records\": \"/authors/author\", \"fields\": { \"name\": \"name\" } } },\n  \"entities\": { \"Author\": { \"from\": \"authors\", \"key\": \"name\" },\n                \"Book\": { \"from\": \"books\", \"key\": \"isbn\", \"attributes\": { \"published\": { \"field\": \"published\", \"date\": \"yyyy-MM-dd\" } },\n                          \"relationships\": { \"author\": { \"key\": \"author\" } } } } }\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "authors.xml: error: the document declares entities, which are not expanded\nnote: remove the <!ENTITY> declarations; entity expansion is refused for safety\n"),
        BadInput("xmlFieldPathBad", files: ["authors.xml": "<authors><author><name>Ann</name></author></authors>\n", "spec.json": "{ \"model\": \"Library.xcdatamodeld\", \"output\": \"Library.sqlite\",\n  \"sources\": { \"books\": { \"csv\": \"books.csv\" }, \"authors\": { \"xml\": \"authors.xml\", \"records\": \"authors/author\", \"fields\": { \"name\": \"name\" } } },\n  \"entities\": { \"Author\": { \"from\": \"authors\", \"key\": \"name\" },\n                \"Book\": { \"from\": \"books\", \"key\": \"isbn\", \"attributes\": { \"published\": { \"field\": \"published\", \"date\": \"yyyy-MM-dd\" } },\n                          \"relationships\": { \"author\": { \"key\": \"author\" } } } } }\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "spec.json: error: at sources.authors.records: records path 'authors/author' must be an absolute element path like /root/item\n"),
        BadInput("jsonFieldPathBad", files: ["authors.json": "[{\"name\": \"Ann\"}]\n", "spec.json": "{ \"model\": \"Library.xcdatamodeld\", \"output\": \"Library.sqlite\",\n  \"sources\": { \"books\": { \"csv\": \"books.csv\" }, \"authors\": { \"json\": \"authors.json\", \"records\": \"/*\", \"fields\": { \"name\": \"name..first\" } } },\n  \"entities\": { \"Author\": { \"from\": \"authors\", \"key\": \"name\" },\n                \"Book\": { \"from\": \"books\", \"key\": \"isbn\", \"attributes\": { \"published\": { \"field\": \"published\", \"date\": \"yyyy-MM-dd\" } },\n                          \"relationships\": { \"author\": { \"key\": \"author\" } } } } }\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "spec.json: error: at sources.authors.fields: field 'name': unsupported path 'name..first'\n"),
        BadInput("xmlValueIsLocatedAtItsElement", files: ["authors.xml": "<authors>\n  <author>\n    <name>Ann</name>\n  </author>\n  <author id=\"2\">\n    <name></name>\n  </author>\n</authors>\n", "spec.json": "{ \"model\": \"Library.xcdatamodeld\", \"output\": \"Library.sqlite\",\n  \"sources\": { \"books\": { \"csv\": \"books.csv\" }, \"authors\": { \"xml\": \"authors.xml\", \"records\": \"/authors/author\", \"fields\": { \"name\": \"name\" } } },\n  \"entities\": { \"Author\": { \"from\": \"authors\", \"key\": \"name\" },\n                \"Book\": { \"from\": \"books\", \"key\": \"isbn\", \"attributes\": { \"published\": { \"field\": \"published\", \"date\": \"yyyy-MM-dd\" } },\n                          \"relationships\": { \"author\": { \"key\": \"author\" } } } } }\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "authors.xml:6:10: error: 'name' is empty, and every Author record needs a key (Author.key)\n"),
        BadInput("primaryKeyNotAnInteger", files: ["spec.json": "{ \"model\": \"Library.xcdatamodeld\", \"output\": \"Library.sqlite\",\n  \"sources\": { \"books\": { \"csv\": \"books.csv\" }, \"authors\": { \"csv\": \"authors.csv\" } },\n  \"entities\": { \"Author\": { \"from\": \"authors\", \"key\": \"name\" },\n                \"Book\": { \"from\": \"books\", \"key\": \"isbn\", \"primaryKey\": \"title\", \"attributes\": { \"published\": { \"field\": \"published\", \"date\": \"yyyy-MM-dd\" } },\n                          \"relationships\": { \"author\": { \"key\": \"author\" } } } } }\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "books.csv:2:3: error: 'title' value \"Alpha\" is not a Z_PK (a positive integer) (Book.primaryKey)\n"),
        BadInput("primaryKeyRepeated", files: ["spec.json": "{ \"model\": \"Library.xcdatamodeld\", \"output\": \"Library.sqlite\",\n  \"sources\": { \"books\": { \"csv\": \"books.csv\" }, \"authors\": { \"csv\": \"authors.csv\" } },\n  \"entities\": { \"Author\": { \"from\": \"authors\", \"key\": \"name\" },\n                \"Book\": { \"from\": \"books\", \"key\": \"isbn\", \"primaryKey\": \"pages\", \"attributes\": { \"published\": { \"field\": \"published\", \"date\": \"yyyy-MM-dd\" } },\n                          \"relationships\": { \"author\": { \"key\": \"author\" } } } } }\n", "books.csv": "isbn,title,pages,published,price,code,link,inPrint,author\n1,Alpha,100,,,,,,\n2,Beta,7,,,,,,\n3,Gamma,100,,,,,,\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "books.csv:4:1: error: 'pages' value \"100\" is already the Z_PK of the Book record at books.csv:2:1: \"primaryKey\" values must be unique within an inheritance hierarchy (Book.primaryKey)\n"),
        BadInput("primaryKeyWithInto", files: ["spec.json": "{ \"model\": \"Library.xcdatamodeld\", \"output\": \"Library.sqlite\",\n  \"sources\": { \"books\": { \"csv\": \"books.csv\" }, \"authors\": { \"csv\": \"authors.csv\" } },\n  \"entities\": { \"Author\": { \"from\": \"authors\", \"key\": \"name\" },\n                \"Book\": { \"from\": \"books\", \"key\": \"isbn\", \"primaryKey\": \"isbn\", \"attributes\": { \"published\": { \"field\": \"published\", \"date\": \"yyyy-MM-dd\" } },\n                          \"relationships\": { \"author\": { \"key\": \"author\" } } } } }\n"],
                 before: [["build", "spec.json", "--quiet"]], args: ["build", "spec.json", "--into", "Library.sqlite"],
                 status: 64, stderr: "spec.json: error: entities.Book.primaryKey: Z_PKs come from the input only in a new store; an update (--into) numbers new rows above the store's Z_MAX: leave \"primaryKey\" out\n"),
        BadInput("metadataCoreDataKey", files: ["spec.json": "{ \"model\": \"Library.xcdatamodeld\", \"output\": \"Library.sqlite\", \"metadata\": { \"NSStoreType\": \"Binary\" },\n  \"sources\": { \"books\": { \"csv\": \"books.csv\" }, \"authors\": { \"csv\": \"authors.csv\" } },\n  \"entities\": { \"Author\": { \"from\": \"authors\", \"key\": \"name\" },\n                \"Book\": { \"from\": \"books\", \"key\": \"isbn\", \"attributes\": { \"published\": { \"field\": \"published\", \"date\": \"yyyy-MM-dd\" } },\n                          \"relationships\": { \"author\": { \"key\": \"author\" } } } } }\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "spec.json: error: at metadata.NSStoreType: 'NSStoreType' is Core Data's own metadata key, which CoreSeed writes from the model; give only the app's own keys\n"),
        BadInput("metadataNestedValue", files: ["spec.json": "{ \"model\": \"Library.xcdatamodeld\", \"output\": \"Library.sqlite\", \"metadata\": { \"io.app.Flags\": [1, 2] },\n  \"sources\": { \"books\": { \"csv\": \"books.csv\" }, \"authors\": { \"csv\": \"authors.csv\" } },\n  \"entities\": { \"Author\": { \"from\": \"authors\", \"key\": \"name\" },\n                \"Book\": { \"from\": \"books\", \"key\": \"isbn\", \"attributes\": { \"published\": { \"field\": \"published\", \"date\": \"yyyy-MM-dd\" } },\n                          \"relationships\": { \"author\": { \"key\": \"author\" } } } } }\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "spec.json: error: at metadata.io.app.Flags: a metadata value is text, a number or true/false\n"),
        BadInput("jsonTrailingComma", files: ["authors.json": "[{\"name\": \"Ann\"},]\n", "spec.json": "{ \"model\": \"Library.xcdatamodeld\", \"output\": \"Library.sqlite\",\n  \"sources\": { \"books\": { \"csv\": \"books.csv\" }, \"authors\": { \"json\": \"authors.json\", \"records\": \"/*\" } },\n  \"entities\": { \"Author\": { \"from\": \"authors\", \"key\": \"name\" },\n                \"Book\": { \"from\": \"books\", \"key\": \"isbn\", \"attributes\": { \"published\": { \"field\": \"published\", \"date\": \"yyyy-MM-dd\" } },\n                          \"relationships\": { \"author\": { \"key\": \"author\" } } } } }\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "authors.json:1:18: error: JSON error: expected a value, found ']'\n"),
        BadInput("jsonlKeyGivenTwice", files: ["authors.jsonl": "{\"name\": \"Ann\"}\n{\"name\": \"Bob\", \"name\": \"Bo\"}\n", "spec.json": "{ \"model\": \"Library.xcdatamodeld\", \"output\": \"Library.sqlite\",\n  \"sources\": { \"books\": { \"csv\": \"books.csv\" }, \"authors\": { \"jsonl\": \"authors.jsonl\" } },\n  \"entities\": { \"Author\": { \"from\": \"authors\", \"key\": \"name\" },\n                \"Book\": { \"from\": \"books\", \"key\": \"isbn\", \"attributes\": { \"published\": { \"field\": \"published\", \"date\": \"yyyy-MM-dd\" } },\n                          \"relationships\": { \"author\": { \"key\": \"author\" } } } } }\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 1, stderr: "authors.jsonl:2:17: error: key 'name' is given twice in one object\nnote: which one is meant would be a guess: keep one\n"),
        BadInput("modelBadAttributeType", files: ["Library.xcdatamodeld/Library.xcdatamodel/contents": "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<model type=\"com.apple.IDECoreDataModeler.DataModel\" documentVersion=\"1.0\" lastSavedToolsVersion=\"1\" systemVersion=\"11A491\" minimumToolsVersion=\"Automatic\" sourceLanguage=\"Swift\" userDefinedModelVersionIdentifier=\"\">\n<entity name=\"Author\"><attribute name=\"name\" attributeType=\"String\"/><relationship name=\"books\" optional=\"YES\" toMany=\"YES\" deletionRule=\"Nullify\" destinationEntity=\"Book\" inverseName=\"author\" inverseEntity=\"Book\"/></entity>\n<entity name=\"Book\"><attribute name=\"isbn\" attributeType=\"Integer 64\"/><attribute name=\"title\" attributeType=\"String\"/><attribute name=\"pages\" optional=\"YES\" attributeType=\"Integer 16\"/><attribute name=\"published\" optional=\"YES\" attributeType=\"Date\"/><attribute name=\"updated\" optional=\"YES\" attributeType=\"Date\"/><attribute name=\"price\" optional=\"YES\" attributeType=\"Decimal\"/><attribute name=\"code\" optional=\"YES\" attributeType=\"UUID\"/><attribute name=\"link\" optional=\"YES\" attributeType=\"URI\"/><attribute name=\"inPrint\" optional=\"YES\" attributeType=\"Quaternion\"/><relationship name=\"author\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"Author\" inverseName=\"books\" inverseEntity=\"Author\"/></entity>\n</model>\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 66, stderr: "Library.xcdatamodeld/Library.xcdatamodel/contents:4: error: attribute 'inPrint' has unsupported attributeType 'Quaternion'\n"),
        BadInput("modelBrokenXML", files: ["Library.xcdatamodeld/Library.xcdatamodel/contents": "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<model type=\"com.apple.IDECoreDataModeler.DataModel\" documentVersion=\"1.0\" lastSavedToolsVersion=\"1\" systemVersion=\"11A491\" minimumToolsVersion=\"Automatic\" sourceLanguage=\"Swift\" userDefinedModelVersionIdentifier=\"\">\n<entity name=\"Author\"><attribute name=\"name\" attributeType=\"String\"/><relationship name=\"books\" optional=\"YES\" toMany=\"YES\" deletionRule=\"Nullify\" destinationEntity=\"Book\" inverseName=\"author\" inverseEntity=\"Book\"/></entity>\n<entity name=\"Book\"><attribute name=\"isbn\" attributeType=\"Integer 64\"/><attribute name=\"title\" attributeType=\"String\"/><attribute name=\"pages\" optional=\"YES\" attributeType=\"Integer 16\"/><attribute name=\"published\" optional=\"YES\" attributeType=\"Date\"/><attribute name=\"updated\" optional=\"YES\" attributeType=\"Date\"/><attribute name=\"price\" optional=\"YES\" attributeType=\"Decimal\"/><attribute name=\"code\" optional=\"YES\" attributeType=\"UUID\"/><attribute name=\"link\" optional=\"YES\" attributeType=\"URI\"/><attribute name=\"inPrint\" optional=\"YES\" attributeType=\"Boolean\"/><relationship name=\"author\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"Author\" inverseName=\"books\" inverseEntity=\"Author\"/></entity>\n\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 66, stderr: "Library.xcdatamodeld/Library.xcdatamodel/contents:6: error: not a valid model file: the document ends before its elements are closed\n"),
        BadInput("modelExternalEntity", files: ["Library.xcdatamodeld/Library.xcdatamodel/contents": "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<!DOCTYPE model [<!ENTITY e SYSTEM \"file:///etc/hostname\">]>\n<model type=\"com.apple.IDECoreDataModeler.DataModel\" documentVersion=\"1.0\" lastSavedToolsVersion=\"1\" systemVersion=\"11A491\" minimumToolsVersion=\"Automatic\" sourceLanguage=\"Swift\" userDefinedModelVersionIdentifier=\"\">\n<entity name=\"Author\"><attribute name=\"name\" attributeType=\"String\"/><relationship name=\"books\" optional=\"YES\" toMany=\"YES\" deletionRule=\"Nullify\" destinationEntity=\"Book\" inverseName=\"author\" inverseEntity=\"Book\"/></entity>\n<entity name=\"Book\"><attribute name=\"isbn\" attributeType=\"Integer 64\"/><attribute name=\"title\" attributeType=\"String\"/><attribute name=\"pages\" optional=\"YES\" attributeType=\"Integer 16\"/><attribute name=\"published\" optional=\"YES\" attributeType=\"Date\"/><attribute name=\"updated\" optional=\"YES\" attributeType=\"Date\"/><attribute name=\"price\" optional=\"YES\" attributeType=\"Decimal\"/><attribute name=\"code\" optional=\"YES\" attributeType=\"UUID\"/><attribute name=\"link\" optional=\"YES\" attributeType=\"URI\"/><attribute name=\"inPrint\" optional=\"YES\" attributeType=\"Boolean\"/><relationship name=\"author\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"Author\" inverseName=\"books\" inverseEntity=\"Author\"/></entity>\n<entity name=\"&e;\"/></model>\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 66, stderr: "Library.xcdatamodeld/Library.xcdatamodel/contents:2: error: not a valid model file: its DOCTYPE declares an entity, which Xcode never writes and CoreSeed never reads; remove the DOCTYPE\n"),
        BadInput("modelEntityNameWithSpace", files: ["Library.xcdatamodeld/Library.xcdatamodel/contents": "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<model type=\"com.apple.IDECoreDataModeler.DataModel\" documentVersion=\"1.0\" lastSavedToolsVersion=\"1\" systemVersion=\"11A491\" minimumToolsVersion=\"Automatic\" sourceLanguage=\"Swift\" userDefinedModelVersionIdentifier=\"\">\n<entity name=\"The Author\"><attribute name=\"name\" attributeType=\"String\"/><relationship name=\"books\" optional=\"YES\" toMany=\"YES\" deletionRule=\"Nullify\" destinationEntity=\"Book\" inverseName=\"author\" inverseEntity=\"Book\"/></entity>\n<entity name=\"Book\"><attribute name=\"isbn\" attributeType=\"Integer 64\"/><attribute name=\"title\" attributeType=\"String\"/><attribute name=\"pages\" optional=\"YES\" attributeType=\"Integer 16\"/><attribute name=\"published\" optional=\"YES\" attributeType=\"Date\"/><attribute name=\"updated\" optional=\"YES\" attributeType=\"Date\"/><attribute name=\"price\" optional=\"YES\" attributeType=\"Decimal\"/><attribute name=\"code\" optional=\"YES\" attributeType=\"UUID\"/><attribute name=\"link\" optional=\"YES\" attributeType=\"URI\"/><attribute name=\"inPrint\" optional=\"YES\" attributeType=\"Boolean\"/><relationship name=\"author\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"The Author\" inverseName=\"books\" inverseEntity=\"The Author\"/></entity>\n</model>\n"],
                 before: [], args: ["build", "spec.json"],
                 status: 66, stderr: "Library.xcdatamodeld/Library.xcdatamodel/contents:3: error: entity name 'The Author' must be ASCII letters, digits and underscores, not starting with a digit (a space is not one)\n"),
        BadInput("verifyPlainSQLite", files: [:],
                 before: [], args: ["verify", "legacy.sqlite", "--model", "Library.xcdatamodeld"],
                 status: 1, stderr: "legacy.sqlite: error: no Z_METADATA table with Z_UUID and Z_PLIST: not a Core Data store (tables: people)\n"),
        BadInput("verifyTextFile", files: [:],
                 before: [], args: ["verify", "books.csv", "--model", "Library.xcdatamodeld"],
                 status: 1, stderr: "books.csv: error: not a SQLite database (no 'SQLite format 3' header)\n"),
        BadInput("verifyMissingStore", files: [:],
                 before: [], args: ["verify", "Nothing.sqlite", "--model", "Library.xcdatamodeld"],
                 status: 66, stderr: "Nothing.sqlite: error: no store at this path\n"),
        BadInput("inspectMissingStore", files: [:],
                 before: [], args: ["inspect", "Nothing.sqlite"],
                 status: 66, stderr: "Nothing.sqlite: error: no store at this path\n"),
        BadInput("exportOutputIsAFile", files: [:],
                 before: [["build", "spec.json", "--quiet"]], args: ["export", "Library.sqlite", "--model", "Library.xcdatamodeld", "--output", "books.csv"],
                 status: 73, stderr: "books.csv: error: the export's output is a file, not a folder\n"),
        BadInput("backupMissingSource", files: [:],
                 before: [], args: ["backup", "Nothing.sqlite", "copy.sqlite"],
                 status: 66, stderr: "Nothing.sqlite: error: no store at this path\n"),
        BadInput("backupOntoItself", files: [:],
                 before: [["build", "spec.json", "--quiet"]], args: ["backup", "Library.sqlite", "Library.sqlite"],
                 status: 64, stderr: "Library.sqlite: error: the copy cannot replace the store it copies\n"),
        BadInput("hashesMissingModel", files: [:],
                 before: [], args: ["hashes", "Missing.xcdatamodeld"],
                 status: 66, stderr: "Missing.xcdatamodeld: error: no model at this path\n"),
        BadInput("schemaBadFrameworkVersion", files: [:],
                 before: [], args: ["schema", "Library.xcdatamodeld", "--framework-version", "abc"],
                 status: 64, stderr: "error: --framework-version must be a non-negative integer, not 'abc'\nUsage: coreseed schema MODEL [--model-version NAME] [--configuration NAME] [--framework-version N]\nsee 'coreseed schema --help'\n"),
    ]

    @Test func theCatalogueIsLargeAndNamed() {
        #expect(Self.cases.count >= 60)
        #expect(Set(Self.cases.map(\.name)).count == Self.cases.count)
    }

    @Test(arguments: cases)
    func badInputGivesItsMessage(_ input: BadInput) throws {
        let scratch = try Scratch()
        try scratch.writeModel("Library", Self.model)
        try Self.put(scratch, "books.csv", Self.books)
        try Self.put(scratch, "authors.csv", Self.authors)
        try Self.put(scratch, "spec.json", Self.spec)
        do {
            let legacy = try SQLiteDatabase(path: scratch.path("legacy.sqlite"), mode: .readWriteCreate)
            try legacy.execute("CREATE TABLE people (name TEXT); INSERT INTO people VALUES ('Ann')")
        }
        for arguments in input.before {
            let result = try scratch.run(arguments)
            #expect(result.status == 0, "setting up \(input.name): \(result.stderr)")
        }
        for (name, text) in input.files { try Self.put(scratch, name, text) }
        let result = try scratch.run(input.args)
        #expect(result.stderr == input.stderr)
        #expect(result.status == input.status)
        // Nothing half-written: no temporary file is left beside the inputs.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).filter { $0.contains("coreseed") || $0.hasSuffix(".tmp") }
        #expect(leftovers == [])
    }
}
