import Foundation
import Testing
import CoreSeedTestSupport

/// The test suite's stores for the macOS workflow's Core Data check (issue 29): AllTypesTests' store
/// with every attribute kind, and a store built for one configuration, each with a model momc
/// compiles. With `CORESEED_CHECK_STORES=DIR` (the workflow sets it) they are copied there with
/// their support folders and models: `DIR/all-types/Kitchen.sqlite`, `DIR/configuration/Split.sqlite`.
@Suite struct MacProofStores {
    /// The every-attribute-kind store of AllTypesTests (CSV spec), its model in Xcode's own header.
    static func buildAllTypesStore() throws -> (scratch: Scratch, store: URL) {
        let scratch = try AllTypesTests.prepare()
        try scratch.write("Kitchen.xcdatamodeld/Kitchen.xcdatamodel/contents", MacProof.xcodeModel(AllTypesTests.model))
        let build = try scratch.run(["build", "csv.json", "--output", "Kitchen.sqlite", "--quiet"])
        guard build.status == 0 else { throw MacProof.Failure(description: "coreseed build csv.json: \(build.stderr)") }
        return (scratch, scratch.url.appendingPathComponent("Kitchen.sqlite"))
    }

    static let splitModel = """
        <entity name="Bank" representedClassName="Bank" syncable="YES">
            <attribute name="name" attributeType="String"/>
            <relationship name="branches" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Branch" inverseName="bank" inverseEntity="Branch"/>
            <uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint></uniquenessConstraints>
        </entity>
        <entity name="Branch" representedClassName="Branch" syncable="YES">
            <attribute name="city" attributeType="String"/>
            <attribute name="opened" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
            <relationship name="bank" maxCount="1" deletionRule="Nullify" destinationEntity="Bank" inverseName="branches" inverseEntity="Bank"/>
        </entity>
        <entity name="Note" representedClassName="Note" syncable="YES">
            <attribute name="text" optional="YES" attributeType="String"/>
        </entity>
        <configuration name="Seed"><memberEntity name="Bank"/><memberEntity name="Branch"/></configuration>
        <configuration name="User"><memberEntity name="Note"/></configuration>
        """

    /// `Split.sqlite`: the `Seed` configuration (Bank, Branch) of a model whose `User` configuration
    /// (Note) lives in another store, as docs/APP.md's first way ships it.
    static func buildConfigurationStore(in scratch: Scratch) throws -> URL {
        try scratch.write("Split.xcdatamodeld/Split.xcdatamodel/contents", MacProof.xcodeModel(splitModel))
        try scratch.write("banks.csv", "name\nFirst\nSecond\n")
        try scratch.write("branches.csv", "city,bank,opened\nRome,First,1999-03-01\nOslo,Second,2004-11-30\nLyon,First,\n")
        try scratch.write("split.json", """
            { "model": "Split.xcdatamodeld", "output": "Split.sqlite", "configuration": "Seed",
              "sources": { "banks": { "csv": "banks.csv" }, "branches": { "csv": "branches.csv", "nullIfUnquotedEmpty": true } },
              "entities": { "Bank": { "from": "banks", "key": "name" },
                            "Branch": { "from": "branches", "attributes": { "opened": { "field": "opened", "date": "yyyy-MM-dd" } },
                                        "relationships": { "bank": { "key": "bank" } } } } }
            """)
        let build = try scratch.run(["build", "split.json", "--quiet"])
        guard build.status == 0 else { throw MacProof.Failure(description: "coreseed build split.json: \(build.stderr)") }
        return scratch.url.appendingPathComponent("Split.sqlite")
    }

    @Test func theStoresForTheMacCheckVerifyAndAreHandedOver() throws {
        let (kitchen, allTypes) = try Self.buildAllTypesStore()
        let split = try Scratch()
        let configuration = try Self.buildConfigurationStore(in: split)
        #expect(try kitchen.run(["verify", "Kitchen.sqlite", "--model", "Kitchen.xcdatamodeld"]).status == 0)
        #expect(try split.run(["verify", "Split.sqlite", "--model", "Split.xcdatamodeld", "--configuration", "Seed"]).status == 0)
        // The external-storage photo lives in the support folder named after the store.
        #expect(MacProof.files(below: kitchen.url.appendingPathComponent(".Kitchen_SUPPORT/_EXTERNAL_DATA")).values.map(\.count) == [300])

        if !MacProof.hasCoreData {
            // Their Linux half here: what the Mac check will be given copies and exports cleanly.
            let all = try MacProof.check(["--work", kitchen.path("work"), "--model", kitchen.path("Kitchen.xcdatamodeld"), allTypes.path])
            #expect(all.status == 77, "\(all.stderr)")
            #expect(all.stdout.contains("\(allTypes.path): copied, its support folder with 1 external files (300 bytes) into "), "\(all.stdout)")
            let seed = try MacProof.check(["--work", split.path("work"), "--configuration", "Seed", "--model", split.path("Split.xcdatamodeld"), configuration.path])
            #expect(seed.status == 77, "\(seed.stderr)")
        }

        guard let destination = ProcessInfo.processInfo.environment["CORESEED_CHECK_STORES"], !destination.isEmpty else { return }
        let target = URL(fileURLWithPath: destination)
        for (name, scratch, files) in [("all-types", kitchen, ["Kitchen.sqlite", ".Kitchen_SUPPORT", "Kitchen.xcdatamodeld"]),
                                       ("configuration", split, ["Split.sqlite", "Split.xcdatamodeld"])] {
            let folder = target.appendingPathComponent(name)
            try? FileManager.default.removeItem(at: folder)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for file in files {
                try FileManager.default.copyItem(at: scratch.url.appendingPathComponent(file), to: folder.appendingPathComponent(file))
            }
        }
        #expect(FileManager.default.fileExists(atPath: target.appendingPathComponent("all-types/.Kitchen_SUPPORT/_EXTERNAL_DATA").path))
    }
}
