import Foundation
import Testing
import CoreSeedTestSupport

/// `coreseed schema` of the repository's models, exactly as printed, in golden files: the two models
/// of `Inputs/` (`make seed`'s) and AllTypesTests' Kitchen, which has every attribute type.
@Suite struct SchemaGoldenTests {
    @Test(arguments: ["Carriers", "FailedBanksCD"]) func inputModel(name: String) throws {
        let model = TestPaths.inputs.appendingPathComponent("\(name).xcdatamodeld").path
        let result = try BinaryRunner.run(["schema", model])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        assertGolden(result.stdout, file: "\(name).sql")
    }

    @Test func everyAttributeType() throws {
        let scratch = try Scratch()
        try scratch.writeModel("Kitchen", AllTypesTests.model)
        let result = try scratch.run(["schema", "Kitchen.xcdatamodeld"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        assertGolden(result.stdout, file: "Kitchen.sql")
    }
}
