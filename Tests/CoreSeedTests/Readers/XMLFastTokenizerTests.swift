import Foundation
import Testing
@testable import CoreSeed

/// The tokenizer must give exactly what libxml2 alone gives — the same records, lines and errors —
/// whether it reads a document whole or hands over to libxml2 part-way.
@Suite struct XMLFastTokenizerTests {
    static let fields = [("id", "@id"), ("name", "name"), ("tags", "tag"), ("second", "tag[2]"), ("group", "../@code"),
                         ("n", "#"), ("own", "."), ("deep", "sub/x/@v"), ("top", "../../@t")].map { XMLFieldSpec(name: $0.0, path: $0.1) }

    /// Records (values and lines) then the error, if any, as `next()` gives them.
    static func read(_ path: String, tokenizerFirst: Bool, chunkSize: Int = 256 * 1024) -> (records: [Record], error: [String]?, libxml2: Bool) {
        do {
            let reader = try XMLRecordReader(path: path, records: "/root/group/item", fields: fields, chunkSize: chunkSize,
                                             tokenizerFirst: tokenizerFirst)
            var records: [Record] = []
            do {
                while let record = try reader.next() { records.append(record) }
                return (records, nil, reader.readByLibxml2)
            } catch {
                return (records, error.diagnosticLines, reader.readByLibxml2)
            }
        } catch {
            return ([], error.diagnosticLines, true)
        }
    }

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

    /// Documents the tokenizer reads whole, and documents it hands over (at the start, in the middle,
    /// at the end; errors and shapes it leaves to libxml2).
    static let documents: [(document: String, whole: Bool)] = {
        let body: String = Self.body
        var list: [(document: String, whole: Bool)] = []
        // Read whole.
        list.append((body, true))
        list.append(("<?xml version=\"1.0\"?>\n" + body, true))
        list.append(("<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<!-- c -->\n" + body + "\n<!-- after -->\n", true))
        list.append(("<?xml version = \"1.0\"\n encoding=\"UTF-8\"?>" + body, true))
        // Handed over: declarations, prolog and epilog.
        list.append(("<?xml version=\"1.1\"?>" + body, false))
        list.append(("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>" + body, false))
        list.append(("<?xml version=\"1.0\"encoding=\"UTF-8\"?>" + body, false))
        list.append(("<?xml version=\"1.0\" standalone=\"yes\" encoding=\"UTF-8\"?>" + body, false))
        list.append(("<?xml version=\"1.0' ?>" + body, false))
        list.append((" <?xml version=\"1.0\"?>" + body, false))
        list.append(("\u{FEFF}" + body, false))
        list.append(("<!DOCTYPE root>" + body, false))
        list.append(("<?pi x?>" + body, false))
        list.append((body + "<extra/>", false))
        list.append((body + "text", false))
        list.append(("", false))
        list.append(("   ", false))
        list.append(("<root>", false))
        // Handed over inside the document.
        list.append((body.replacingOccurrences(of: "<tag>c</tag>", with: "<tag><![CDATA[c]]></tag>"), false))
        list.append((body.replacingOccurrences(of: "<empty/>", with: "<empty>\r\n</empty>"), false))
        list.append((body.replacingOccurrences(of: "<empty/>", with: "<empty>&#65;&#x42;</empty>"), false))
        list.append((body.replacingOccurrences(of: "<empty/>", with: "<empty>&undeclared;</empty>"), false))
        list.append((body.replacingOccurrences(of: "<empty/>", with: "<e:mpty xmlns:e=\"urn:e\"/>"), false))
        list.append((body.replacingOccurrences(of: "<empty/>", with: "<empty xmlns=\"urn:e\"/>"), false))
        list.append((body.replacingOccurrences(of: "<empty/>", with: "<\u{E9}mpty/>"), false))
        list.append((body.replacingOccurrences(of: "<empty/>", with: "<empty a=\"1\" a=\"2\"/>"), false))
        list.append((body.replacingOccurrences(of: "<empty/>", with: "<empty a=\"1\"b=\"2\"/>"), false))
        list.append((body.replacingOccurrences(of: "<empty/>", with: "<empty a=\"x\ny\"/>"), false))
        list.append((body.replacingOccurrences(of: "<empty/>", with: "<empty a=\"x&amp;y\"/>"), false))
        list.append((body.replacingOccurrences(of: "code=\"g1\"", with: "code=\"g&amp;1\""), false))
        list.append((body.replacingOccurrences(of: "<empty/>", with: "<empty a=\"x<y\"/>"), false))
        list.append((body.replacingOccurrences(of: "<empty/>", with: "<empty>]]></empty>"), false))
        list.append((body.replacingOccurrences(of: "<empty/>", with: "<empty><!-- a -- b --></empty>"), false))
        list.append((body.replacingOccurrences(of: "<empty/>", with: "<empty>\u{FFFE}</empty>"), false))
        list.append((body.replacingOccurrences(of: "<empty/>", with: "<empty>\u{1}</empty>"), false))
        list.append((body.replacingOccurrences(of: "<empty/>", with: "<empty></empt>"), false))
        list.append((body.replacingOccurrences(of: "<empty/>", with: "<empty></empty >"), true))
        list.append((body.replacingOccurrences(of: "<empty/>", with: "<empty/ >"), false))
        list.append((body.replacingOccurrences(of: "<empty/>", with: "<?pi in content?>"), false))
        list.append((body.replacingOccurrences(of: "</root>", with: ""), false))
        return list
    }()

