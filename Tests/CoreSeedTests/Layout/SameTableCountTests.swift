import Foundation
import Testing
@testable import CoreSeed
import CoreSeedTestSupport

/// Derived `@count`s whose counted rows live in the counter's own table (issue 23): a self-referential
/// folder tree, sibling sub-entities of one abstract parent, a parent counting its own sub-entities.
/// The build's fill, the triggers and `verify` must all count the right rows.
@Suite struct SameTableCountTests {
    static let folders = """
        <entity name="Folder">
          <attribute name="childCount" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="children.@count"/>
          <relationship name="children" optional="YES" toMany="YES" destinationEntity="Folder" inverseName="parent" inverseEntity="Folder"/>
          <relationship name="parent" optional="YES" maxCount="1" destinationEntity="Folder" inverseName="children" inverseEntity="Folder"/>
        </entity>
        """
    static let places = """
        <entity name="Place" isAbstract="YES"><attribute name="name" optional="YES" attributeType="String"/></entity>
        <entity name="Country" parentEntity="Place">
          <attribute name="subdivisionCount" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="subdivisions.@count"/>
          <relationship name="subdivisions" optional="YES" toMany="YES" destinationEntity="Subdivision" inverseName="country" inverseEntity="Subdivision"/>
        </entity>
        <entity name="Subdivision" parentEntity="Place">
          <relationship name="country" optional="YES" maxCount="1" destinationEntity="Country" inverseName="subdivisions" inverseEntity="Country"/>
        </entity>
        """
    static let nodes = """
        <entity name="Node">
          <attribute name="leafCount" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="leaves.@count"/>
          <relationship name="leaves" optional="YES" toMany="YES" destinationEntity="Leaf" inverseName="owner" inverseEntity="Leaf"/>
        </entity>
        <entity name="Leaf" parentEntity="Node">
          <relationship name="owner" optional="YES" maxCount="1" destinationEntity="Node" inverseName="leaves" inverseEntity="Node"/>
        </entity>
        """

    /// A store with the layout's tables (triggers kept back, as a build creates them after the rows).
    static func store(_ model: String, rows: [String]) throws -> (SQLiteDatabase, StoreLayout, URL) {
        let layout = try LayoutRuleTests.layout(model)
        let (database, directory) = try store(layout, rows: rows)
        return (database, layout, directory)
    }

    /// The same for a layout: its tables, `rows`, then the build's fill of every derived value.
    static func store(_ layout: StoreLayout, rows: [String]) throws -> (SQLiteDatabase, URL) {
        let directory = try TestPaths.temporaryDirectory()
        let database = try SQLiteDatabase(path: directory.appendingPathComponent("s.sqlite").path, mode: .readWriteCreate)
        for statement in layout.statements where !statement.hasPrefix("CREATE TRIGGER") { try database.execute(statement) }
        for row in rows { try database.execute(row) }
        for derived in layout.derivedCounts { try database.execute(derived.fillSQL) }
        for derived in layout.derivedKeyPaths { try database.execute(derived.fillSQL) }
        return (database, directory)
    }

    static func counts(_ database: SQLiteDatabase, _ sql: String) throws -> [Int64?] {
        try database.rows(sql).map { row in if case .integer(let value) = row[0] { value } else { nil } }
    }

    /// The `Z_PK`s verify finds with a wrong derived value, computed by verify's own code from the model.
    static func disagreeing(_ database: SQLiteDatabase, _ body: String) throws -> [Int64] {
        let model = try ModelParser.parse(data: Data("<model>\(body)</model>".utf8), path: "test", versionName: "test")
        let layout = try StoreLayout(model: model, framework: FrameworkVersion(1344))
        return try StoreVerifier.derivedDisagreements(database, StoredSchema.read(database), layout, model: model).flatMap(\.keys)
    }

