import Foundation
import Testing
@testable import CoreSeed

/// §4c.1: Core Data inserts an entity's keys into its CF-368 table in the slot order of a CF-476 table,
/// so inside a collision cluster the CF-476 order decides which key is met first. §4c.2–4: join-table
/// indexes by era, and the hidden key of a to-many without inverse.
@Suite struct InsertionOrderTests {
    /// The values DESIGN §4c.1 pins: CF-476's string hash and its 32-bit scramble.
    @Test(arguments: [
        ("next", UInt32(2_086_894_067), UInt32(109_378_612)),
        ("previous", 1_854_464_901, 1_175_296_542),
        ("lastServerSyncedActiveParticipants", 879_806_213, 2_165_758_365),
    ])
    func leopardHashAndScramble(_ key: String, _ hash: UInt32, _ scrambled: UInt32) {
        #expect(CFLeopardTable.hash(key) == hash)
        #expect(CFLeopardTable.scrambled(hash) == scrambled)
    }

    /// The Tiger hash of the long key, pinned in §4c.1 beside its Leopard one.
    @Test func longKeyTigerHash() {
        #expect(CFBucketOrder.hash("lastServerSyncedActiveParticipants") == 3_946_425_760)
    }

    /// CF-476's sizes: 3 keys in 4 buckets, then 6 in 8, 12 in 16, 24 in 32; a full table grows before
    /// the next insert and re-inserts its keys in their old slot order; a repeated key keeps its slot.
    @Test func leopardTableGrowsByPowersOfTwo() {
        var table = CFLeopardTable()
        for (count, key) in (1...25).map({ ($0, "key\($0)") }) {
            table.insert(key)
            #expect(table.count == count)
        }
        #expect(Set(table.keys) == Set((1...25).map { "key\($0)" }))
        let before = table.keys
        table.insert("key7")
        #expect(table.keys == before && table.count == 25)
        #expect([CFLeopardTable.flsl(0), CFLeopardTable.flsl(1), CFLeopardTable.flsl(2), CFLeopardTable.flsl(7)] == [0, 1, 2, 3] as [Int])
        // Within 4 buckets the slot is the scrambled hash's low two bits, probing forward.
        let small = CFLeopardTable(["next", "previous"])
        let slots = ["next", "previous"].map { Int(CFLeopardTable.scrambled(CFLeopardTable.hash($0)) & 3) }
        #expect(slots == [0, 2])
        #expect(small.keys == ["next", "previous"])
    }

    /// A CareKit-2.1-shaped entity of our own: 14 attributes, 8 relationships (one to-one), 26 keys in
    /// 41 CF-368 buckets, where `_opt`, `previous` and `next` meet in one cluster. §4c.1 pins the visit.
    static let carePlan = """
        <entity name="OCKCDCarePlan">
          <attribute name="asset" optional="YES" attributeType="String"/>
          <attribute name="createdDate" optional="YES" attributeType="Date"/>
          <attribute name="deletedDate" optional="YES" attributeType="Date"/>
          <attribute name="effectiveDate" optional="YES" attributeType="Date"/>
          <attribute name="groupIdentifier" optional="YES" attributeType="String"/>
          <attribute name="id" optional="YES" attributeType="String"/>
          <attribute name="remoteID" optional="YES" attributeType="String"/>
          <attribute name="schemaVersion" optional="YES" attributeType="String"/>
          <attribute name="source" optional="YES" attributeType="String"/>
          <attribute name="timezoneIdentifier" optional="YES" attributeType="String"/>
          <attribute name="title" optional="YES" attributeType="String"/>
          <attribute name="updatedDate" optional="YES" attributeType="Date"/>
          <attribute name="userInfo" optional="YES" attributeType="Transformable"/>
          <attribute name="uuid" optional="YES" attributeType="UUID"/>
          <relationship name="contacts" optional="YES" toMany="YES" destinationEntity="Thing" inverseName="contactPlans" inverseEntity="Thing"/>
          <relationship name="knowledge" optional="YES" toMany="YES" destinationEntity="Thing" inverseName="knowledgePlans" inverseEntity="Thing"/>
          <relationship name="next" optional="YES" toMany="YES" destinationEntity="OCKCDCarePlan" inverseName="previous" inverseEntity="OCKCDCarePlan"/>
          <relationship name="notes" optional="YES" toMany="YES" destinationEntity="Thing" inverseName="notePlans" inverseEntity="Thing"/>
          <relationship name="patient" optional="YES" maxCount="1" destinationEntity="Thing" inverseName="patientPlans" inverseEntity="Thing"/>
          <relationship name="previous" optional="YES" toMany="YES" destinationEntity="OCKCDCarePlan" inverseName="next" inverseEntity="OCKCDCarePlan"/>
          <relationship name="tags" optional="YES" toMany="YES" destinationEntity="Thing" inverseName="tagPlans" inverseEntity="Thing"/>
          <relationship name="tasks" optional="YES" toMany="YES" destinationEntity="Thing" inverseName="taskPlans" inverseEntity="Thing"/>
        </entity>
        <entity name="Thing">
          <relationship name="contactPlans" optional="YES" toMany="YES" destinationEntity="OCKCDCarePlan" inverseName="contacts" inverseEntity="OCKCDCarePlan"/>
          <relationship name="knowledgePlans" optional="YES" toMany="YES" destinationEntity="OCKCDCarePlan" inverseName="knowledge" inverseEntity="OCKCDCarePlan"/>
          <relationship name="notePlans" optional="YES" toMany="YES" destinationEntity="OCKCDCarePlan" inverseName="notes" inverseEntity="OCKCDCarePlan"/>
          <relationship name="patientPlans" optional="YES" toMany="YES" destinationEntity="OCKCDCarePlan" inverseName="patient" inverseEntity="OCKCDCarePlan"/>
          <relationship name="tagPlans" optional="YES" toMany="YES" destinationEntity="OCKCDCarePlan" inverseName="tags" inverseEntity="OCKCDCarePlan"/>
          <relationship name="taskPlans" optional="YES" toMany="YES" destinationEntity="OCKCDCarePlan" inverseName="tasks" inverseEntity="OCKCDCarePlan"/>
        </entity>
        """

