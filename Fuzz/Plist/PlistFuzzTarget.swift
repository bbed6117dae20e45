import Foundation

/// libFuzzer entry: the input is a binary property list as a store holds one — `Z_METADATA.Z_PLIST`,
/// a Transformable value's `NSKeyedArchiver` archive, a compiled model (issue 24, item 9). Each reader
/// throws on bad input and never traps, hangs or expands shared references past its limits; what it
/// reads writes back to bytes that read the same.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlist(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    if let metadata = try? StoreMetadata(propertyList: bytes) {
        // The writer is deterministic, so equal metadata (NaN included) gives equal bytes.
        let written = metadata.binaryPropertyList()
        let again = try? StoreMetadata(propertyList: written)
        precondition(again.map { $0.binaryPropertyList() == written } == true, "metadata read back differs")
    }
    _ = KeyedArchiver.isKeyedArchive(bytes)
    if let value = try? KeyedUnarchiver.value(bytes) {
        // What export writes, and what `"archive": "json"` would archive from it, read back the same.
        let json = value.json
        let again = try? KeyedUnarchiver.value(KeyedArchiver.archive(value))
        precondition(again?.json == json, "archive read back differs: \(json)")
    }
    _ = try? CompiledModelReader.entities(bytes)
    return 0
}
