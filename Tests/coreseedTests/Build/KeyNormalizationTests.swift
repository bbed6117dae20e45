import Foundation
import Testing
import CoreSeedTestSupport

/// Issue 23: "Québec" written with one code point for é (NFC) and with `e` and a combining accent
/// (NFD) are different keys, as for Core Data; the unresolved key's message says the other form exists.
@Suite struct KeyNormalizationTests {
    static let composed = "Qu\u{E9}bec", decomposed = "Que\u{301}bec"

    static func prepare(provinces: [String], cityProvince: String, provinceMapping: String = "",
                        relationshipMapping: String = "") throws -> Scratch {
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
              "entities": { "Province": { "from": "provinces", "key": "name"\(provinceMapping) },
                            "City": { "from": "cities", "key": "name", "relationships": { "province": { "key": "province"\(relationshipMapping) } } } } }
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

    /// `"normalize": "nfc"` on the relationship mapping: the two forms are one key, either way round;
    /// the stored name keeps the bytes its source wrote (the form is for comparing, not storing).
    @Test(arguments: [(composed, decomposed), (decomposed, composed)])
    func normalizeNFCLinksEitherForm(stored: String, named: String) throws {
        let scratch = try Self.prepare(provinces: [stored, "Ontario"], cityProvince: named, relationshipMapping: #", "normalize": "nfc""#)
        let result = try scratch.run(["build", "spec.json", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try scratch.query("Geo.sqlite", "SELECT hex(p.ZNAME) FROM ZCITY c JOIN ZPROVINCE p ON p.Z_PK = c.ZPROVINCE WHERE c.ZNAME LIKE 'Montr%'")
        #expect(rows == [[Data(stored.utf8).map { String(format: "%02X", $0) }.joined()]])
        #expect(try scratch.run(["verify", "Geo.sqlite", "--model", "Geo.xcdatamodeld"]).status == 0)
    }

    /// On the entity mapping, its keys compare in NFC: the two spellings of one name are a duplicate
    /// key (without it, two provinces); `"nfd"` is not a form CoreSeed offers.
    @Test func normalizeNFCOnTheEntityMakesTheFormsOneKey() throws {
        let plain = try Self.prepare(provinces: [Self.composed, Self.decomposed], cityProvince: "Ontario")
        #expect(try plain.run(["build", "spec.json", "--quiet"]).status == 1)  // Ontario is not a province here
        let scratch = try Self.prepare(provinces: [Self.composed, Self.decomposed, "Ontario"], cityProvince: Self.composed,
                                       provinceMapping: #", "normalize": "nfc""#)
        let result = try scratch.run(["build", "spec.json", "--quiet"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("provinces.csv:3:1: error: 'name' value \"\(Self.decomposed)\" repeats a Province key first seen at provinces.csv:2:1"), "\(result.stderr)")
        let distinct = try Self.prepare(provinces: [Self.composed, Self.decomposed, "Ontario"], cityProvince: Self.composed)
        #expect(try distinct.run(["build", "spec.json", "--quiet"]).status == 0)
        #expect(try distinct.query("Geo.sqlite", "SELECT count(*) FROM ZPROVINCE") == [["3"]])
        let wrong = try Self.prepare(provinces: ["Ontario"], cityProvince: "Ontario", provinceMapping: #", "normalize": "nfd""#)
        let refused = try wrong.run(["build", "spec.json", "--quiet"])
        #expect(refused.status != 0 && refused.stderr.contains("normalize"), "\(refused.stderr)")
    }
}
