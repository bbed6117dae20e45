/// What one property list or keyed archive read from a store may expand to (issue 24, item 9).
///
/// A binary plist refers to its objects by number, so a few hundred bytes of arrays that each hold the
/// next twice stand for 2^40 values. Readers decode each object once and share it (a DAG is never
/// re-expanded), and count the tree it stands for — every use of a shared object — against these
/// limits before anything walks it (a comparison, JSON for `export`, the plist written back).
struct PlistExpansion {
    /// The size of one object's tree: its values, and the bytes of its text and data.
    struct Size {
        var values: Int
        var bytes: Int
        static func leaf(bytes: Int = 0) -> Size { Size(values: 1, bytes: bytes) }
    }

    /// The most values a property list or archive may expand to, counting each use of a shared object.
    /// A store's metadata holds tens; a Transformable value of a million values is far beyond any app's.
    static let valueLimit = 1_000_000
    /// The most bytes of text and data it may expand to, when that is more than its own size.
    static let byteLimit = 256 << 20
    /// The deepest nesting read (as deep as the JSON reader's).
    static let depthLimit = 256

    /// "property list" or "archive", as the messages say it.
    let what: String
    let byteAllowance: Int

    init(what: String, inputSize: Int) {
        self.what = what
        self.byteAllowance = max(PlistExpansion.byteLimit, inputSize)
    }

    /// `total` with `part` added, or the error that says which limit the sum passes. Both are within
    /// the limits already, so the sums cannot overflow.
    func adding(_ part: Size, to total: Size) throws(KeyedUnarchiver.Failure) -> Size {
        let sum = Size(values: total.values + part.values, bytes: total.bytes + part.bytes)
        guard sum.values <= PlistExpansion.valueLimit else {
            throw KeyedUnarchiver.Failure(message: "the \(what) expands to more than \(PlistExpansion.valueLimit) values, counting each use of a shared object (CoreSeed's limit)", isLimit: true)
        }
        guard sum.bytes <= byteAllowance else {
            throw KeyedUnarchiver.Failure(message: "the \(what) expands to more than \(byteAllowance) bytes of text and data, counting each use of a shared object (CoreSeed's limit)", isLimit: true)
        }
        return sum
    }

    /// Nesting `depth` levels deep, or the error past the limit.
    func enter(_ depth: Int) throws(KeyedUnarchiver.Failure) {
        guard depth < PlistExpansion.depthLimit else {
            throw KeyedUnarchiver.Failure(message: "the \(what) is nested more than \(PlistExpansion.depthLimit) levels deep (CoreSeed's limit)", isLimit: true)
        }
    }

    /// The error for an object that contains itself.
    var cycle: KeyedUnarchiver.Failure {
        KeyedUnarchiver.Failure(message: "the \(what) has an object that contains itself (a cycle)")
    }
}

extension PlistReader {
    /// The top object as a ``PropertyListValue``, each object decoded once and shared, the tree counted
    /// against ``PlistExpansion``'s limits. A keyed-archive UID is not a property-list value here.
    func propertyListValue() throws(KeyedUnarchiver.Failure) -> PropertyListValue {
        let expansion = PlistExpansion(what: "property list", inputSize: bytes.count)
        var decoded: [Int: (value: PropertyListValue, size: PlistExpansion.Size)] = [:]
        var open = Set<Int>()
        func decode(_ index: Int, depth: Int) throws(KeyedUnarchiver.Failure) -> (value: PropertyListValue, size: PlistExpansion.Size) {
            if let known = decoded[index] { return known }
            try expansion.enter(depth)
            guard open.insert(index).inserted else { throw expansion.cycle }
            defer { open.remove(index) }
            let result: (value: PropertyListValue, size: PlistExpansion.Size)
            switch try object(index) {
            case .string(let text): result = (.string(text), .leaf(bytes: text.utf8.count))
            case .integer(let number): result = (.integer(number), .leaf())
            case .real(let number): result = (.real(number), .leaf())
            case .date(let seconds): result = (.date(seconds), .leaf())
            case .boolean(let flag): result = (.boolean(flag), .leaf())
            case .data(let data): result = (.data(data), .leaf(bytes: data.count))
            case .uid: throw KeyedUnarchiver.Failure(message: "the property list holds a keyed-archive reference (UID), which is not a property-list value")
            case .array(let references):
                var items: [PropertyListValue] = []
                items.reserveCapacity(references.count)
                var size = PlistExpansion.Size.leaf()
                for reference in references {
                    let item = try decode(reference, depth: depth + 1)
                    size = try expansion.adding(item.size, to: size)
                    items.append(item.value)
                }
                result = (.array(items), size)
            case .dictionary(let fields):
                var items: [String: PropertyListValue] = [:]
                var size = PlistExpansion.Size.leaf()
                for (key, reference) in fields {
                    let item = try decode(reference, depth: depth + 1)
                    size = try expansion.adding(.leaf(bytes: key.utf8.count), to: size)
                    size = try expansion.adding(item.size, to: size)
                    items[key] = item.value
                }
                result = (.dictionary(items), size)
            }
            decoded[index] = result
            return result
        }
        return try decode(top, depth: 0).value
    }
}
