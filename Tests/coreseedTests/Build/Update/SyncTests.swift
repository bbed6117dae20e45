import Foundation
import Testing
import CoreSeed
import CoreSeedTestSupport

/// `build --into STORE --mode sync`: rows whose key is in no record are deleted, by the model's delete
/// rules; the result equals a new build from the same sources, up to `Z_PK` and `Z_OPT` (and the
/// `Z_FOK_` positions of ordered members, which keep their gaps: only their order is read).
@Suite struct SyncTests {
    /// Owner.items (rule given) ↔ Item.owner (Nullify); Item.tags (Cascade) → Tag.
    static func prepare(itemsRule: String, ordered: Bool = false) throws -> Scratch {
        let scratch = try Scratch()
        try scratch.writeModel("M", """
            <entity name="Owner"><attribute name="name" attributeType="String"/>
              <attribute name="itemCount" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="items.@count"/>
              <relationship name="items" optional="YES" toMany="YES" ordered="\(ordered ? "YES" : "NO")" deletionRule="\(itemsRule)" destinationEntity="Item" inverseName="owner" inverseEntity="Item"/></entity>
            <entity name="Item"><attribute name="code" attributeType="String"/>
              <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner" inverseName="items" inverseEntity="Owner"/>
              <relationship name="parts" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Part" inverseName="item" inverseEntity="Part"/></entity>
            <entity name="Part"><attribute name="serial" attributeType="String"/>
              <relationship name="item" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Item" inverseName="parts" inverseEntity="Item"/></entity>
            """)
        try scratch.write("spec.json", """
            { "model": "M.xcdatamodeld", "output": "S.sqlite",
              "sources": { "o": { "csv": "owners.csv" }, "i": { "csv": "items.csv" }, "p": { "csv": "parts.csv" } },
              "entities": { "Owner": { "from": "o", "key": "name" },
                            "Item": { "from": "i", "key": "code", "relationships": { "owner": { "key": "owner" } } },
                            "Part": { "from": "p", "key": "serial", "relationships": { "item": { "key": "item" } } } } }
            """)
        try scratch.write("owners.csv", "name\nA\nB\nC\n")
        try scratch.write("items.csv", "code,owner\ni1,A\ni2,A\ni3,B\ni4,A\n")
        try scratch.write("parts.csv", "serial,item\np1,i1\np2,i2\np3,i2\np4,i3\n")
        #expect(try scratch.run(["build", "spec.json", "--quiet"]).status == 0)
        return scratch
    }

    /// Every row of every entity table, without Z_PK and Z_OPT, keys shown as the natural key they name.
    static func content(_ scratch: Scratch, _ store: String) throws -> [[String]] {
        try scratch.query(store, "SELECT 'O', ZNAME, ZITEMCOUNT FROM ZOWNER UNION ALL SELECT 'I', i.ZCODE, o.ZNAME FROM ZITEM i LEFT JOIN ZOWNER o ON o.Z_PK = i.ZOWNER UNION ALL SELECT 'P', p.ZSERIAL, i.ZCODE FROM ZPART p LEFT JOIN ZITEM i ON i.Z_PK = p.ZITEM ORDER BY 1, 2")
    }

    /// The sync's store equals a new build of the same sources (up to Z_PK, Z_OPT), and verifies.
    static func expectSameAsNewBuild(_ scratch: Scratch) throws {
        #expect(try scratch.run(["build", "spec.json", "--output", "F.sqlite", "--quiet"]).status == 0)
        #expect(try content(scratch, "S.sqlite") == content(scratch, "F.sqlite"))
        let verify = try scratch.run(["verify", "S.sqlite", "--model", "M.xcdatamodeld"])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    }

    @Test func nullifyClearsTheMembersAndCascadeDeletesTheParts() throws {
        let scratch = try Self.prepare(itemsRule: "Nullify")
        // B goes (its i3 keeps no owner: Nullify); i2 goes, and its parts p2, p3 with it (Cascade).
        try scratch.write("owners.csv", "name\nA\nC\n")
        try scratch.write("items.csv", "code,owner\ni1,A\ni3,\ni4,A\n")
        try scratch.write("parts.csv", "serial,item\np1,i1\np4,i3\n")
        let sync = try scratch.run(["build", "spec.json", "--into", "S.sqlite", "--mode", "sync", "--report", "r.json"])
        #expect(sync.status == 0, "\(sync.stderr)")
        // p2, p3 are in no record either: they count as unlisted, not as cascaded.
        #expect(sync.stdout.contains("7 kept, 4 deleted (Item 1; Owner 1; Part 2)"), "\(sync.stdout)")
        let report = try String(contentsOfFile: scratch.path("r.json"), encoding: .utf8)
        #expect(report.contains(#""deleted":"#), "\(report)")
        // A lost i2: its derived count follows through the trigger, its Z_OPT rises.
        #expect(try scratch.query("S.sqlite", "SELECT ZNAME, ZITEMCOUNT, Z_OPT FROM ZOWNER ORDER BY Z_PK") == [["A", "2", "2"], ["C", "0", "1"]])
        try Self.expectSameAsNewBuild(scratch)
    }

