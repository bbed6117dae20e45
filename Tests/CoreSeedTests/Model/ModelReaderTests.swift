import Foundation
import Testing
@testable import CoreSeed
import CoreSeedTestSupport

@Suite struct ModelReaderTests {
    @Test(.needsCorpus) func readsEveryVersionAndTheCurrentOne() throws {
        let path = TestPaths.corpus.appendingPathComponent("objcio-moody1/model/Moody.xcdatamodeld").path
        let versions = try ModelVersions.load(path: path)
        #expect(versions.versions.map(\.versionName) == ["Moody", "Moody 2", "Moody 3", "Moody 4", "Moody 5", "Moody 6"])
        #expect(versions.currentVersionName == "Moody 6")
        let moody = try versions.version(named: "Moody.xcdatamodel")
        #expect(moody.versionIdentifier == "1")
        let region = try #require(moody.entity(named: "GeographicRegion"))
        #expect(region.isAbstract)
        #expect(region.compoundIndexes == [["markedForDeletionDate", "updatedAt"]])
        #expect(region.uniquenessConstraints == [["numericISO3166Code", "uniquenessDummy"]])
        let country = try #require(moody.entity(named: "Country"))
        #expect(country.parentName == "GeographicRegion")
        let continent = try #require(country.relationship(named: "continent"))
        #expect(!continent.isToMany && continent.maxCount == 1 && continent.inverseName == "countries")
        let mood = try #require(moody.entity(named: "Mood"))
        #expect(mood.attribute(named: "colors")?.valueTransformerName == "ColorsTransformer")
        #expect(mood.attribute(named: "remoteIdentifier")?.isIndexed == true)
    }

    @Test(.needsCorpus) func readsFetchIndexesAndPreserveAfterDeletion() throws {
        let path = TestPaths.corpus.appendingPathComponent("coredataplus-samplemodel-v1/model/SampleModel.xcdatamodeld").path
        let versions = try ModelVersions.load(path: path)
        let v2 = try versions.version(named: "SampleModel2")
        let car = try #require(v2.entity(named: "Car"))
        #expect(car.fetchIndexes.first?.name == "byMakerAndNumberPlate")
        #expect(car.fetchIndexes.first?.elements.map(\.property) == ["maker", "numberPlate"])
        let v1 = try versions.version(named: "SampleModel")
        #expect(v1.entity(named: "Person")?.attribute(named: "id")?.preserveAfterDeletion == true)
        #expect(v1.entity(named: "Car")?.attribute(named: "currentDrivingSpeed")?.isTransient == true)
    }

    @Test(.needsCorpus) func unknownVersionNamesTheVersions() throws {
        let path = TestPaths.corpus.appendingPathComponent("bnr-coredatastack-testmodel/model/Sample.xcdatamodeld").path
        let versions = try ModelVersions.load(path: path)
        #expect(throws: FileError(.unreadableInput, path: path, message: "no model version 'Nope' (versions: TestModel, TestModel 2)")) {
            try versions.version(named: "Nope")
        }
    }

    @Test(arguments: [
        ("<model><entity name=\"Bad Name\"/></model>", 1, "entity name 'Bad Name' must be ASCII letters, digits and underscores, not starting with a digit (a space is not one)"),
        // Issue 24, item 14: 'é' was called "not a letter"; it is refused as not ASCII, and said so.
        ("<model><entity name=\"Café\"/></model>", 1, "entity name 'Café' must be ASCII letters, digits and underscores, not starting with a digit ('é' is not an ASCII letter: CoreSeed names tables and columns in ASCII only)"),
        ("<model><entity name=\"A\"><attribute name=\"2x\" attributeType=\"String\"/></entity></model>", 1, "attribute 'A.2x' must be ASCII letters, digits and underscores, not starting with a digit (it starts with '2')"),
        ("<model>\n<entity name=\"A\">\n<attribute name=\"x\" attributeType=\"Quaternion\"/>\n</entity>\n</model>", 3,
         "attribute 'x' has unsupported attributeType 'Quaternion'"),
        ("<model>\n<entity name=\"A\">\n<relationship name=\"b\" destinationEntity=\"B\"/>\n</entity>\n</model>", 3,
         "relationship 'A.b' has unknown destination 'B'"),
        ("<plist/>", 1, "root element is <plist>, not <model>: this is not a Core Data model"),
    ])
    func malformedModelsNameFileAndLine(xml: String, line: Int, message: String) throws {
        #expect(throws: FileError(.unreadableInput, path: "m/contents", line: line, message: message)) {
            try ModelParser.parse(data: Data(xml.utf8), path: "m/contents", versionName: "m")
        }
    }

    @Test func brokenXMLGivesTheLine() throws {
        let error = try #require(throws: FileError.self) {
            try ModelParser.parse(data: Data("<model>\n<entity name=\"A\">\n</model>".utf8), path: "x", versionName: "x")
        }
        #expect(error.line == 3)
        #expect(error.message.hasPrefix("not a valid model file"))
    }

    @Test func userInfoAndConfigurations() throws {
        let xml = """
        <model userDefinedModelVersionIdentifier="7">
          <entity name="Bank">
            <attribute name="closeDate" attributeType="Date">
              <userInfo><entry key="mappedKeyName" value="Closing Date"/></userInfo>
            </attribute>
            <userInfo><entry key="relatedByAttribute" value="cert"/></userInfo>
          </entity>
          <entity name="Note"/>
          <configuration name="Seed"><memberEntity name="Bank"/></configuration>
          <configuration name="User"><memberEntity name="Note"/></configuration>
        </model>
        """
        let model = try ModelParser.parse(data: Data(xml.utf8), path: "x", versionName: "x")
        #expect(model.versionIdentifier == "7")
        #expect(model.entity(named: "Bank")?.attribute(named: "closeDate")?.userInfo == ["mappedKeyName": "Closing Date"])
        #expect(model.entity(named: "Bank")?.userInfo == ["relatedByAttribute": "cert"])
        #expect(model.configurations == [.init(name: "Seed", entityNames: ["Bank"]), .init(name: "User", entityNames: ["Note"])])
    }
}
