import Foundation
import Testing
import CoreSeed

/// The one-pass plan (every relationship links rows of the same record) must give exactly what the
/// two-pass plan gives, and still catch duplicate keys.
@Suite struct StreamingPlanTests {
    @Test func onePassAndTwoPassBuildIdenticalStores() throws {
        let scratch = try Scratch()
        let one = try BinaryRunner.run(["build", "Inputs/failedbanks-csv.json", "--output", scratch.path("one.sqlite"), "--quiet"])
        // Tolerating errors makes the build validate and key every record first: the two-pass plan.
        let two = try BinaryRunner.run(["build", "Inputs/failedbanks-csv.json", "--output", scratch.path("two.sqlite"), "--quiet", "--max-errors", "3"])
        #expect(one.status == 0 && two.status == 0, "\(one.stderr)\(two.stderr)")
        #expect(FileManager.default.contentsEqual(atPath: scratch.path("one.sqlite"), andPath: scratch.path("two.sqlite")))
    }

    @Test func duplicateKeysFailTheOnePassBuild() throws {
        let scratch = try Scratch()
        try scratch.write("banks.csv", """
            Bank Name,City,State,CERT #,Closing Date,Updated Date
            Desert Hills Bank,Phoenix,AZ,57060,26-Mar-10,26-Mar-10
            Unity National Bank,Cartersville,GA,34678,26-Mar-10,26-Mar-10
            Key West Bank,Key West,FL,57060,26-Mar-10,26-Mar-10

            """)
        let spec = try String(contentsOfFile: BinaryRunner.repositoryRoot.appendingPathComponent("Inputs/failedbanks-csv.json").path, encoding: .utf8)
            .replacingOccurrences(of: "../../shared/data/fdic-2011/banklist.csv", with: "banks.csv")
            .replacingOccurrences(of: "\"FailedBanksCD.xcdatamodeld\"", with: "\"\(BinaryRunner.repositoryRoot.appendingPathComponent("Inputs/FailedBanksCD.xcdatamodeld").path)\"")
            .replacingOccurrences(of: "../Outputs/FailedBanksCD.sqlite", with: "out.sqlite")
        try scratch.write("spec.json", spec)
        let result = try scratch.run(["build", "spec.json"])
        #expect(result.status == 1)
        #expect(result.stderr == "banks.csv:4:27: error: 'CERT #' value \"57060\" repeats a FailedBankDetails key first seen at banks.csv:2:1 (FailedBankDetails.key)\n")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("out.sqlite")))
    }
}