    @Test func cascadeDeletesAChainOnce() throws {
        let scratch = try Self.prepare(itemsRule: "Cascade")
        // A goes: i1, i2, i4 by cascade, and their parts p1, p2, p3 by cascade in turn.
        try scratch.write("owners.csv", "name\nB\nC\n")
        try scratch.write("items.csv", "code,owner\ni3,B\n")
        try scratch.write("parts.csv", "serial,item\np4,i3\n")
        let refused = try scratch.run(["build", "spec.json", "--into", "S.sqlite", "--mode", "sync"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("Item: the sync would delete 3 of its 4 rows (75%), more than half: nothing was changed"), "\(refused.stderr)")
        #expect(try scratch.query("S.sqlite", "SELECT count(*) FROM ZITEM") == [["4"]])
        let sync = try scratch.run(["build", "spec.json", "--into", "S.sqlite", "--mode", "sync", "--allow-deletes"])
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(sync.stdout.contains("7 deleted (Item 3; Owner 1; Part 3)"), "\(sync.stdout)")
        try Self.expectSameAsNewBuild(scratch)
    }

    /// Entities the spec does not map are touched by delete rules only: each cascade says its cause.
    @Test func cascadesThroughEntitiesTheSpecDoesNotMapNameTheirCause() throws {
        let scratch = try Self.prepare(itemsRule: "Cascade")
        try scratch.write("spec.json", """
            { "model": "M.xcdatamodeld", "output": "S.sqlite", "sources": { "o": { "csv": "owners.csv" } },
              "entities": { "Owner": { "from": "o", "key": "name" } } }
            """)
        try scratch.write("owners.csv", "name\nB\nC\n")
        let sync = try scratch.run(["build", "spec.json", "--into", "S.sqlite", "--mode", "sync", "--allow-deletes", "--report", "r.json"])
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(sync.stdout.contains("7 deleted (Item 3 by cascade from Owner.items; Owner 1; Part 3 by cascade from Item.parts)"), "\(sync.stdout)")
        let report = try String(contentsOfFile: scratch.path("r.json"), encoding: .utf8)
        #expect(report.contains(#""Part":{"rows":3,"cascades":{"Item.parts":3}}"#) || report.contains(#""Part": {"rows": 3, "cascades": {"Item.parts": 3}}"#), "\(report)")
        #expect(try scratch.query("S.sqlite", "SELECT ZCODE FROM ZITEM UNION ALL SELECT ZSERIAL FROM ZPART") == [["i3"], ["p4"]])
        #expect(try scratch.run(["verify", "S.sqlite", "--model", "M.xcdatamodeld"]).status == 0)
    }

    @Test func aCascadeIntoARowTheInputHasIsRefused() throws {
        let scratch = try Self.prepare(itemsRule: "Cascade")
        try scratch.write("owners.csv", "name\nA\nC\n")   // B goes, and would take i3, which the input still has
        try scratch.write("items.csv", "code,owner\ni1,A\ni2,A\ni3,\ni4,A\n")
        let before = try Self.content(scratch, "S.sqlite")
        let sync = try scratch.run(["build", "spec.json", "--into", "S.sqlite", "--mode", "sync"])
        #expect(sync.status == 1)
        #expect(sync.stderr.contains("Owner 'B' (Z_PK 2) is deleted (its key is in no record) and its relationship 'items' (Cascade) would delete Item 'i3' (Z_PK 3), which the input has"), "\(sync.stderr)")
        #expect(try Self.content(scratch, "S.sqlite") == before)
    }

    @Test func denyStopsTheWholeRunNamingTheRows() throws {
        let scratch = try Self.prepare(itemsRule: "Deny")
        try scratch.write("owners.csv", "name\nB\nC\n")
        try scratch.write("items.csv", "code,owner\ni3,B\n")
        try scratch.write("parts.csv", "serial,item\np4,i3\n")
        let before = try Self.content(scratch, "S.sqlite")
        let dry = try scratch.run(["build", "spec.json", "--into", "S.sqlite", "--mode", "sync", "--dry-run", "--allow-deletes"])
        #expect(dry.status == 1)
        let sync = try scratch.run(["build", "spec.json", "--into", "S.sqlite", "--mode", "sync", "--allow-deletes"])
        #expect(sync.status == 1)
        #expect(sync.stderr.contains("Owner 'A' (Z_PK 1) cannot be deleted: its relationship 'items' has the delete rule Deny and holds Item 'i1' (Z_PK 1), Item 'i2' (Z_PK 2), Item 'i4' (Z_PK 4): nothing was changed"), "\(sync.stderr)")
        #expect(try Self.content(scratch, "S.sqlite") == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path(".")).filter { $0.hasPrefix(".") }.isEmpty)
    }

    @Test func noActionLeavesTheKeysDangling() throws {
        let scratch = try Self.prepare(itemsRule: "No Action")
        try scratch.write("owners.csv", "name\nA\nC\n")   // B goes; i3 keeps its key to it (a blank keeps it)
        try scratch.write("items.csv", "code,owner\ni1,A\ni2,A\ni3,\ni4,A\n")
        let sync = try scratch.run(["build", "spec.json", "--into", "S.sqlite", "--mode", "sync"])
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(sync.stderr.contains("ZITEM.ZOWNER (Owner.items is No Action): 1 key(s) left pointing at deleted rows"), "\(sync.stderr)")
        #expect(try scratch.query("S.sqlite", "SELECT ZOWNER FROM ZITEM WHERE ZCODE = 'i3'") == [["2"]])
        let verify = try scratch.run(["verify", "S.sqlite", "--model", "M.xcdatamodeld"])
        #expect(verify.stdout.contains("ZITEM.ZOWNER: 1 dangling key(s)") || verify.stderr.contains("ZITEM.ZOWNER: 1 dangling key(s)"), "\(verify.stdout)\(verify.stderr)")
    }

    @Test func anOrderedToManyLosingAMemberKeepsTheOthersInOrder() throws {
        let scratch = try Self.prepare(itemsRule: "Nullify", ordered: true)
        try scratch.write("items.csv", "code,owner\ni1,A\ni3,B\ni4,A\n")
        try scratch.write("parts.csv", "serial,item\np1,i1\np4,i3\n")
        let sync = try scratch.run(["build", "spec.json", "--into", "S.sqlite", "--mode", "sync", "--allow-deletes"])
        #expect(sync.status == 0, "\(sync.stderr)")
        // i4 keeps position 3: Core Data reads only the order (a new build numbers 1, 2).
        #expect(try scratch.query("S.sqlite", "SELECT ZCODE, Z_FOK_OWNER FROM ZITEM WHERE ZOWNER = 1 ORDER BY Z_FOK_OWNER") == [["i1", "1"], ["i4", "3"]])
        try Self.expectSameAsNewBuild(scratch)
    }

    @Test func aDryRunChangesNothingAndListsTheDeletions() throws {
        let scratch = try Self.prepare(itemsRule: "Nullify")
        try scratch.write("owners.csv", "name\nA\nC\n")
        try scratch.write("items.csv", "code,owner\ni1,A\ni3,\ni4,A\n")
        try scratch.write("parts.csv", "serial,item\np1,i1\np4,i3\n")
        let before = try Data(contentsOf: URL(fileURLWithPath: scratch.path("S.sqlite")))
        let dry = try scratch.run(["build", "spec.json", "--into", "S.sqlite", "--mode", "sync", "--dry-run"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.hasPrefix("checked (dry run, nothing written): would update S.sqlite: 0 added, 0 updated, 7 kept, 4 deleted (Item 1; Owner 1; Part 2)"), "\(dry.stdout)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("S.sqlite"))) == before)
    }

    @Test func syncIsAskedForOnTheCommandLineOnly() throws {
        let scratch = try Self.prepare(itemsRule: "Nullify")
        let spec = try String(contentsOfFile: scratch.path("spec.json"), encoding: .utf8)
        try scratch.write("spec.json", spec.replacingOccurrences(of: #""output": "S.sqlite","#, with: #""output": "S.sqlite", "mode": "sync","#))
        let run = try scratch.run(["build", "spec.json", "--into", "S.sqlite"])
        #expect(run.status != 0)
        #expect(run.stderr.contains("mode: \"sync\" deletes rows, so it is asked for on the command line only"), "\(run.stderr)")
    }
}
