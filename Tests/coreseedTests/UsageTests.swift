import Testing

@Suite struct UsageTests {
    @Test func helpGoesToStdoutWithExitZero() throws {
        let result = try BinaryRunner.run(["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("coreseed: build Core Data SQLite stores from legacy data."))
        #expect(result.stderr.isEmpty)
    }

    @Test func unknownCommandIsAUsageError() throws {
        let result = try BinaryRunner.run(["frobnicate"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("error: unknown command 'frobnicate'\n"))
    }
}
