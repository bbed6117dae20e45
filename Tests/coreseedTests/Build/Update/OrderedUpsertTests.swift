import Foundation
import Testing
import CoreSeed
import CoreSeedTestSupport

/// `build --into` numbered the new members of an ordered to-many (`Z_FOK_` of the to-one side) from 1
/// again, although the owner already had stored members at those positions: two members of one owner
/// at one position, which Core Data reads in no defined order.
@Suite struct OrderedUpsertTests {
    static func prepare() throws -> Scratch {
        let scratch = try Scratch()
        try scratch.writeModel("M", """
            <entity name="Owner"><attribute name="name" attributeType="String"/>
              <relationship name="items" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="owner" inverseEntity="Item"/></entity>
            <entity name="Item"><attribute name="code" attributeType="String"/>
              <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner" inverseName="items" inverseEntity="Owner"/></entity>
            """)
        try scratch.write("owners.csv", "name\nA\nB\n")
        try scratch.write("items.csv", "code,owner\ni1,A\ni2,A\ni3,B\n")
        try scratch.write("spec.json", """
            { "model": "M.xcdatamodeld", "output": "S.sqlite", "sources": { "o": { "csv": "owners.csv" }, "i": { "csv": "items.csv" } },
              "entities": { "Owner": { "from": "o", "key": "name" },
                            "Item": { "from": "i", "key": "code", "relationships": { "owner": { "key": "owner" } } } } }
            """)
        return scratch
    }

