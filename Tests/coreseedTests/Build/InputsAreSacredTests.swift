import Foundation
import Testing
import CoreSeedTestSupport

/// An output, report or `--into` store that would overwrite one of the build's inputs is refused
/// before any work, and the input is left as it was (issue 16: an `"output"` naming the CSV, the spec
/// or the legacy SQLite database overwrote it, exit 0).
@Suite struct InputsAreSacredTests {
    static func prepare() throws -> Scratch {
        let scratch = try Scratch()
        try scratch.writeModel("Library", """
            <entity name="Book"><attribute name="isbn" attributeType="Integer 64"/><attribute name="title" optional="YES" attributeType="String"/></entity>
            """)
        try scratch.write("books.csv", "isbn,title\n1,Alpha\n")
        try scratch.write("spec.json", """
            { "model": "Library.xcdatamodeld", "output": "Library.sqlite",
              "sources": { "books": { "csv": "books.csv" } }, "entities": { "Book": { "from": "books", "key": "isbn" } } }
            """)
        return scratch
    }

    @Test(arguments: [
        (["--output", "books.csv"], "books.csv: error: the output would overwrite source 'books' (", "books.csv"),
        (["--output", "./spec.json"], "./spec.json: error: the output would overwrite the spec (", "spec.json"),
        (["--output", "Library.xcdatamodeld/Library.xcdatamodel/contents"],
         "Library.xcdatamodeld/Library.xcdatamodel/contents: error: the output would overwrite the model (", "Library.xcdatamodeld/Library.xcdatamodel/contents"),
        (["--report", "books.csv"], "books.csv: error: the report would overwrite source 'books' (", "books.csv"),
        (["--report", "Library.sqlite"], "Library.sqlite: error: the report would overwrite the output store (", "spec.json"),
    ])
    func anOutputThatIsAnInputIsRefused(_ extra: [String], _ message: String, _ kept: String) throws {
        let scratch = try Self.prepare()
        let before = try Data(contentsOf: scratch.url.appendingPathComponent(kept))
        let result = try scratch.run(["build", "spec.json"] + extra)
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
        #expect(try Data(contentsOf: scratch.url.appendingPathComponent(kept)) == before)
        #expect(!FileManager.default.fileExists(atPath: scratch.path("Library.sqlite")))
    }

    /// Through a symlink too: the file it points at is the input.
    @Test func aSymlinkToAnInputIsRefused() throws {
        let scratch = try Self.prepare()
        try FileManager.default.createSymbolicLink(atPath: scratch.path("link.sqlite"), withDestinationPath: "books.csv")
        let result = try scratch.run(["build", "spec.json", "--output", "link.sqlite"])
        #expect(result.status == 64)
        #expect(try String(contentsOfFile: scratch.path("books.csv"), encoding: .utf8) == "isbn,title\n1,Alpha\n")
    }
}

