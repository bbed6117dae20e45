import Foundation
import Testing
@testable import CoreSeed
import CoreSeedTestSupport

/// One body of records in many documents around it — prologs, epilogs, shapes and errors — read as
/// the user sees them: every record with its values and line, then the error with line and column.
@Suite struct XMLDocumentTests {
    static let fields = [("id", "@id"), ("name", "name"), ("tags", "tag"), ("second", "tag[2]"), ("group", "../@code"),
                         ("n", "#"), ("own", "."), ("deep", "sub/x/@v"), ("top", "../../@t")].map { SourceField(name: $0.0, path: $0.1) }

    static let body = """
        <root t="top"><group code="g1">
          <item id="1"> own <name>Z\u{FC}rich &lt;&gt;&quot;&apos;&amp; \u{4E2D}\u{1F600}</name><tag>a</tag><tag>b</tag></item>
          <item id='2' ><!-- a comment --><name>x > y</name><sub><x v="deep"/></sub></item>
          <item
            id="3"
            other = 'a "quoted" > value'><name/>\t<tag>c</tag>
          </item>
          <empty/><item id="4"/>
        </group><group code="g2"><item id="5">\u{7F}</item></group></root>
        """

    static let name1 = "Z\u{FC}rich <>\"'& \u{4E2D}\u{1F600}"
    /// The body's records, in order.
    static let bodyValues: [[FieldValue]] = [
        [.text("1"), .text(name1), .list([.text("a"), .text("b")]), .text("b"), .text("g1"), .integer(1), .text(" own "), .null, .text("top")],
        [.text("2"), .text("x > y"), .null, .null, .text("g1"), .integer(2), .text(""), .text("deep"), .text("top")],
        [.text("3"), .text(""), .text("c"), .null, .text("g1"), .integer(3), .text(""), .null, .text("top")],
        [.text("4"), .null, .null, .null, .text("g1"), .integer(4), .text(""), .null, .text("top")],
        [.text("5"), .null, .null, .null, .text("g2"), .integer(5), .text("\u{7F}"), .null, .text("top")],
    ]

    /// A document, and what it reads as: the first `records` of the body's records (with
    /// `changes`) at `lines`, then `error` (`FILE` standing for its path), if any.
    struct Case: Sendable, CustomTestStringConvertible {
        let document: String
        let records: Int
        let lines: [Int]
        var error: String?
        var changes: [(record: Int, field: Int, value: FieldValue)] = []
        var testDescription: String { String(document.prefix(60)).debugDescription }
    }

    static let lines = [2, 3, 6, 8, 9]

    /// The body with one piece replaced.
    static func with(_ piece: String, as replacement: String) -> String {
        body.replacingOccurrences(of: piece, with: replacement)
    }

