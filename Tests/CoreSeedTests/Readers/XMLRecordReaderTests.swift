import Foundation
import Testing
@testable import CoreSeed
import CoreSeedTestSupport

@Suite struct XMLRecordReaderTests {
    static let providers = TestPaths.inputs.appendingPathComponent("serviceproviders.xml").path
    static let providerFields = [SourceField(name: "country", path: "../@code"), SourceField(name: "name", path: "name"),
                                 SourceField(name: "mcc", path: "gsm/network-id/@mcc")]

    /// The file has 702 `<provider` start tags, but two of them are inside comments: 700 records.
    @Test func serviceProvidersYieldEveryProviderWithItsCountry() throws {
        let reader = try XMLRecordReader(path: Self.providers, records: "/serviceproviders/country/provider", fields: Self.providerFields)
        #expect(reader.fieldNames == ["country", "name", "mcc"])
        let records = try reader.all()
        #expect(records.count == 700)
        #expect(records.allSatisfy { if case .text(let c) = $0.values[0] { return c.count == 2 } else { return false } })
        // Every provider has a name; a few have one per language (`xml:lang`), which makes a list.
        #expect(records.allSatisfy { $0.values[1] != .null })
        #expect(records.filter { if case .list = $0.values[1] { return true } else { return false } }.count == 23)
        #expect(records[0].values[0] == .text("ad") && records[0].values[1] == .text("Andorra Telecom (Mobiland)"))
        #expect(records[1].values[0] == .text("ae"))
        #expect(records[0].location.description == "\(Self.providers):44")
    }

    /// The DOCTYPE names `serviceproviders.2.dtd`, which is not beside the file in Inputs/. Put one beside
    /// a copy, broken so that reading it would fail the parse: it is never read.
    @Test func parsesTheSameWithoutItsDTD() throws {
        let scratch = try Scratch()
        let copy = scratch.directory.appendingPathComponent("serviceproviders.xml").path
        try FileManager.default.copyItem(atPath: Self.providers, toPath: copy)
        _ = try scratch.file("serviceproviders.2.dtd", "<!ELEMENT serviceproviders (country*\n<!ATTLIST country code")
        let alone = try XMLRecordReader(path: Self.providers, records: "/serviceproviders/country/provider", fields: Self.providerFields).all()
        let beside = try XMLRecordReader(path: copy, records: "/serviceproviders/country/provider", fields: Self.providerFields).all()
        #expect(alone.map(\.values) == beside.map(\.values))
        #expect(alone.count == 700)
    }

