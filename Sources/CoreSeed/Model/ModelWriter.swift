import Foundation

/// Writes a ``Model`` as the XML `contents` file of an `.xcdatamodel`, the form ``ModelParser`` reads
/// (and Xcode opens), so a model read from a store or a compiled `.momd` can be kept as source.
public enum ModelWriter {
    /// The `contents` text of `model`, and what it could not write (parts a model file cannot hold).
    public static func contents(_ model: Model) -> (text: String, lost: [String]) {
        var lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>"]
        var lost: [String] = []
        lines.append("<model type=\"com.apple.IDECoreDataModeler.DataModel\" documentVersion=\"1.0\" minimumToolsVersion=\"Automatic\" sourceLanguage=\"Swift\""
                     + attribute("userDefinedModelVersionIdentifier", model.versionIdentifier) + ">")
        for entity in model.entities.sorted(by: { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }) {
            lines.append("    <entity" + attribute("name", entity.name) + attribute("representedClassName", entity.representedClassName)
                         + attribute("parentEntity", entity.parentName) + flag("isAbstract", entity.isAbstract)
                         + attribute("versionHashModifier", entity.versionHashModifier) + attribute("elementID", entity.renamingIdentifier)
                         + " syncable=\"YES\">")
            for item in entity.attributes {
                lines += attributeLines(item, entity: entity.name, lost: &lost)
            }
            for relationship in entity.relationships {
                // A maximum of NSUIntegerMax (-1, a model built in code) is hashed as its low 32 bits.
                let maximum = relationship.maxCount < 0 ? String(UInt32(truncatingIfNeeded: relationship.maxCount)) : String(relationship.maxCount)
                let counts = relationship.isToMany
                    ? (relationship.maxCount != 0 ? attribute("maxCount", maximum) : "") + (relationship.minCount != 0 ? attribute("minCount", String(relationship.minCount)) : "")
                    : attribute("maxCount", "1") + (relationship.minCount != 0 ? attribute("minCount", String(relationship.minCount)) : "")
                let open = "        <relationship" + attribute("name", relationship.name) + flag("optional", relationship.isOptional)
                    + flag("transient", relationship.isTransient) + flag("toMany", relationship.isToMany) + counts
                    + attribute("deletionRule", relationship.deleteRule.rawValue) + flag("ordered", relationship.isOrdered)
                    + attribute("destinationEntity", relationship.destinationEntity) + attribute("inverseName", relationship.inverseName)
                    + attribute("inverseEntity", relationship.inverseName == nil ? nil : (relationship.inverseEntity ?? relationship.destinationEntity))
                    + attribute("versionHashModifier", relationship.versionHashModifier) + attribute("elementID", relationship.renamingIdentifier)
                    + " syncable=\"YES\""
                lines += element(open, "relationship", userInfo(relationship.userInfo, indent: "            "))
            }
            for name in entity.fetchedPropertyNames {
                lines.append("        <fetchedProperty" + attribute("name", name) + " optional=\"YES\"/>")
                lost.append("fetched property '\(entity.name).\(name)': its fetch request (a query, never stored)")
            }
            lines += group("uniquenessConstraints", "uniquenessConstraint", "constraint", entity.uniquenessConstraints)
            lines += group("compoundIndexes", "compoundIndex", "index", entity.compoundIndexes)
            for index in entity.fetchIndexes {
                lines.append("        <fetchIndex" + attribute("name", index.name) + ">")
                for item in index.elements {
                    lines.append("            <fetchIndexElement" + attribute("property", item.property) + attribute("expression", item.expression)
                                 + attribute("type", item.type) + attribute("order", item.isAscending ? "ascending" : "descending") + "/>")
                }
                lines.append("        </fetchIndex>")
            }
            lines += userInfo(entity.userInfo, indent: "        ")
            lines.append("    </entity>")
        }
        for configuration in model.configurations {
            lines.append("    <configuration" + attribute("name", configuration.name) + ">")
            for name in configuration.entityNames { lines.append("        <memberEntity" + attribute("name", name) + "/>") }
            lines.append("    </configuration>")
        }
        lines.append("</model>")
        if !model.composites.isEmpty { lost.append("the composite types \(model.composites.keys.sorted().joined(separator: ", "))") }
        return (lines.joined(separator: "\n") + "\n", lost)
    }

