#if canImport(CoreData)
import CoreData
import Foundation

/// Compares what Core Data reads for one property with what `coreseed export --format json` wrote
/// for it (Sources/CoreSeed/Export/EntityExport+Values.swift): nil when they agree, else why not.
enum ValueComparison {
    /// `value` is `object.value(forKey:)`; `exported` the row's member (nil: the export has none).
    static func difference(_ value: Any?, _ exported: JSONValue, attribute: NSAttributeDescription) -> String? {
        guard let value, !(value is NSNull) else {
            return exported == .null ? nil : "Core Data reads nil, the export \(text(exported))"
        }
        if exported == .null { return "Core Data reads \(text(value)), the export null" }
        let differ = "Core Data reads \(text(value)), the export \(text(exported))"
        switch attribute.attributeType {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            guard let number = value as? NSNumber, case .number(let digits) = exported, let expected = Int64(digits) else { return differ }
            return number.int64Value == expected ? nil : differ
        case .booleanAttributeType:
            guard let number = value as? NSNumber, case .boolean(let flag) = exported else { return differ }
            return number.boolValue == flag ? nil : differ
        case .doubleAttributeType:
            guard let number = value as? NSNumber, let expected = double(exported) else { return differ }
            return same(number.doubleValue, expected) ? nil : differ
        case .floatAttributeType:
            // The column holds the Float widened to a Double; Core Data reads it back as a Float.
            guard let number = value as? NSNumber, let expected = double(exported) else { return differ }
            return same(Double(number.floatValue), Double(Float(expected))) ? nil : differ
        case .decimalAttributeType:
            // Stored as REAL (or INTEGER, or the text NaN: DESIGN §4c.5), read as an NSDecimalNumber.
            guard let decimal = value as? NSDecimalNumber else { return differ }
            if case .string(let word) = exported, word == "NaN" { return decimal.decimalValue.isNaN ? nil : differ }
            guard let expected = double(exported) else { return differ }
            // NSDecimalNumber.doubleValue need not give back the Double the column held (a decimal
            // made from a binary double, converted back): equal as decimals of the export's text,
            // or as Doubles within one part in 10^15.
            if case .number(let digits) = exported, decimal.compare(NSDecimalNumber(string: digits)) == .orderedSame { return nil }
            let read = decimal.doubleValue
            return same(read, expected) || abs(read - expected) <= 1e-15 * max(abs(read), abs(expected)) ? nil : differ
        case .dateAttributeType:
            guard let date = value as? Date, case .string(let iso) = exported,
                  let expected = ExportText.secondsSinceReference(iso8601: iso) else { return differ }
            let seconds = date.timeIntervalSinceReferenceDate
            // Export writes the fewest fraction digits that read back exactly; a value within a
            // nanosecond of a whole second is written rounded (ExportValue.iso8601).
            return seconds == expected || abs(seconds - expected) <= 1e-9 ? nil
                : "Core Data reads \(seconds) s since 2001, the export \(iso) (\(expected) s)"
        case .UUIDAttributeType:
            guard let uuid = value as? UUID, case .string(let expected) = exported else { return differ }
            return uuid.uuidString == expected.uppercased() ? nil : differ
        case .URIAttributeType:
            guard let url = value as? URL, case .string(let expected) = exported else { return differ }
            return url.absoluteString == expected ? nil : differ
        case .stringAttributeType:
            guard let string = value as? String, case .string(let expected) = exported else { return differ }
            return string == expected ? nil : differ
        case .binaryDataAttributeType:
            // External-storage values too: Core Data reads the file, export its bytes (base64).
            guard let data = value as? Data, case .string(let base64) = exported, let expected = Data(base64Encoded: base64) else { return differ }
            return data == expected ? nil : "Core Data reads \(data.count) bytes, the export \(expected.count) bytes that differ"
        case .transformableAttributeType:
            return TransformableComparison.difference(value, exported, attribute: attribute)
        default:
            return nil  // ObjectID, Composite, undefined: not exported as values (see `isCompared`).
        }
    }

    /// Whether `difference` compares values of this attribute's type.
    static func isCompared(_ attribute: NSAttributeDescription) -> Bool {
        switch attribute.attributeType {
        case .objectIDAttributeType, .undefinedAttributeType, .compositeAttributeType: return false
        default: return true
        }
    }

    /// Export writes numbers as JSON numbers, and a non-finite Double as the text `nan`, `inf`, `-inf`.
    static func double(_ value: JSONValue) -> Double? {
        switch value {
        case .number(let text), .string(let text): return Double(text)
        default: return nil
        }
    }

    static func same(_ a: Double, _ b: Double) -> Bool { a == b || (a.isNaN && b.isNaN) }