    @Test func newMembersOfAnOwnerWithStoredMembersComeAfterThem() throws {
        let scratch = try Self.prepare()
        #expect(try scratch.run(["build", "spec.json", "--quiet"]).status == 0)
        #expect(try scratch.query("S.sqlite", "SELECT ZCODE, ZOWNER, Z_FOK_OWNER FROM ZITEM ORDER BY Z_PK")
                == [["i1", "1", "1"], ["i2", "1", "2"], ["i3", "2", "1"]])
        // New i4, i5 for A; i1 listed again with its owner (keeps its place); i3 moves from B to A.
        try scratch.write("owners.csv", "name\n")
        try scratch.write("items.csv", "code,owner\ni4,A\ni1,A\ni3,A\ni5,A\n")
        let update = try scratch.run(["build", "spec.json", "--into", "S.sqlite", "--quiet"])
        #expect(update.status == 0, "\(update.stderr)")
        let rows = try scratch.query("S.sqlite", "SELECT ZCODE, Z_FOK_OWNER FROM ZITEM WHERE ZOWNER = 1 ORDER BY Z_FOK_OWNER")
        #expect(rows == [["i1", "1"], ["i2", "2"], ["i4", "3"], ["i3", "4"], ["i5", "5"]], "\(rows)")
        #expect(try scratch.run(["verify", "S.sqlite", "--model", "M.xcdatamodeld"]).status == 0)
        #expect(try scratch.run(["export", "S.sqlite", "--model", "M.xcdatamodeld", "--output", "ex"]).status == 0)
        #expect(try String(contentsOfFile: scratch.path("ex/Owner.csv"), encoding: .utf8) == "pk,name,items\r\n1,A,1;2;4;3;5\r\n2,B,\r\n")
    }

    /// The same when the owner lists its members (the to-many side): the positions were the list's
    /// 1, 2, … again.
    @Test func membersAnOwnerListsComeAfterItsStoredOnes() throws {
        let scratch = try Self.prepare()
        try scratch.write("owners.csv", "name,items\nA,i1 i2\nB,i3\n")
        try scratch.write("items.csv", "code\ni1\ni2\ni3\n")
        try scratch.write("spec.json", """
            { "model": "M.xcdatamodeld", "output": "S.sqlite", "sources": { "o": { "csv": "owners.csv" }, "i": { "csv": "items.csv" } },
              "entities": { "Owner": { "from": "o", "key": "name", "relationships": { "items": { "key": "items", "separator": " " } } },
                            "Item": { "from": "i", "key": "code" } } }
            """)
        #expect(try scratch.run(["build", "spec.json", "--quiet"]).status == 0)
        try scratch.write("owners.csv", "name,items\nA,i4 i2 i5\n")
        try scratch.write("items.csv", "code\ni4\ni5\n")
        let update = try scratch.run(["build", "spec.json", "--into", "S.sqlite", "--quiet"])
        #expect(update.status == 0, "\(update.stderr)")
        let rows = try scratch.query("S.sqlite", "SELECT ZCODE, Z_FOK_OWNER FROM ZITEM WHERE ZOWNER = 1 ORDER BY Z_FOK_OWNER")
        #expect(rows == [["i1", "1"], ["i2", "2"], ["i4", "3"], ["i5", "4"]], "\(rows)")
        #expect(try scratch.run(["verify", "S.sqlite", "--model", "M.xcdatamodeld"]).status == 0)
    }

    /// An ordered many-to-many (a join table with both `Z_FOK_` columns): `--into` numbered the new
    /// join rows from 1 again on both sides, so `verify` found repeated positions. A new pair now
    /// follows its owner's stored members on each side, and a pair the store has stays as it is.
    @Test(arguments: [false, true])
    func newJoinRowsFollowTheStoredPositionsOnBothSides(listed: Bool) throws {
        let scratch = try Scratch()
        try scratch.writeModel("M", """
            <entity name="Playlist"><attribute name="name" attributeType="String"/>
              <relationship name="songs" optional="YES" toMany="YES" ordered="YES" destinationEntity="Song" inverseName="playlists" inverseEntity="Song"/></entity>
            <entity name="Song"><attribute name="title" attributeType="String"/>
              <relationship name="playlists" optional="YES" toMany="YES" ordered="YES" destinationEntity="Playlist" inverseName="songs" inverseEntity="Playlist"/></entity>
            """)
        func write(_ links: [(String, String)]) throws {
            if listed {
                let owners = Dictionary(grouping: links, by: \.0).sorted { $0.key < $1.key }
                try scratch.write("pl.csv", "name,songs\n" + owners.map { "\($0.key),\($0.value.map(\.1).joined(separator: " "))\n" }.joined())
            } else {
                try scratch.write("pl.csv", "name\nA\nB\n")
                try scratch.write("links.csv", "pl,song\n" + links.map { "\($0.0),\($0.1)\n" }.joined())
            }
        }
        try scratch.write("songs.csv", "title\ns1\ns2\ns3\n")
        let songs = listed ? #"{ "key": "songs", "separator": " " }"# : #"{ "from": "links", "key": "pl", "destinationKey": "song" }"#
        try scratch.write("spec.json", """
            { "model": "M.xcdatamodeld", "output": "S.sqlite",
              "sources": { "pl": { "csv": "pl.csv" }, "songs": { "csv": "songs.csv" }, "links": { "csv": "links.csv" } },
              "entities": { "Playlist": { "from": "pl", "key": "name", "relationships": { "songs": \(songs) } },
                            "Song": { "from": "songs", "key": "title" } } }
            """)
        try write([("A", "s1"), ("A", "s2"), ("B", "s2")])
        if listed { try scratch.write("links.csv", "pl,song\n") }
        #expect(try scratch.run(["build", "spec.json", "--quiet"]).status == 0)
        // A gains s3 (s1 given again); B gains s1 and s3.
        try write([("A", "s3"), ("A", "s1"), ("B", "s1"), ("B", "s3")])
        let update = try scratch.run(["build", "spec.json", "--into", "S.sqlite"])
        #expect(update.status == 0, "\(update.stderr)")
        #expect(update.stdout.contains("5 kept, 3 join rows added"), "\(update.stdout)")
        // Z_1PLAYLISTS, Z_2SONGS, Z_FOK_1PLAYLISTS (a song's playlists), Z_FOK_2SONGS (a playlist's songs).
        #expect(try scratch.query("S.sqlite", "SELECT * FROM Z_1SONGS ORDER BY 1, 2")
                == [["1", "1", "1", "1"], ["1", "2", "1", "2"], ["1", "3", "1", "3"],
                    ["2", "1", "2", "2"], ["2", "2", "2", "1"], ["2", "3", "2", "3"]])
        let verify = try scratch.run(["verify", "S.sqlite", "--model", "M.xcdatamodeld"])
        #expect(verify.status == 0 && !verify.stderr.contains("positions"), "\(verify.stderr)")
    }
}
