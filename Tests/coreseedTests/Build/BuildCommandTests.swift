import Foundation
import Testing
import CoreSeed
import CoreSeedTestSupport

/// End-to-end: the real binary on the repository's Inputs/, the FDIC list (Inputs/fdic-2011/) among them.
@Suite(.serialized) struct BuildCommandTests {
    static let root = BinaryRunner.repositoryRoot
    static let inputs = root.appendingPathComponent("Inputs")

    @Test func carrierStoreFromInputsIsCompleteVerifiedAndReproducible() throws {
        let scratch = try Scratch()
        let first = try BinaryRunner.run(["build", "Inputs/seed.json", "--output", scratch.path("a.sqlite")])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains(": 5 entities, 3126 rows and 980 join rows in "))
        let second = try BinaryRunner.run(["build", "Inputs/seed.json", "--output", scratch.path("b.sqlite"), "--quiet"])
        #expect(second.status == 0 && second.stdout == "")
        #expect(FileManager.default.contentsEqual(atPath: scratch.path("a.sqlite"), andPath: scratch.path("b.sqlite")))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted() == [".a_SUPPORT", ".b_SUPPORT", "a.sqlite", "b.sqlite"])
        // Flags (Inputs/flags) over 600 bytes are in files beside the store, the same files for both builds.
        let files = try FileManager.default.contentsOfDirectory(atPath: scratch.path(".a_SUPPORT/_EXTERNAL_DATA")).sorted()
        #expect(files.count == 21)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path(".b_SUPPORT/_EXTERNAL_DATA")).sorted() == files)
        #expect(try scratch.query("a.sqlite", "SELECT count(*), sum(substr(ZIMAGE, 1, 1) = x'01'), sum(substr(ZIMAGE, 1, 1) = x'02') FROM ZFLAG") == [["150", "129", "21"]])
        // Germany's flag (545 bytes) inline after the 0x01 marker; the US flag (609 bytes) in its file.
        func flag(_ code: String) throws -> [String] {
            try scratch.query("a.sqlite", "SELECT hex(f.ZIMAGE) FROM ZFLAG f JOIN ZCOUNTRY c ON c.ZFLAG = f.Z_PK WHERE c.ZCODE = '\(code)'")[0]
        }
        let hex = { (data: Data) in data.map { String(format: "%02X", $0) }.joined() }
        #expect(try flag("de") == ["01" + hex(try Data(contentsOf: BuildCommandTests.inputs.appendingPathComponent("flags/de.png")))])
        let reference = try flag("us")[0]
        let uuid = String(decoding: stride(from: 2, to: 74, by: 2).map { UInt8(reference.dropFirst($0).prefix(2), radix: 16)! }, as: UTF8.self)
        #expect(reference.hasPrefix("02") && reference.hasSuffix("00") && files.contains(uuid))
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path(".a_SUPPORT/_EXTERNAL_DATA/\(uuid)")))
                == Data(contentsOf: BuildCommandTests.inputs.appendingPathComponent("flags/us.png")))
        let dns = try scratch.query("a.sqlite", "SELECT hex(ZDNSSERVERS) FROM ZACCESSPOINT WHERE ZDNSSERVERS IS NOT NULL ORDER BY Z_PK LIMIT 1")[0][0]
        let servers = try NSKeyedUnarchiver.unarchivedObject(ofClasses: [NSArray.self, NSString.self],
                                                             from: Data(stride(from: 0, to: dns.count, by: 2).map { UInt8(dns.dropFirst($0).prefix(2), radix: 16)! }))
        #expect((servers as? NSArray)?.count == 2, "\(String(describing: servers))")
        // Each country's provider count (derived).
        #expect(try scratch.query("a.sqlite", "SELECT ZPROVIDERCOUNT FROM ZCOUNTRY WHERE ZCODE = 'ae'") == [["2"]])
        #expect(try scratch.query("a.sqlite", "SELECT count(*) FROM ZCOUNTRY c WHERE c.ZPROVIDERCOUNT != (SELECT count(*) FROM ZPROVIDER p WHERE p.ZCOUNTRY = c.Z_PK)") == [["0"]])

        // The XML holds 154 countries, 700 providers and 1,304 APNs (702 and 1,307 start tags: two
        // providers and three APNs are inside comments).
        #expect(try scratch.query("a.sqlite", "SELECT (SELECT count(*) FROM ZCOUNTRY), (SELECT count(*) FROM ZPROVIDER), (SELECT count(*) FROM ZACCESSPOINT)")
                == [["154", "700", "1304"]])
        #expect(try scratch.query("a.sqlite", "SELECT count(*) FROM ZPROVIDER WHERE ZCOUNTRY IS NULL OR ZCOUNTRY NOT IN (SELECT Z_PK FROM ZCOUNTRY)") == [["0"]])
        #expect(try scratch.query("a.sqlite", "SELECT count(*) FROM ZACCESSPOINT WHERE ZPROVIDER NOT IN (SELECT Z_PK FROM ZPROVIDER)") == [["0"]])
        // Andorra's only provider, its first APN in document order, position 1 of the ordered relationship.
        #expect(try scratch.query("a.sqlite", """
            SELECT c.ZNAME, p.ZNAME, a.ZAPN, a.Z_FOK_PROVIDER, a.ZPLAN FROM ZACCESSPOINT a JOIN ZPROVIDER p ON a.ZPROVIDER = p.Z_PK
            JOIN ZCOUNTRY c ON p.ZCOUNTRY = c.Z_PK WHERE c.ZCODE = 'ad' ORDER BY a.Z_FOK_PROVIDER LIMIT 1
            """) == [["Andorra", "Andorra Telecom (Mobiland)", "internetand", "1", "postpaid"]])
        // Many-to-many: Telecom Italia's network 222/01 is shared by several providers.
        #expect(try scratch.query("a.sqlite", "SELECT count(*) FROM Z_4PROVIDERS j JOIN ZNETWORK n ON j.Z_4NETWORKS = n.Z_PK WHERE n.ZMCC = '222' AND n.ZMNC = '01'")[0][0] != "0")
        let verify = try BinaryRunner.run(["verify", scratch.path("a.sqlite"), "--model", "Inputs/Carriers.xcdatamodeld"])
        #expect(verify.status == 0, "\(verify.stderr)")
        #expect(try scratch.query("a.sqlite", "PRAGMA journal_mode") == [["delete"]])
    }

    @Test(arguments: ["failedbanks-sqlite.json", "failedbanks-csv.json"])
    func failedBanksStoreMatchesTheTutorialsData(spec: String) throws {
        let scratch = try Scratch()
        let result = try BinaryRunner.run(["build", "Inputs/\(spec)", "--output", scratch.path("FailedBanksCD.sqlite")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try scratch.query("FailedBanksCD.sqlite", "SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
                == [["FailedBankDetails", "233"], ["FailedBankInfo", "233"]])
        #expect(try scratch.query("FailedBanksCD.sqlite", """
            SELECT count(*) FROM ZFAILEDBANKINFO i JOIN ZFAILEDBANKDETAILS d ON i.ZDETAILS = d.Z_PK AND d.ZINFO = i.Z_PK
            """) == [["233"]])
        // Desert Hills Bank closed on 2010-03-26, a day in the spec's zone, America/New_York (EDT, UTC-4):
        // 2010-03-26T04:00:00Z = 1269576000 Unix = 291268800 seconds since 2001.
        #expect(try scratch.query("FailedBanksCD.sqlite", """
            SELECT d.ZCLOSEDATE FROM ZFAILEDBANKINFO i JOIN ZFAILEDBANKDETAILS d ON i.ZDETAILS = d.Z_PK WHERE i.ZNAME = 'Desert Hills Bank'
            """) == [["291268800"]])
        let verify = try BinaryRunner.run(["verify", scratch.path("FailedBanksCD.sqlite"), "--model", "Inputs/FailedBanksCD.xcdatamodeld"])
        #expect(verify.status == 0, "\(verify.stderr)")
    }

    /// The tutorial's own store (corpus failedbankscd-neolee) holds every closing date as midnight UTC:
    /// its Python script converted the dates in the author's machine zone, which was UTC. In the FDIC's
    /// zone that is the evening before, so each of our dates is later by exactly New York's UTC offset
    /// on that day: 4 hours in summer time (EDT), 5 in winter (EST).
    @Test(.needsCorpus) func closingDatesDifferFromTheTutorialStoreByNewYorksOffset() throws {
        let scratch = try Scratch()
        #expect(try BinaryRunner.run(["build", "Inputs/failedbanks-sqlite.json", "--output", scratch.path("ours.sqlite"), "--quiet"]).status == 0)
        let corpus = StoreOps.corpus.appendingPathComponent("failedbankscd-neolee/store.sqlite")
        try FileManager.default.copyItem(atPath: corpus.path, toPath: scratch.path("tutorial.sqlite"))
        let sql = """
            SELECT i.ZNAME, d.ZCLOSEDATE FROM ZFAILEDBANKINFO i JOIN ZFAILEDBANKDETAILS d ON i.ZDETAILS = d.Z_PK ORDER BY i.Z_PK
            """
        let ours = try scratch.query("ours.sqlite", sql), theirs = try scratch.query("tutorial.sqlite", sql)
        #expect(ours.count == 233 && theirs.count == 233)
        let newYork = try #require(TimeZone(identifier: "America/New_York"))
        var offsets: Set<Int> = []
        for (mine, tutorial) in zip(ours, theirs) {
            #expect(mine[0] == tutorial[0])
            let tutorialSeconds = try #require(Double(tutorial[1])), ourSeconds = try #require(Double(mine[1]))
            let midnightUTC = Date(timeIntervalSinceReferenceDate: tutorialSeconds)
            let offset = -newYork.secondsFromGMT(for: midnightUTC.addingTimeInterval(5 * 3600))
            #expect(ourSeconds - tutorialSeconds == Double(offset), "\(mine[0])")
            offsets.insert(offset)
        }
        #expect(offsets == [4 * 3600, 5 * 3600])
    }

    /// A source with only its header would replace a full store with an empty one: refused unless
    /// `--allow-empty` says it is meant (issue 16, defect 12).
    @Test func anEmptyBuildDoesNotReplaceAStoreWithRowsUnlessAllowed() throws {
        let scratch = try UpsertTests.prepare()
        try scratch.write("empty.csv", "Bank Name,City,State,CERT #,Closing Date,Updated Date\r\n")
        try scratch.write("empty.json", UpsertTests.spec(csv: "empty.csv"))
        let before = try Data(contentsOf: URL(fileURLWithPath: scratch.path("FailedBanksCD.sqlite")))
        let refused = try scratch.run(["build", "empty.json", "--quiet"])
        #expect(refused.status != 0)
        #expect(refused.stderr == "FailedBanksCD.sqlite: error: the build wrote no rows and would replace this store, which holds 466 rows, with an empty one: nothing was replaced; check the sources (a CSV with only its header?) or pass --allow-empty to replace it\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("FailedBanksCD.sqlite"))) == before)
        let allowed = try scratch.run(["build", "empty.json", "--quiet", "--allow-empty"])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(try scratch.query("FailedBanksCD.sqlite", "SELECT count(*) FROM ZFAILEDBANKINFO") == [["0"]])
        // A first build from an empty source is no loss: nothing to refuse.
        let fresh = try scratch.run(["build", "empty.json", "--quiet", "--output", "new.sqlite"])
        #expect(fresh.status == 0, "\(fresh.stderr)")
    }
}
