import Foundation
import Testing
@testable import CoreSeed
import CoreSeedTestSupport

/// The rules of DESIGN §4b, each spelled out as SQL on a small model of our own.
@Suite struct CoreDataOrderRuleTests {
    static func layout(_ body: String, framework: Int = 1344) throws -> StoreLayout {
        try LayoutRuleTests.layout(body, framework: framework)
    }

    /// §4b.1: `SyncFeatureEntity` precedes `SyncableSettingsMetadata` in byte order ('F' < 'a'), follows
    /// it case-insensitively ('f' > 'a'); Core Data numbers by the latter, at every level.
    @Test func entityNumbersFollowCaseInsensitiveOrder() throws {
        let layout = try Self.layout("""
            <entity name="SyncFeatureEntity"/>
            <entity name="SyncableSettingsMetadata"/>
            <entity name="Base"/>
            <entity name="bEta" parentEntity="Base"/>
            <entity name="Alpha" parentEntity="Base"/>
            <entity name="ZEBRA" parentEntity="Base"/>
            """)
        #expect(layout.entities.map(\.name) == ["Base", "Alpha", "bEta", "ZEBRA", "SyncableSettingsMetadata", "SyncFeatureEntity"])
        #expect(layout.entities.map(\.number) == [1, 2, 3, 4, 5, 6])
        #expect(EntityGraph.precedes("alpha", "Beta") && !"alpha".utf8.lexicographicallyPrecedes("Beta".utf8))
    }

    /// CF-368's string hash, worked by hand: "a" → r = 1·257 + 97 = 354, 354 + (354 << 1) = 1062;
    /// "abcd" → r = 4·67503105 + 97·16974593 + 98·66049 + 99·257 + 100, then r + (r << 4), in 32 bits.
    @Test func stringHashMatchesTheFormula() {
        #expect(CFBucketOrder.hash("a") == 1062)
        let r: UInt32 = 4 &* 67_503_105 &+ 97 &* 16_974_593 &+ 98 &* 66_049 &+ 99 &* 257 &+ 100
        #expect(CFBucketOrder.hash("abcd") == r &+ (r << 4))
        // 24 units and more: only the first 8 and the last 16 count (the middle does not).
        let long1 = "abcdefgh" + "XXXXXXXX" + "0123456789abcdef"
        let long2 = "abcdefgh" + "YYYYYYYY" + "0123456789abcdef"
        #expect(CFBucketOrder.hash(long1) == CFBucketOrder.hash(long2))
        #expect(CFBucketOrder.hash("abcdefgh" + "XXXXXXX" + "0123456789abcdef") != CFBucketOrder.hash(long1))
    }

    /// Bucket counts by key count: the first capacity ≥ the count picks the bucket count beside it.
    @Test func tableSizeAndProbing() {
        #expect(CFBucketOrder.ordered(["a", "b", "c", "d"]).count == 4)
        // Five keys: capacity 8 → 11 buckets; slot = hash % 11, linear probing.
        let keys = ["_ent", "_pk", "_opt", "name", "tags"]
        let slots = keys.map { Int(CFBucketOrder.hash($0) % 11) }
        var taken = Set<Int>()
        var placed: [(Int, String)] = []
        for (key, slot) in zip(keys, slots) {
            var s = slot
            while taken.contains(s) { s = (s + 1) % 11 }
            taken.insert(s)
            placed.append((s, key))
        }
        #expect(CFBucketOrder.ordered(keys) == placed.sorted { $0.0 < $1.0 }.map(\.1))
    }

    /// Corpus vectors: the order of two many-to-many relationships of one entity in real stores.
    /// `ddg-bookmarks-v4`: `favorites` is met before `favoriteFolders` (table `Z_1FAVORITES`); in Wire
    /// 2.8 `ignoredClients` before `ignoredByClients`, in Wire 1.27 (other properties) the reverse.
    @Test(.needsCorpus, arguments: [
        ("ddg-bookmarks-v4", "BookmarkEntity", "favorites", "favoriteFolders"),
        ("wire-store2-8", "UserClient", "ignoredClients", "ignoredByClients"),
        ("wire-store1-27", "UserClient", "ignoredByClients", "ignoredClients"),
    ])
    func bucketOrderReproducesTheCorpus(_ store: String, _ entity: String, _ first: String, _ second: String) throws {
        let entry = try #require(CorpusStore.withXMLModel.first { $0.name == store }, "corpus store \(store)")
        let graph = EntityGraph(model: try entry.loadModel())
        let visits = PropertyWalk(graph: graph) { CoreDataSchema.prefixed($1) }.visits.filter { $0.entity.name == entity }.map(\.relationship.name)
        let a = try #require(visits.firstIndex(of: first)), b = try #require(visits.firstIndex(of: second))
        #expect(a < b)
    }

