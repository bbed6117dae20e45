import Foundation

/// The model version a store is migrated to: `--next-version DIR` (an `.xcdatamodel` folder), or
/// the shipped version plus one optional String attribute on its first entity — a lightweight
/// change Core Data infers a mapping for. Written as two model folders: one holding every version
/// of the model and the next one (current), one holding the next version alone.
struct NextVersion {
    /// `with/<Model>.xcdatamodeld`: the model's versions and the next one, which is current.
    let withSource: URL
    /// `without/<Model>.xcdatamodeld`: only the next version.
    let withoutSource: URL
    /// The next version's name.
    let name: String
    /// What changed, for messages.
    let change: String

    static let addedAttribute = "coreDataCheckAdded"

    static func write(model: URL, shipped: String, next: URL?, into folder: URL) throws(CheckFailure) -> NextVersion {
        let manager = FileManager.default
        let modelName = model.lastPathComponent
        let withSource = folder.appendingPathComponent("with").appendingPathComponent(modelName)
        let withoutSource = folder.appendingPathComponent("without").appendingPathComponent(modelName)
        let name: String, change: String, contents: Data
        if let next {
            name = next.deletingPathExtension().lastPathComponent
            change = "the version \(next.path)"
            guard let data = manager.contents(atPath: next.appendingPathComponent("contents").path) else {
                throw .failed("\(next.path): no contents file")
            }
            contents = data
        } else {
            let source = model.appendingPathComponent("\(shipped).xcdatamodel/contents")
            guard let data = manager.contents(atPath: source.path), let added = addingAttribute(to: String(decoding: data, as: UTF8.self)) else {
                throw .failed("\(source.path): cannot add an attribute to its first entity")
            }
            name = "\(shipped) CoreDataCheck"
            change = "\(shipped) plus the optional String \(added.entity).\(addedAttribute)"
            contents = Data(added.text.utf8)
        }
        do {
            try manager.createDirectory(at: withSource.deletingLastPathComponent(), withIntermediateDirectories: true)
            try manager.copyItem(at: model, to: withSource)
            for target in [withSource, withoutSource] {
                let version = target.appendingPathComponent("\(name).xcdatamodel")
                try? manager.removeItem(at: version)
                try manager.createDirectory(at: version, withIntermediateDirectories: true)
                try contents.write(to: version.appendingPathComponent("contents"))
                let current = try PropertyListSerialization.data(fromPropertyList: ["_XCCurrentVersionName": "\(name).xcdatamodel"],
                                                                 format: .xml, options: 0)
                try current.write(to: target.appendingPathComponent(".xccurrentversion"))
            }
        } catch {
            throw .failed("cannot write the next model version into \(folder.path): \(error.localizedDescription)")
        }
        return NextVersion(withSource: withSource, withoutSource: withoutSource, name: name, change: change)
    }

    /// The model XML with `<attribute name="coreDataCheckAdded" optional="YES" attributeType="String"/>`
    /// as the first child of its first `<entity>`; nil when it has no entity.
    static func addingAttribute(to xml: String) -> (text: String, entity: String)? {
        let scalars = Array(xml.unicodeScalars)
        let opening = Array("<entity".unicodeScalars)
        var index = 0
        while index + opening.count < scalars.count {
            if Array(scalars[index..<index + opening.count]) == opening, scalars[index + opening.count] == " " || scalars[index + opening.count] == "\n" {
                break
            }
            index += 1
        }
        guard index + opening.count < scalars.count else { return nil }
        // The end of the start tag, outside quoted attribute values.
        var end = index, quote: Unicode.Scalar?
        while end < scalars.count {
            let scalar = scalars[end]
            if let open = quote { if scalar == open { quote = nil } } else if scalar == "\"" || scalar == "'" { quote = scalar } else if scalar == ">" { break }
            end += 1
        }
        guard end < scalars.count else { return nil }
        let tag = String(String.UnicodeScalarView(scalars[index...end]))
        let entity = tag.range(of: "name=\"").map { range in String(tag[range.upperBound...].prefix { $0 != "\"" }) } ?? "?"
        let attribute = "<attribute name=\"\(addedAttribute)\" optional=\"YES\" attributeType=\"String\"/>"
        let before = String(String.UnicodeScalarView(scalars[..<index]))
        let after = String(String.UnicodeScalarView(scalars[(end + 1)...]))
        if scalars[end - 1] == "/" {
            // `<entity …/>`: open it, add the attribute, close it.
            let openTag = String(tag.dropLast(2)) + ">"
            return (before + openTag + "\n        " + attribute + "\n    </entity>" + after, entity)
        }
        return (before + tag + "\n        " + attribute + after, entity)
    }
}
