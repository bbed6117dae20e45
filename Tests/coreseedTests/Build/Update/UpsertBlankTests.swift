import Foundation
import Testing
import CoreSeed
import CoreSeedTestSupport

/// A blank cell in an upsert's change file leaves the stored value (`onBlank: keep`, the default);
/// `onBlank: null` clears it (issue 14: blank latitude, longitude and country wiped stored values).
@Suite struct UpsertBlankTests {
    static func prepare(onBlank: String? = nil) throws -> Scratch {
        let scratch = try Scratch()
        try scratch.writeModel("Moods", """
            <entity name="Country">
              <attribute name="code" attributeType="String"/>
              <relationship name="moods" optional="YES" toMany="YES" destinationEntity="Mood" inverseName="country" inverseEntity="Mood"/>
            </entity>
            <entity name="Mood">
              <attribute name="id" attributeType="Integer 64"/>
              <attribute name="latitude" optional="YES" attributeType="Double"/>
              <attribute name="note" optional="YES" attributeType="String"/>
              <relationship name="country" optional="YES" maxCount="1" destinationEntity="Country" inverseName="moods" inverseEntity="Country"/>
            </entity>
            """)
        try scratch.write("countries.csv", "code\nAU\nNZ\n")
        try scratch.write("moods.csv", "id,latitude,note,country\n1,-26.0,calm,AU\n2,-41.3,busy,NZ\n3,-33.9,sunny,AU\n")
        let policy = onBlank.map { ", \"onBlank\": \"\($0)\"" } ?? ""
        try scratch.write("spec.json", """
            { "model": "Moods.xcdatamodeld", "output": "Moods.sqlite",
              "sources": { "countries": { "csv": "countries.csv" }, "moods": { "csv": "moods.csv" } },
              "entities": { "Country": { "from": "countries", "key": "code" },
                            "Mood": { "from": "moods", "key": "id", "relationships": { "country": { "key": "country" } }\(policy) } } }
            """)
        let build = try scratch.run(["build", "spec.json", "--quiet"])
        #expect(build.status == 0, "\(build.stderr)")
        // The change file: mood 1 only gets a new note, mood 2 is named with every other cell blank.
        try scratch.write("moods.csv", "id,latitude,note,country\n1,,happy,\n2,,,\n")
        return scratch
    }

    @Test func blankCellsKeepStoredValues() throws {
        let scratch = try Self.prepare()
        let result = try scratch.run(["build", "spec.json", "--into", "Moods.sqlite", "--mode", "upsert"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try scratch.query("Moods.sqlite", "SELECT ZID, Z_OPT, ZLATITUDE, ZNOTE, ZCOUNTRY FROM ZMOOD ORDER BY ZID") == [
            ["1", "2", "-26.0", "happy", "1"],
            ["2", "1", "-41.3", "busy", "2"],
            ["3", "1", "-33.9", "sunny", "1"],
        ])
    }

    @Test func onBlankNullClearsThem() throws {
        let scratch = try Self.prepare(onBlank: "null")
        let result = try scratch.run(["build", "spec.json", "--into", "Moods.sqlite", "--mode", "upsert"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try scratch.query("Moods.sqlite", "SELECT ZID, Z_OPT, ZLATITUDE, ZNOTE FROM ZMOOD WHERE ZID < 3 ORDER BY ZID") == [
            ["1", "2", "NULL", "happy"],
            ["2", "2", "NULL", "NULL"],  // NULL, not '', in a String column too
        ])
        #expect(try scratch.query("Moods.sqlite", "SELECT typeof(ZNOTE) FROM ZMOOD WHERE ZID = 2") == [["null"]])
    }
}

/// `build --into` on a store an app has open refuses instead of renaming over it and removing its
/// `-wal` (issue 16: the app's later commits reported success and never reached the disk).
@Suite struct UpsertLiveStoreTests {
    @Test func anUpsertIntoAStoreAnAppHasOpenIsRefusedAndLosesNothing() throws {
        let scratch = try UpsertBlankTests.prepare()
        do {
            let app = try SQLiteDatabase(path: scratch.path("Moods.sqlite"), mode: .readWrite)
            try app.execute("PRAGMA journal_mode = WAL; UPDATE ZMOOD SET ZNOTE = 'app edit' WHERE ZID = 3")
            let refused = try scratch.run(["build", "spec.json", "--into", "Moods.sqlite", "--mode", "upsert"])
            #expect(refused.status == 73)
            #expect(refused.stderr == "Moods.sqlite: error: store in use by another process (an app has it open): nothing was changed; close the app, then update the store\n")
            // The app goes on writing, and what it writes stays.
            try app.execute("UPDATE ZMOOD SET ZNOTE = 'app edit 2' WHERE ZID = 2")
        }
        #expect(try scratch.query("Moods.sqlite", "SELECT ZID, ZNOTE FROM ZMOOD ORDER BY ZID") == [["1", "calm"], ["2", "app edit 2"], ["3", "app edit"]])
        // Once the app has closed it, the update goes through.
        let result = try scratch.run(["build", "spec.json", "--into", "Moods.sqlite", "--mode", "upsert"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try scratch.query("Moods.sqlite", "SELECT ZID, ZNOTE FROM ZMOOD ORDER BY ZID") == [["1", "happy"], ["2", "app edit 2"], ["3", "app edit"]])
    }
}