    /// §4b.2: an inherited relationship is met as the sub-entity's, which sorts first, and names the
    /// table with its declaring entity's number: `Apple` (child of `Zeta`) precedes `Mango`.
    @Test func subEntityThatSortsFirstClaimsTheJoinTableWithItsParentsNumber() throws {
        let layout = try Self.layout("""
            <entity name="Mango">
              <relationship name="zetas" optional="YES" toMany="YES" destinationEntity="Zeta" inverseName="mangos" inverseEntity="Zeta"/>
            </entity>
            <entity name="Zeta">
              <relationship name="mangos" optional="YES" toMany="YES" destinationEntity="Mango" inverseName="zetas" inverseEntity="Mango"/>
            </entity>
            <entity name="Apple" parentEntity="Zeta"/>
            """)
        #expect(layout.entities.map(\.name) == ["Mango", "Zeta", "Apple"])
        #expect(layout.statements.contains("CREATE TABLE Z_2MANGOS ( Z_2ZETAS INTEGER, Z_1MANGOS INTEGER, PRIMARY KEY (Z_2ZETAS, Z_1MANGOS) )"))
        #expect(layout.statements.contains("CREATE INDEX Z_2MANGOS_Z_1MANGOS_INDEX ON Z_2MANGOS (Z_1MANGOS, Z_2ZETAS)"))
    }

    /// §4b.2: join columns are made unique per destination in visit order (`Z_3USERS`, then `Z_3USERS1`).
    @Test func joinColumnsAreUniquedInVisitOrder() throws {
        let layout = try Self.layout("""
            <entity name="Reaction">
              <relationship name="users" optional="YES" toMany="YES" destinationEntity="User" inverseName="reactions" inverseEntity="User"/>
            </entity>
            <entity name="SystemMessage">
              <relationship name="users" optional="YES" toMany="YES" destinationEntity="User" inverseName="systemMessages" inverseEntity="User"/>
            </entity>
            <entity name="User">
              <relationship name="reactions" optional="YES" toMany="YES" destinationEntity="Reaction" inverseName="users" inverseEntity="Reaction"/>
              <relationship name="systemMessages" optional="YES" toMany="YES" destinationEntity="SystemMessage" inverseName="users" inverseEntity="SystemMessage"/>
            </entity>
            """)
        #expect(layout.statements.contains("CREATE TABLE Z_1USERS ( Z_1REACTIONS INTEGER, Z_3USERS INTEGER, PRIMARY KEY (Z_1REACTIONS, Z_3USERS) )"))
        #expect(layout.statements.contains("CREATE TABLE Z_2USERS ( Z_2SYSTEMMESSAGES INTEGER, Z_3USERS1 INTEGER, PRIMARY KEY (Z_2SYSTEMMESSAGES, Z_3USERS1) )"))
    }

