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

/// A field of a reader's current record, looked at in place (no `String`); valid until the reader moves on.
enum FieldView {
    case null
    case integer(Int64)
    case real(Double)
    /// Valid UTF-8.
    /// SAFETY: points into the reader's own buffer (or SQLite's row): read it before the reader moves on.
    case text(UnsafeBufferPointer<UInt8>)
    /// Anything the reader does not show in place (a blob, text that is not valid UTF-8).
    case other
}

/// A reader that can show its current record's fields in place, for the build's fast path: a record
/// is read and checked as by `next()`, and a `Record` is made only when asked for.
protocol FieldViewReader: AnyObject {
    /// A computed field that failed on the current record (only ``ComputedFieldsReader`` has any).
    var currentFailure: ReaderError? { get }
    /// Whether ``nextRaw()`` may be used (before any `next()`).
    var readsRaw: Bool { get }
    /// Moves to the next record; false at the end. Not to be mixed with `next()`.
    func nextRaw() throws(ReaderError) -> Bool
    /// Field `index` of the current record, valid until the next ``nextRaw()`` or ``fieldView(_:)``.
    func fieldView(_ index: Int) -> FieldView
    /// The current record as `next()` would have returned it.
    func currentRecord() throws(ReaderError) -> Record
}

extension FieldViewReader {
    var currentFailure: ReaderError? { nil }
}
