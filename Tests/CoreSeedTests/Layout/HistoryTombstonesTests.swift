import Foundation
import Testing
@testable import CoreSeed

/// The order of a delete change's tombstones (decompiled `_retainedTombstonesForEntity:`): for the entity
/// and then each ancestor, its userInfo names, then its preserved attribute columns (inherited first,
/// root first, then its own by name), each name once.
@Suite struct HistoryTombstonesTests {
    static let model = """
        <entity name="Book"><attribute name="title" optional="YES" attributeType="String" preserveAfterDeletion="YES"/><attribute name="isbn" attributeType="Integer 64" preserveAfterDeletion="YES"/><attribute name="note" optional="YES" attributeType="String" transient="YES" preserveAfterDeletion="YES"/><userInfo><entry key="NSPersistentHistoryTombstoneAttributes" value="shelfName"/></userInfo></entity>
        <entity name="Novel" parentEntity="Book"><attribute name="genre" optional="YES" attributeType="String" preserveAfterDeletion="YES"/><attribute name="author" optional="YES" attributeType="String" preserveAfterDeletion="YES"/><userInfo><entry key="NSPersistentHistoryTombstoneAttributes" value=" title , series"/></userInfo></entity>
        <entity name="Shelf"><attribute name="name" attributeType="String"/></entity>
        """

    @Test func theOrderFollowsTheEntityThenItsAncestors() throws {
        let model = try ModelParser.parse(data: Data("<model>\(Self.model)</model>".utf8), path: "test", versionName: "test")
        let graph = EntityGraph(model: model)
        // Book: its userInfo name, then isbn and title by name; the transient note has no column.
        #expect(HistoryTombstones.names(of: "Book", in: graph) == ["shelfName", "isbn", "title"])
        // Novel: its own userInfo (title, series), then its columns (Book's isbn, title, then author, genre),
        // then Book's userInfo.
        #expect(HistoryTombstones.names(of: "Novel", in: graph) == ["title", "series", "isbn", "author", "genre", "shelfName"])
        #expect(HistoryTombstones.names(of: "Shelf", in: graph).isEmpty)
        #expect(HistoryTombstones.columnCount(graph, members: nil) == 6)
        #expect(HistoryTombstones.columnCount(graph, members: ["Book", "Shelf"]) == 3)
        #expect(HistoryTombstones.refusal(graph, members: nil) == nil)
    }

    @Test func moreThanTenColumnsSortByName() {
        let names = CoreDataSchema.History.change(tombstones: 12).columns.map(\.name).suffix(12)
        #expect(Array(names.prefix(4)) == ["ZTOMBSTONE0", "ZTOMBSTONE1", "ZTOMBSTONE10", "ZTOMBSTONE11"])
    }
}

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
