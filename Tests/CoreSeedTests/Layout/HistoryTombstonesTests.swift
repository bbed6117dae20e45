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
        #expect(HistoryTombstones.widest(graph, members: nil)?.count == 6)
        #expect(HistoryTombstones.widest(graph, members: ["Book", "Shelf"])?.count == 3)
        #expect(HistoryTombstones.refusal(graph, members: nil) == nil)
    }

    @Test func moreThanTenColumnsSortByName() {
        let names = CoreDataSchema.History.change(tombstones: 12).columns.map(\.name).suffix(12)
        #expect(Array(names.prefix(4)) == ["ZTOMBSTONE0", "ZTOMBSTONE1", "ZTOMBSTONE10", "ZTOMBSTONE11"])
    }
}