    @Test func aSelfReferentialCountIsRight() throws {
        // 1 has children 2 and 3; 2 has child 4.
        let (database, layout, directory) = try Self.store(Self.folders, rows: [
            "INSERT INTO ZFOLDER (Z_PK, Z_ENT, Z_OPT, ZPARENT) VALUES (1, 1, 1, NULL), (2, 1, 1, 1), (3, 1, 1, 1), (4, 1, 1, 2)",
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try Self.counts(database, "SELECT ZCHILDCOUNT FROM ZFOLDER ORDER BY Z_PK") == [2, 1, 0, 0])
        #expect(try Self.disagreeing(database, Self.folders).isEmpty)
        // One row changed behind CoreSeed's back: verify names it.
        try database.execute("UPDATE ZFOLDER SET ZCHILDCOUNT = 0 WHERE Z_PK = 2")
        #expect(try Self.disagreeing(database, Self.folders) == [2])
        try database.execute("UPDATE ZFOLDER SET ZCHILDCOUNT = 1 WHERE Z_PK = 2")
        // The triggers keep the count as Core Data's would.
        try database.registerInertFunctions(DerivedCount.triggerFunctions)
        for trigger in layout.triggers { try database.execute(trigger) }
        try database.execute("INSERT INTO ZFOLDER (Z_PK, Z_ENT, Z_OPT, ZPARENT) VALUES (5, 1, 1, 2)")
        try database.execute("UPDATE ZFOLDER SET ZPARENT = 1 WHERE Z_PK = 4")
        #expect(try Self.counts(database, "SELECT ZCHILDCOUNT FROM ZFOLDER ORDER BY Z_PK") == [3, 1, 0, 0, 0])
        #expect(try Self.disagreeing(database, Self.folders).isEmpty)
    }

    @Test func aCountOverASiblingSubEntityIsRight() throws {
        // Place 1, Country 2, Subdivision 3.
        let (database, _, directory) = try Self.store(Self.places, rows: [
            "INSERT INTO ZPLACE (Z_PK, Z_ENT, Z_OPT, ZCOUNTRY) VALUES (1, 2, 1, NULL), (2, 2, 1, NULL), (3, 3, 1, 1), (4, 3, 1, 1), (5, 3, 1, 2)",
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try Self.counts(database, "SELECT ZSUBDIVISIONCOUNT FROM ZPLACE ORDER BY Z_PK") == [2, 1, nil, nil, nil])
        #expect(try Self.disagreeing(database, Self.places).isEmpty)
        try database.execute("UPDATE ZPLACE SET ZSUBDIVISIONCOUNT = 7 WHERE Z_PK = 1")
        #expect(try Self.disagreeing(database, Self.places) == [1])
    }

    @Test func theTriggersOfASubEntityCountLimitThemselvesToItsRows() throws {
        // Core Data's generator (NSSQLDerivedAttributeSQLGenerator, to-many count branch) adds the
        // counting entity's Z_ENT when it is a sub-entity.
        let layout = try LayoutRuleTests.layout(Self.places)
        #expect(layout.triggers.first == "CREATE TRIGGER Z_DA_ZPLACE_Country_subdivisionCount_PARAMETER_INSERT AFTER INSERT ON ZPLACE FOR EACH ROW WHEN (NEW.ZCOUNTRY NOT NULL) BEGIN UPDATE ZPLACE SET ZSUBDIVISIONCOUNT = IFNULL(ZSUBDIVISIONCOUNT, 0) + 1 WHERE Z_PK = NEW.ZCOUNTRY AND 2 = Z_ENT; SELECT NSCoreDataDATriggerUpdatedAffectedObjectValue('ZPLACE', Z_ENT, Z_PK, 'subdivisionCount', ZSUBDIVISIONCOUNT) FROM ZPLACE WHERE Z_PK = NEW.ZCOUNTRY AND 2 = Z_ENT; END")
        #expect(layout.triggers.last == "CREATE TRIGGER Z_DA_ZPLACE_Country_subdivisionCount_SOURCE_INSERT AFTER INSERT ON ZPLACE FOR EACH ROW WHEN 2 = NEW.Z_ENT BEGIN UPDATE ZPLACE SET ZSUBDIVISIONCOUNT = (SELECT IFNULL(COUNT(ZCOUNTRY), 0) FROM ZPLACE WHERE ZCOUNTRY = NEW.Z_PK) WHERE Z_PK = NEW.Z_PK; SELECT NSCoreDataDATriggerInsertUpdatedAffectedObjectValue('ZPLACE', Z_ENT, Z_PK, 'subdivisionCount', ZSUBDIVISIONCOUNT) FROM ZPLACE WHERE Z_PK = NEW.Z_PK; END")
        let (database, _, directory) = try Self.store(Self.places, rows: [
            "INSERT INTO ZPLACE (Z_PK, Z_ENT, Z_OPT, ZCOUNTRY) VALUES (1, 2, 1, NULL), (2, 3, 1, 1)",
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        try database.registerInertFunctions(DerivedCount.triggerFunctions)
        for trigger in layout.triggers { try database.execute(trigger) }
        try database.execute("INSERT INTO ZPLACE (Z_PK, Z_ENT, Z_OPT, ZCOUNTRY) VALUES (3, 3, 1, 1), (4, 3, 1, 2)")
        // A subdivision pointing at a subdivision (key 2) moves no count; the country's count is 2.
        #expect(try Self.counts(database, "SELECT ZSUBDIVISIONCOUNT FROM ZPLACE ORDER BY Z_PK") == [2, nil, nil, nil])
    }

    @Test func aParentCountingItsOwnSubEntitiesIsRight() throws {
        // Node 1, Leaf 2: node 1 owns leaves 2 and 3; leaf 3 owns leaf 4.
        let (database, _, directory) = try Self.store(Self.nodes, rows: [
            "INSERT INTO ZNODE (Z_PK, Z_ENT, Z_OPT, ZOWNER) VALUES (1, 1, 1, NULL), (2, 2, 1, 1), (3, 2, 1, 1), (4, 2, 1, 3)",
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try Self.counts(database, "SELECT ZLEAFCOUNT FROM ZNODE ORDER BY Z_PK") == [2, 0, 1, 0])
        #expect(try Self.disagreeing(database, Self.nodes).isEmpty)
        try database.execute("UPDATE ZNODE SET ZLEAFCOUNT = 0 WHERE Z_PK = 3")
        #expect(try Self.disagreeing(database, Self.nodes) == [3])
    }
}