    /// Each document: libxml2 alone reads it the same.
    @Test(arguments: documents)
    func sameAsLibxml2Alone(_ example: (document: String, whole: Bool)) throws {
        let scratch = try Scratch()
        let path = try scratch.file("d.xml", example.document)
        let expected = Self.read(path, tokenizerFirst: false)
        let fast = Self.read(path, tokenizerFirst: true)
        #expect(fast.records == expected.records)
        #expect(fast.error == expected.error)
        #expect(fast.libxml2 == !example.whole)
        // And with the file read a few bytes at a time.
        let small = Self.read(path, tokenizerFirst: true, chunkSize: 3)
        #expect(small.records == expected.records)
        #expect(small.error == expected.error)
    }

    /// The whole body is read by the tokenizer: its records are there, and libxml2 agrees.
    @Test func theBodyIsReadWhole() throws {
        let scratch = try Scratch()
        let path = try scratch.file("d.xml", Self.body)
        let records = Self.read(path, tokenizerFirst: true)
        #expect(records.error == nil && !records.libxml2)
        #expect(records.records.map(\.location.line) == [2, 3, 6, 8, 9])
        #expect(records.records[0].values == [.text("1"), .text("Z\u{FC}rich <>\"'& \u{4E2D}\u{1F600}"), .list([.text("a"), .text("b")]),
                                              .text("b"), .text("g1"), .integer(1), .text(" own "), .null, .text("top")])
        #expect(records.records[2].values[0] == .text("3") && records.records[2].values[6] == .text(""))
    }

    /// Handed over after several batches: libxml2 goes on from the first record not yet delivered,
    /// the ordinals and the error as if it had read the document alone.
    @Test func handOverAfterSeveralBatches() throws {
        let scratch = try Scratch()
        var document = "<root t=\"t\"><group code=\"g\">\n"
        for index in 0..<2000 { document += "<item id=\"\(index)\"><name>n\(index)</name></item>\n" }
        document += "<item id=\"cdata\"><name><![CDATA[c]]></name></item>\n"
        for index in 0..<300 { document += "<item id=\"b\(index)\"/>\n" }
        let path = try scratch.file("d.xml", document + "<item></oops></group></root>")
        let expected = Self.read(path, tokenizerFirst: false)
        let fast = Self.read(path, tokenizerFirst: true)
        #expect(expected.records.count == 2301)
        #expect(fast.records == expected.records)
        #expect(fast.error == expected.error && fast.error != nil)
        #expect(fast.libxml2)
    }
}
