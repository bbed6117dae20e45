import Foundation
import Testing
@testable import CoreSeed

/// One test per layout rule, with the SQL written out. Rules marked "inferred" in docs/LAYOUT.md are
/// pinned here so that a change to them is deliberate.
@Suite struct LayoutRuleTests {
    static func layout(_ body: String, configuration: String? = nil, framework: Int = 1344) throws -> StoreLayout {
        let model = try ModelParser.parse(data: Data("<model>\(body)</model>".utf8), path: "test", versionName: "test")
        return try StoreLayout(model: model, configuration: configuration, framework: FrameworkVersion(framework))
    }

    static func sql(_ body: String, configuration: String? = nil, framework: Int = 1344) throws -> [String] {
        try layout(body, configuration: configuration, framework: framework).statements
    }

    static let fixed = [
        "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
        "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
        "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
    ]

    @Test func everyAttributeTypeGetsItsColumnTypeAndClassOrder() throws {
        let statements = try Self.sql("""
            <entity name="Thing">
              <attribute name="zBlob" optional="YES" attributeType="Binary"/>
              <attribute name="yTransform" optional="YES" attributeType="Transformable"/>
              <attribute name="xUUID" optional="YES" attributeType="UUID"/>
              <attribute name="wURI" optional="YES" attributeType="URI"/>
              <attribute name="vString" optional="YES" attributeType="String"/>
              <attribute name="uDecimal" optional="YES" attributeType="Decimal"/>
              <attribute name="tFloat" optional="YES" attributeType="Float"/>
              <attribute name="sDouble" optional="YES" attributeType="Double"/>
              <attribute name="rDate" optional="YES" attributeType="Date"/>
              <attribute name="qBool" optional="YES" attributeType="Boolean"/>
              <attribute name="p64" optional="YES" attributeType="Integer 64"/>
              <attribute name="o32" optional="YES" attributeType="Integer 32"/>
              <attribute name="n16" optional="YES" attributeType="Integer 16"/>
              <attribute name="mTransient" optional="YES" transient="YES" attributeType="String"/>
            </entity>
            """)
        #expect(statements == [
            "CREATE TABLE ZTHING ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZN16 INTEGER, ZO32 INTEGER, ZP64 INTEGER, ZQBOOL INTEGER, ZRDATE TIMESTAMP, ZSDOUBLE FLOAT, ZTFLOAT FLOAT, ZUDECIMAL DECIMAL, ZVSTRING VARCHAR, ZWURI VARCHAR, ZXUUID BLOB, ZYTRANSFORM BLOB, ZZBLOB BLOB )",
        ] + Self.fixed)
    }

    @Test func uuidBlobsComeBeforeOtherBlobs() throws {
        let statements = try Self.sql("""
            <entity name="Book">
              <attribute name="cover" optional="YES" attributeType="Binary"/>
              <attribute name="uniqueID" optional="YES" attributeType="UUID"/>
            </entity>
            """)
        #expect(statements[0] == "CREATE TABLE ZBOOK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZUNIQUEID BLOB, ZCOVER BLOB )")
    }

    @Test func entityNumbersRootsByNameThenSubentitiesDepthFirst() throws {
        let layout = try Self.layout("""
            <entity name="Zoo"/>
            <entity name="Car"/>
            <entity name="SportCar" parentEntity="Car"/>
            <entity name="ExpensiveSportCar" parentEntity="SportCar"/>
            <entity name="Bus" parentEntity="Car"/>
            <entity name="Animal" isAbstract="YES"/>
            """)
        #expect(layout.entities.map(\.name) == ["Animal", "Car", "Bus", "SportCar", "ExpensiveSportCar", "Zoo"])
        #expect(layout.entities.map(\.superNumber) == [0, 0, 2, 2, 4, 0])
        #expect(layout.entities.map(\.tableName) == ["ZANIMAL", "ZCAR", "ZCAR", "ZCAR", "ZCAR", "ZZOO"])
    }

    @Test func inheritanceSharesTheRootTableWithIntegersAndToOnesPerEntityFirst() throws {
        let statements = try Self.sql("""
            <entity name="Owner"/>
            <entity name="Car">
              <attribute name="maker" optional="YES" attributeType="String"/>
              <attribute name="seats" optional="YES" attributeType="Integer 16"/>
              <relationship name="owner" optional="YES" maxCount="1" destinationEntity="Owner"/>
            </entity>
            <entity name="SportCar" parentEntity="Car">
              <attribute name="isLimited" optional="YES" attributeType="Boolean"/>
              <attribute name="launched" optional="YES" attributeType="Date"/>
            </entity>
            """)
        #expect(statements.contains("CREATE TABLE ZCAR ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZSEATS INTEGER, ZOWNER INTEGER, ZISLIMITED INTEGER, ZLAUNCHED TIMESTAMP, ZMAKER VARCHAR )"))
        #expect(statements.contains("CREATE INDEX ZCAR_ZOWNER_INDEX ON ZCAR (ZOWNER)"))
        #expect(statements.contains("CREATE INDEX ZCAR_Z_ENT_INDEX ON ZCAR (Z_ENT)"))
        #expect(!statements.contains { $0.hasPrefix("CREATE TABLE ZSPORTCAR") })
    }

    @Test func oneToOneGivesBothSidesAnIndexedKey() throws {
        let statements = try Self.sql("""
            <entity name="Info"><relationship name="details" optional="YES" maxCount="1" destinationEntity="Details" inverseName="info" inverseEntity="Details"/></entity>
            <entity name="Details"><relationship name="info" optional="YES" maxCount="1" destinationEntity="Info" inverseName="details" inverseEntity="Info"/></entity>
            """)
        #expect(statements == [
            "CREATE TABLE ZDETAILS ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZINFO INTEGER )",
            "CREATE TABLE ZINFO ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZDETAILS INTEGER )",
            "CREATE INDEX ZDETAILS_ZINFO_INDEX ON ZDETAILS (ZINFO)",
            "CREATE INDEX ZINFO_ZDETAILS_INDEX ON ZINFO (ZDETAILS)",
        ] + Self.fixed)
    }

    @Test func toOneToAnEntityWithSubentitiesStoresTheDestinationEntity() throws {
        let statements = try Self.sql("""
            <entity name="Book"><relationship name="pages" optional="YES" toMany="YES" destinationEntity="Page" inverseName="book" inverseEntity="Page"/></entity>
            <entity name="GraphicNovel" parentEntity="Book"/>
            <entity name="Page"><relationship name="book" optional="YES" maxCount="1" destinationEntity="Book" inverseName="pages" inverseEntity="Book"/></entity>
            """)
        #expect(statements.contains("CREATE TABLE ZPAGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZBOOK INTEGER, Z1_BOOK INTEGER )"))
        #expect(statements.contains("CREATE INDEX ZPAGE_ZBOOK_INDEX ON ZPAGE (ZBOOK)"))
        #expect(!statements.contains { $0.contains("Z1_BOOK_INDEX") })
    }

    @Test func orderedOneToManyAddsAnOrderColumnOnTheToOneSide() throws {
        let statements = try Self.sql("""
            <entity name="List"><relationship name="items" optional="YES" toMany="YES" ordered="YES" destinationEntity="Item" inverseName="list" inverseEntity="Item"/></entity>
            <entity name="Item">
              <attribute name="title" optional="YES" attributeType="String"/>
              <relationship name="list" optional="YES" maxCount="1" destinationEntity="List" inverseName="items" inverseEntity="List"/>
            </entity>
            """)
        #expect(statements[0] == "CREATE TABLE ZITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZLIST INTEGER, Z_FOK_LIST INTEGER, ZTITLE VARCHAR )")
    }

    @Test func manyToManyJoinTableNamedAfterTheLowerNumberedSide() throws {
        let statements = try Self.sql("""
            <entity name="Author"><relationship name="books" optional="YES" toMany="YES" destinationEntity="Book" inverseName="authors" inverseEntity="Book"/></entity>
            <entity name="Book"><relationship name="authors" optional="YES" toMany="YES" destinationEntity="Author" inverseName="books" inverseEntity="Author"/></entity>
            """)
        #expect(statements == [
            "CREATE TABLE ZAUTHOR ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER )",
            "CREATE TABLE Z_1BOOKS ( Z_1AUTHORS INTEGER, Z_2BOOKS INTEGER, PRIMARY KEY (Z_1AUTHORS, Z_2BOOKS) )",
            "CREATE TABLE ZBOOK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER )",
            "CREATE INDEX Z_1BOOKS_Z_2BOOKS_INDEX ON Z_1BOOKS (Z_2BOOKS, Z_1AUTHORS)",
        ] + Self.fixed)
    }

    @Test func orderedManyToManyGetsOrderColumnsPerOrderedSide() throws {
        let layout = try Self.layout("""
            <entity name="Category"><relationship name="posts" optional="YES" toMany="YES" destinationEntity="Post" inverseName="categories" inverseEntity="Post"/></entity>
            <entity name="Post"><relationship name="categories" optional="YES" toMany="YES" ordered="YES" destinationEntity="Category" inverseName="posts" inverseEntity="Category"/></entity>
            """)
        #expect(layout.statements[1] == "CREATE TABLE Z_1POSTS ( Z_1CATEGORIES INTEGER, Z_2POSTS INTEGER, Z_FOK_1CATEGORIES INTEGER, PRIMARY KEY (Z_1CATEGORIES, Z_2POSTS) )")
        let join = try #require(layout.joinTables.first)
        #expect(join.firstEntity == "Category" && join.firstRelationship == "posts")
        #expect(join.orderColumns == [.init(name: "Z_FOK_1CATEGORIES", orderedColumn: "Z_1CATEGORIES")])
    }

    /// Two relationships of one entity that are each other's inverse: the side Core Data meets first names
    /// the table. `followers` and `following` collide in the CF-368 table; the CF-476 insertion order
    /// (§4c.1) puts `following` first, so it keeps the contested slot and is met first.
    @Test func reflexiveManyToManyIsNamedByTheInsertionOrder() throws {
        let statements = try Self.sql("""
            <entity name="Person">
              <relationship name="followers" optional="YES" toMany="YES" destinationEntity="Person" inverseName="following" inverseEntity="Person"/>
              <relationship name="following" optional="YES" toMany="YES" destinationEntity="Person" inverseName="followers" inverseEntity="Person"/>
            </entity>
            """)
        #expect(statements[1] == "CREATE TABLE Z_1FOLLOWING ( Z_1FOLLOWERS INTEGER, Z_1FOLLOWING INTEGER, PRIMARY KEY (Z_1FOLLOWERS, Z_1FOLLOWING) )")
    }

    /// Below framework 836 (§4b.6, §4c.3): the legacy forms `<T>_<COL>_INDEX` and `<T>_<C1>_<C2>`.
    @Test func indexesInCoreDataOrder() throws {
        let statements = try Self.sql("""
            <entity name="Region" isAbstract="YES">
              <attribute name="code" attributeType="Integer 16" indexed="YES"/>
              <attribute name="updatedAt" optional="YES" attributeType="Date"/>
              <compoundIndexes><compoundIndex><index value="code"/><index value="updatedAt"/></compoundIndex></compoundIndexes>
            </entity>
            <entity name="Country" parentEntity="Region">
              <relationship name="region" optional="YES" maxCount="1" destinationEntity="Region"/>
            </entity>
            """, framework: 754)
        #expect(Array(statements.dropFirst().prefix(4)) == [
            "CREATE INDEX ZREGION_ZCODE_INDEX ON ZREGION (ZCODE)",
            "CREATE INDEX ZREGION_ZREGION_INDEX ON ZREGION (ZREGION)",
            "CREATE INDEX ZREGION_Z_ENT_INDEX ON ZREGION (Z_ENT)",
            "CREATE INDEX ZREGION_ZCODE_ZUPDATEDAT ON ZREGION (ZCODE, ZUPDATEDAT)",
        ])
        #expect(statements[0] == "CREATE TABLE ZREGION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCODE INTEGER, ZREGION INTEGER, Z1_REGION INTEGER, ZUPDATEDAT TIMESTAMP )")
    }

    static let constrained = """
        <entity name="Person">
          <attribute name="first" optional="YES" attributeType="String"/>
          <attribute name="last" optional="YES" attributeType="String"/>
          <uniquenessConstraints><uniquenessConstraint><constraint value="first"/><constraint value="last"/></uniquenessConstraint></uniquenessConstraints>
        </entity>
        """

    @Test func uniquenessConstraintAsUniqueIndexFrom1044() throws {
        #expect(try Self.sql(Self.constrained, framework: 1044) == [
            "CREATE TABLE ZPERSON ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZFIRST VARCHAR, ZLAST VARCHAR )",
            "CREATE UNIQUE INDEX Z_Person_UNIQUE_first_last ON ZPERSON (ZFIRST COLLATE BINARY ASC, ZLAST COLLATE BINARY ASC)",
        ] + Self.fixed)
    }

    @Test func uniquenessConstraintInlineAt637() throws {
        #expect(try Self.sql(Self.constrained, framework: 637)[0]
                == "CREATE TABLE ZPERSON ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZFIRST VARCHAR, ZLAST VARCHAR, CONSTRAINT ZFIRST_ZLAST UNIQUE (ZFIRST, ZLAST))")
    }

    @Test func before637NoConstraintsAndNoModelCache() throws {
        #expect(try Self.sql(Self.constrained, framework: 481) == [
            "CREATE TABLE ZPERSON ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZFIRST VARCHAR, ZLAST VARCHAR )",
        ] + Self.fixed.prefix(2))
    }

    @Test func fetchIndexesKeepTheEntityNameAsWritten() throws {
        let statements = try Self.sql("""
            <entity name="Car">
              <attribute name="maker" optional="YES" attributeType="String"/>
              <attribute name="year" optional="YES" attributeType="Integer 32"/>
              <fetchIndex name="byMakerAndYear">
                <fetchIndexElement property="maker" type="Binary" order="ascending"/>
                <fetchIndexElement property="year" type="Binary" order="descending"/>
              </fetchIndex>
            </entity>
            """)
        #expect(statements[1] == "CREATE INDEX Z_Car_byMakerAndYear ON ZCAR (ZMAKER COLLATE BINARY ASC, ZYEAR COLLATE BINARY DESC)")
    }

    @Test func siblingNameCollisionGetsANumericSuffix() throws {
        let statements = try Self.sql("""
            <entity name="Media" isAbstract="YES"/>
            <entity name="Book" parentEntity="Media"><attribute name="title" optional="YES" attributeType="String"/></entity>
            <entity name="Film" parentEntity="Media"><attribute name="title" optional="YES" attributeType="String"/></entity>
            """)
        #expect(statements[0] == "CREATE TABLE ZMEDIA ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR, ZTITLE1 VARCHAR )")
    }

    static let configured = """
        <entity name="Bank"><attribute name="name" optional="YES" attributeType="String"/></entity>
        <entity name="Note">
          <attribute name="text" optional="YES" attributeType="String"/>
          <relationship name="bank" optional="YES" maxCount="1" destinationEntity="Bank"/>
        </entity>
        <entity name="Tag"/>
        <configuration name="Seed"><memberEntity name="Bank"/><memberEntity name="Tag"/></configuration>
        <configuration name="User"><memberEntity name="Note"/></configuration>
        """

    @Test func configurationKeepsOnlyItsTablesAndEveryEntityNumber() throws {
        let layout = try Self.layout(Self.configured, configuration: "Seed")
        #expect(layout.tables.map(\.name) == ["ZBANK", "ZTAG"])
        #expect(layout.entities.map(\.name) == ["Bank", "Note", "Tag"])
        #expect(layout.entities.map(\.isInConfiguration) == [true, false, true])
    }

    @Test func relationshipCrossingConfigurationsIsAnError() throws {
        #expect(throws: FileError(message: "relationship 'Note.bank' crosses from configuration 'User' to entity 'Bank', which is not in it")) {
            try Self.layout(Self.configured, configuration: "User")
        }
        #expect(throws: FileError(message: "no configuration 'Nope' in model 'test' (configurations: Seed, User)")) {
            try Self.layout(Self.configured, configuration: "Nope")
        }
    }

    /// A model's own problem is said at its line in the model file ("test", line 1 here).
    @Test func unstorableTypesAndExpressionIndexesAreRefused() throws {
        #expect(throws: FileError(path: "test", line: 1, message: "attribute 'A.x' of type Undefined cannot be stored (only transient attributes may have this type)")) {
            try Self.layout("<entity name=\"A\"><attribute name=\"x\" optional=\"YES\" attributeType=\"Undefined\"/></entity>")
        }
    }
}

