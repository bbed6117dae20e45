import Foundation
import CoreSeedTestSupport
import Testing
@testable import CoreSeed

/// A model's `contents` is read by libxml2 with the data readers' safety settings (issue 25, item 5):
/// nothing external is ever read, entity declarations are refused, processing instructions skipped.
@Suite struct ModelXMLSafetyTests {
    private static let entity = "<entity name=\"A\"><attribute name=\"x\" optional=\"YES\" attributeType=\"String\"/></entity>"

    private func parse(_ xml: String) throws(FileError) -> Model {
        try ModelParser.parse(data: Data(xml.utf8), path: "m/contents", versionName: "m")
    }

    @Test func aProcessingInstructionWithDataIsSkipped() throws {
        let model = try parse("<?xml version=\"1.0\"?>\n<?xml-stylesheet href=\"s.css\"?>\n<model><?pi some data?>\(Self.entity)</model>")
        #expect(model.entities.map(\.name) == ["A"])
        #expect(model.entity(named: "A")?.attributes.map(\.name) == ["x"])
    }

    /// Found by fuzzing: Foundation's XMLParser crashed on a processing instruction with no data,
    /// which the model reader then refused; libxml2 skips it like any other.
    @Test func aProcessingInstructionWithoutDataIsSkipped() throws {
        let model = try parse("<?xml version=\"1.0\"?>\n<model>\n<?pi?>\(Self.entity)<?pi?></model>")
        #expect(model.entities.map(\.name) == ["A"])
    }

    /// An external entity is refused at its declaration (line 2), before anything could read it.
    @Test(arguments: [
        "<!DOCTYPE model [<!ENTITY e SYSTEM \"file:///etc/hostname\">]>\n<model><entity name=\"&e;\"/></model>",
        "<!DOCTYPE model [<!ENTITY % p SYSTEM \"file:///etc/hostname\"> %p;]>\n<model/>",
        "<!DOCTYPE model [<!ENTITY e \"A\">]>\n<model><entity name=\"&e;\"/></model>",
        "<!DOCTYPE model [<!ENTITY a \"&a;\">]>\n<model name=\"&a;\"/>",
    ])
    func aDeclaredEntityIsRefused(doctype: String) {
        let message = "not a valid model file: its DOCTYPE declares an entity, which Xcode never writes and CoreSeed never reads; remove the DOCTYPE"
        #expect(throws: FileError(.unreadableInput, path: "m/contents", line: 2, message: message)) {
            try parse("<?xml version=\"1.0\"?>\n" + doctype)
        }
    }

    /// The DTD a DOCTYPE names is never loaded: one that is not even well-formed changes nothing.
    @Test func anExternalDTDIsNotRead() throws {
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try TestPaths.write("<!ELEMENT broken\n<!ATTLIST entity name CDATA \"FromDTD\">", to: "model.dtd", in: folder)
        let dtd = folder.appendingPathComponent("model.dtd").absoluteString
        let model = try parse("<?xml version=\"1.0\"?>\n<!DOCTYPE model SYSTEM \"\(dtd)\">\n<model>\(Self.entity)</model>")
        #expect(model.entities.map(\.name) == ["A"])
    }

    /// An entity nobody declared is malformed XML, said in words; the predefined ones and
    /// character references are read.
    @Test func entityReferences() throws {
        #expect(throws: FileError(.unreadableInput, path: "m/contents", line: 2, message: "not a valid model file: an entity that is not declared")) {
            try parse("<model>\n<entity name=\"&foo;\"/></model>")
        }
        let model = try parse("<model><entity name=\"A\"><attribute name=\"x\" optional=\"YES\" attributeType=\"String\" defaultValueString=\"a&amp;b&#65;&lt;&#38;\"/></entity></model>")
        #expect(model.entity(named: "A")?.attribute(named: "x")?.defaultValueString == "a&bA<&")
    }

    /// The first error is the one said (no recovery past it), with its line.
    @Test(arguments: [
        ("<model>\n<entity name=\"A\">\n</model>", 3, "an end tag does not match its start tag"),
        ("<model>\n<entity name=A/></model>", 2, "an attribute value without quotes"),
        ("<model>\n<entity name=\"a<b\"/></model>", 2, "'<' inside an attribute value"),
    ])
    func theFirstErrorIsSaid(xml: String, line: Int, words: String) {
        #expect(throws: FileError(.unreadableInput, path: "m/contents", line: line, message: "not a valid model file: " + words)) {
            try parse(xml)
        }
    }
}
