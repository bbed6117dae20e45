import Foundation
import Testing
@testable import CoreSeed

/// The one JSON string escaper (reports, `hashes --json`, `read`'s JSON lines).
@Suite struct JSONWriterTests {
    @Test(arguments: [
        ("plain", "\"plain\""),
        ("say \"hi\" \\ bye", "\"say \\\"hi\\\" \\\\ bye\""),
        ("a\nb\rc\td", "\"a\\nb\\rc\\td\""),
        ("nul\u{0}bell\u{7}esc\u{1B}us\u{1F}", "\"nul\\u0000bell\\u0007esc\\u001bus\\u001f\""),
        ("é 日本 🎉 \u{7F}", "\"é 日本 🎉 \u{7F}\""),
        ("", "\"\""),
    ])
    func quoted(text: String, json: String) throws {
        #expect(JSONWriter.quoted(text) == json)
        var bytes: [UInt8] = Array("x".utf8)
        JSONWriter.appendQuoted(text, to: &bytes)
        #expect(bytes == Array(("x" + json).utf8))
        // What JSON itself reads back.
        let decoded = try JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed) as? String
        #expect(decoded == text)
    }
}
