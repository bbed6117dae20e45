import Foundation

/// libFuzzer entry: the input is a spec file. `SpecSyntax` never traps, and it accepts every input
/// that Foundation reads as plain JSON without a repeated key (JSON is a subset of the spec's JSON5).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSpec(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let verdict: SpecSyntax.Problem?
    do { try SpecSyntax.check(bytes); verdict = nil } catch { verdict = error }
    if let verdict {
        precondition(verdict.line >= 1 && verdict.column >= 1, "a problem without a place")
        guard !verdict.message.contains("given twice"), !verdict.message.contains("nested too deeply") else { return 0 }
        // Top-level scalars, a BOM and NUL bytes aside, what Foundation reads as JSON must pass.
        // (Foundation on Linux reads `[\0]\0` as an empty array; JSON allows no NUL outside a string
        // and the spec refuses it, with its place.)
        guard !bytes.contains(0) else { return 0 }
        if let object = try? JSONSerialization.jsonObject(with: Data(bytes), options: []),
           object is [String: Any] || object is [Any], bytes.first == UInt8(ascii: "{") || bytes.first == UInt8(ascii: "[") {
            preconditionFailure("valid JSON refused: \(verdict.message) at \(verdict.line):\(verdict.column)")
        }
    }
    return 0
}
