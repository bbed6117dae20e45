/// The fast path of the row mapping: a field's value appended to the batch straight from the
/// reader's bytes when ``ValueCoercer/coerceFast(_:)`` (text) or ``ValueCoercer/acceptsFast(integer:)``
/// decides it — never a different answer from the general path (`ValueCoercerTests.fastPathAgreesWithCoerce`,
/// `RowMappingTests`), and nothing allocated per value.
extension RowMapping {
    /// Appends `fill`'s value from a field as an input shows it (``RowInput/appendFast(_:to:)``: each
    /// input only hands over its field's bytes) when the fast path decides it; false when the general
    /// path must.
    @inline(__always)
    static func appendFast(_ view: FieldView, _ fill: AttributeFill, to batch: inout RowBatch) -> Bool {
        if fill.rules != nil { return false }  // the model's rules are checked on the general path
        switch view {
        case .text(let bytes):
            guard let value = fill.coercer.coerceFast(bytes) else { return false }
            // A default replaces blank text, even for String attributes: the general path decides.
            if fill.defaultValue != nil && AttributeFill.isBlank(bytes) { return false }
            switch value {
            case .integer(let number): batch.values.append(.integer(number))
            case .real(let number): batch.values.append(.real(number))
            case .sameText: batch.appendText(bytes)
            }
            return true
        case .integer(let number):
            guard fill.coercer.acceptsFast(integer: number) else { return false }
            batch.values.append(.integer(number))
            return true
        case .null, .real, .other:
            return false
        }
    }

    /// Whether ``appendFast(_:_:to:)`` would decide the value (nothing appended).
    @inline(__always)
    static func acceptsFast(_ view: FieldView, _ fill: AttributeFill) -> Bool {
        if fill.rules != nil { return false }
        switch view {
        case .text(let bytes):
            guard fill.coercer.coerceFast(bytes) != nil else { return false }
            return !(fill.defaultValue != nil && AttributeFill.isBlank(bytes))
        case .integer(let number):
            return fill.coercer.acceptsFast(integer: number)
        case .null, .real, .other:
            return false
        }
    }
}
