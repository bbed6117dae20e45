import Foundation
import Testing
@testable import CoreSeed
import CoreSeedTestSupport

/// Derived `<to-one>.<attribute>` attributes (issue 23, item 1): the four `Z_DA_` triggers are the text
/// of Core Data's generator (`NSSQLDerivedAttributeSQLGenerator`, to-one branch), the build fills the
/// values, the triggers move them as Core Data's would, and `verify` recomputes them on its own.
@Suite struct DerivedKeyPathTests {
    static let cities = """
        <entity name="City">
          <attribute name="countryName" optional="YES" attributeType="String" derived="YES" derivationExpression="country.name"/>
          <attribute name="name" optional="YES" attributeType="String"/>
          <relationship name="country" optional="YES" maxCount="1" destinationEntity="Country" inverseName="cities" inverseEntity="Country"/>
        </entity>
        <entity name="Country">
          <attribute name="name" optional="YES" attributeType="String"/>
          <relationship name="cities" optional="YES" toMany="YES" destinationEntity="City" inverseName="country" inverseEntity="City"/>
        </entity>
        """
    /// A self-referential key path on a sub-entity: the value shares the table it is read from.
    static let folders = """
        <entity name="Node" isAbstract="YES"><attribute name="name" optional="YES" attributeType="String"/></entity>
        <entity name="Folder" parentEntity="Node">
          <attribute name="parentName" optional="YES" attributeType="String" derived="YES" derivationExpression="parent.name"/>
          <relationship name="children" optional="YES" toMany="YES" destinationEntity="Folder" inverseName="parent" inverseEntity="Folder"/>
          <relationship name="parent" optional="YES" maxCount="1" destinationEntity="Folder" inverseName="children" inverseEntity="Folder"/>
        </entity>
        <entity name="File" parentEntity="Node"/>
        """

