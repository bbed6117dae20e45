import Foundation
import Testing
import CoreSeed
import CoreSeedTestSupport

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
        #expect(tables == ["ZACCESSPOINT", "ZCOUNTRY", "ZFLAG", "ZNETWORK", "ZPROVIDER", "Z_4PROVIDERS", "Z_PRIMARYKEY"])
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
    }

    /// Issue 14: JSON export can be read back — `export --spec --format json` rebuilds the same rows.
    @Test func jsonExportRebuildsRowForRow() throws {
        let scratch = try Scratch()
        let model = BinaryRunner.repositoryRoot.appendingPathComponent("Inputs/Carriers.xcdatamodeld").path
        #expect(try BinaryRunner.run(["build", "Inputs/seed.json", "--output", scratch.path("carriers.sqlite"), "--quiet"]).status == 0)
        let export = try scratch.run(["export", "carriers.sqlite", "--model", model, "--format", "json", "--spec", "--output", "json"])
        #expect(export.status == 0, "\(export.stderr)")
        let spec = try String(contentsOfFile: scratch.path("json/seed.json"), encoding: .utf8)
        #expect(spec.contains("\"Provider\": {\"json\": \"Provider.json\", \"records\": \"/*\""))
        let rebuild = try scratch.run(["build", "json/seed.json", "--output", "rebuilt.sqlite", "--quiet"])
        #expect(rebuild.status == 0, "\(rebuild.stderr)")
        for table in ["ZACCESSPOINT", "ZCOUNTRY", "ZFLAG", "ZNETWORK", "ZPROVIDER", "Z_4PROVIDERS", "Z_PRIMARYKEY"] {
            #expect(try ExportRoundTripTests.differences(scratch.path("carriers.sqlite"), scratch.path("rebuilt.sqlite"), table: table) == [0, 0], "\(table)")
        }
        #expect(try scratch.run(["verify", "rebuilt.sqlite", "--model", model, "--strict"]).status == 0)
    }

    /// Issue 14: `export --spec` renumbered Z_PK (saved object URIs then pointed at nothing or at the
    /// wrong object), dropped the app's own metadata keys and wrote an absolute model path. A store with
    /// gaps in its Z_PKs (rows deleted) and custom metadata rebuilds with the same object IDs, the same
    /// keys, from a spec whose paths are relative to its folder (so the folder can move).
    @Test func rebuildKeepsObjectIDsMetadataAndRelativePaths() throws {
        let scratch = try Scratch()
        let model = BinaryRunner.repositoryRoot.appendingPathComponent("Inputs/Carriers.xcdatamodeld").path
        #expect(try BinaryRunner.run(["build", "Inputs/seed.json", "--output", scratch.path("carriers.sqlite"), "--quiet"]).status == 0)
        do {
            let database = try SQLiteDatabase(path: scratch.path("carriers.sqlite"), mode: .readWrite)
            // Country.providerCount's Z_DA_ triggers call Core Data's functions, as on a device.
            try database.registerInertFunctions(DerivedCount.triggerFunctions)
            try database.execute("""
                DELETE FROM ZACCESSPOINT WHERE Z_PK % 3 = 0 OR ZPROVIDER IN (2, 5);
                DELETE FROM Z_4PROVIDERS WHERE Z_5PROVIDERS IN (2, 5);
                DELETE FROM ZPROVIDER WHERE Z_PK IN (2, 5)
                """)
            guard case .blob(let bytes)? = try database.scalar("SELECT Z_PLIST FROM Z_METADATA"),
                  var plist = try PropertyListSerialization.propertyList(from: Data(bytes), format: nil) as? [String: Any] else {
                Issue.record("no metadata")
                return
            }
            plist["io.example.App.Token"] = "abc"
            plist["io.example.App.Count"] = 7
            let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
            let update = try database.prepare("UPDATE Z_METADATA SET Z_PLIST = ?")
            try update.bind([.blob([UInt8](data))])
            _ = try update.step()
        }
        try FileManager.default.createDirectory(atPath: scratch.path("library"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: model, toPath: scratch.path("library/Carriers.xcdatamodeld"))
        let export = try scratch.run(["export", "carriers.sqlite", "--model", "library/Carriers.xcdatamodeld", "--output", "library/export", "--spec"])
        #expect(export.status == 0, "\(export.stderr)")
        let spec = try String(contentsOfFile: scratch.path("library/export/seed.json"), encoding: .utf8)
        #expect(spec.contains("\"model\": \"../Carriers.xcdatamodeld\""), "\(spec.prefix(200))")
        #expect(spec.contains("\"io.example.App.Count\": 7") && spec.contains("\"io.example.App.Token\": \"abc\""))
        #expect(spec.contains("\"primaryKey\": \"pk\""))
        // The folder holding the model and the export moves: the spec still finds both.
        try FileManager.default.createDirectory(atPath: scratch.path("moved"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: scratch.path("library"), toPath: scratch.path("moved/library"))
        let rebuild = try scratch.run(["build", "moved/library/export/seed.json", "--output", "rebuilt.sqlite", "--quiet"])
        #expect(rebuild.status == 0, "\(rebuild.stderr)")
        // Every row keeps its Z_PK and values; only the ordering keys of an ordered to-many (Z_FOK_…)
        // are renumbered 1, 2, … (same order, no gaps).
        for (table, select) in [("ZACCESSPOINT", "Z_PK, Z_ENT, ZPROVIDER, ZAPN, ZNAME, ZPASSWORD, ZPLAN, ZUSAGE, ZUSERNAME"),
                                ("ZPROVIDER", "*"), ("ZCOUNTRY", "*"), ("ZFLAG", "*"), ("ZNETWORK", "*"), ("Z_4PROVIDERS", "*"), ("Z_PRIMARYKEY", "*")] {
            #expect(try ExportRoundTripTests.differences(scratch.path("carriers.sqlite"), scratch.path("rebuilt.sqlite"), table: table, select: select) == [0, 0], "\(table)")
        }
        let rebuilt = try scratch.run(["inspect", "rebuilt.sqlite"]).stdout
        #expect(rebuilt.contains("metadata io.example.App.Count: 7\n") && rebuilt.contains("metadata io.example.App.Token: \"abc\"\n"))
    }
}