    static func walk(_ body: String) throws -> PropertyWalk {
        let model = try ModelParser.parse(data: Data("<model>\(body)</model>".utf8), path: "test", versionName: "test")
        return PropertyWalk(graph: EntityGraph(model: model)) { CoreDataSchema.prefixed($1) }
    }

    @Test func carePlanShapedEntityIsVisitedInThePinnedOrder() throws {
        let visits = try Self.walk(Self.carePlan).visits.filter { $0.entity.name == "OCKCDCarePlan" }.map(\.relationship.name)
        #expect(visits == ["previous", "contacts", "next", "tasks", "knowledge", "patient", "tags", "notes"])
        // Inserted in declaration order, as before §4c.1, `next` would win the contested slot.
        let declared = ["_ent", "_pk", "_opt", "asset", "createdDate", "deletedDate", "effectiveDate", "groupIdentifier",
                        "id", "remoteID", "schemaVersion", "source", "timezoneIdentifier", "title", "updatedDate", "userInfo",
                        "uuid", "contacts", "knowledge", "next", "notes", "_ZPATIENT", "patient", "previous", "tags", "tasks"]
        #expect(declared.count == 26)
        let relationships = Set(visits)
        #expect(Array(CFBucketOrder.ordered(declared).filter(relationships.contains).prefix(3)) == ["contacts", "next", "previous"])
        let layout = try LayoutRuleTests.layout(Self.carePlan)
        #expect(layout.joinTables.contains { $0.name == "Z_1PREVIOUS" && $0.firstColumn == "Z_1NEXT" && $0.secondColumn == "Z_1PREVIOUS" })
    }