    /// A relationship that is its own inverse: `REFLEXIVE`, and `FOK_REFLEXIVE` when ordered (decompiled
    /// CoreData, NSSQLManyToMany); a reflexive pair of two relationships keeps both names.
    @Test func reflexiveManyToMany() throws {
        let selfInverse = try Self.layout("""
            <entity name="Person">
              <relationship name="friends" optional="YES" toMany="YES" ordered="YES" destinationEntity="Person" inverseName="friends" inverseEntity="Person"/>
            </entity>
            """)
        #expect(selfInverse.statements[1] == "CREATE TABLE Z_1FRIENDS ( Z_1FRIENDS INTEGER, REFLEXIVE INTEGER, Z_FOK_1FRIENDS INTEGER, FOK_REFLEXIVE INTEGER, PRIMARY KEY (Z_1FRIENDS, REFLEXIVE) )")
        let pair = try Self.layout("""
            <entity name="Client">
              <relationship name="trustedClients" optional="YES" toMany="YES" destinationEntity="Client" inverseName="trustedByClients" inverseEntity="Client"/>
              <relationship name="trustedByClients" optional="YES" toMany="YES" destinationEntity="Client" inverseName="trustedClients" inverseEntity="Client"/>
            </entity>
            """)
        let join = try #require(pair.joinTables.first)
        let graph = EntityGraph(model: try ModelParser.parse(data: Data("""
            <model><entity name="Client">
              <relationship name="trustedClients" optional="YES" toMany="YES" destinationEntity="Client" inverseName="trustedByClients" inverseEntity="Client"/>
              <relationship name="trustedByClients" optional="YES" toMany="YES" destinationEntity="Client" inverseName="trustedClients" inverseEntity="Client"/>
            </entity></model>
            """.utf8), path: "test", versionName: "test"))
        let visits = PropertyWalk(graph: graph) { CoreDataSchema.prefixed($1) }.visits.map(\.relationship.name)
        // The one met first names the table; the first column is named after its inverse.
        #expect(join.firstRelationship == visits[0])
        #expect(join.name == "Z_1" + visits[0].uppercased())
        #expect(join.firstColumn == "Z_1" + visits[1].uppercased() && join.secondColumn == "Z_1" + visits[0].uppercased())
    }

    /// §4b.3: `Z_FOK_` columns of ordered one-to-many relationships follow the order in which the
    /// ordered side is met, not their names.
    @Test func orderKeysFollowTheVisit() throws {
        let body = """
            <entity name="Conversation">
              <relationship name="messages" optional="YES" toMany="YES" ordered="YES" destinationEntity="Message" inverseName="visibleInConversation" inverseEntity="Message"/>
              <relationship name="hiddenMessages" optional="YES" toMany="YES" ordered="YES" destinationEntity="Message" inverseName="hiddenInConversation" inverseEntity="Message"/>
            </entity>
            <entity name="Message">
              <relationship name="visibleInConversation" optional="YES" maxCount="1" destinationEntity="Conversation" inverseName="messages" inverseEntity="Conversation"/>
              <relationship name="hiddenInConversation" optional="YES" maxCount="1" destinationEntity="Conversation" inverseName="hiddenMessages" inverseEntity="Conversation"/>
            </entity>
            """
        let layout = try Self.layout(body)
        // §4c.1: the keys go into the CF-368 table in CF-476 slot order.
        let inserted = ["_ent", "_pk", "_opt"] + CFLeopardTable(["messages", "hiddenMessages"]).keys
        let conversationKeys = CFBucketOrder.ordered(CFLeopardTable(inserted).keys)
        let toOneOf = ["messages": "VISIBLEINCONVERSATION", "hiddenMessages": "HIDDENINCONVERSATION"]
        let expected = conversationKeys.compactMap { toOneOf[$0] }.map { "Z_FOK_" + $0 + " INTEGER" }
        let table = try #require(layout.statements.first { $0.hasPrefix("CREATE TABLE ZMESSAGE ") })
        #expect(table == "CREATE TABLE ZMESSAGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZHIDDENINCONVERSATION INTEGER, ZVISIBLEINCONVERSATION INTEGER, \(expected.joined(separator: ", ")) )")
    }

    /// §4b.4: the BLOB group is UUID, then Transformable, then Binary, each by name.
    @Test func blobGroupIsUUIDThenTransformableThenBinary() throws {
        let layout = try Self.layout("""
            <entity name="Value">
              <attribute name="aBinary" optional="YES" attributeType="Binary"/>
              <attribute name="bTags" optional="YES" attributeType="Transformable"/>
              <attribute name="cID" optional="YES" attributeType="UUID"/>
              <attribute name="dUserInfo" optional="YES" attributeType="Transformable"/>
            </entity>
            """)
        #expect(layout.statements[0] == "CREATE TABLE ZVALUE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCID BLOB, ZBTAGS BLOB, ZDUSERINFO BLOB, ZABINARY BLOB )")
    }