/// Rules inferred from outside the corpus (docs/LAYOUT.md), pinned so a change is deliberate.
@Suite struct InferredLayoutRuleTests {
    @Test func selfInverseManyToManyUsesReflexiveColumn() throws {
        let statements = try LayoutRuleTests.sql("""
            <entity name="Person"><relationship name="friends" optional="YES" toMany="YES" destinationEntity="Person" inverseName="friends" inverseEntity="Person"/></entity>
            """)
        #expect(statements[1] == "CREATE TABLE Z_1FRIENDS ( Z_1FRIENDS INTEGER, REFLEXIVE INTEGER, PRIMARY KEY (Z_1FRIENDS, REFLEXIVE) )")
        #expect(statements[2] == "CREATE INDEX Z_1FRIENDS_REFLEXIVE_INDEX ON Z_1FRIENDS (REFLEXIVE, Z_1FRIENDS)")
    }

    @Test func siblingCollisionNumbersInBuildOrderNotColumnOrder() throws {
        // Book (2) builds before Film (3): Book's title keeps the plain name even though Film's sorts first.
        let statements = try LayoutRuleTests.sql("""
            <entity name="Media" isAbstract="YES"/>
            <entity name="Book" parentEntity="Media"><attribute name="title" optional="YES" attributeType="String"/></entity>
            <entity name="Film" parentEntity="Media"><attribute name="title" optional="YES" attributeType="Date"/></entity>
            """)
        #expect(statements[0] == "CREATE TABLE ZMEDIA ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE1 TIMESTAMP, ZTITLE VARCHAR )")
    }

