import CoreSeed
import Foundation
import Testing
import CoreSeedTestSupport

/// `coreseed verify --cloudkit` (docs/APP.md, "CloudKit"): what keeps a configuration's entities from
/// syncing through NSPersistentCloudKitContainer, one error line each.
@Suite struct CloudKitVerifyTests {
    @Test func theSeedConfigurationNamesWhatCloudKitRefuses() throws {
        let scratch = try Scratch()
        _ = try MacProofStores.buildConfigurationStore(in: scratch)
        let plain = try scratch.run(["verify", "Split.sqlite", "--model", "Split.xcdatamodeld", "--configuration", "Seed"])
        #expect(plain.status == 0, "\(plain.stderr)")
        let result = try scratch.run(["verify", "Split.sqlite", "--model", "Split.xcdatamodeld", "--configuration", "Seed", "--cloudkit"])
        #expect(result.status == 1)
        #expect(result.stderr == """
            Split.sqlite: error: cloudkit: Bank: uniqueness constraint (name): CloudKit does not support unique constraints
            Split.sqlite: error: cloudkit: Bank.name: CloudKit needs every attribute optional or with a default value
            Split.sqlite: error: cloudkit: Branch.city: CloudKit needs every attribute optional or with a default value
            Split.sqlite: error: cloudkit: Branch.bank: CloudKit needs every relationship optional

            """)
        #expect(!result.stdout.contains("OK"))
    }

    @Test func aModelMeantToSyncPasses() throws {
        let scratch = try Scratch()
        try scratch.writeModel("Notes", """
            <entity name="Note"><attribute name="text" optional="YES" attributeType="String"/>
              <attribute name="pinned" attributeType="Boolean" defaultValueString="NO"/>
              <relationship name="tags" optional="YES" toMany="YES" destinationEntity="Tag" inverseName="notes" inverseEntity="Tag"/></entity>
            <entity name="Tag"><attribute name="name" optional="YES" attributeType="String"/>
              <relationship name="notes" optional="YES" toMany="YES" destinationEntity="Note" inverseName="tags" inverseEntity="Note"/></entity>
            """)
        try scratch.write("notes.csv", "text,pinned\nmilk,no\n")
        try scratch.write("spec.json", #"{ "model": "Notes.xcdatamodeld", "output": "notes.sqlite", "sources": { "n": { "csv": "notes.csv" } }, "entities": { "Note": { "from": "n" } } }"#)
        #expect(try scratch.run(["build", "spec.json", "--quiet"]).status == 0)
        let result = try scratch.run(["verify", "notes.sqlite", "--model", "Notes.xcdatamodeld", "--cloudkit", "--json"])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains(#""differences": []"#))
    }

    /// Each rule, on a model read by CoreSeed's own reader.
    @Test func eachRule() throws {
        let scratch = try Scratch()
        try scratch.writeModel("Rules", """
            <entity name="A"><attribute name="id" attributeType="Integer 64"/>
              <attribute name="count" attributeType="Integer 64" defaultValueString="0"/>
              <relationship name="bs" optional="YES" toMany="YES" ordered="YES" destinationEntity="B" inverseName="a" inverseEntity="B"/>
              <relationship name="loose" optional="YES" maxCount="1" destinationEntity="B"/>
              <relationship name="kept" optional="YES" maxCount="1" deletionRule="Deny" destinationEntity="C" inverseName="a" inverseEntity="C"/></entity>
            <entity name="B"><relationship name="a" optional="YES" maxCount="1" destinationEntity="A" inverseName="bs" inverseEntity="A"/></entity>
            <entity name="C"><relationship name="a" optional="YES" maxCount="1" destinationEntity="A" inverseName="kept" inverseEntity="A"/></entity>
            <configuration name="Cloud"><memberEntity name="A"/><memberEntity name="B"/></configuration>
            """)
        let model = try ModelVersions.load(path: scratch.path("Rules.xcdatamodeld")).current
        #expect(CloudKitCompatibility.problems(in: model, configuration: "Cloud") == [
            "A.id: CloudKit needs every attribute optional or with a default value",
            "A.bs: CloudKit does not support ordered relationships",
            "A.loose: CloudKit needs every relationship to have an inverse",
            "A.kept: CloudKit does not support the Deny delete rule",
            "A.kept: leads to C, outside configuration 'Cloud': CloudKit does not relate entities across configurations",
        ])
        #expect(CloudKitCompatibility.problems(in: model, configuration: nil).count == 4)
    }
}