    static let cases: [Case] = {
        let latin1Name = String(String.UnicodeScalarView(name1.utf8.map { Unicode.Scalar($0) }))
        let all = lines
        let three = Array(lines.prefix(3))
        let later = [2, 3, 6, 9, 10]
        return [
            // Prologs and epilogs that are fine.
            Case(document: body, records: 5, lines: all),
            Case(document: "<?xml version=\"1.0\"?>\n" + body, records: 5, lines: all.map { $0 + 1 }),
            Case(document: "<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<!-- c -->\n" + body + "\n<!-- after -->\n",
                 records: 5, lines: all.map { $0 + 2 }),
            Case(document: "<?xml version = \"1.0\"\n encoding=\"UTF-8\"?>" + body, records: 5, lines: all.map { $0 + 1 }),
            Case(document: "<?xml version=\"1.1\"?>" + body, records: 5, lines: all),
            Case(document: "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>" + body, records: 5, lines: all,
                 changes: [(0, 1, .text(latin1Name))]),
            Case(document: "\u{FEFF}" + body, records: 5, lines: all),
            Case(document: "<!DOCTYPE root>" + body, records: 5, lines: all),
            Case(document: "<?pi x?>" + body, records: 5, lines: all),
            // Prologs, epilogs and documents that are not.
            Case(document: "<?xml version=\"1.0\"encoding=\"UTF-8\"?>" + body, records: 0, lines: [],
                 error: "FILE:1:20: error: XML error: Blank needed here"),
            Case(document: "<?xml version=\"1.0\" standalone=\"yes\" encoding=\"UTF-8\"?>" + body, records: 0, lines: [],
                 error: "FILE:1:38: error: XML error: parsing XML declaration: '?>' expected"),
            Case(document: "<?xml version=\"1.0' ?>" + body, records: 0, lines: [],
                 error: "FILE:1:19: error: XML error: String not closed expecting \" or '"),
            Case(document: " <?xml version=\"1.0\"?>" + body, records: 0, lines: [],
                 error: "FILE:1:7: error: XML error: XML declaration allowed only at the start of the document"),
            Case(document: body + "<extra/>", records: 5, lines: all, error: "FILE:9:62: error: XML error: Extra content at the end of the document"),
            Case(document: body + "text", records: 5, lines: all, error: "FILE:9:62: error: XML error: Extra content at the end of the document"),
            Case(document: "", records: 0, lines: [], error: "FILE:1:1: error: XML error: Document is empty"),
            Case(document: "   ", records: 0, lines: [], error: "FILE:1:4: error: XML error: Start tag expected, '<' not found"),
            Case(document: "<root>", records: 0, lines: [], error: "FILE:1:7: error: XML error: Premature end of data in tag root line 1"),
            Case(document: with("</root>", as: ""), records: 5, lines: all,
                 error: "FILE:9:55: error: XML error: Premature end of data in tag root line 1"),
            // Shapes inside the document that are fine.
            Case(document: with("<tag>c</tag>", as: "<tag><![CDATA[c]]></tag>"), records: 5, lines: all),
            Case(document: with("<empty/>", as: "<empty>\r\n</empty>"), records: 5, lines: later),
            Case(document: with("<empty/>", as: "<empty>&#65;&#x42;</empty>"), records: 5, lines: all),
            Case(document: with("<empty/>", as: "<e:mpty xmlns:e=\"urn:e\"/>"), records: 5, lines: all),
            Case(document: with("<empty/>", as: "<empty xmlns=\"urn:e\"/>"), records: 5, lines: all),
            Case(document: with("<empty/>", as: "<\u{E9}mpty/>"), records: 5, lines: all),
            Case(document: with("<empty/>", as: "<empty a=\"x\ny\"/>"), records: 5, lines: later),
            Case(document: with("<empty/>", as: "<empty a=\"x&amp;y\"/>"), records: 5, lines: all),
            Case(document: with("code=\"g1\"", as: "code=\"g&amp;1\""), records: 5, lines: all,
                 changes: (0..<4).map { ($0, 4, .text("g&1")) }),
            Case(document: with("<empty/>", as: "<empty></empty >"), records: 5, lines: all),
            Case(document: with("<empty/>", as: "<?pi in content?>"), records: 5, lines: all),
            // Errors inside the document: the records before them come first.
            Case(document: with("<empty/>", as: "<empty>&undeclared;</empty>"), records: 3, lines: three,
                 error: "FILE:8:22: error: XML error: Entity 'undeclared' not defined"),
            Case(document: with("<empty/>", as: "<empty a=\"1\" a=\"2\"/>"), records: 3, lines: three,
                 error: "FILE:8:21: error: XML error: Attribute a redefined"),
            Case(document: with("<empty/>", as: "<empty a=\"1\"b=\"2\"/>"), records: 3, lines: three,
                 error: "FILE:8:15: error: XML error: attributes construct error"),
            Case(document: with("<empty/>", as: "<empty a=\"x<y\"/>"), records: 3, lines: three,
                 error: "FILE:8:14: error: XML error: Unescaped '<' not allowed in attributes values"),
            Case(document: with("<empty/>", as: "<empty>]]></empty>"), records: 3, lines: three,
                 error: "FILE:8:10: error: XML error: Sequence ']]>' not allowed in content"),
            Case(document: with("<empty/>", as: "<empty><!-- a -- b --></empty>"), records: 3, lines: three,
                 error: "FILE:8:17: error: XML error: Double hyphen within comment: <!-- a"),
            Case(document: with("<empty/>", as: "<empty>\u{FFFE}</empty>"), records: 3, lines: three,
                 error: "FILE:8:10: error: XML error: Char 0xFFFE out of allowed range"),
            Case(document: with("<empty/>", as: "<empty>\u{1}</empty>"), records: 3, lines: three,
                 error: "FILE:8:10: error: XML error: PCDATA invalid Char value 1"),
            Case(document: with("<empty/>", as: "<empty></empt>"), records: 3, lines: three,
                 error: "FILE:8:17: error: XML error: Opening and ending tag mismatch: empty line 8 and empt"),
            Case(document: with("<empty/>", as: "<empty/ >"), records: 3, lines: three,
                 error: "FILE:8:9: error: XML error: error parsing attribute name"),
        ]
    }()

