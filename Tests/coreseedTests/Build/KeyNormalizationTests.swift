import Foundation
import Testing
import CoreSeedTestSupport

/// Issue 23: "Québec" written with one code point for é (NFC) and with `e` and a combining accent
/// (NFD) are different keys, as for Core Data; the unresolved key's message says the other form exists.
@Suite struct KeyNormalizationTests {
    static let composed = "Qu\u{E9}bec", decomposed = "Que\u{301}bec"

    static func prepare(provinces: [String], cityProvince: String) throws -> Scratch {
        let scratch = try Scratch()
        try scratch.writeModel("Geo", """
            <entity name="Province"><attribute name="name" attributeType="String"/>
              <relationship name="cities" optional="YES" toMany="YES" destinationEntity="City" inverseName="province" inverseEntity="City"/></entity>
            <entity name="City"><attribute name="name" attributeType="String"/>
              <relationship name="province" optional="YES" maxCount="1" destinationEntity="Province" inverseName="cities" inverseEntity="Province"/></entity>
            """)
        try scratch.write("provinces.csv", "name\n" + provinces.map { $0 + "\n" }.joined())
        try scratch.write("cities.csv", "name,province\nMontr\u{E9}al,\(cityProvince)\nToronto,Ontario\n")
        try scratch.write("spec.json", """
            { "model": "Geo.xcdatamodeld", "output": "Geo.sqlite",
              "sources": { "provinces": { "csv": "provinces.csv" }, "cities": { "csv": "cities.csv" } },
              "entities": { "Province": { "from": "provinces", "key": "name" },
                            "City": { "from": "cities", "key": "name", "relationships": { "province": { "key": "province" } } } } }
            """)
        return scratch
    }

    /// The province stored in one form, the city naming it in the other: the note names both forms.
    @Test(arguments: [(composed, "NFC", decomposed, "NFD"), (decomposed, "NFD", composed, "NFC")])
    func aKeyInTheOtherFormSaysSo(stored: String, storedForm: String, named: String, namedForm: String) throws {
        #expect(!stored.utf8.elementsEqual(named.utf8))  // two byte spellings of one Swift String
        let scratch = try Self.prepare(provinces: [stored, "Ontario"], cityProvince: named)
        let result = try scratch.run(["build", "spec.json", "--quiet"])
        #expect(result.status == 1)
        let expected = "cities.csv:2:11: error: 'province' value \"\(named)\" matches no Province key; a key \"\(stored)\" (\(storedForm)) exists; this one is \(namedForm) (City.province)\n"
        #expect(result.stderr.unicodeScalars.elementsEqual(expected.unicodeScalars), "\(result.stderr)")
    }

    /// A key with no other form stored gets the plain message.
    @Test func aKeyWithoutItsOtherFormHasNoNote() throws {
        let scratch = try Self.prepare(provinces: ["Ontario"], cityProvince: Self.composed)
        let result = try scratch.run(["build", "spec.json", "--quiet"])
        #expect(result.status == 1)
        #expect(result.stderr.unicodeScalars.elementsEqual("cities.csv:2:11: error: 'province' value \"\(Self.composed)\" matches no Province key (City.province)\n".unicodeScalars), "\(result.stderr)")
    }
}
