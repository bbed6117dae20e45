import Foundation

/// libFuzzer entry: the input is a model's `contents` file. Reading it, laying it out and hashing it
/// throw on bad input and never trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzModel(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    guard let model = try? ModelParser.parse(data: bytes, path: "fuzz.xcdatamodel/contents", versionName: "fuzz") else { return 0 }
    _ = ModelHashes.compute(for: model)
    for framework in [320, 641, 847, 1344] {
        if let layout = try? StoreLayout(model: model, framework: FrameworkVersion(framework)) {
            precondition(layout.entities.count == model.entities.count, "an entity lost in the layout")
            _ = layout.statements
        }
    }
    return 0
}