    /// A self-referential many-to-many pair whose names collide in the CF-368 table: with one attribute
    /// `body`, `previous` is inserted first and names the table (declaration order would name it NEXT).
    @Test func collidingSelfReferentialPairIsNamedByTheInsertionOrder() throws {
        let statements = try LayoutRuleTests.sql("""
            <entity name="Step">
              <attribute name="body" optional="YES" attributeType="String"/>
              <relationship name="next" optional="YES" toMany="YES" destinationEntity="Step" inverseName="previous" inverseEntity="Step"/>
              <relationship name="previous" optional="YES" toMany="YES" destinationEntity="Step" inverseName="next" inverseEntity="Step"/>
            </entity>
            """)
        #expect(statements == [
            "CREATE TABLE ZSTEP ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZBODY VARCHAR )",
            "CREATE TABLE Z_1PREVIOUS ( Z_1NEXT INTEGER, Z_1PREVIOUS INTEGER, PRIMARY KEY (Z_1NEXT, Z_1PREVIOUS) )",
            "CREATE INDEX Z_1PREVIOUS_Z_1PREVIOUS_INDEX ON Z_1PREVIOUS (Z_1PREVIOUS, Z_1NEXT)",
        ] + LayoutRuleTests.fixed)
    }

    static let tagged = """
        <entity name="Post"><relationship name="tags" optional="YES" toMany="YES" destinationEntity="Tag" inverseName="posts" inverseEntity="Tag"/></entity>
        <entity name="Tag"><relationship name="posts" optional="YES" toMany="YES" destinationEntity="Post" inverseName="tags" inverseEntity="Post"/></entity>
        """

    /// §4c.2: at 419 a join table has only its primary key; from 637 (1345 here) also its index.
    @Test func joinTableIndexByEra() throws {
        let table = "CREATE TABLE Z_1TAGS ( Z_1POSTS INTEGER, Z_2TAGS INTEGER, PRIMARY KEY (Z_1POSTS, Z_2TAGS) )"
        let old = try LayoutRuleTests.sql(Self.tagged, framework: 419)
        #expect(old == [
            "CREATE TABLE ZPOST ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER )", table,
            "CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER )",
            CoreDataSchema.createPrimaryKeyTable, CoreDataSchema.createMetadataTable,
        ])
        let new = try LayoutRuleTests.sql(Self.tagged, framework: 1345)
        #expect(new.contains(table))
        #expect(new.contains("CREATE INDEX Z_1TAGS_Z_2TAGS_INDEX ON Z_1TAGS (Z_2TAGS, Z_1POSTS)"))
    }

    /// §4c.3: an indexed attribute at 754 (legacy form) and at 836 (fetch-index form).
    @Test func indexedAttributeByEra() throws {
        let body = #"<entity name="Bot"><attribute name="identifier" optional="YES" attributeType="String" indexed="YES"/></entity>"#
        #expect(try LayoutRuleTests.sql(body, framework: 754).contains("CREATE INDEX ZBOT_ZIDENTIFIER_INDEX ON ZBOT (ZIDENTIFIER)"))
        let modern = try LayoutRuleTests.sql(body, framework: 836)
        #expect(modern.contains("CREATE INDEX Z_Bot_identifier ON ZBOT (ZIDENTIFIER COLLATE BINARY ASC)"))
        #expect(!modern.contains { $0.contains("ZBOT_ZIDENTIFIER_INDEX") })
    }

    /// §4c.4: a to-many without inverse (`Album.documents`) next to an ordinary to-one on the same
    /// destination (`Document.owner`): no join table; the destination gets `Z1DOCUMENTS` after its own
    /// to-one key, indexed like a to-one.
    static let albums = """
        <entity name="Album">
          <attribute name="name" optional="YES" attributeType="String"/>
          <relationship name="documents" optional="YES" toMany="YES" destinationEntity="Document"/>
        </entity>
        <entity name="Document">
          <attribute name="size" optional="YES" attributeType="Integer 64"/>
          <attribute name="url" optional="YES" attributeType="String"/>
          <relationship name="owner" optional="YES" maxCount="1" destinationEntity="Owner" inverseName="documents" inverseEntity="Owner"/>
        </entity>
        <entity name="Owner">
          <relationship name="documents" optional="YES" toMany="YES" destinationEntity="Document" inverseName="owner" inverseEntity="Document"/>
        </entity>
        """

    @Test func toManyWithoutInverseIsAHiddenKeyOnTheDestination() throws {
        let layout = try LayoutRuleTests.layout(Self.albums)
        #expect(layout.statements == [
            "CREATE TABLE ZALBUM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
            "CREATE TABLE ZDOCUMENT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZSIZE INTEGER, ZOWNER INTEGER, Z1DOCUMENTS INTEGER, ZURL VARCHAR )",
            "CREATE TABLE ZOWNER ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER )",
            "CREATE INDEX ZDOCUMENT_ZOWNER_INDEX ON ZDOCUMENT (ZOWNER)",
            "CREATE INDEX ZDOCUMENT_Z1DOCUMENTS_INDEX ON ZDOCUMENT (Z1DOCUMENTS)",
        ] + LayoutRuleTests.fixed)
        #expect(layout.joinTables.isEmpty)
        #expect(layout.hiddenToManyKeys == [.init(sourceEntity: "Album", relationship: "documents", destinationEntity: "Document",
                                                  table: "ZDOCUMENT", column: "Z1DOCUMENTS", entityColumn: nil, orderColumn: nil)])
        // The destination's keys gain the virtual to-one (`_Z1DOCUMENTS`, `1documents`) before its own walk.
        let walk = try Self.walk(Self.albums)
        #expect(walk.virtualToOnes.map(\.name) == ["1documents"])
    }

    /// An ordered to-many without inverse also gets its order key on the destination (decompiled
    /// `_setInverseRelationship:` gives the virtual to-one a `Z_FOK_`), and a source with sub-entities an
    /// entity column.
    @Test func orderedToManyWithoutInverseFromAHierarchy() throws {
        let layout = try LayoutRuleTests.layout("""
            <entity name="Album" isAbstract="YES">
              <relationship name="pages" optional="YES" toMany="YES" ordered="YES" destinationEntity="Page"/>
            </entity>
            <entity name="Book" parentEntity="Album"/>
            <entity name="Page"><attribute name="text" optional="YES" attributeType="String"/></entity>
            """)
        #expect(layout.statements.contains("CREATE TABLE ZPAGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, Z1PAGES INTEGER, Z1_1PAGES INTEGER, Z_FOK_1PAGES INTEGER, ZTEXT VARCHAR )"))
        #expect(layout.hiddenToManyKeys.first?.entityColumn == "Z1_1PAGES")
        #expect(layout.hiddenToManyKeys.first?.orderColumn == "Z_FOK_1PAGES")
    }
}