    /// Records then the error message, if any, as `next()` gives them.
    static func read(_ path: String, chunkSize: Int = 256 * 1024) -> (records: [Record], error: [String]?) {
        var records: [Record] = []
        do {
            let reader = try XMLRecordReader(path: path, records: "/root/group/item", fields: fields, chunkSize: chunkSize)
            while let record = try reader.next() { records.append(record) }
            return (records, nil)
        } catch {
            return (records, error.diagnosticLines)
        }
    }

    @Test(arguments: cases)
    func readsAsExpected(_ example: Case) throws {
        let scratch = try Scratch()
        let path = try scratch.file("d.xml", example.document)
        var values = Array(Self.bodyValues.prefix(example.records))
        for change in example.changes { values[change.record][change.field] = change.value }
        // Whole, and with the file read a few bytes at a time.
        for chunkSize in [256 * 1024, 3] {
            let read = Self.read(path, chunkSize: chunkSize)
            #expect(read.records.map(\.values) == values)
            #expect(read.records.map(\.location.line) == example.lines)
            #expect(read.error == example.error.map { [$0.replacingOccurrences(of: "FILE", with: path)] })
        }
    }

    /// The body's records in full: values, lines, and where each comes from.
    @Test func theBodyIsReadWhole() throws {
        let scratch = try Scratch()
        let path = try scratch.file("d.xml", Self.body)
        let records = Self.read(path)
        #expect(records.error == nil)
        #expect(records.records.map(\.location.line) == [2, 3, 6, 8, 9])
        #expect(records.records[0].values == [.text("1"), .text("Z\u{FC}rich <>\"'& \u{4E2D}\u{1F600}"), .list([.text("a"), .text("b")]),
                                              .text("b"), .text("g1"), .integer(1), .text(" own "), .null, .text("top")])
        #expect(records.records[2].values[0] == .text("3") && records.records[2].values[6] == .text(""))
    }

    /// Many batches of records, then an error: every record before it comes first, the ordinals
    /// counted across batches, and the error has its line and column.
    @Test func recordsOfSeveralBatchesThenAnError() throws {
        let scratch = try Scratch()
        var document = "<root t=\"t\"><group code=\"g\">\n"
        for index in 0..<2000 { document += "<item id=\"\(index)\"><name>n\(index)</name></item>\n" }
        document += "<item id=\"cdata\"><name><![CDATA[c]]></name></item>\n"
        for index in 0..<300 { document += "<item id=\"b\(index)\"/>\n" }
        let path = try scratch.file("d.xml", document + "<item></oops></group></root>")
        let read = Self.read(path)
        #expect(read.records.count == 2301)
        #expect(read.records[1999].values[0...1] == [.text("1999"), .text("n1999")])
        #expect(read.records[2000].values[0...1] == [.text("cdata"), .text("c")])
        #expect(read.records[2300].values[0] == .text("b299") && read.records[2300].values[5] == .integer(2301))
        #expect(read.records.map(\.location.line) == Array(2...2302))
        #expect(read.error == ["\(path):2303:14: error: XML error: Opening and ending tag mismatch: item line 2303 and oops"])
    }
}
