import Foundation
import Testing
import CoreSeed
import CoreSeedTestSupport

/// Issue 24, item 14: the lesser findings, each with what the user now sees.
@Suite struct LesserHostileTests {
    static func alter(_ scratch: Scratch, _ store: String, _ sql: String) throws {
        let database = try SQLiteDatabase(path: scratch.path(store), mode: .readWrite)
        try database.execute(sql)
    }

    /// Export's error for a value without Core Data's marker named no file; it names the store and the
    /// row by its Z_PK (it said the row's ordinal).
    @Test func exportsMarkerErrorNamesTheStoreAndRow() throws {
        let (scratch, _) = try SupportFolderOwnerTests.built()
        try Self.alter(scratch, "out/R.sqlite", "UPDATE ZRECIPE SET Z_PK = 7 WHERE Z_PK = 1; UPDATE ZRECIPE SET ZPHOTO = x'07aa' WHERE Z_PK = 7")
        let export = try scratch.run(["export", "out/R.sqlite", "--model", "R.xcdatamodeld", "--output", "ex"])
        #expect(export.status == 1)
        #expect(export.stderr == "out/R.sqlite: error: Recipe pk 7: photo allows external storage but holds a value without Core Data's marker (0x01 inline or 0x02 reference)\n")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("ex")))
    }

    /// Rows whose Z_ENT is no entity of their table were left out of the export without a word.
    @Test func exportRefusesRowsOfNoEntity() throws {
        let scratch = try TransformableTests.prepare()
        #expect(try scratch.run(["build", "spec.json", "--quiet"]).status == 0)
        try Self.alter(scratch, "T.sqlite", "UPDATE ZRECIPE SET Z_ENT = 99 WHERE Z_PK = 2")
        let export = try scratch.run(["export", "T.sqlite", "--model", "T.xcdatamodeld", "--output", "ex"])
        #expect(export.status == 1)
        #expect(export.stderr == "T.sqlite: error: ZRECIPE: rows whose Z_ENT is no entity of this table (1), which no file would hold: Z_PK 2 (Z_ENT 99); the store is damaged (coreseed verify lists them)\n")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("ex")))
    }
}
