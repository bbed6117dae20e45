import Foundation
import Testing
@testable import CoreSeed

/// An update change's `ZCOLUMNS` bits (decompiled `_propertyDataForEntity:withSetOfPropertyNames:` and
/// `-[NSSQLEntity _generateProperties]`): key, entity-key and order-key columns first, then the attribute
/// columns (inherited first, then own by name), then the to-manys.
@Suite struct HistoryColumnsTests {
    static func layout(_ body: String) throws -> StoreLayout {
        try StoreLayout(model: try ModelParser.parse(data: Data("<model>\(body)</model>".utf8), path: "test", versionName: "test"))
    }

    @Test func keysComeBeforeTheAttributes() throws {
        // Place has sub-entities, so City.place has a key and an entity column; City inherits Base.note.
        let layout = try Self.layout("""
            <entity name="Base"><attribute name="note" optional="YES" attributeType="String"/></entity>
            <entity name="City" parentEntity="Base"><attribute name="name" attributeType="String"/><attribute name="area" optional="YES" attributeType="Double"/>
              <relationship name="place" optional="YES" maxCount="1" destinationEntity="Place" inverseName="cities" inverseEntity="Place"/></entity>
            <entity name="Place"><relationship name="cities" optional="YES" toMany="YES" destinationEntity="City" inverseName="place" inverseEntity="City"/></entity>
            <entity name="Region" parentEntity="Place"/>
            """)
        let city = try #require(layout.historyColumns["City"])
        #expect(city.firstAttributeBit == 2)
        #expect(city.attributeColumns == ["ZNOTE", "ZAREA", "ZNAME"])
        #expect(city.byteCount == 1)
        #expect(city.bitmap(changing: ["ZNAME"]) == [0x80 >> 4])
        #expect(city.bitmap(changing: ["ZNOTE", "ZAREA"]) == [0x20 | 0x10])
        #expect(city.bitmap(changing: ["ZPLACE"]) == nil, "a key column is a relationship change")
        #expect(layout.historyColumns["Place"]?.attributeColumns == [])
    }

    /// Whether a many-to-many also counts among the to-manys is not known: where it changes the length,
    /// no bitmap is given.
    @Test func anUncertainLengthGivesNoBitmap() throws {
        let attributes = (0..<7).map { "<attribute name=\"a\($0)\" optional=\"YES\" attributeType=\"String\"/>" }.joined()
        let layout = try Self.layout("""
            <entity name="Tag">\(attributes)<relationship name="links" optional="YES" toMany="YES" destinationEntity="Tag" inverseName="links" inverseEntity="Tag"/></entity>
            """)
        // 7 attributes, 1 to-many: 8 bits, or 9 if the many-to-many counts twice.
        #expect(layout.historyColumns["Tag"]?.byteCount == nil)
        #expect(layout.historyColumns["Tag"]?.bitmap(changing: ["ZA0"]) == nil)
    }
}