    @Test func fieldShapes() throws {
        let scratch = try Scratch()
        let path = try scratch.file("f.xml", """
            <root><group code="g1">
              <item id="1">own <b>bold</b> text<name>One</name><tag>a</tag><tag>b</tag>
                <sub><deep v="x"/><deep v="y"/></sub><empty/></item>
              <item id="2"/>
            </group></root>
            """)
        let fields = [("id", "@id"), ("name", "name"), ("tags", "tag"), ("v", "sub/deep/@v"), ("self", "."),
                      ("group", "../@code"), ("top", "../../@none"), ("empty", "empty"), ("missing", "nothere")]
            .map { SourceField(name: $0.0, path: $0.1) }
        let records = try XMLRecordReader(path: path, records: "/root/group/item", fields: fields).all()
        #expect(records.count == 2)
        #expect(records[0].values == [.text("1"), .text("One"), .list([.text("a"), .text("b")]), .list([.text("x"), .text("y")]),
                                      .text("own  text"), .text("g1"), .null, .text(""), .null])
        #expect(records[1].values == [.text("2"), .null, .null, .null, .text(""), .text("g1"), .null, .null, .null])
        #expect(records[1].location.line == 4)
    }

    @Test func billionLaughsIsRefusedFastInBoundedMemory() throws {
        let scratch = try Scratch()
        var doctype = "<!DOCTYPE lolz [\n <!ENTITY lol \"lol\">\n"
        for level in 2...9 {
            doctype += " <!ENTITY lol\(level) \"" + String(repeating: "&lol\(level == 2 ? "" : String(level - 1));", count: 10) + "\">\n"
        }
        let path = try scratch.file("lol.xml", "<?xml version=\"1.0\"?>\n\(doctype)]>\n<lolz><lol>&lol9;</lol></lolz>\n")
        let start = Date()
        let error = readerError {
            _ = try XMLRecordReader(path: path, records: "/lolz/lol", fields: [SourceField(name: "v", path: ".")]).all()
        }
        #expect(error?.diagnosticLines == ["\(path): error: the document declares entities, which are not expanded",
                                           "note: remove the <!ENTITY> declarations; entity expansion is refused for safety"])
        #expect(Date().timeIntervalSince(start) < 2)
    }

    @Test func externalEntityIsNeverRead() throws {
        let scratch = try Scratch()
        let secret = try scratch.file("secret.txt", "TOP-SECRET-CONTENT")
        let path = try scratch.file("xxe.xml", """
            <?xml version="1.0"?>
            <!DOCTYPE r [ <!ENTITY xxe SYSTEM "file://\(secret)"> ]>
            <r><item>&xxe;</item></r>
            """)
        let reader = try XMLRecordReader(path: path, records: "/r/item", fields: [SourceField(name: "v", path: ".")])
        var seen: [Record] = []
        let error = readerError { while let record = try reader.next() { seen.append(record) } }
        #expect(error?.message == "the document declares entities, which are not expanded")
        #expect(!seen.contains { "\($0.values)".contains("TOP-SECRET") })
    }

    @Test func syntaxErrorHasLineAndColumn() throws {
        let scratch = try Scratch()
        let path = try scratch.file("bad.xml", "<r><item>x</item>\n<item>y</oops></r>")
        let reader = try XMLRecordReader(path: path, records: "/r/item", fields: [SourceField(name: "v", path: ".")])
        let error = readerError { _ = try reader.all() }
        #expect(error?.diagnosticLines == ["\(path):2:15: error: XML error: Opening and ending tag mismatch: item line 2 and oops"])
        #expect(readerError { _ = try reader.next() } == error)
    }

    @Test func depthIsLimited() throws {
        let scratch = try Scratch()
        let path = try scratch.file("deep.xml", String(repeating: "<a>", count: 10) + String(repeating: "</a>", count: 10))
        let error = readerError {
            _ = try XMLRecordReader(path: path, records: "/a/a", fields: [], maximumDepth: 5).all()
        }
        #expect(error?.diagnosticLines == ["\(path):1: error: elements nested deeper than 5 levels"])
        let deeper = try scratch.file("deeper.xml", String(repeating: "<a>", count: 300) + String(repeating: "</a>", count: 300))
        let libxml = readerError { _ = try XMLRecordReader(path: deeper, records: "/a/a", fields: []).all() }
        #expect(libxml?.diagnosticLines.first?.hasPrefix("\(deeper):1:") == true)
    }

    @Test func unsupportedPathAndMissingFile() {
        let error = readerError {
            _ = try XMLRecordReader(path: Self.providers, records: "/serviceproviders/country", fields: [SourceField(name: "n", path: "../a/name")])
        }
        #expect(error?.diagnosticLines == ["\(Self.providers): error: field 'n': unsupported path '../a/name'",
                                           "note: use \"child\", \"a/b\", \"@attr\", \"a/b/@attr\", \".\", \"../@attr\", \"../child\", \"#\", \"../#\", with an optional \"[n]\" to pick the nth of repeated values"])
        let missing = readerError { _ = try XMLRecordReader(path: "/nonexistent/a.xml", records: "/a", fields: []) }
        #expect(missing?.kind == .unreadableInput)  // exit 66
        #expect(missing?.diagnosticLines == ["/nonexistent/a.xml: error: no such file"])
    }

    @Test func ancestorTextPositionsAndPicks() throws {
        let records = try XMLRecordReader(path: Self.providers, records: "/serviceproviders/country/provider/gsm/apn", fields: [
            SourceField(name: "apn", path: "@value"), SourceField(name: "provider", path: "../../name"),
            SourceField(name: "country", path: "../../../name"), SourceField(name: "position", path: "../../#"),
            SourceField(name: "self", path: "#"),
        ]).all()
        #expect(records.count == 1304)
        #expect(records[0].values == [.text("internetand"), .text("Andorra Telecom (Mobiland)"), .text("Andorra"), .integer(1), .integer(1)])
        #expect(records[1].values[4] == .integer(2))
        // Drei (3) in Austria has two <name> children: "[1]" keeps the first, no index gives a list.
        let providers = try XMLRecordReader(path: Self.providers, records: "/serviceproviders/country/provider", fields: [
            SourceField(name: "first", path: "name[1]"), SourceField(name: "all", path: "name"), SourceField(name: "third", path: "name[3]"),
        ]).all()
        let drei = try #require(providers.first { $0.values[0] == .text("Drei (3)") })
        #expect(drei.values[1] == .list([.text("Drei (3)"), .text("Drei")]))
        #expect(drei.values[2] == .null)
    }

    /// Records split across the parser's chunks, down to one byte at a time, through multi-byte
    /// UTF-8, CDATA, comments and references, read the same as in one chunk.
    @Test(arguments: [1, 2, 3, 7, 64])
    func chunkBoundariesDoNotMatter(chunkSize: Int) throws {
        let scratch = try Scratch()
        let path = try scratch.file("chunks.xml", """
            <?xml version="1.0" encoding="UTF-8"?>
            <root><group code="g\u{E9}">
              <item id="1"><name>Espa\u{F1}ola \u{4E2D}\u{6587} \u{1F600}</name><tag>a&amp;b</tag><!-- c --><tag><![CDATA[<x>]]></tag></item>
              <item id="2&amp;3"><name>Z\u{FC}rich&#x20AC;</name></item>
            </group></root>
            """)
        let fields = [("id", "@id"), ("name", "name"), ("tags", "tag"), ("group", "../@code"), ("n", "#")].map { SourceField(name: $0.0, path: $0.1) }
        let records = try XMLRecordReader(path: path, records: "/root/group/item", fields: fields, chunkSize: chunkSize).all()
        #expect(records.map(\.values) == [
            [.text("1"), .text("Espa\u{F1}ola \u{4E2D}\u{6587} \u{1F600}"), .list([.text("a&b"), .text("<x>")]), .text("g\u{E9}"), .integer(1)],
            [.text("2&3"), .text("Z\u{FC}rich\u{20AC}"), .null, .text("g\u{E9}"), .integer(2)],
        ])
        #expect(records.map(\.location.line) == [3, 4])
    }

    @Test func recordsBeforeAnErrorComeFirst() throws {
        let scratch = try Scratch()
        let path = try scratch.file("late.xml", "<r><item>x</item>\n<item>y</item>\n<item>z</oops></r>")
        let reader = try XMLRecordReader(path: path, records: "/r/item", fields: [SourceField(name: "v", path: ".")])
        #expect(try reader.next()?.values == [.text("x")])
        #expect(try reader.next()?.values == [.text("y")])
        let error = readerError { _ = try reader.next() }
        #expect(error?.diagnosticLines == ["\(path):3:15: error: XML error: Opening and ending tag mismatch: item line 3 and oops"])
        #expect(readerError { _ = try reader.next() } == error)
    }

    @Test func entitiesAreRefusedWhateverTheChunks() throws {
        let scratch = try Scratch()
        let path = try scratch.file("e.xml", "<!DOCTYPE r [ <!ENTITY e \"E\"> ]>\n<r><item>&e;</item></r>")
        for chunkSize in [1, 5, 4096] {
            let reader = try XMLRecordReader(path: path, records: "/r/item", fields: [SourceField(name: "v", path: ".")], chunkSize: chunkSize)
            #expect(readerError { _ = try reader.all() }?.message == "the document declares entities, which are not expanded")
        }
    }

    /// libxml2 keeps 16 bits of line in a node; record lines come from the parser, past 65535 too.
    @Test func linesPast65535() throws {
        let scratch = try Scratch()
        let path = try scratch.file("long.xml", "<r>" + String(repeating: "\n", count: 70_000) + "<i/>\n<i/></r>")
        let records = try XMLRecordReader(path: path, records: "/r/i", fields: []).all()
        #expect(records.map(\.location.line) == [70_001, 70_002])
    }
}
