import Foundation
import Testing
import CoreSeedTestSupport

/// Issue 24, "regular files only": a pipe (FIFO) as the store, the model or a `"file": true` value
/// blocked the command forever (the FIFO has no writer) or read it once and in part. Each command now
/// refuses it at once with one line. The binary runs under `timeout -s KILL 30` so a hang fails the
/// test instead of the suite.
@Suite struct IrregularInputTests {
    static let fix = "coreseed reads its inputs more than once; save it to a file first (for example `cat > input.csv`) and name that file"

    @Test(arguments: [
        (["verify", "fifo.sqlite", "--model", "I.xcdatamodeld"], "fifo.sqlite", "the store"),
        (["inspect", "fifo.sqlite"], "fifo.sqlite", "the store"),
        (["export", "fifo.sqlite", "--model", "I.xcdatamodeld", "--output", "ex"], "fifo.sqlite", "the store"),
        (["backup", "fifo.sqlite", "copy.sqlite"], "fifo.sqlite", "the store"),
        (["verify", "I.sqlite", "--model", "fifo-model"], "fifo-model", "the model"),
        (["export", "I.sqlite", "--model", "fifo-model", "--output", "ex"], "fifo-model", "the model"),
        (["schema", "fifo-model"], "fifo-model", "the model"),
        (["hashes", "fifo-model"], "fifo-model", "the model"),
        (["schema", "Pipe.xcdatamodel"], "Pipe.xcdatamodel/contents", "the model's 'contents'"),
    ])
    func aFIFOIsRefusedAtOnce(arguments: [String], fifo: String, role: String) throws {
        let scratch = try Scratch()
        try scratch.writeModel("I", "<entity name=\"Item\"><attribute name=\"name\" attributeType=\"String\"/></entity>")
        try scratch.write("items.csv", "name\na\n")
        try scratch.write("spec.json", """
            { "model": "I.xcdatamodeld", "output": "I.sqlite", "sources": { "s": { "csv": "items.csv" } },
              "entities": { "Item": { "from": "s", "key": "name" } } }
            """)
        #expect(try scratch.run(["build", "spec.json", "--quiet"]).status == 0)
        try FileManager.default.createDirectory(atPath: scratch.path("Pipe.xcdatamodel"), withIntermediateDirectories: true)
        #expect(mkfifo(scratch.path(fifo), 0o600) == 0)
        let started = Date()
        let result = try scratch.run(arguments, within: 30)
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(result.status == 66, "\(result.stderr)")
        #expect(result.stderr == "\(fifo): error: \(role) is a pipe (FIFO), not a regular file: \(Self.fix)\n")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("ex")))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("copy.sqlite")))
    }

    /// `"file": true` naming a FIFO: the cell's error, at once.
    @Test func aFileValueThatIsAFIFOIsRefusedAtItsCell() throws {
        let scratch = try Scratch()
        try scratch.writeModel("P", """
            <entity name="Photo"><attribute name="name" attributeType="String"/><attribute name="image" optional="YES" attributeType="Binary"/></entity>
            """)
        try scratch.write("photos.csv", "name,file\nA,a.png\n")
        try scratch.write("spec.json", """
            { "model": "P.xcdatamodeld", "output": "P.sqlite", "sources": { "p": { "csv": "photos.csv" } },
              "entities": { "Photo": { "from": "p", "key": "name", "attributes": { "image": { "field": "file", "file": true } } } } }
            """)
        #expect(mkfifo(scratch.path("a.png"), 0o600) == 0)
        let result = try scratch.run(["build", "spec.json"], within: 30)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr == "photos.csv:2:3: error: 'file' value \"a.png\" names a file that is a pipe (FIFO), not a regular file (a.png) (Photo.image)\n")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("P.sqlite")))
    }
}
