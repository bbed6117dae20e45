import Foundation
import Testing
@testable import CoreSeed
import CoreSeedTestSupport

/// CoreSeed's whitespace rule for XML (docs/SPEC.md, "Whitespace"): text is kept exactly as
/// written, CDATA included; a run of text between tags that is whitespace only is ignored, unless
/// `xml:space="preserve"` says otherwise.
@Suite struct XMLWhitespaceTests {
    /// The values of field `v` (or the fields given) of every `/r/i` record of `document`.
    static func values(_ document: String, fields: [(String, String)] = [("v", "v")]) throws -> [[FieldValue]] {
        let scratch = try Scratch()
        let path = try scratch.file("ws.xml", document)
        let specs = fields.map { SourceField(name: $0.0, path: $0.1) }
        return try XMLRecordReader(path: path, records: "/r/i", fields: specs).all().map(\.values)
    }

    @Test func spacesInsideAValueAreKept() throws {
        let document = "<r><i><v>  padded  </v></i><i><v>\n  two\n  lines\n</v></i><i><v>\ttab</v></i><i><v>a  <b>bold</b>  c</v></i></r>"
        #expect(try Self.values(document) == [[.text("  padded  ")], [.text("\n  two\n  lines\n")], [.text("\ttab")], [.text("a  bold  c")]])
    }

    @Test func whitespaceOnlyTextBetweenElementsIsIgnored() throws {
        let document = """
            <r>
              <i>
                <v>
                  <a>1</a>
                  <b>2</b>
                </v>
                <w/>
              </i>
              <i><v>   </v><w>\t\n </w></i>
              <i><v></v><w/></i>
              <i/>
            </r>
            """
        let values = try Self.values(document, fields: [("v", "v"), ("w", "w"), ("own", ".")])
        #expect(values == [[.text("12"), .text(""), .text("")], [.text(""), .text(""), .text("")],
                           [.text(""), .text(""), .text("")], [.null, .null, .text("")]])
    }

    @Test func cdataIsKeptAsWritten() throws {
        let document = """
            <r><i><v><![CDATA[  a < b & c  ]]></v></i><i><v><![CDATA[ ]]></v></i><i><v><![CDATA[]]></v></i>\
            <i><v>a <![CDATA[b]]> c</v></i><i><v><![CDATA[x]]><![CDATA[y]]></v></i></r>
            """
        #expect(try Self.values(document) == ["  a < b & c  ", " ", "", "a b c", "xy"].map { [.text($0)] })
    }

    /// Whitespace around a CDATA section is a run of its own: ignored when it is whitespace only.
    /// (Until issue 12 whitespace before CDATA was judged as libxml2's tree builder does with
    /// `XML_PARSE_NOBLANKS`, which gave "x\n" for the first and "   w" for the fourth.)
    @Test func whitespaceAroundCDATA() throws {
        let scratch = try Scratch()
        let path = try scratch.file("ws.xml", """
            <r>
            <i>
              <![CDATA[x]]>
            </i><i>  <![CDATA[y]]></i><i><b/>t<c/>  <![CDATA[z]]></i><i>&#32;  <![CDATA[w]]></i>\
            <i xml:space="preserve">  <![CDATA[p]]></i><i>a&amp;b<!--c--> <![CDATA[q]]></i></r>
            """)
        let records = try XMLRecordReader(path: path, records: "/r/i", fields: [SourceField(name: "v", path: ".")]).all()
        #expect(records.map(\.values) == ["x", "y", "tz", "w", "  p", "a&b q"].map { [.text($0)] })
        let declared = try scratch.file("dtd.xml", "<!DOCTYPE r [<!ELEMENT i (b)*>]>\n<r><i><b/>  <![CDATA[x]]></i><i>\t<![CDATA[y]]></i></r>")
        let fromDTD = try XMLRecordReader(path: declared, records: "/r/i", fields: [SourceField(name: "v", path: ".")]).all()
        #expect(fromDTD.map(\.values) == [[.text("x")], [.text("y")]])
    }

    /// XML reads every CRLF (and lone CR) as LF, in text and in CDATA; a whitespace-only run of
    /// CRLFs is ignored like any other, and lines count CRLF once.
    @Test func crlfLineEnds() throws {
        let scratch = try Scratch()
        let path = try scratch.file("crlf.xml", "<r>\r\n  <i>\r\n    <v>one\r\ntwo\rthree</v>\r\n  </i>\r\n  <i><v><![CDATA[a\r\nb]]></v></i>\r\n</r>\r\n")
        let records = try XMLRecordReader(path: path, records: "/r/i", fields: [SourceField(name: "v", path: "v"), SourceField(name: "own", path: ".")]).all()
        #expect(records.map(\.values) == [[.text("one\ntwo\nthree"), .text("")], [.text("a\nb"), .text("")]])
        #expect(records.map(\.location.line) == [2, 6])
    }

    /// Comments and processing instructions are left out of text without splitting it.
    @Test func commentsDoNotSplitText() throws {
        let document = "<r><i><v>a<!-- note --> b</v></i><i><v>  <!-- c -->  </v></i><i><v>x<?pi?>y</v></i></r>"
        #expect(try Self.values(document) == ["a b", "", "xy"].map { [.text($0)] })
    }

    /// `xml:space="preserve"` keeps whitespace-only runs, on the element and inside it, until
    /// `xml:space="default"`.
    @Test func xmlSpacePreserve() throws {
        let document = """
            <r><i><v xml:space="preserve">  </v></i><i xml:space="preserve"><v>\n</v></i>\
            <i xml:space="preserve"><v xml:space="default"> </v></i><i><v xml:space="other"> </v></i></r>
            """
        #expect(try Self.values(document) == ["  ", "\n", "", ""].map { [.text($0)] })
    }

    /// Whitespace is whitespace however it is written: a character reference to a space is no
    /// exception; a no-break space is not whitespace.
    @Test func characterReferences() throws {
        let document = "<r><i><v>&#32;&#x9;</v></i><i><v>&#160;</v></i><i><v>a&#32;</v></i></r>"
        #expect(try Self.values(document) == ["", "\u{A0}", "a "].map { [.text($0)] })
    }

    /// The example in docs/SPEC.md, "Whitespace", as written there.
    @Test func theSpecExample() throws {
        let spec = try String(contentsOf: TestPaths.repositoryRoot.appendingPathComponent("docs/SPEC.md"), encoding: .utf8)
        let start = try #require(spec.range(of: "  ```xml\n  <provider>"))
        let end = try #require(spec.range(of: "  ```\n", range: start.upperBound..<spec.endIndex))
        let example = spec[start.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.dropFirst(2) }.joined(separator: "\n")
        let scratch = try Scratch()
        let path = try scratch.file("example.xml", "<provider>" + example)
        let fields = [".", "name", "username", "password", "plan", "apn"].map { SourceField(name: $0, path: $0) }
        let records = try XMLRecordReader(path: path, records: "/provider", fields: fields).all()
        #expect(records.map(\.values) == [[.text(""), .text(" Walk & Talk "), .text(""), .text(" "), .text("prepaid"), .null]])
    }

    /// Attribute values are taken as XML normalizes them: a line end or tab written as such is a
    /// space, one written as a character reference is kept; spaces are never trimmed.
    @Test func attributeValues() throws {
        let document = "<r><i a=\"  x  \"/><i a=\"x\ny\tz\"/><i a=\"x&#10;y\"/><i a=\"\"/><i a=\"   \"/></r>"
        #expect(try Self.values(document, fields: [("a", "@a")]) == ["  x  ", "x y z", "x\ny", "", "   "].map { [.text($0)] })
    }
}

