/// A pull-based cursor over one source's records.
///
/// Class-bound because a reader owns an open resource (file descriptor, SQLite connection,
/// libxml2 reader) that is released in `deinit`, and it advances by mutation.
/// Not `Sendable`: its C handles and buffers may be used from one thread at a time.
///
/// Contract for every conforming reader:
/// - `fieldNames` is known once the reader is open and never changes.
/// - `next()` returns records whose `values` align with `fieldNames`, then `nil` at the end
///   (and keeps returning `nil`).
/// - Failure is sticky: after `next()` threw, every later call throws the same error.
/// - Bad input never traps; memory stays bounded by the largest record, not the input size.
public protocol RecordReader: AnyObject {
    /// The names of the fields, in the order of `Record.values`.
    var fieldNames: [String] { get }
    /// The next record, or `nil` at the end of the source.
    func next() throws(ReaderError) -> Record?
}

extension RecordReader {
    /// Asks for only some fields (`wanted[i]` for field `i`); the others may come back as NULL
    /// unread. Readers that cannot skip work ignore it. Checks (such as UTF-8 validity) still run
    /// on every field, so a projection never hides an error.
    public func project(_ wanted: [Bool]) {
        (self as? any ProjectableReader)?.setProjection(wanted)
    }
}

/// A reader that can leave unwanted fields unread.
protocol ProjectableReader: AnyObject {
    func setProjection(_ wanted: [Bool])
}