    @Test func typeMajorOrderAcrossTheHierarchy() throws {
        let statements = try LayoutRuleTests.sql("""
            <entity name="Note"><attribute name="title" optional="YES" attributeType="String"/></entity>
            <entity name="Checklist" parentEntity="Note"><attribute name="dueAt" optional="YES" attributeType="Date"/></entity>
            """)
        #expect(statements[0] == "CREATE TABLE ZNOTE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZDUEAT TIMESTAMP, ZTITLE VARCHAR )")
    }

    @Test func orderKeyFollowsEveryIntegerColumn() throws {
        let statements = try LayoutRuleTests.sql("""
            <entity name="List"><relationship name="items" optional="YES" toMany="YES" ordered="YES" destinationEntity="Item" inverseName="list" inverseEntity="Item"/></entity>
            <entity name="Item">
              <attribute name="rank" optional="YES" attributeType="Integer 32"/>
              <relationship name="list" optional="YES" maxCount="1" destinationEntity="List" inverseName="items" inverseEntity="List"/>
            </entity>
            <entity name="Task" parentEntity="Item"><attribute name="priority" optional="YES" attributeType="Integer 16"/></entity>
            """)
        #expect(statements[0] == "CREATE TABLE ZITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZRANK INTEGER, ZLIST INTEGER, ZPRIORITY INTEGER, Z_FOK_LIST INTEGER )")
    }

