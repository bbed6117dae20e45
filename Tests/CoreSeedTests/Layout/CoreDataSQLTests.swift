import Testing
@testable import CoreSeed

/// The home of Core Data's SQL (`Layout/SQL/`, issue 25): the statements keep the text the build sent
/// before they moved there, and a name reaches SQL text only through `SQLIdentifier`.
@Suite struct CoreDataSQLTests {
    @Test func anUpsertUpdatesOnlyChangedRowsAndCountsZOPT() {
        #expect(CoreDataSQL.rowUpdate(table: "ZBANK", columns: ["ZNAME", "ZCITY"], keepingBlanks: false)
            == "UPDATE ZBANK SET Z_OPT = Z_OPT + 1, ZNAME = ?1, ZCITY = ?2 WHERE Z_PK = ?3 AND (ZNAME IS NOT ?1 OR ZCITY IS NOT ?2)")
        #expect(CoreDataSQL.rowUpdate(table: "ZBANK", columns: ["ZNAME"], keepingBlanks: true)
            == "UPDATE ZBANK SET Z_OPT = Z_OPT + 1, ZNAME = COALESCE(?1, ZNAME) WHERE Z_PK = ?2 AND ((?1 IS NOT NULL AND ZNAME IS NOT ?1))")
    }

    @Test func theBuildsFixedStatementsKeepCoreDatasText() {
        #expect(CoreDataSQL.primaryKeyInsert == "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, ?)")
        #expect(CoreDataSQL.metadataInsert == "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)")
        #expect(CoreDataSQL.primaryKeyMaxRaise == "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_NAME = ? AND Z_MAX < ?")
        #expect(CoreDataSQL.metadataRow == "SELECT Z_UUID, Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1")
        #expect(CoreDataSQL.rootPrimaryKeyMaxima == "SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY WHERE Z_SUPER = 0")
        #expect(CoreDataSQL.existingRows(table: "ZBANK", entityNumber: 2, columns: ["ZNAME", "ZCITY"])
            == "SELECT Z_PK, Z_OPT, ZNAME, ZCITY FROM ZBANK WHERE Z_ENT = 2")
    }

    /// A layout name goes in bare only when it is plain; anything else is quoted, so that it reads as a
    /// name and never as SQL (before the home, such a name went into the build's statements as it was).
    @Test func aNameThatIsNotPlainIsQuoted() {
        #expect(CoreDataSQL.existingRows(table: "Z BANK", entityNumber: 2, columns: ["ZNA\"ME; DROP"])
            == "SELECT Z_PK, Z_OPT, \"ZNA\"\"ME; DROP\" FROM \"Z BANK\" WHERE Z_ENT = 2")
        #expect(CoreDataSQL.externalReferences(table: "ZA-B", column: "ZDATA")
            == "SELECT ZDATA FROM \"ZA-B\" WHERE substr(ZDATA, 1, 1) = x'02'")
        // Verify quotes every name, plain or not: a store under check may hold anything.
        #expect(CoreDataSQL.verifyDanglingKeys(table: "ZBANK", column: "ZCITY", target: "ZCITY")
            == "SELECT count(*) FROM \"ZBANK\" WHERE \"ZCITY\" IS NOT NULL AND \"ZCITY\" NOT IN (SELECT Z_PK FROM \"ZCITY\")")
    }

    @Test(arguments: [("ZBANK", true), ("Z_1ITEMS", true), ("_Z_FOK_ITEMS", true), ("1ZA", false), ("", false),
                      ("ZCAFÉ", false), ("Z\"A", false), ("Z A", false)])
    func plainNames(name: String, plain: Bool) {
        #expect(SQLIdentifier.isPlain(name) == plain)
        #expect(SQLIdentifier.plain(name) == (plain ? name : SQLIdentifier.quoted(name)))
    }
}