extension XMLWhitespaceTests {
    /// A run of text over 64 MiB (a comment does not end it) is refused, wanted or not, at the
    /// place where it passed the limit.
    @Test(arguments: [("v", "v"), ("other", "w")])
    func runsOfTextAreLimited(_ field: (String, String)) throws {
        let scratch = try Scratch()
        let limit = XMLRecordScanner.maximumTextLength
        let fine = try scratch.file("fine.xml", "<r><i><v>" + String(repeating: "a", count: limit) + "</v></i></r>")
        #expect(try XMLRecordReader(path: fine, records: "/r/i", fields: [SourceField(name: field.0, path: field.1)]).all().count == 1)
        let path = try scratch.file("huge.xml", "<r>\n<i><v>" + String(repeating: "a", count: limit / 2) + "<!-- c -->"
                                    + String(repeating: "b", count: limit / 2 + 1) + "</v></i></r>")
        let reader = try XMLRecordReader(path: path, records: "/r/i", fields: [SourceField(name: field.0, path: field.1)])
        let error = readerError { _ = try reader.all() }
        // The run passes the limit with its last byte: the column is the one after it.
        let column = "<i><v>".count + limit / 2 + "<!-- c -->".count + limit / 2 + 1 + 1
        #expect(error?.diagnosticLines == ["\(path):2:\(column): error: a run of text longer than 64 MiB (67108864 bytes), the most one XML value may hold (a CSV record's limit too): put such a value in a file of its own and read it with \"file\": true"])
    }

    /// Issue 24, item 14: an 11 MB text value failed ("huge text node", libxml2's tree builder's
    /// 10 MB) while CSV and JSON took 50 MB: XML takes what a CSV record may hold.
    @Test func anElevenMegabyteValueIsRead() throws {
        let scratch = try Scratch()
        let text = String(repeating: "abcdefghij", count: 1_100_000)
        let path = try scratch.file("big.xml", "<r><i><v>\(text)</v><w>x</w></i></r>")
        let records = try XMLRecordReader(path: path, records: "/r/i", fields: [SourceField(name: "v", path: "v"), SourceField(name: "w", path: "w")]).all()
        #expect(records.count == 1)
        #expect(records.first?.values == [.text(text), .text("x")])
    }
}
