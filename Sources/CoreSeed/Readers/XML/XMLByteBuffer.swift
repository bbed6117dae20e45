/// A growable run of bytes in plain memory, reused from record to record: appending touches no
/// Swift array (no uniqueness check, no retain). Owned by one scanner; freed when it goes (`~Copyable`:
/// no copy can free it twice or outlive it).
struct XMLByteBuffer: ~Copyable {
    // SAFETY: owned (~Copyable, freed in deinit); `base` changes only in `grow`, so views of it last until the next append.
    private(set) var base: UnsafeMutablePointer<UInt8>
    /// Bytes in use; set it lower to drop the last ones.
    var count = 0
    private var capacity: Int

    init(capacity: Int = 256) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    @inline(__always)
    // SAFETY: copies `added` bytes from `bytes` during the call (`bytes` is never this buffer: `appendCopy` grows first).
    mutating func append(_ bytes: UnsafePointer<UInt8>, count added: Int) {
        if count + added > capacity { grow(to: count + added) }
        (base + count).initialize(from: bytes, count: added)
        count += added
    }

    /// The bytes from `start` to the end as a `String` (invalid UTF-8 repaired, as `String(decoding:)` does).
    func string(from start: Int) -> String {
        string(from: start, count: count - start)
    }

    /// `length` bytes from `start` as a `String`.
    func string(from start: Int, count length: Int) -> String {
        // SAFETY: copied into a String at once.
        String(decoding: UnsafeBufferPointer(start: base + start, count: length), as: UTF8.self)
    }

    /// Appends a copy of `length` bytes of its own from `start`.
    @inline(__always)
    mutating func appendCopy(of other: borrowing XMLByteBuffer, from start: Int, count length: Int) {
        append(other.base + start, count: length)
    }

    /// Appends the UTF-8 of `text`.
    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { if let address = $0.baseAddress { append(address, count: $0.count) } }
    }

    deinit {
        base.deallocate()
    }

    private mutating func grow(to needed: Int) {
        var newCapacity = max(capacity * 2, 16)
        while newCapacity < needed { newCapacity *= 2 }
        // SAFETY: the old block is copied, then freed; callers take views only after appending.
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.initialize(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }
}
