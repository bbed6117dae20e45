import Testing
@testable import CoreSeed

@Suite struct ValueCoercerTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var type: AttributeType
        var value: FieldValue
        var expected: SQLiteValue
        var options = CoercionOptions()
        var testDescription: String { "\(value) → \(type.rawValue)" }
    }

    static let uuidBytes: [UInt8] = [0x12, 0x3E, 0x45, 0x67, 0xE8, 0x9B, 0x12, 0xD3, 0xA4, 0x56, 0x42, 0x66, 0x14, 0x17, 0x40, 0x00]

    static let accepted: [Case] = [
        Case(type: .integer16, value: .text("-32768"), expected: .integer(-32768)),
        Case(type: .integer16, value: .text(" 32767 "), expected: .integer(32767)),
        Case(type: .integer32, value: .text("+42"), expected: .integer(42)),
        Case(type: .integer32, value: .integer(2_147_483_647), expected: .integer(2_147_483_647)),
        Case(type: .integer64, value: .text("-9223372036854775808"), expected: .integer(.min)),
        Case(type: .integer64, value: .text("9223372036854775807"), expected: .integer(.max)),
        Case(type: .integer64, value: .real(-3), expected: .integer(-3)),
        Case(type: .integer32, value: .text("12.000"), expected: .integer(12), options: CoercionOptions(allowsIntegralReals: true)),
        Case(type: .integer32, value: .text(""), expected: .null),
        Case(type: .integer32, value: .text("   "), expected: .null),
        Case(type: .integer32, value: .null, expected: .null),
        Case(type: .boolean, value: .text("TRUE"), expected: .integer(1)),
        Case(type: .boolean, value: .text("false"), expected: .integer(0)),
        Case(type: .boolean, value: .text("Yes"), expected: .integer(1)),
        Case(type: .boolean, value: .text("no"), expected: .integer(0)),
        Case(type: .boolean, value: .text("Y"), expected: .integer(1)),
        Case(type: .boolean, value: .text("n"), expected: .integer(0)),
        Case(type: .boolean, value: .text(" 1 "), expected: .integer(1)),
        Case(type: .boolean, value: .integer(0), expected: .integer(0)),
        Case(type: .double, value: .text("3.25"), expected: .real(3.25)),
        Case(type: .double, value: .text("-1e-3"), expected: .real(-0.001)),
        Case(type: .double, value: .text("0.1"), expected: .real(0.1)),
        Case(type: .double, value: .text("123456789012345678901234567890"), expected: .real(1.2345678901234568e29)),
        Case(type: .double, value: .text(".5"), expected: .real(0.5)),
        Case(type: .double, value: .integer(7), expected: .real(7)),
        Case(type: .float, value: .text("0.1"), expected: .real(Double(Float(0.1)))),
        Case(type: .float, value: .real(0.1), expected: .real(Double(Float(0.1)))),
        Case(type: .decimal, value: .text("-0.10"), expected: .real(-0.1)),
        // Zero written as zero, and a subnormal Double, are values (only a non-zero one that would be 0 is refused).
        Case(type: .double, value: .text("0.000e-999"), expected: .real(0)),
        Case(type: .double, value: .text("1e-310"), expected: .real(1e-310)),
        Case(type: .decimal, value: .text("-0.0e-400"), expected: .real(-0.0)),
        Case(type: .decimal, value: .text("+12345.678"), expected: .real(12345.678)),
        Case(type: .string, value: .text(" keep spaces "), expected: .text(" keep spaces ")),
        Case(type: .string, value: .text(""), expected: .text("")),
        Case(type: .string, value: .text(""), expected: .null, options: CoercionOptions(emptyIsNull: true)),
        Case(type: .string, value: .text("Zürich\u{1}日本"), expected: .text("Zürich\u{1}日本")),
        Case(type: .string, value: .integer(-12), expected: .text("-12")),
        Case(type: .string, value: .real(1.5), expected: .text("1.5")),
        Case(type: .string, value: .blob(Array("héllo".utf8)), expected: .text("héllo")),
        Case(type: .date, value: .text("2010-03-26"), expected: .real(291_254_400)),
        Case(type: .date, value: .text(""), expected: .null),
        Case(type: .uuid, value: .text("123e4567-e89b-12d3-a456-426614174000"), expected: .blob(uuidBytes)),
        Case(type: .uuid, value: .text("{123E4567-E89B-12D3-A456-426614174000}"), expected: .blob(uuidBytes)),
        Case(type: .uuid, value: .blob(uuidBytes), expected: .blob(uuidBytes)),
        Case(type: .uri, value: .text("https://www.fdic.gov/bank/"), expected: .text("https://www.fdic.gov/bank/")),
        Case(type: .uri, value: .text(" mailto:a@b.c "), expected: .text("mailto:a@b.c")),
        Case(type: .binary, value: .blob([0, 1, 255]), expected: .blob([0, 1, 255])),
        Case(type: .binary, value: .text("AAH/"), expected: .blob(Array("AAH/".utf8))),
        Case(type: .binary, value: .text("AAH/"), expected: .blob([0, 1, 255]), options: CoercionOptions(base64: true)),
        Case(type: .binary, value: .text("aGk="), expected: .blob(Array("hi".utf8)), options: CoercionOptions(base64: true)),
        Case(type: .transformable, value: .blob([1, 2]), expected: .blob([1, 2])),
        Case(type: .transformable, value: .text("AQI="), expected: .blob([1, 2]), options: CoercionOptions(base64: true)),
    ]

    @Test(arguments: accepted)
    func accepts(_ example: Case) throws {
        let coercer = try ValueCoercer(attribute: Attribute(name: "value", type: example.type), options: example.options)
        #expect(try coercer.coerce(example.value) == example.expected)
    }

    struct Refusal: Sendable, CustomTestStringConvertible {
        var attribute: Attribute
        var value: FieldValue
        var message: String
        var options = CoercionOptions()
        var dateInputs: [String] = []
        var testDescription: String { message }
    }

    static func attribute(_ type: AttributeType, min: String? = nil, max: String? = nil) -> Attribute {
        Attribute(name: "value", type: type, minValueString: min, maxValueString: max)
    }

    static let refused: [Refusal] = [
        Refusal(attribute: attribute(.integer32), value: .text("12a"), message: "'Field' value \"12a\" is not an Integer 32"),
        Refusal(attribute: attribute(.integer32), value: .text("1.0"), message: "'Field' value \"1.0\" is not an Integer 32"),
        Refusal(attribute: attribute(.integer32), value: .text("1.5"), message: "'Field' value \"1.5\" is not an Integer 32",
                options: CoercionOptions(allowsIntegralReals: true)),
        Refusal(attribute: attribute(.integer32), value: .text("-"), message: "'Field' value \"-\" is not an Integer 32"),
        Refusal(attribute: attribute(.integer32), value: .text("1 2"), message: "'Field' value \"1 2\" is not an Integer 32"),
        Refusal(attribute: attribute(.integer32), value: .real(1.5), message: "'Field' value 1.5 is not an Integer 32"),
        Refusal(attribute: attribute(.integer32), value: .blob([1]), message: "'Field' value <1 byte> is not an Integer 32"),
        Refusal(attribute: attribute(.integer16), value: .text("70000"),
                message: "'Field' value \"70000\" is out of range for Integer 16 (-32768…32767)"),
        Refusal(attribute: attribute(.integer16), value: .text("-32769"),
                message: "'Field' value \"-32769\" is out of range for Integer 16 (-32768…32767)"),
        Refusal(attribute: attribute(.integer32), value: .integer(2_147_483_648),
                message: "'Field' value 2147483648 is out of range for Integer 32 (-2147483648…2147483647)"),
        Refusal(attribute: attribute(.integer64), value: .text("9223372036854775808"),
                message: "'Field' value \"9223372036854775808\" is out of range for Integer 64 (-9223372036854775808…9223372036854775807)"),
        Refusal(attribute: attribute(.integer64), value: .real(1e19),
                message: "'Field' value 1e+19 is out of range for Integer 64 (-9223372036854775808…9223372036854775807)"),
        Refusal(attribute: attribute(.integer16, min: "1", max: "10"), value: .text("0"),
                message: "'Field' value \"0\" is less than the model's minimum 1 for Integer 16"),
        Refusal(attribute: attribute(.integer16, min: "1", max: "10"), value: .integer(11),
                message: "'Field' value 11 is greater than the model's maximum 10 for Integer 16"),
        Refusal(attribute: attribute(.double, min: "0.5"), value: .text("0.25"),
                message: "'Field' value \"0.25\" is less than the model's minimum 0.5 for Double"),
        Refusal(attribute: attribute(.boolean), value: .text("maybe"), message: "'Field' value \"maybe\" is not a Boolean"),
        Refusal(attribute: attribute(.boolean), value: .integer(2), message: "'Field' value 2 is not a Boolean"),
        Refusal(attribute: attribute(.double), value: .text("NaN"), message: "'Field' value \"NaN\" is not a Double"),
        Refusal(attribute: attribute(.double), value: .text("inf"), message: "'Field' value \"inf\" is not a Double"),
        Refusal(attribute: attribute(.double), value: .real(.nan), message: "'Field' value nan is not a finite Double"),
        Refusal(attribute: attribute(.double), value: .real(-.infinity), message: "'Field' value -inf is not a finite Double"),
        Refusal(attribute: attribute(.double), value: .text("1e400"),
                message: "'Field' value \"1e400\" is out of range for Double (-1.7976931348623157e+308…1.7976931348623157e+308)"),
        Refusal(attribute: attribute(.float), value: .text("1e39"),
                message: "'Field' value \"1e39\" is out of range for Float (-3.4028235e+38…3.4028235e+38)"),
        Refusal(attribute: attribute(.double), value: .text("0x1p3"), message: "'Field' value \"0x1p3\" is not a Double"),
        Refusal(attribute: attribute(.decimal), value: .text("1,5"), message: "'Field' value \"1,5\" is not a Decimal"),
        // Issue 24, item 14: 39 digits were "not a Decimal"; 1e-400 became 0 silently.
        Refusal(attribute: attribute(.decimal), value: .text("123456789012345678901234567890123456789"),
                message: "'Field' value \"123456789012345678901234567890123456789\" has 39 significant digits, more than the 38 a Decimal holds (NSDecimalNumber's mantissa); round it to 38 digits"),
        Refusal(attribute: attribute(.decimal), value: .text("1e-400"),
                message: "'Field' value \"1e-400\" is too close to 0 for a Decimal: it would be stored as 0 (the smallest non-zero Decimal is 5e-324); write 0 if 0 is meant"),
        Refusal(attribute: attribute(.decimal), value: .text("1e400"),
                message: "'Field' value \"1e400\" is out of range for Decimal (-1.7976931348623157e+308…1.7976931348623157e+308)"),
        Refusal(attribute: attribute(.double), value: .text("1e-400"),
                message: "'Field' value \"1e-400\" is too close to 0 for a Double: it would be stored as 0 (the smallest non-zero Double is 5e-324); write 0 if 0 is meant"),
        Refusal(attribute: attribute(.float), value: .text("-1e-50"),
                message: "'Field' value \"-1e-50\" is too close to 0 for a Float: it would be stored as 0 (the smallest non-zero Float is 1e-45); write 0 if 0 is meant"),
        Refusal(attribute: attribute(.string, min: "2", max: "3"), value: .text("a"),
                message: "'Field' value \"a\" is shorter than the model's minimum length 2"),
        Refusal(attribute: attribute(.string, min: "2", max: "3"), value: .text("abcd"),
                message: "'Field' value \"abcd\" is longer than the model's maximum length 3"),
        Refusal(attribute: attribute(.string), value: .blob([0xFF]), message: "'Field' value <1 byte> is not a UTF-8 String"),
        Refusal(attribute: attribute(.date), value: .text("31-Feb-10"),
                message: "'Field' value \"31-Feb-10\" is not a date matching \"d-MMM-yy\"", dateInputs: ["d-MMM-yy"]),
        Refusal(attribute: attribute(.date), value: .text("26/03/2010"),
                message: "'Field' value \"26/03/2010\" is not a date matching \"d-MMM-yy\" or \"MMMM d, yyyy\"; \"d/M/yyyy\" would read it",
                dateInputs: ["d-MMM-yy", "MMMM d, yyyy"]),
        Refusal(attribute: attribute(.date), value: .text("yesterday"), message: "'Field' value \"yesterday\" is not an ISO 8601 date"),
        Refusal(attribute: attribute(.date), value: .integer(1_269_561_600), message: "'Field' value 1269561600 is not an ISO 8601 date"),
        Refusal(attribute: attribute(.uuid), value: .text("123e4567-e89b-12d3-a456-42661417400"),
                message: "'Field' value \"123e4567-e89b-12d3-a456-42661417400\" is not a UUID"),
        Refusal(attribute: attribute(.uuid), value: .text("123e4567e89b12d3a456426614174000"),
                message: "'Field' value \"123e4567e89b12d3a456426614174000\" is not a UUID"),
        Refusal(attribute: attribute(.uuid), value: .text("g23e4567-e89b-12d3-a456-426614174000"),
                message: "'Field' value \"g23e4567-e89b-12d3-a456-426614174000\" is not a UUID"),
        Refusal(attribute: attribute(.uuid), value: .blob([1, 2, 3]), message: "'Field' value <3 bytes> is not a UUID"),
        Refusal(attribute: attribute(.uri), value: .text("www.fdic.gov"), message: "'Field' value \"www.fdic.gov\" is not a URI"),
        Refusal(attribute: attribute(.uri), value: .text("http://a b"), message: "'Field' value \"http://a b\" is not a URI"),
        Refusal(attribute: attribute(.uri), value: .text("1http://a"), message: "'Field' value \"1http://a\" is not a URI"),
        Refusal(attribute: attribute(.binary), value: .text("abc"), message: "'Field' value \"abc\" is not a base64 Binary value",
                options: CoercionOptions(base64: true)),
        Refusal(attribute: attribute(.binary), value: .integer(5), message: "'Field' value 5 is not a Binary value"),
        Refusal(attribute: attribute(.transformable), value: .text("x"), message: "'Field' value \"x\" is not a Transformable value"),
        Refusal(attribute: attribute(.objectID), value: .text("x"), message: "'Field' value \"x\" cannot be stored in an ObjectID attribute"),
        Refusal(attribute: attribute(.composite), value: .text("x"), message: "'Field' value \"x\" cannot be stored in a Composite attribute"),
        Refusal(attribute: attribute(.integer32), value: .list([.integer(1), .integer(2)]),
                message: "'Field' value <list of 2 values> is not a single Integer 32 value"),
        Refusal(attribute: attribute(.integer32), value: .text(""), message: "'Field' value \"\" is not an Integer 32",
                options: CoercionOptions(emptyIsNull: false)),
        Refusal(attribute: attribute(.string, min: "99"), value: .text("line\n\"q\""),
                message: "'Field' value \"line\\n\\\"q\\\"\" is shorter than the model's minimum length 99"),
        Refusal(attribute: attribute(.string, min: "99"), value: .text("line\n\"q\"\u{0}"),
                message: "'Field' value \"line\\n\\\"q\\\"\\0\" holds a NUL character (U+0000), which CoreSeed does not store in text (C strings end at the first one): remove it from the source, or map the field to a Binary attribute"),
    ]

    @Test(arguments: refused)
    func refusesWithExactMessage(_ example: Refusal) throws {
        let parser = try DateParser(example.dateInputs.map(DateInput.init(name:)))
        let coercer = try ValueCoercer(attribute: example.attribute, options: example.options, dateParser: parser)
        let failure = #expect(throws: CoercionFailure.self) { try coercer.coerce(example.value) }
        #expect(failure?.message(field: "Field") == example.message)
    }

    /// The build's byte path never differs from the general one: for every text below and every type
    /// it covers, `coerceFast` either leaves the value to `coerce` (nil) or gives exactly what it stores.
    @Test func fastPathAgreesWithCoerce() throws {
        let texts = ["", " ", "\t", "0", "00", "-0", "+7", " 42 ", "32768", "-32769", "2147483648", "9223372036854775807",
                     "9223372036854775808", "12.000", "1e3", "abc", "Zürich", "26-Mar-10", " 26-Mar-10 ", "26-mar-2010",
                     "31-Feb-10", "1-Jan-00", "2010-03-26", "2010-03-14 02:30:00", "12", "x\u{0}y", "  padded  "]
        let parser = try DateParser([.pattern("d-MMM-yy"), .pattern("yyyy-MM-dd HH:mm:ss")], timeZone: "America/New_York")
        let attributes = [Attribute(name: "s", type: .string), Attribute(name: "s", type: .string, maxValueString: "3"),
                          Attribute(name: "i", type: .integer16), Attribute(name: "i", type: .integer32),
                          Attribute(name: "i", type: .integer64), Attribute(name: "i", type: .integer64, minValueString: "0"),
                          Attribute(name: "d", type: .date), Attribute(name: "b", type: .boolean), Attribute(name: "r", type: .double)]
        var decided = 0
        for attribute in attributes {
            for options in [CoercionOptions(), CoercionOptions(allowsIntegralReals: true)] {
                let coercer = try ValueCoercer(attribute: attribute, options: options, dateParser: parser)
                for text in texts {
                    var copy = text
                    let fast = copy.withUTF8 { coercer.coerceFast($0) }
                    guard let fast else { continue }
                    decided += 1
                    let general = try coercer.coerce(.text(text))
                    switch fast {
                    case .integer(let number): #expect(general == .integer(number), "\(text) as \(attribute.type)")
                    case .real(let number): #expect(general == .real(number), "\(text) as \(attribute.type)")
                    case .sameText: #expect(general == .text(text), "\(text) as \(attribute.type)")
                    }
                }
            }
        }
        #expect(decided > 60)
    }

    @Test func mappingErrorRendersLikeACompiler() throws {
        let coercer = try ValueCoercer(attribute: Attribute(name: "closeDate", type: .date),
                                       dateParser: DateParser([.pattern("d-MMM-yy")], timeZone: "America/New_York"))
        let failure = #expect(throws: CoercionFailure.self) { try coercer.coerce(.text("31-Feb-10")) }
        let error = MappingError(location: SourceLocation(file: "Inputs/banklist.csv", line: 12, column: 7),
                                 field: "Closing Date", entity: "FailedBankDetails", attribute: "closeDate",
                                 failure: try #require(failure))
        #expect(error.diagnosticLines == [
            "Inputs/banklist.csv:12:7: error: 'Closing Date' value \"31-Feb-10\" is not a date matching \"d-MMM-yy\" (FailedBankDetails.closeDate)",
        ])
        #expect(error.kind == .invalid)  // exit 1 (the CLI maps kinds to statuses)
        let sqlite = MappingError(location: SourceLocation(file: "banklist.sqlite3", table: "failed_banks", rowid: 4),
                                  field: "cert", entity: "FailedBankInfo", attribute: "cert",
                                  failure: CoercionFailure(.notA, expected: "Integer 32", value: "\"12a\""))
        #expect(sqlite.diagnosticLines == ["banklist.sqlite3:failed_banks:4: error: 'cert' value \"12a\" is not an Integer 32 (FailedBankInfo.cert)"])
        #expect(CoercionFailure(.notA, expected: "Integer 32", value: "\"12a\"").message == "value \"12a\" is not an Integer 32")
    }

    @Test func decimalKeepsItsDigits() throws {
        let coercer = try ValueCoercer(attribute: Attribute(name: "amount", type: .decimal))
        let decimal = try #require(try coercer.decimalText(.text(" +0.10 ")))
        #expect(decimal.text == "0.10")
        #expect(decimal.value == 0.1)
        #expect(try coercer.decimalText(.text("")) == nil)
        #expect(try coercer.decimalText(.text("12345678901234567890123456789012345678")) != nil)
    }

    static let setupErrors: [(Attribute, String)] = [
        (attribute(.integer16, min: "abc"), "minimum \"abc\" of Integer 16 attribute 'value' is not a number"),
        (attribute(.string, max: "1.5"), "maximum \"1.5\" of String attribute 'value' is not a length"),
    ]

    @Test(arguments: setupErrors)
    func refusesBadModelBounds(_ example: (Attribute, String)) {
        #expect(throws: FileError(message: example.1)) { try ValueCoercer(attribute: example.0) }
    }

    /// Seeded random integers at the edges of each type: text in, same number out; one past the edge is refused.
    @Test(arguments: [AttributeType.integer16, .integer32, .integer64])
    func integerRoundTrips(_ type: AttributeType) throws {
        var generator = SplitMix64(seed: UInt64(type.typeCode))
        let coercer = try ValueCoercer(attribute: Attribute(name: "n", type: type))
        let range = ValueCoercer.range(of: type)
        var samples = [range.lowerBound, range.upperBound, 0, -1, 1]
        for _ in 0..<500 { samples.append(Int64.random(in: range, using: &generator)) }
        for number in samples {
            #expect(try coercer.coerce(.text(String(number))) == .integer(number))
            #expect(try coercer.coerce(.integer(number)) == .integer(number))
        }
        if type != .integer64 {
            #expect(throws: CoercionFailure.self) { try coercer.coerce(.text(String(range.upperBound + 1))) }
            #expect(throws: CoercionFailure.self) { try coercer.coerce(.integer(range.lowerBound - 1)) }
        }
    }

    /// Seeded random doubles (finite, any exponent): their shortest text parses back to the same bits.
    @Test func doubleRoundTrips() throws {
        var generator = SplitMix64(seed: 42)
        let double = try ValueCoercer(attribute: Attribute(name: "d", type: .double))
        let float = try ValueCoercer(attribute: Attribute(name: "f", type: .float))
        for _ in 0..<2000 {
            let value = Double(bitPattern: generator.next())
            guard value.isFinite else {
                #expect(throws: CoercionFailure.self) { try double.coerce(.real(value)) }
                continue
            }
            #expect(try double.coerce(.text(String(value))) == .real(value))
            let single = Float(bitPattern: UInt32(truncatingIfNeeded: generator.next()))
            if single.isFinite {
                #expect(try float.coerce(.text(String(single))) == .real(Double(single)))
            }
        }
        for text in ["nan", "NaN", "-nan", "inf", "-Infinity", "+inf"] {
            #expect(throws: CoercionFailure.self) { try double.coerce(.text(text)) }
        }
    }

    /// Random strings with control characters, non-ASCII and spaces stay byte-identical; empty stays
    /// empty, NULL stays NULL; text with a NUL is refused (issue 16).
    @Test func stringRoundTrips() throws {
        var generator = SplitMix64(seed: 7)
        let coercer = try ValueCoercer(attribute: Attribute(name: "s", type: .string))
        let alphabet: [Unicode.Scalar] = ["\u{1}", " ", "a", "Z", "é", "日", "\u{1F3E6}", "\"", "\n", "\u{7F}"]
        for _ in 0..<500 {
            var text = ""
            for _ in 0..<Int.random(in: 0...12, using: &generator) {
                text.unicodeScalars.append(alphabet.randomElement(using: &generator)!)
            }
            #expect(try coercer.coerce(.text(text)) == .text(text))
        }
        #expect(try coercer.coerce(.text("")) == .text(""))
        #expect(throws: CoercionFailure.self) { try coercer.coerce(.text("a\u{0}b")) }
        #expect([UInt8(ascii: "a"), 0].withUnsafeBufferPointer { coercer.coerceFast($0) } == nil)
        #expect(try coercer.coerce(.null) == .null)
    }

    /// Correctness of the byte-level fast paths over many values; no timing asserted.
    @Test func microCheckOfHotPaths() throws {
        let integer = try ValueCoercer(attribute: Attribute(name: "n", type: .integer64))
        let date = try ValueCoercer(attribute: Attribute(name: "d", type: .date),
                                    dateParser: DateParser([.pattern("d-MMM-yy")], timeZone: "America/New_York"))
        var sum: Int64 = 0
        for number in Int64(-50_000)..<50_000 {
            if case .integer(let value) = try integer.coerce(.text(String(number))) { sum &+= value }
        }
        #expect(sum == -50_000)
        // Midnight is EST (-5) up to 14 March 2010, when DST starts at 02:00, and EDT (-4) after.
        for day in 1...28 {
            let value = try date.coerce(.text("\(day)-Mar-10"))
            #expect(value == .real(291_268_800 + Double(day - 26) * 86_400 + (day <= 14 ? 3600 : 0)))
        }
    }
}
