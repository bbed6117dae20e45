import Foundation

/// The values of a compiled model that are archived Foundation objects: derivation expressions,
/// validation predicates and default values, read back into the text a model file holds.
struct ArchivedExpression {
    typealias Failure = CompiledModelReader.Failure
    typealias Node = KeyedArchiveGraph.Node

    let reader: ArchiveObjectReader

    /// What a model file writes for a derivation: a key path, or `<key path>.@count` / `.@sum` for
    /// the `count:` / `sum:` functions Core Data makes of them (inverse of ``VersionHashes/derivationFormat(_:)``).
    func derivation(_ node: Node?, _ what: String) throws(Failure) -> String {
        guard let node, node != .null else { throw Failure(message: "\(what) is derived without a derivation expression") }
        if let path = try keyPath(node, what, depth: 0) { return path }
        guard case .object("NSFunctionExpression", let uid) = node else {
            throw Failure(message: "\(what) is derived from \(ArchiveObjectReader.describe(node)), which CoreSeed does not decode")
        }
        let selector = try reader.string(uid, "NSSelectorName", what) ?? ""
        let arguments = try reader.members(try reader.field(uid, "NSArguments"), "\(what) NSArguments")
        guard arguments.count == 1, let path = try keyPath(arguments[0], what, depth: 0) else {
            throw Failure(message: "\(what) is derived from the function \(selector) of \(arguments.count) arguments, which CoreSeed does not decode")
        }
        switch selector {
        case "count:": return "\(path).@count"
        case "sum:": return "\(path).@sum"
        default: throw Failure(message: "\(what) is derived from the function \(selector)(\(path)), which CoreSeed does not decode")
        }
    }

    /// The key path of a key path expression (`valueForKey:` on SELF), or nil for another expression.
    func keyPath(_ node: Node, _ what: String, depth: Int) throws(Failure) -> String? {
        guard depth < ArchiveObjectReader.depthLimit else { throw Failure(message: "\(what): expressions nested too deeply") }
        switch node {
        case .object("NSKeyPathSpecifierExpression", let uid): return try reader.string(uid, "NSKeyPath", what)
        case .object("NSKeyPathExpression", let uid):
            let arguments = try reader.members(try reader.field(uid, "NSArguments"), "\(what) NSArguments")
            guard arguments.count == 1, case .object("NSSelfExpression", _)? = try reader.field(uid, "NSOperand") else { return nil }
            return try keyPath(arguments[0], what, depth: depth + 1)
        default: return nil
        }
    }

    /// Validation predicates: the minimum and maximum a model file writes (`length >= n` for a String,
    /// `SELF >= n` otherwise, and `<=`), and the format of any other predicate, which CoreSeed keeps
    /// but does not check (as with a model file's regular expression).
    func validation(_ node: Node?, type: AttributeType, _ what: String) throws(Failure) -> (minimum: String?, maximum: String?, others: [String]) {
        var minimum: String?, maximum: String?, others: [String] = []
        var pending = try reader.members(node, "\(what) NSValidationPredicates")
        var steps = 0
        while !pending.isEmpty {
            steps += 1
            guard steps < 10_000 else { throw Failure(message: "\(what): too many validation predicates") }
            let predicate = pending.removeFirst()
            if case .object("NSCompoundPredicate", let uid) = predicate, try reader.integer(uid, "NSCompoundPredicateType", what) == 1 {
                pending = try reader.members(try reader.field(uid, "NSSubpredicates"), what) + pending
                continue
            }
            let text = try format(predicate, what, depth: 0)
            if case .object("NSComparisonPredicate", let uid) = predicate,
               case .object(_, let operatorUID)? = try reader.field(uid, "NSPredicateOperator"),
               let left = try reader.field(uid, "NSLeftExpression"), let right = try reader.field(uid, "NSRightExpression"),
               case .object("NSConstantValueExpression", let constantUID) = right,
               let value = try reader.field(constantUID, "NSConstantValue") {
                let path = try keyPath(left, what, depth: 0)
                let isSubject = type == .string ? path == "length" : (left.isObject("NSSelfExpression"))
                var number: String?
                switch value {
                case .integer(let n): number = String(n)
                case .real(let n): number = String(n)
                case .object("NSDate", let dateUID): number = try Self.seconds(ofDate: dateUID, reader, what)
                default: number = nil
                }
                let operatorType = try reader.integer(operatorUID, "NSOperatorType", what)
                if isSubject, let number, operatorType == 3 { minimum = number; continue }
                if isSubject, let number, operatorType == 1 { maximum = number; continue }
            }
            others.append(text)
        }
        return (minimum, maximum, others)
    }

    /// An archived `NSDate`'s seconds since 2001-01-01 (`NS.time`), as a model file writes a Date bound.
    static func seconds(ofDate uid: Int, _ reader: ArchiveObjectReader, _ what: String) throws(Failure) -> String {
        switch try reader.field(uid, "NS.time") {
        case .real(let seconds)?: return String(seconds)
        case .integer(let seconds)?: return String(seconds)
        case let other: throw Failure(message: "\(what): a date bound whose NS.time is \(other.map(ArchiveObjectReader.describe) ?? "missing")")
        }
    }

