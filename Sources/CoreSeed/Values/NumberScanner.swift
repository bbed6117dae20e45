/// The one scanner of number text: a cursor over UTF-8 bytes with the pieces every number grammar
/// here is made of — a sign, a run of digits, a point, an exponent marker. ``NumberSyntax`` (decimal
/// values), ``ValueCoercer/integerText(_:allowsIntegralReals:)`` (integers), numeric dates
/// (`DateParser.numericText`) and JSON's number
/// grammar (`JSONScanner.isNumber`) are each a few calls of it. Every step is inlined into its
/// caller: the hot path of coercion runs it once per cell, with no allocation.
struct NumberScanner {
    // SAFETY: the caller's view, borrowed for the scanner's life (a local of the function that holds the view valid).
    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var index = 0

    // SAFETY: borrows `bytes`; the scanner never outlives the caller's view.
    @inline(__always) init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Whether every byte has been taken.
    @inline(__always) var atEnd: Bool { index == bytes.count }

    /// Takes a `-` (or a `+`, when `allowingPlus`); true for `-`.
    @inline(__always) mutating func sign(allowingPlus: Bool) -> Bool {
        guard index < bytes.count else { return false }
        let byte = bytes[index]
        if byte == UInt8(ascii: "-") || (allowingPlus && byte == UInt8(ascii: "+")) {
            index += 1
            return byte == UInt8(ascii: "-")
        }
        return false
    }

    /// Takes `byte` if it comes next.
    @inline(__always) mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// Takes an exponent marker, `e` or `E`, if it comes next.
    @inline(__always) mutating func takeExponentMarker() -> Bool {
        guard index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") else { return false }
        index += 1
        return true
    }

    /// Takes a run of ASCII digits, handing each one's value (0–9) to `body`; returns how many.
    @inline(__always) mutating func digits(_ body: (UInt8) -> Void) -> Int {
        let start = index
        while index < bytes.count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            body(digit)
            index += 1
        }
        return index - start
    }

    /// Takes a run of ASCII digits; returns how many.
    @inline(__always) mutating func digits() -> Int {
        digits { _ in }
    }

    /// Takes a run of `byte`; returns how many.
    @inline(__always) mutating func run(of byte: UInt8) -> Int {
        let start = index
        while index < bytes.count, bytes[index] == byte { index += 1 }
        return index - start
    }
}
