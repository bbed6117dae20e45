import Foundation
import Testing
import CoreSeedTestSupport

@Suite struct PreviewTests {
    @Test func banklistFirstTwoRecords() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("coreseed-preview-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let csv = BinaryRunner.repositoryRoot.appendingPathComponent("Inputs/fdic-2011/banklist.csv").path
        let spec = directory.appendingPathComponent("seed.json")
        try Data("""
            { "model": "FailedBanksCD.xcdatamodeld", // JSON5
              "sources": { "banks": { "csv": "\(csv)", "encoding": "utf-8", }, }, }
            """.utf8).write(to: spec)
        let result = try BinaryRunner.run(["preview", spec.path, "banks", "--limit", "2"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout == """
            {"location": "\(csv):2:1", "fields": {"Bank Name": "Desert Hills Bank", "City": "Phoenix", "State": "AZ", "CERT #": "57060", "Closing Date": "26-Mar-10", "Updated Date": "26-Mar-10"}}
            {"location": "\(csv):3:1", "fields": {"Bank Name": "Unity National Bank", "City": "Cartersville", "State": "GA", "CERT #": "34678", "Closing Date": "26-Mar-10", "Updated Date": "26-Mar-10"}}

            """)

        let unknown = try BinaryRunner.run(["preview", spec.path, "legacy"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.hasPrefix("error: unknown source 'legacy' (the spec has: banks)\nUsage: coreseed preview"))
    }
}