    static let indexed = """
        <entity name="Bookmark">
          <attribute name="url" optional="YES" attributeType="String"/>
          <attribute name="uuid" optional="YES" attributeType="String"/>
          <attribute name="title" optional="YES" attributeType="String" indexed="YES"/>
          <attribute name="deleted" optional="YES" attributeType="Boolean"/>
          <uniquenessConstraints><uniquenessConstraint><constraint value="uuid"/></uniquenessConstraint></uniquenessConstraints>
          <fetchIndex name="byUUID"><fetchIndexElement property="uuid" type="Binary" order="ascending"/></fetchIndex>
          <fetchIndex name="byURL">
            <fetchIndexElement property="url" type="Binary" order="ascending"/>
            <fetchIndexElement property="deleted" type="Binary" order="ascending"/>
          </fetchIndex>
        </entity>
        """

    /// §4b.5, §4b.6, §4b.7, §4c.3 from 836: a one-element fetch index also indexes its property; indexed
    /// attributes are fetch indexes; uniqueness constraints are unique indexes.
    @Test func indexFormsFrom836() throws {
        let statements = try Self.layout(Self.indexed, framework: 836).statements
        #expect(Array(statements.dropFirst()) == [
            "CREATE UNIQUE INDEX Z_Bookmark_UNIQUE_uuid ON ZBOOKMARK (ZUUID COLLATE BINARY ASC)",
            "CREATE INDEX Z_Bookmark_title ON ZBOOKMARK (ZTITLE COLLATE BINARY ASC)",
            "CREATE INDEX Z_Bookmark_uuid ON ZBOOKMARK (ZUUID COLLATE BINARY ASC)",
            "CREATE INDEX Z_Bookmark_byUUID ON ZBOOKMARK (ZUUID COLLATE BINARY ASC)",
            "CREATE INDEX Z_Bookmark_byURL ON ZBOOKMARK (ZURL COLLATE BINARY ASC, ZDELETED COLLATE BINARY ASC)",
        ] + LayoutRuleTests.fixed)
        #expect(statements[0] == "CREATE TABLE ZBOOKMARK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZDELETED INTEGER, ZTITLE VARCHAR, ZURL VARCHAR, ZUUID VARCHAR )")
    }

    /// §4b.6, §4b.7, §4c.3 below 836 (754 here): legacy forms, a fetch index that Xcode wrote into an old
    /// model version included; uniqueness constraints inline.
    @Test func legacyIndexFormsBelow836() throws {
        let statements = try Self.layout(Self.indexed, framework: 754).statements
        #expect(statements[0] == "CREATE TABLE ZBOOKMARK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZDELETED INTEGER, ZTITLE VARCHAR, ZURL VARCHAR, ZUUID VARCHAR, CONSTRAINT ZUUID UNIQUE (ZUUID))")
        #expect(Array(statements.dropFirst()) == [
            "CREATE INDEX ZBOOKMARK_ZTITLE_INDEX ON ZBOOKMARK (ZTITLE)",
            "CREATE INDEX ZBOOKMARK_ZUUID_INDEX ON ZBOOKMARK (ZUUID)",
            "CREATE INDEX ZBOOKMARK_ZURL_ZDELETED ON ZBOOKMARK (ZURL, ZDELETED)",
        ] + LayoutRuleTests.fixed)
    }

    /// A descending fetch index has no legacy form: refused below 836, never approximated.
    @Test func descendingFetchIndexIsRefusedBelow836() throws {
        let body = """
            <entity name="Event">
              <attribute name="date" optional="YES" attributeType="Date"/>
              <fetchIndex name="byDate"><fetchIndexElement property="date" type="Binary" order="descending"/></fetchIndex>
            </entity>
            """
        #expect(try Self.layout(body, framework: 1344).statements.contains("CREATE INDEX Z_Event_byDate ON ZEVENT (ZDATE COLLATE BINARY DESC)"))
        #expect(throws: FileError.self) { try Self.layout(body, framework: 754) }
    }

    /// One table of eras, oldest first, each first version once.
    @Test func eraTableIsOrdered() {
        let versions = FrameworkVersion.eras.map(\.firstVersion)
        #expect(versions == versions.sorted() && Set(versions).count == versions.count)
        #expect(FrameworkVersion(835).usesFetchIndexForms == false && FrameworkVersion(836).usesFetchIndexForms)
        #expect(FrameworkVersion(636).indexesJoinTables == false && FrameworkVersion(637).indexesJoinTables)
        #expect(FrameworkVersion(866).hasHashesDigest == false && FrameworkVersion(977).hasHashesDigest)
        #expect(FrameworkVersion(1251).hasChecksum == false && FrameworkVersion(1327).hasChecksum)
    }
}