    /// A short form of a value for messages.
    static func text(_ value: Any) -> String {
        if let json = value as? JSONValue {
            switch json {
            case .null: return "null"
            case .boolean(let flag): return flag ? "true" : "false"
            case .number(let digits): return digits
            case .string(let string): return "\"\(string.prefix(60))\(string.count > 60 ? "…" : "")\""
            case .array(let items): return "an array of \(items.count)"
            case .object(let members): return "an object of \(members.count) members"
            }
        }
        if let data = value as? Data { return "\(data.count) bytes" }
        let description = String(describing: value)
        return "\(type(of: value)) \(description.prefix(60))\(description.count > 60 ? "…" : "")"
    }
}

/// Transformable values: Core Data decodes them through the attribute's transformer
/// (`NSSecureUnarchiveFromData` by default) into objects of the declared class. Export writes either
/// the archive's JSON form (a string holding JSON, DESIGN §4b.11 and ArchivedValue.swift) or the
/// archive's bytes in base64; the value must be of its declared class and equal one of the two.
enum TransformableComparison {
    static func difference(_ value: Any, _ exported: JSONValue, attribute: NSAttributeDescription) -> String? {
        guard case .string(let text) = exported else { return "the export holds \(ValueComparison.text(exported)), not a string" }
        guard let object = value as? NSObject else { return "Core Data reads \(type(of: value)), not an object" }
        if let expected = declaredClass(of: attribute), !object.isKind(of: expected) {
            return "Core Data reads a \(type(of: object)), not the declared \(attribute.attributeValueClassName ?? "?")"
        }
        if let json = JSONValue.parse(text), let expected = foundationObject(json), object.isEqual(expected) { return nil }
        if let data = Data(base64Encoded: text), let expected = unarchive(data, attribute: attribute), object.isEqual(expected) { return nil }
        return "Core Data reads \(ValueComparison.text(object)), which equals neither the export's JSON form nor its archive"
    }

    /// The class a Transformable's values must be of: the model's custom class name, with the
    /// Swift collection spellings Xcode writes (`[String]`, `[String: Any]`, `Set<…>`) as their
    /// Foundation classes; nil when the name does not resolve in this process (a class of the app).
    static func declaredClass(of attribute: NSAttributeDescription) -> AnyClass? {
        guard let name = attribute.attributeValueClassName, !name.isEmpty else { return nil }
        if name.hasPrefix("[") { return name.contains(":") ? NSDictionary.self : NSArray.self }
        if name.hasPrefix("Set<") { return NSSet.self }
        return NSClassFromString(name)
    }

    /// What NSSecureUnarchiveFromData decodes `data` into: its allowed top-level classes, plus the
    /// declared class.
    static func unarchive(_ data: Data, attribute: NSAttributeDescription) -> Any? {
        var classes: [AnyClass] = NSSecureUnarchiveFromDataTransformer.allowedTopLevelClasses
        if let declared = declaredClass(of: attribute) { classes.append(declared) }
        return try? NSKeyedUnarchiver.unarchivedObject(ofClasses: classes, from: data)
    }

    /// The Foundation object an archive's JSON form stands for: `{"$date": s}`, `{"$uuid": …}`,
    /// `{"$url": …}`, `{"$data": base64}` as NSDate, NSUUID, NSURL, NSData; other objects as
    /// dictionaries, arrays as arrays, numbers as NSNumber (integers as Int64). nil for `null`.
    static func foundationObject(_ value: JSONValue) -> NSObject? {
        switch value {
        case .null: return nil
        case .boolean(let flag): return NSNumber(value: flag)
        case .number(let digits):
            if let integer = Int64(digits) { return NSNumber(value: integer) }
            return Double(digits).map { NSNumber(value: $0) }
        case .string(let string): return string as NSString
        case .array(let items):
            var objects: [NSObject] = []
            for item in items {
                guard let object = foundationObject(item) else { return nil }
                objects.append(object)
            }
            return objects as NSArray
        case .object(let members):
            if members.count == 1, let member = members.first {
                switch (member.key, member.value) {
                case ("$date", .number(let digits)): return Double(digits).map { NSDate(timeIntervalSinceReferenceDate: $0) }
                case ("$uuid", .string(let text)): return NSUUID(uuidString: text)
                case ("$url", .string(let text)): return NSURL(string: text)
                case ("$data", .string(let text)): return NSData(base64Encoded: text)
                default: break
                }
            }
            let dictionary = NSMutableDictionary()
            for member in members {
                guard let object = foundationObject(member.value) else { return nil }
                dictionary[member.key as NSString] = object
            }
            return dictionary
        }
    }
}
#endif
