import Foundation
import Testing
import CoreSeed
import CoreSeedTestSupport

/// Issue 24, item 3: two `build --into` on one store at once both said "updated" and one update was
/// lost. An update holds the store's lock from before it reads the store until its copy is in place:
/// the second waits (up to `--timeout`) or is refused "in use", and no run that says it updated loses
/// its rows.
@Suite struct ConcurrentUpdateTests {
    static func start(_ arguments: [String], in scratch: Scratch) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = BinaryRunner.binary
        process.arguments = arguments
        process.currentDirectoryURL = scratch.url
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return (process, errors)
    }

    @Test func twoUpdatesAtOnceLoseNothing() throws {
        let scratch = try Scratch()
        try scratch.writeModel("I", "<entity name=\"Item\"><attribute name=\"name\" attributeType=\"String\"/></entity>")
        for (name, prefix) in [("base", "z"), ("a", "a"), ("b", "b")] {
            let rows = name == "base" ? 1 : 40_000
            try scratch.write("\(name).csv", "name\n" + (0..<rows).map { "\(prefix)\($0)" }.joined(separator: "\n") + "\n")
            try scratch.write("\(name).json", """
                { "model": "I.xcdatamodeld", "output": "I.sqlite", "sources": { "s": { "csv": "\(name).csv" } },
                  "entities": { "Item": { "from": "s", "key": "name" } } }
                """)
        }
        #expect(try scratch.run(["build", "base.json", "--quiet"]).status == 0)
        for round in 0..<3 {
            let runs = try ["a", "b"].map { try Self.start(["build", "\($0).json", "--into", "I.sqlite", "--mode", "upsert", "--quiet", "--timeout", "60"], in: scratch) }
            let messages = runs.map { process, errors in
                let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                return message
            }
            var landed = 0
            for (((process, _), message), prefix) in zip(zip(runs, messages), ["a", "b"]) {
                let count = try scratch.query("I.sqlite", "SELECT count(*) FROM ZITEM WHERE ZNAME LIKE '\(prefix)%'")
                if process.terminationStatus == 0 {
                    #expect(count == [["40000"]], "round \(round): run \(prefix) said it updated, but its rows are not all there")
                    landed += 1
                } else {
                    #expect(message.contains("in use"), "round \(round): \(message)")
                }
            }
            #expect(landed == 2, "round \(round): with a 60 s timeout both updates wait their turn")
            #expect(try scratch.run(["verify", "I.sqlite", "--model", "I.xcdatamodeld"]).status == 0)
        }
    }
}