    /// The format strings of `+[NSSQLDerivedAttributeSQLGenerator _generateSQLForToOneDerivationForDerivedAttribute:toOneKeypath:]`
    /// (decompiled CoreData, code corpus), filled in for City.countryName, in the order it creates them.
    @Test func triggersAreTheGeneratorsText() throws {
        let layout = try LayoutRuleTests.layout(Self.cities)
        #expect(layout.triggers == [
            "CREATE TRIGGER Z_DA_ZCITY_City_countryName_SOURCE_INSERT AFTER INSERT ON ZCITY FOR EACH ROW BEGIN UPDATE ZCITY SET ZCOUNTRYNAME = (SELECT ZNAME FROM ZCOUNTRY WHERE Z_PK = NEW.ZCOUNTRY) WHERE Z_PK = NEW.Z_PK; SELECT NSCoreDataDATriggerInsertUpdatedAffectedObjectValue('ZCITY', Z_ENT, Z_PK, 'countryName', ZCOUNTRYNAME) FROM ZCITY WHERE Z_PK = NEW.Z_PK; END",
            "CREATE TRIGGER Z_DA_ZCITY_City_countryName_SOURCE_UPDATE AFTER UPDATE OF ZCOUNTRY ON ZCITY FOR EACH ROW BEGIN UPDATE ZCITY SET ZCOUNTRYNAME = (SELECT ZNAME FROM ZCOUNTRY WHERE Z_PK = NEW.ZCOUNTRY) WHERE Z_PK = NEW.Z_PK; SELECT NSCoreDataDATriggerUpdatedAffectedObjectValue('ZCITY', Z_ENT, Z_PK, 'countryName', ZCOUNTRYNAME) FROM ZCITY WHERE Z_PK = NEW.Z_PK; END",
            "CREATE TRIGGER Z_DA_ZCOUNTRY_City_countryName_PARAMETER_INSERT AFTER INSERT ON ZCOUNTRY FOR EACH ROW BEGIN UPDATE ZCITY SET ZCOUNTRYNAME = NEW.ZNAME WHERE ZCOUNTRY = NEW.Z_PK; SELECT NSCoreDataDATriggerInsertUpdatedAffectedObjectValue('ZCITY', Z_ENT, Z_PK, 'countryName', ZCOUNTRYNAME) FROM ZCITY WHERE ZCOUNTRY = NEW.Z_PK; END",
            "CREATE TRIGGER Z_DA_ZCOUNTRY_City_countryName_PARAMETER_UPDATE AFTER UPDATE OF ZNAME ON ZCOUNTRY FOR EACH ROW BEGIN UPDATE ZCITY SET ZCOUNTRYNAME = NEW.ZNAME WHERE ZCOUNTRY = NEW.Z_PK; SELECT NSCoreDataDATriggerUpdatedAffectedObjectValue('ZCITY', Z_ENT, Z_PK, 'countryName', ZCOUNTRYNAME) FROM ZCITY WHERE ZCOUNTRY = NEW.Z_PK; END",
        ])
        // A sub-entity (Node 1, File 2, Folder 3): `AND 3 = NEW.Z_ENT` / `WHEN 3 = NEW.Z_ENT` on the source triggers, `AND 3 = Z_ENT` on the parameter ones.
        let nested = try LayoutRuleTests.layout(Self.folders).triggers
        #expect(nested.first == "CREATE TRIGGER Z_DA_ZNODE_Folder_parentName_SOURCE_INSERT AFTER INSERT ON ZNODE FOR EACH ROW BEGIN UPDATE ZNODE SET ZPARENTNAME = (SELECT ZNAME FROM ZNODE WHERE Z_PK = NEW.ZPARENT) WHERE Z_PK = NEW.Z_PK AND 3 = NEW.Z_ENT; SELECT NSCoreDataDATriggerInsertUpdatedAffectedObjectValue('ZNODE', Z_ENT, Z_PK, 'parentName', ZPARENTNAME) FROM ZNODE WHERE Z_PK = NEW.Z_PK AND 3 = NEW.Z_ENT; END")
        #expect(nested[1].hasPrefix("CREATE TRIGGER Z_DA_ZNODE_Folder_parentName_SOURCE_UPDATE AFTER UPDATE OF ZPARENT ON ZNODE FOR EACH ROW WHEN 3 = NEW.Z_ENT BEGIN"))
        #expect(nested[3] == "CREATE TRIGGER Z_DA_ZNODE_Folder_parentName_PARAMETER_UPDATE AFTER UPDATE OF ZNAME ON ZNODE FOR EACH ROW BEGIN UPDATE ZNODE SET ZPARENTNAME = NEW.ZNAME WHERE ZPARENT = NEW.Z_PK AND 3 = Z_ENT; SELECT NSCoreDataDATriggerUpdatedAffectedObjectValue('ZNODE', Z_ENT, Z_PK, 'parentName', ZPARENTNAME) FROM ZNODE WHERE ZPARENT = NEW.Z_PK AND 3 = Z_ENT; END")
    }

    static func texts(_ database: SQLiteDatabase, _ sql: String) throws -> [String?] {
        try database.rows(sql).map { row in if case .text(let value) = row[0] { value } else { nil } }
    }

    /// The fill gives what the triggers would; plain-SQL inserts and updates move the values as Core
    /// Data's triggers do; `verify` names a value changed behind CoreSeed's back.
    @Test func valuesFollowTheirRowsAndVerifyNamesAWrongOne() throws {
        let layout = try LayoutRuleTests.layout(Self.cities)
        let (database, directory) = try SameTableCountTests.store(layout, rows: [
            "INSERT INTO ZCOUNTRY (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (1, 2, 1, 'France'), (2, 2, 1, 'Germany')",
            "INSERT INTO ZCITY (Z_PK, Z_ENT, Z_OPT, ZNAME, ZCOUNTRY) VALUES (1, 1, 1, 'Paris', 1), (2, 1, 1, 'Berlin', 2), (3, 1, 1, 'Atlantis', NULL)",
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try Self.texts(database, "SELECT ZCOUNTRYNAME FROM ZCITY ORDER BY Z_PK") == ["France", "Germany", nil])
        #expect(try SameTableCountTests.disagreeing(database, Self.cities).isEmpty)
        try database.registerInertFunctions(DerivedCount.triggerFunctions)
        for trigger in layout.triggers { try database.execute(trigger) }
        try database.execute("INSERT INTO ZCITY (Z_PK, Z_ENT, Z_OPT, ZNAME, ZCOUNTRY) VALUES (4, 1, 1, 'Lyon', 1)")
        try database.execute("UPDATE ZCOUNTRY SET ZNAME = 'République française' WHERE Z_PK = 1")
        try database.execute("UPDATE ZCITY SET ZCOUNTRY = 1 WHERE Z_PK = 2")
        try database.execute("INSERT INTO ZCOUNTRY (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (3, 2, 1, 'Atlantis')")
        #expect(try Self.texts(database, "SELECT ZCOUNTRYNAME FROM ZCITY ORDER BY Z_PK") == ["République française", "République française", nil, "République française"])
        #expect(try SameTableCountTests.disagreeing(database, Self.cities).isEmpty)
        try database.execute("UPDATE ZCITY SET ZCOUNTRYNAME = 'France' WHERE Z_PK = 4")
        #expect(try SameTableCountTests.disagreeing(database, Self.cities) == [4])
    }

    /// A self-referential key path: the fill reads the parent's row, not the row itself.
    @Test func aSelfReferentialKeyPathReadsTheParent() throws {
        let layout = try LayoutRuleTests.layout(Self.folders)
        let (database, directory) = try SameTableCountTests.store(layout, rows: [
            "INSERT INTO ZNODE (Z_PK, Z_ENT, Z_OPT, ZNAME, ZPARENT) VALUES (1, 3, 1, 'root', NULL), (2, 3, 1, 'docs', 1), (3, 2, 1, 'a.txt', NULL)",
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try Self.texts(database, "SELECT ZPARENTNAME FROM ZNODE ORDER BY Z_PK") == [nil, "root", nil])
        #expect(try SameTableCountTests.disagreeing(database, Self.folders).isEmpty)
        try database.execute("UPDATE ZNODE SET ZPARENTNAME = 'docs' WHERE Z_PK = 2")
        #expect(try SameTableCountTests.disagreeing(database, Self.folders) == [2])
    }

    /// A build fills the values, keeps the triggers, and `verify` fails a value changed behind its back.
    @Test func aBuildFillsTheValuesAndVerifyChecksThem() throws {
        let url = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: url) }
        try TestPaths.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?><model userDefinedModelVersionIdentifier=\"\">\(Self.cities)</model>",
                            to: "World.xcdatamodeld/World.xcdatamodel/contents", in: url)
        try TestPaths.write("name,country\nParis,FR\nBerlin,DE\nAtlantis,\n", to: "cities.csv", in: url)
        try TestPaths.write("code,name\nFR,France\nDE,Germany\n", to: "countries.csv", in: url)
        try TestPaths.write("""
            { "model": "World.xcdatamodeld", "output": "World.sqlite", "seedVersion": "1",
              "sources": { "cities": { "csv": "cities.csv" }, "countries": { "csv": "countries.csv" } },
              "entities": { "Country": { "from": "countries", "key": "code" },
                            "City": { "from": "cities", "key": "name", "relationships": { "country": "country" } } } }
            """, to: "spec.json", in: url)
        _ = try SeedBuild.run(specPath: url.appendingPathComponent("spec.json").path)
        let store = url.appendingPathComponent("World.sqlite").path
        let versions = try ModelVersions.load(path: url.appendingPathComponent("World.xcdatamodeld").path)
        #expect(try StoreVerifier(versions: versions).verify(storeAt: store).differences == [])
        let database = try SQLiteDatabase(path: store, mode: .readWrite)
        #expect(try Self.texts(database, "SELECT ZCOUNTRYNAME FROM ZCITY ORDER BY Z_PK") == ["France", "Germany", nil])
        try database.execute("UPDATE ZCITY SET ZCOUNTRYNAME = 'Prussia' WHERE Z_PK = 2")
        #expect(try StoreVerifier(versions: versions).verify(storeAt: store).differences == [
            "ZCITY.ZCOUNTRYNAME: 1 value(s) that disagree with the name of the ZCOUNTRY row their ZCOUNTRY names (Z_PK 2): City.countryName is derived (\"country.name\")",
        ])
    }
}