    /// Writes `versions` as the `.xcdatamodeld` folder `path` (one `.xcdatamodel` per version and
    /// `.xccurrentversion` naming `current`), all at once: into a folder beside it that is renamed
    /// into place, so a failure leaves nothing. Returns what the versions could not hold.
    public static func writeBundle(_ versions: [Model], current: String, to path: String) throws(FileError) -> [String] {
        guard (path as NSString).pathExtension == "xcdatamodeld" else {
            throw FileError(.invalid, path: path, message: "the output must be an .xcdatamodeld folder (NAME.xcdatamodeld)")
        }
        let manager = FileManager.default
        guard !manager.fileExists(atPath: path) else {
            throw FileError(.invalid, path: path, message: "already exists; remove it or choose another name (CoreSeed does not overwrite a model)")
        }
        let parent = (path as NSString).deletingLastPathComponent
        let staging = (parent.isEmpty ? "." : parent) + "/.\((path as NSString).lastPathComponent).coreseed-\(ProcessInfo.processInfo.processIdentifier)"
        var lost: [String] = []
        do {
            for model in versions {
                let folder = staging + "/" + model.versionName + ".xcdatamodel"
                try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
                let (text, missing) = contents(model)
                lost += versions.count > 1 ? missing.map { "\(model.versionName): \($0)" } : missing
                try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/contents"))
            }
            let marker = try PropertyListSerialization.data(fromPropertyList: ["_XCCurrentVersionName": current + ".xcdatamodel"], format: .xml, options: 0)
            try marker.write(to: URL(fileURLWithPath: staging + "/.xccurrentversion"))
            try manager.moveItem(atPath: staging, toPath: path)
        } catch {
            try? manager.removeItem(atPath: staging)
            throw FileError(.invalid, path: path, message: "cannot write the model: \(error.localizedDescription)")
        }
        return lost
    }

    private static func attributeLines(_ item: Attribute, entity: String, lost: inout [String]) -> [String] {
        let open = "        <attribute" + attribute("name", item.name) + flag("optional", item.isOptional) + flag("transient", item.isTransient)
            + attribute("attributeType", item.type.rawValue) + attribute("defaultValueString", item.defaultValueString)
            + attribute("minValueString", item.minValueString) + attribute("maxValueString", item.maxValueString)
            + attribute("minDateTimeInterval", item.minDateTimeInterval) + attribute("maxDateTimeInterval", item.maxDateTimeInterval)
            + flag("allowsExternalBinaryDataStorage", item.allowsExternalBinaryDataStorage)
            + flag("preserveAfterDeletion", item.preserveAfterDeletion) + attribute("valueTransformerName", item.valueTransformerName)
            + attribute("customClassName", item.customClassName) + attribute("composite", item.compositeName)
            + flag("derived", item.derivationExpression != nil) + attribute("derivationExpression", item.derivationExpression)
            + flag("indexed", item.isIndexed) + attribute("versionHashModifier", item.versionHashModifier)
            + attribute("elementID", item.renamingIdentifier) + " syncable=\"YES\""
        for predicate in item.otherValidationPredicates {
            lost.append("attribute '\(entity).\(item.name)': the validation predicate \(predicate)")
        }
        if let opaque = item.opaqueDefaultClassName {
            lost.append("attribute '\(entity).\(item.name)': its default value, an archived \(opaque) object")
        }
        return element(open, "attribute", userInfo(item.userInfo, indent: "            "))
    }

    private static func element(_ open: String, _ name: String, _ children: [String]) -> [String] {
        children.isEmpty ? [open + "/>"] : [open + ">"] + children + ["        </\(name)>"]
    }

    private static func group(_ outer: String, _ inner: String, _ leaf: String, _ lists: [[String]]) -> [String] {
        guard !lists.isEmpty else { return [] }
        var lines = ["        <\(outer)>"]
        for list in lists {
            lines.append("            <\(inner)>")
            for value in list { lines.append("                <\(leaf)" + attribute("value", value) + "/>") }
            lines.append("            </\(inner)>")
        }
        return lines + ["        </\(outer)>"]
    }

    private static func userInfo(_ entries: [String: String], indent: String) -> [String] {
        guard !entries.isEmpty else { return [] }
        return [indent + "<userInfo>"] + entries.sorted { $0.key < $1.key }.map { indent + "    <entry" + attribute("key", $0.key) + attribute("value", $0.value) + "/>" }
            + [indent + "</userInfo>"]
    }

    private static func flag(_ name: String, _ on: Bool) -> String { on ? " \(name)=\"YES\"" : "" }

    private static func attribute(_ name: String, _ value: String?) -> String {
        guard let value else { return "" }
        return " \(name)=\"\(escaped(value))\""
    }

    /// XML attribute text: the five predefined entities, and tabs and line breaks as character references.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if let reference = references[scalar] { result += reference } else { result.unicodeScalars.append(scalar) }
        }
        return result
    }

    private static let references: [Unicode.Scalar: String] = [
        "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&apos;", "\n": "&#10;", "\r": "&#13;", "\t": "&#9;",
    ]
}
