import Foundation
import Testing
@testable import CoreSeed
import CoreSeedTestSupport

/// The model's value rules (issue 23): Date bounds, Binary lengths, a String's regular expression
/// (whole-string, as NSPredicate MATCHES), and the number and String length bounds the converter
/// already checked; each a rejected value that `--max-errors` tolerates by leaving the record out.
@Suite struct AttributeRuleTests {
    /// Country's attributes, one validation of each kind (also `VerifyRuleTests`' model).
    static func attributes(pattern: String = "[A-Z]{2}") -> String {
        """
        <attribute name="code" optional="YES" attributeType="String" regularExpressionString="\(pattern)"/>
        <attribute name="name" optional="YES" attributeType="String" minValueString="2" maxValueString="10"/>
        <attribute name="founded" optional="YES" attributeType="Date" minDateTimeInterval="0" maxDateTimeInterval="631152000"/>
        <attribute name="flag" optional="YES" attributeType="Binary" minValueString="1" maxValueString="4"/>
        <attribute name="population" optional="YES" attributeType="Integer 64" minValueString="0" maxValueString="100"/>
        """
    }

    static func model(pattern: String = "[A-Z]{2}") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <model userDefinedModelVersionIdentifier="">
          <entity name="Country">
        \(attributes(pattern: pattern))
          </entity>
        </model>
        """
    }

    /// Builds `rows` (after the header `code,name,founded,flag,population`); the report, or the failure.
    static func build(_ rows: String, maxErrors: Int = 0, pattern: String = "[A-Z]{2}") throws -> (URL, Result<BuildReport, any Error>) {
        let url = try TestPaths.temporaryDirectory()
        try TestPaths.write(model(pattern: pattern), to: "Rules.xcdatamodeld/Rules.xcdatamodel/contents", in: url)
        try TestPaths.write("code,name,founded,flag,population\n" + rows, to: "countries.csv", in: url)
        try TestPaths.write("""
            { "model": "Rules.xcdatamodeld", "output": "Rules.sqlite", "sources": { "countries": { "csv": "countries.csv" } },
              "entities": { "Country": { "from": "countries", "key": "code" } } }
            """, to: "spec.json", in: url)
        var options = SeedBuild.Options()
        options.maxErrors = maxErrors
        return (url, Result { try SeedBuild.run(specPath: url.appendingPathComponent("spec.json").path, options: options) })
    }

    /// The message of the one value a build rejects.
    static func rejection(_ row: String) throws -> String {
        let (url, result) = try Self.build("FR,France,2001-06-01,ab,5\n" + row + "\n")
        defer { try? FileManager.default.removeItem(at: url) }
        guard case .failure(let error) = result, let failure = error as? BuildFailure else {
            Issue.record("'\(row)' was accepted")
            return ""
        }
        #expect(failure.problems.count == 1)
        #expect((failure.problems.first as? MappingError)?.location.line == 3)
        return failure.diagnostics.first?.message ?? ""
    }

    @Test func goodValuesPass() throws {
        let (url, result) = try Self.build("FR,France,2001-06-01,ab,5\nDE,Germany,,,\n")
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try result.get().entities.map(\.rows) == [2])
    }

    /// On main the pattern was not read from the model: "FRA" and "fr" were stored.
    @Test func theRegularExpressionMustMatchTheWholeValue() throws {
        #expect(try Self.rejection("FRA,France,,,") == "'code' value \"FRA\" is not a text matching the model's regular expression \"[A-Z]{2}\" (Country.code)")
        #expect(try Self.rejection("fr,France,,,").hasPrefix("'code' value \"fr\" is not a text matching"))
    }

    /// On main Date bounds (minDateTimeInterval, maxDateTimeInterval) were not read: both dates were stored.
    @Test func dateBoundsAreChecked() throws {
        #expect(try Self.rejection("DE,Germany,2000-12-31,,") == "'founded' value \"2000-12-31\" is less than the model's minimum 2001-01-01T00:00:00Z for Date (Country.founded)")
        #expect(try Self.rejection("DE,Germany,2021-01-02,,").contains("is greater than the model's maximum 2021-01-01T00:00:00Z for Date"))
    }

    /// On main a Binary's bounds were ignored: 5 bytes were stored.
    @Test func binaryLengthsAreChecked() throws {
        #expect(try Self.rejection("DE,Germany,,hello,") == "'flag' value \"hello\" is longer than the model's maximum length 4 (Country.flag)")
    }

    /// Number and String-length bounds were checked before issue 23; kept here with the other rules.
    @Test func numberAndStringLengthBoundsAreChecked() throws {
        #expect(try Self.rejection("DE,Germany,,,101").contains("is greater than the model's maximum 100"))
        #expect(try Self.rejection("DE,G,,,").contains("is shorter than the model's minimum length 2"))
    }

    @Test func aBrokenRuleUnderMaxErrorsLeavesTheRecordOut() throws {
        let (url, result) = try Self.build("FR,France,2001-06-01,ab,5\nFRA,Frankia,,,\nDE,Germany,2000-01-01,,\nIT,Italy,,,\n", maxErrors: 2)
        defer { try? FileManager.default.removeItem(at: url) }
        let report = try result.get()
        #expect(report.entities.map { [$0.rows, $0.rejected] } == [[2, 2]])
        #expect(report.rejected.map(\.location.line) == [3, 4])
        let codes = try SQLiteDatabase(path: url.appendingPathComponent("Rules.sqlite").path, mode: .readOnly(immutable: true))
            .rows("SELECT ZCODE FROM ZCOUNTRY ORDER BY ZCODE").map { $0[0] }
        #expect(codes == [.text("FR"), .text("IT")])
    }

    @Test func aPatternICURefusesIsAnErrorNamingTheAttribute() throws {
        let (url, result) = try Self.build("FR,France,,,\n", pattern: "[A-Z")
        defer { try? FileManager.default.removeItem(at: url) }
        guard case .failure(let error as FileError) = result else {
            Issue.record("a bad pattern was accepted")
            return
        }
        #expect(error.message.contains("regularExpressionString \"[A-Z\" of attribute 'code' (model line 4) is not a regular expression ICU accepts"))
    }
}
