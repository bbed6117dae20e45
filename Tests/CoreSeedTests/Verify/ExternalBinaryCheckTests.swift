import Foundation
import Testing
@testable import CoreSeed
import CoreSeedTestSupport

/// Issue 30: checking a store's inline external-storage values wrote into freed memory. Swift 6.3.1's
/// optimizer freed the copy that `ExternalBinary.decode` made of each inline value before filling it,
/// because the check ignores the bytes (`Tests/Reproducers/DeadArrayCopy.swift`). Only an optimized
/// build shows it: `make memcheck` runs this suite built `-c release` with AddressSanitizer, which
/// stops on the write, and the release binary under valgrind.
@Suite struct ExternalBinaryCheckTests {
    @Test func inlineValuesAreCheckedWithoutWritingFreedMemory() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = directory.appendingPathComponent("P.xcdatamodeld/P.xcdatamodel")
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        try Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <model userDefinedModelVersionIdentifier=""><entity name="Photo"><attribute name="name" attributeType="String"/>
              <attribute name="bytes" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/></entity></model>
            """.utf8).write(to: model.appendingPathComponent("contents"))
        // 400-byte values, every one kept inline (no externalAbove): 0x01 + the bytes in the column.
        let rows = (0..<64).map { "p\($0),\(Data(repeating: UInt8($0), count: 400).base64EncodedString())" }
        try Data(("name,bytes\n" + rows.joined(separator: "\n") + "\n").utf8).write(to: directory.appendingPathComponent("p.csv"))
        let spec = directory.appendingPathComponent("spec.json")
        try Data("""
            { "model": "P.xcdatamodeld", "output": "P.sqlite", "sources": { "p": { "csv": "p.csv" } },
              "entities": { "Photo": { "from": "p", "key": "name", "attributes": { "bytes": { "field": "bytes", "base64": true } } } } }
            """.utf8).write(to: spec)

        _ = try SeedBuild.run(specPath: spec.path)  // its self-check runs the same check
        let store = directory.appendingPathComponent("P.sqlite").path
        let report = try StoreVerifier(versions: try ModelVersions.load(path: model.deletingLastPathComponent().path)).verify(storeAt: store)
        #expect(report.differences == [])
        let stored = try SQLiteDatabase(path: store, mode: .readOnly(immutable: true)).rows("SELECT ZBYTES FROM ZPHOTO ORDER BY Z_PK")
        #expect(stored.count == 64)
        for (index, row) in stored.enumerated() {
            #expect(row == [.blob([1] + [UInt8](repeating: UInt8(index), count: 400))])
        }
    }
}