    static let operatorNames: [Int64: String] = [
        0: "<", 1: "<=", 2: ">", 3: ">=", 4: "==", 5: "!=", 6: "MATCHES", 7: "LIKE", 8: "BEGINSWITH",
        9: "ENDSWITH", 10: "IN", 99: "CONTAINS", 100: "BETWEEN",
    ]

    /// A predicate or expression in (roughly) `NSPredicate` format, for diagnostics and notes.
    func format(_ node: Node, _ what: String, depth: Int) throws(Failure) -> String {
        guard depth < ArchiveObjectReader.depthLimit else { throw Failure(message: "\(what): predicates nested too deeply") }
        switch node {
        case .string(let text): return "\"\(text)\""
        case .integer(let number): return String(number)
        case .real(let number): return String(number)
        case .boolean(let flag): return flag ? "YES" : "NO"
        case .null: return "nil"
        case .data: return "<data>"
        case .object(let className, let uid):
            switch className {
            case "NSSelfExpression": return "SELF"
            case "NSKeyPathExpression", "NSKeyPathSpecifierExpression":
                if let path = try keyPath(node, what, depth: depth + 1) { return path }
            case "NSConstantValueExpression":
                return try format(try reader.field(uid, "NSConstantValue") ?? .null, what, depth: depth + 1)
            case "NSVariableExpression": return "$" + (try reader.string(uid, "NSVariable", what) ?? "")
            case "NSComparisonPredicate":
                var operatorName = "?"
                if case .object(_, let operatorUID)? = try reader.field(uid, "NSPredicateOperator"),
                   let type = try reader.integer(operatorUID, "NSOperatorType", what) {
                    operatorName = Self.operatorNames[type] ?? "operator \(type)"
                }
                let left = try format(try reader.field(uid, "NSLeftExpression") ?? .null, what, depth: depth + 1)
                let right = try format(try reader.field(uid, "NSRightExpression") ?? .null, what, depth: depth + 1)
                return "\(left) \(operatorName) \(right)"
            case "NSCompoundPredicate":
                let joiner = [0: " NOT ", 1: " AND ", 2: " OR "][try reader.integer(uid, "NSCompoundPredicateType", what) ?? 1] ?? " ? "
                var parts: [String] = []
                for member in try reader.members(try reader.field(uid, "NSSubpredicates"), what) {
                    parts.append(try format(member, what, depth: depth + 1))
                }
                return "(" + parts.joined(separator: joiner) + ")"
            default: break
            }
            throw Failure(message: "\(what) has a validation predicate or expression of class \(className), which CoreSeed does not decode")
        }
    }

    /// A default value as a model file writes it (`defaultValueString`); for an object CoreSeed
    /// cannot turn into text (a Transformable's archived app object), its class instead.
    func defaultValue(_ node: Node?, type: AttributeType, _ what: String) throws(Failure) -> (text: String?, opaqueClass: String?) {
        let what = "\(what) NSDefaultValue"
        switch node {
        case nil, .null?: return (nil, nil)
        case .string(let text)?: return (text, nil)
        case .integer(let number)?: return (type == .boolean ? (number != 0 ? "YES" : "NO") : String(number), nil)
        case .boolean(let flag)?: return (type == .boolean ? (flag ? "YES" : "NO") : (flag ? "1" : "0"), nil)
        case .real(let number)?:
            if type.isInteger, number.rounded() == number, abs(number) < 9.2e18 { return (String(Int64(number)), nil) }
            return (String(number), nil)
        case .data?: throw Failure(message: "\(what) is a Binary default value, which CoreSeed does not decode")
        case .object(let className, let uid)?:
            switch className {
            case "NSString", "NSMutableString": return (try reader.string(node, what), nil)
            case "NSDate":
                guard case .real(let seconds)? = try reader.field(uid, "NS.time") else { throw Failure(message: "\(what): an NSDate without NS.time") }
                let formatter = ISO8601DateFormatter()
                formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
                return (formatter.string(from: Date(timeIntervalSinceReferenceDate: seconds)), nil)
            case "NSUUID":
                guard case .data(let bytes)? = try reader.field(uid, "NS.uuidbytes"), bytes.count == 16 else {
                    throw Failure(message: "\(what): an NSUUID without its 16 bytes")
                }
                let uuid = UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                                       bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
                return (uuid.uuidString, nil)
            case "NSURL":
                guard try reader.field(uid, "NS.base") ?? .null == .null, let text = try reader.string(uid, "NS.relative", what) else {
                    throw Failure(message: "\(what): an NSURL with a base URL, which CoreSeed does not decode")
                }
                return (text, nil)
            case "NSDecimalNumber", "NSDecimalNumberPlaceholder":
                throw Failure(message: "\(what) is an NSDecimalNumber, which CoreSeed does not decode yet")
            default:
                guard type == .transformable else {
                    throw Failure(message: "\(what) is an object of class \(className), which CoreSeed does not decode for a \(type.rawValue) attribute")
                }
                return (nil, className)
            }
        }
    }
}

extension KeyedArchiveGraph.Node {
    /// Whether this is an object of class `className`.
    func isObject(_ className: String) -> Bool {
        if case .object(className, _) = self { return true }
        return false
    }
}
