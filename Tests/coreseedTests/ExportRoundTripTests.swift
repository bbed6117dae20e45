import Foundation
import Testing
import CoreSeed

/// End-to-end: `export --spec` then `build` from the export gives the same rows (the restore path).
@Suite(.serialized) struct ExportRoundTripTests {
    /// Tables of `store` that hold rows (entity and join tables, Z_PRIMARYKEY), by name.
    static func dataTables(_ database: SQLiteDatabase) throws -> [String] {
        try StoreOps.rows(database, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('Z_METADATA', 'Z_MODELCACHE') ORDER BY name").map { $0[0] }
    }

    /// Rows of `table` in one store and not the other, both ways (0 and 0 when equal, Z_PK included).
    static func differences(_ original: String, _ rebuilt: String, table: String, select: String = "*") throws -> [Int] {
        let database = try SQLiteDatabase(path: rebuilt, mode: .readOnly(immutable: true))
        try database.execute("ATTACH DATABASE 'file:\(original)?immutable=1' AS o")
        let one = try StoreOps.rows(database, "SELECT count(*) FROM (SELECT \(select) FROM main.\(table) EXCEPT SELECT \(select) FROM o.\(table))")
        let other = try StoreOps.rows(database, "SELECT count(*) FROM (SELECT \(select) FROM o.\(table) EXCEPT SELECT \(select) FROM main.\(table))")
        return [Int(one[0][0])!, Int(other[0][0])!]
    }

    static func roundTrip(spec: String, model: String, store: String, scratch: Scratch) throws -> BinaryRunner.Result {
        let build = try BinaryRunner.run(["build", spec, "--output", scratch.path(store), "--quiet"])
        #expect(build.status == 0, "\(build.stderr)")
        let export = try BinaryRunner.run(["export", scratch.path(store), "--model", model, "--output", scratch.path("export"), "--spec"])
        #expect(export.status == 0, "\(export.stderr)")
        let rebuild = try scratch.run(["build", "export/seed.json", "--output", "rebuilt.sqlite", "--quiet"])
        #expect(rebuild.status == 0, "\(rebuild.stderr)")
        let verify = try scratch.run(["verify", "rebuilt.sqlite", "--model", BinaryRunner.repositoryRoot.appendingPathComponent(model).path])
        #expect(verify.status == 0, "\(verify.stderr)")
        return export
    }

    @Test func failedBanksRebuildsRowForRow() throws {
        let scratch = try Scratch()
        let export = try ExportRoundTripTests.roundTrip(spec: "Inputs/failedbanks-sqlite.json", model: "Inputs/FailedBanksCD.xcdatamodeld",
                                                        store: "fb.sqlite", scratch: scratch)
        #expect(export.stderr == "")
        #expect(export.stdout == """
            \(scratch.path("export"))/FailedBankDetails.csv: 233 rows of FailedBankDetails
            \(scratch.path("export"))/FailedBankInfo.csv: 233 rows of FailedBankInfo
            \(scratch.path("export"))/seed.json: rebuilds the store with 'coreseed build \(scratch.path("export"))/seed.json'

            """)
        let details = try String(contentsOfFile: scratch.path("export/FailedBankDetails.csv"), encoding: .utf8)
        #expect(details.hasPrefix("pk,closeDate,updatedDate,zip,info\r\n1,2010-03-26T04:00:00Z,2010-03-26T04:00:00Z,57060,1\r\n"))
        let original = try SQLiteDatabase(path: scratch.path("fb.sqlite"), mode: .readOnly(immutable: true))
        let tables = try ExportRoundTripTests.dataTables(original)
        #expect(tables == ["ZFAILEDBANKDETAILS", "ZFAILEDBANKINFO", "Z_PRIMARYKEY"])
        for table in tables {
            #expect(try ExportRoundTripTests.differences(scratch.path("fb.sqlite"), scratch.path("rebuilt.sqlite"), table: table) == [0, 0], "\(table)")
        }
    }

    @Test func carriersRebuildRowForRow() throws {
        let scratch = try Scratch()
        let export = try ExportRoundTripTests.roundTrip(spec: "Inputs/seed.json", model: "Inputs/Carriers.xcdatamodeld",
                                                        store: "carriers.sqlite", scratch: scratch)
        #expect(export.stderr == "")
        let provider = try String(contentsOfFile: scratch.path("export/Provider.csv"), encoding: .utf8)
        #expect(provider.hasPrefix("pk,isPrimary,name,accessPoints,country\r\n1,,Andorra Telecom (Mobiland),1;2;3,1\r\n"))
        // The XML has a few empty <password/> and <username/> elements: written "" in the export, while
        // NULL is an empty field, and read back apart (`nullIfUnquotedEmpty`).
        let accessPoints = try String(contentsOfFile: scratch.path("export/AccessPoint.csv"), encoding: .utf8)
        #expect(accessPoints.contains(",\"\","))
        let original = try SQLiteDatabase(path: scratch.path("carriers.sqlite"), mode: .readOnly(immutable: true))
        let tables = try ExportRoundTripTests.dataTables(original)
        #expect(tables == ["ZACCESSPOINT", "ZCOUNTRY", "ZNETWORK", "ZPROVIDER", "Z_3PROVIDERS", "Z_PRIMARYKEY"])
        for table in tables {
            #expect(try ExportRoundTripTests.differences(scratch.path("carriers.sqlite"), scratch.path("rebuilt.sqlite"), table: table) == [0, 0], "\(table)")
        }
        #expect(try StoreOps.rows(original, "SELECT count(*) FROM ZACCESSPOINT WHERE ZPASSWORD = ''") == [["8"]])
    }

    @Test func jsonFilesParseAndHoldEveryRow() throws {
        let scratch = try Scratch()
        let build = try BinaryRunner.run(["build", "Inputs/seed.json", "--output", scratch.path("carriers.sqlite"), "--quiet"])
        #expect(build.status == 0, "\(build.stderr)")
        let export = try scratch.run(["export", "carriers.sqlite", "--model", BinaryRunner.repositoryRoot.appendingPathComponent("Inputs/Carriers.xcdatamodeld").path,
                                      "--format", "json", "--entity", "Provider", "--output", "json"])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stdout == "json/Provider.json: 700 rows of Provider\n")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: scratch.path("json/Provider.json")))) as? [[String: Any]])
        #expect(rows.count == 700)
        #expect(rows[0]["pk"] as? Int == 1)
        #expect(rows[0]["name"] as? String == "Andorra Telecom (Mobiland)")
        #expect(rows[0]["accessPoints"] as? [Int] == [1, 2, 3])
        #expect(rows[0]["isPrimary"] is NSNull)
        let spec = try scratch.run(["export", "carriers.sqlite", "--model", "m", "--format", "json", "--spec"])
        #expect(spec.status == 64)
        #expect(spec.stderr.hasPrefix("error: --spec needs --format csv: the build reads CSV, XML and SQLite sources, not JSON\n"))
    }
}