    @Test func compositeAttributesFlattenIntoElementColumns() throws {
        let statements = try LayoutRuleTests.sql("""
            <entity name="Place">
              <attribute name="name" optional="YES" attributeType="String"/>
              <attribute name="location" optional="YES" attributeType="Composite" composite="Location"/>
            </entity>
            <composite name="Location">
              <attribute name="longitude" optional="YES" attributeType="Double"/>
              <attribute name="latitude" optional="YES" attributeType="Double"/>
            </composite>
            """)
        #expect(statements[0] == "CREATE TABLE ZPLACE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZLATITUDE FLOAT, ZLONGITUDE FLOAT, ZNAME VARCHAR )")
    }

    @Test func singleElementFetchIndexOnAToOneAddsNothing() throws {
        let statements = try LayoutRuleTests.sql("""
            <entity name="Owner"/>
            <entity name="Car">
              <relationship name="owner" optional="YES" maxCount="1" destinationEntity="Owner"/>
              <fetchIndex name="byOwner"><fetchIndexElement property="owner" type="Binary" order="ascending"/></fetchIndex>
            </entity>
            """)
        #expect(!statements.contains { $0.contains("byOwner") })
        #expect(statements.contains("CREATE INDEX ZCAR_ZOWNER_INDEX ON ZCAR (ZOWNER)"))
    }
}