/// Suspect spec values are refused with the key and how to fix it (issue 16: `frameworkVersion: -5`
/// and a non-UUID `storeUUID` were written into the store).
@Suite struct SuspectSpecValueTests {
    @Test(arguments: [
        (#""frameworkVersion": -5"#, "spec.json: error: at frameworkVersion: -5 is not a Core Data framework version (NSPersistenceFrameworkVersion, 241 to 1518 in real stores); leave it out for the newest\n"),
        (#""storeUUID": "not-a-uuid""#, "spec.json: error: at storeUUID: \"not-a-uuid\" is not a UUID (8-4-4-4-12 hexadecimal digits, as Core Data writes Z_UUID); leave it out to derive one from the inputs\n"),
    ])
    func aSuspectValueIsRefused(_ entry: String, _ message: String) throws {
        let scratch = try InputsAreSacredTests.prepare()
        try scratch.write("spec.json", """
            { "model": "Library.xcdatamodeld", "output": "Library.sqlite", \(entry),
              "sources": { "books": { "csv": "books.csv" } }, "entities": { "Book": { "from": "books", "key": "isbn" } } }
            """)
        let result = try scratch.run(["build", "spec.json"])
        #expect(result.status == 1)
        #expect(result.stderr == message)
        #expect(!FileManager.default.fileExists(atPath: scratch.path("Library.sqlite")))
    }

    @Test func aLowerCaseStoreUUIDIsWrittenAsCoreDataWritesIt() throws {
        let scratch = try InputsAreSacredTests.prepare()
        try scratch.write("spec.json", """
            { "model": "Library.xcdatamodeld", "output": "Library.sqlite", "storeUUID": "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0",
              "sources": { "books": { "csv": "books.csv" } }, "entities": { "Book": { "from": "books", "key": "isbn" } } }
            """)
        #expect(try scratch.run(["build", "spec.json", "--quiet"]).status == 0)
        #expect(try scratch.query("Library.sqlite", "SELECT Z_UUID FROM Z_METADATA") == [["0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0"]])
    }
}

/// Spec mistakes said where they are and how to fix them (issue 14): syntax errors with line and
/// column, duplicate keys, "did you mean", a relationship mapped under `attributes`.
@Suite struct SpecDiagnosticTests {
    @Test(arguments: [
        ("{\n  \"model\": \"Library.xcdatamodeld\",\n  \"sources\": { \"books\": { \"csv\": \"books.csv\" } ,, }\n}\n",
         "spec.json:3:49: error: expected a key in quotes, found ','\n"),
        ("{\n  \"model\": \"Library.xcdatamodeld\", \"model\": \"x\",\n  \"sources\": {}\n}\n",
         "spec.json:2:36: error: key 'model' is given twice in one object (first at line 2, column 3); keep one\n"),
        ("{ \"model\": \"Library.xcdatamodeld\", \"sources\": { \"books\": { \"csv\": \"books.csv\" } }, \"entities\": { \"Boook\": { \"from\": \"books\" } } }",
         "spec.json: error: entities.Boook: the model has no entity 'Boook' (did you mean 'Book'?)\n"),
        ("{ \"model\": \"Library.xcdatamodeld\", \"sources\": { \"books\": { \"csv\": \"books.csv\" } }, \"entities\": { \"Book\": { \"from\": \"books\", \"attributes\": { \"titel\": \"title\" } } } }",
         "spec.json: error: entities.Book.attributes: 'Book' has no stored attribute 'titel' (did you mean 'title'?)\n"),
    ])
    func aMistakeIsLocatedAndExplained(_ spec: String, _ message: String) throws {
        let scratch = try InputsAreSacredTests.prepare()
        try scratch.write("spec.json", spec)
        let result = try scratch.run(["build", "spec.json"])
        #expect(result.status == 1)
        #expect(result.stderr == message)
    }
}

/// A model file whose bytes are not UTF-8 is an error naming its line; Foundation's XML parser
/// trapped on such a name (found by the model fuzz target).
@Suite struct MalformedModelTests {
    @Test func invalidUTF8InAModelIsAnErrorNotACrash() throws {
        let scratch = try Scratch()
        try scratch.writeModel("Broken", "<entity name=\"Book\">\n<attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/>\n</entity>")
        let contents = scratch.url.appendingPathComponent("Broken.xcdatamodeld/Broken.xcdatamodel/contents")
        var bytes = [UInt8](try Data(contentsOf: contents))
        let at = try #require(bytes.firstIndex(of: UInt8(ascii: "Y")))  // inside optional="YES" on line 4
        bytes.replaceSubrange(at..<at + 1, with: [0xFD, 0xFD, 0xFD])
        try Data(bytes).write(to: contents)
        let result = try scratch.run(["hashes", "Broken.xcdatamodeld"])
        #expect(result.status == 66)
        #expect(result.stderr.hasSuffix("Broken.xcdatamodeld/Broken.xcdatamodel/contents:4: error: not a valid model file: the text is not valid UTF-8 (Xcode writes models in UTF-8)\n"))
    }
}

/// Past a file size limit (`ulimit -f`) the build fails with one line naming the output, leaves no
/// temporary file and keeps the previous store (issue 16: killed by SIGXFSZ with no message, its
/// temporary files left behind).
@Suite struct FileSizeLimitTests {
    @Test func aBuildPastTheFileSizeLimitFailsCleanly() throws {
        let scratch = try Scratch()
        try scratch.writeModel("Rows", """
            <entity name="Row"><attribute name="id" attributeType="Integer 64"/><attribute name="text" optional="YES" attributeType="String"/></entity>
            """)
        try scratch.write("small.csv", "id,text\n1,one\n")
        var rows = "id,text\n"
        for index in 0..<20_000 { rows += "\(index),\(String(repeating: "x", count: 40))\n" }
        try scratch.write("rows.csv", rows)
        for (spec, source) in [("small.json", "small.csv"), ("rows.json", "rows.csv")] {
            try scratch.write(spec, """
                { "model": "Rows.xcdatamodeld", "output": "Rows.sqlite", "sources": { "r": { "csv": "\(source)" } },
                  "entities": { "Row": { "from": "r", "key": "id" } } }
                """)
        }
        #expect(try scratch.run(["build", "small.json", "--quiet"]).status == 0)
        let previous = try Data(contentsOf: scratch.url.appendingPathComponent("Rows.sqlite"))
        // 200 blocks of 512 bytes: the small store fits, the large one does not.
        let result = try BinaryRunner.run(executable: URL(fileURLWithPath: "/bin/sh"),
                                          ["-c", "ulimit -f 200; exec \"$0\" build rows.json", BinaryRunner.binary.path], in: scratch.url)
        #expect(result.status == 73)
        #expect(result.stderr == "Rows.sqlite: error: cannot write the store: disk I/O error (is the disk full, or a file size limit such as ulimit -f reached?); nothing was replaced\n")
        #expect(try Data(contentsOf: scratch.url.appendingPathComponent("Rows.sqlite")) == previous)
        let names = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted()
        #expect(names == ["Rows.sqlite", "Rows.xcdatamodeld", "rows.csv", "rows.json", "small.csv", "small.json"])
    }
}

/// A replaced output keeps its permission bits, and a symlinked output stays a link to the store it
/// names (issue 16: 0600 became 0644, a symlink became a plain file).
@Suite struct OutputOwnershipTests {
    @Test func theReplacedStoreKeepsItsModeAndItsSymlink() throws {
        let scratch = try InputsAreSacredTests.prepare()
        try FileManager.default.createDirectory(atPath: scratch.path("real"), withIntermediateDirectories: true)
        #expect(try scratch.run(["build", "spec.json", "--output", "real/Library.sqlite", "--quiet"]).status == 0)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: scratch.path("real/Library.sqlite"))
        try FileManager.default.createSymbolicLink(atPath: scratch.path("Link.sqlite"), withDestinationPath: "real/Library.sqlite")
        try scratch.write("books.csv", "isbn,title\n1,Alpha\n2,Beta\n")
        let result = try scratch.run(["build", "spec.json", "--output", "Link.sqlite", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: scratch.path("Link.sqlite")) == "real/Library.sqlite")
        let attributes = try FileManager.default.attributesOfItem(atPath: scratch.path("real/Library.sqlite"))
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(try scratch.query("real/Library.sqlite", "SELECT count(*) FROM ZBOOK") == [["2"]])
    }
}

/// A report that cannot be written fails the build before the store is replaced (issue 16: exit 73
/// after the output was already replaced).
@Suite struct UnwritableReportTests {
    @Test func anUnwritableReportReplacesNothing() throws {
        let scratch = try InputsAreSacredTests.prepare()
        #expect(try scratch.run(["build", "spec.json", "--quiet"]).status == 0)
        let before = try Data(contentsOf: scratch.url.appendingPathComponent("Library.sqlite"))
        try scratch.write("books.csv", "isbn,title\n1,Alpha\n2,Beta\n")
        let result = try scratch.run(["build", "spec.json", "--report", "no/such/folder/report.json"])
        #expect(result.status == 73)
        #expect(result.stderr == "no/such/folder/report.json: error: cannot write the report: No such file or directory; nothing was built\n")
        #expect(try Data(contentsOf: scratch.url.appendingPathComponent("Library.sqlite")) == before)
    }
}

/// A model that is not well-formed XML is said in words, with its line (issue 16: "NSXMLParserErrorDomain error 5").
@Suite struct MalformedModelXMLTests {
    @Test(arguments: [
        ("<model><entity name=\"E\">\n<attribute name=\"id\" attributeType=\"Integer 64\"/>\n", ":2: error: not a valid model file: the document ends before its elements are closed\n"),
        ("<model><entity name=\"E\" name=\"F\"/></model>", ":1: error: not a valid model file: an attribute given twice\n"),
    ])
    func malformedXMLIsSaidInWords(_ contents: String, _ ending: String) throws {
        let scratch = try Scratch()
        try scratch.write("M.xcdatamodeld/M.xcdatamodel/contents", contents)
        let result = try scratch.run(["hashes", "M.xcdatamodeld"])
        #expect(result.status == 66)
        #expect(result.stderr == "M.xcdatamodeld/M.xcdatamodel/contents" + ending)
        #expect(!result.stderr.contains("NSXMLParserErrorDomain"))
    }
}
