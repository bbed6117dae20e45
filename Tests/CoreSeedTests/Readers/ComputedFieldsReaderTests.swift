import Foundation
import Testing
@testable import CoreSeed
import CoreSeedTestSupport

/// Issue 28: the computed-fields reader on its own — a field computed from two earlier computed
/// fields (evaluated in the order the names need, whatever order the spec gives), the filter, and
/// the in-place path giving exactly what `next()` gives.
@Suite struct ComputedFieldsReaderTests {
    static let fields = [
        ComputedField(name: "label", formula: .sql(":country || '/' || :local")),
        ComputedField(name: "country", formula: .sql("substr(:code, 1, instr(:code, '-') - 1)")),
        ComputedField(name: "local", formula: .sql("substr(:code, instr(:code, '-') + 1)")),
    ]

    static func reader(_ scratch: Scratch, filter: String? = nil) throws -> ComputedFieldsReader {
        let path = try scratch.file("in.csv", "code,name\nAD-02,Canillo\nAZ-NX,Naxçıvan\nFR-75C,Paris\n")
        return try ComputedFieldsReader(base: try CSVReader(path: path), fields: fields, filter: filter, file: path,
                                        directory: scratch.url.path)
    }

    @Test func aFieldFromTwoEarlierComputedOnes() throws {
        let scratch = try Scratch()
        let reader = try Self.reader(scratch, filter: ":country <> 'FR'")
        #expect(reader.fieldNames == ["code", "name", "label", "country", "local"])
        let records = try reader.all()
        #expect(records.map { $0.values.map { if case .text(let text) = $0 { text } else { "\($0)" } } } == [
            ["AD-02", "Canillo", "AD/02", "AD", "02"],
            ["AZ-NX", "Naxçıvan", "AZ/NX", "AZ", "NX"],
        ])
        #expect(reader.filtered == 1)
    }

    @Test func inPlaceGivesWhatNextGives() throws {
        let scratch = try Scratch()
        let general = try Self.reader(scratch, filter: ":country <> 'FR'").all().map(\.values)
        let raw = try Self.reader(scratch, filter: ":country <> 'FR'")
        #expect(raw.readsRaw)
        var records: [[FieldValue]] = []
        while try raw.nextRaw() { records.append(try raw.currentRecord().values) }
        #expect(records == general)
        #expect(raw.filtered == 1)
    }
}
