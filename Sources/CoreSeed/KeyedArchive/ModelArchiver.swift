/// Writes a ``Model`` as the `NSManagedObjectModel` keyed archive Core Data keeps in a store's
/// `Z_MODELCACHE` (DESIGN §4c.7), object for object as Apple's `NSKeyedArchiver` writes it, through
/// ``ObjectArchiver``. The encoding order of each class is its `encodeWithCoder:` (decompiled
/// CoreData, docs/LAYOUT.md "Z_MODELCACHE"); which strings are one object, and a few containers, depend
/// on how the app loaded its model (``Shape``).
///
/// ``unsupportedFeature(_:)`` names the first model feature whose archived form no corpus store has
/// shown; a store is given no cache for such a model.
public enum ModelArchiver {
    /// How the model Core Data archived was held in memory: three forms are seen in real stores.
    public enum Shape: String, Sendable, CaseIterable {
        /// Loaded from a compiled model as is: every string one object per value, an entity's renaming
        /// identifier its name, an empty `NSMutableDictionary` of sub-entities, an `NSSet` of version
        /// identifiers (most stores, every era).
        case loaded
        /// A copied model (`bnr-coredatastack-testmodel`, `wibosco-migration-*`,
        /// `jeffreybergier-migration-v1.0.0`, `xcserver-2.0.0-empty`): property dictionary keys are
        /// separate strings, an entity's renaming identifier an `NSMutableString`, no sub-entity
        /// dictionary when there are none, an `NSMutableSet` of version identifiers.
        case copied
        /// The model a migration held, in every migrated corpus store with fetch indexes (Wire 847 to
        /// 1044, `coredataplus-2018-samplemodel-v2` at 866): as loaded, but each fetch index's elements
        /// an `NSMutableArray` (fresh stores hold an `NSArray`: xcserver-2.0.0-empty at 836,
        /// ddg-bookmarks at 1251 and 1333). Never written to a new store; it proves migrated caches.
        case migrated
    }

    /// The decompressed archive of `model` as Core Data `framework` writes it. `sharedClassNames`:
    /// Foundation's class names are one string each across the archive (some stores from 1044 on),
    /// else only those short enough for a tagged pointer.
    public static func archive(_ model: Model, framework: Int, shape: Shape = .loaded, sharedClassNames: Bool = false) -> [UInt8] {
        let writer = ModelArchiveWriter(model: model, shape: shape)
        writer.archiver.sharesFoundationClassNames = sharedClassNames
        let root = writer.encodeModel()
        return writer.archiver.finish(root: root, hashedTop: framework < 1044)
    }

    /// The frameworks whose caches CoreSeed's archive reproduced byte for byte (637 to 1344, the newest
    /// fresh store of the corpus). A newer framework gets 1344's form (``storeCache(for:framework:)``).
    public static let provenFrameworks = 637...1344

    /// `Z_MODELCACHE.Z_CONTENT` for a new store of `model` at `framework` (637 or later): the archive in
    /// the form proven byte-identical to Core Data's (``Shape/loaded``, Foundation class names not
    /// shared), raw-deflated (a deflate failure is thrown, never a silently empty cache). Above
    /// ``provenFrameworks`` it is the newest proven form: a keyed archive is read by its keys, and a newer
    /// Core Data reads this form in every store an older one wrote; whether it would write the same bytes
    /// itself no corpus store shows (docs/LAYOUT.md, "Z_MODELCACHE"). Nil before 637 and for a model with
    /// a feature no matching corpus cache has shown (``unprovenFeature(_:)``), or with indexes before
    /// framework 836 (``FrameworkVersion/usesFetchIndexForms``): its store keeps an empty
    /// `Z_MODELCACHE`.
    public static func storeCache(for model: Model, framework: Int) throws(RawDeflate.Failure) -> [UInt8]? {
        guard framework >= provenFrameworks.lowerBound, unprovenFeature(model) == nil else { return nil }
        // Before the fetch-index forms, indexes were archived another way (objcio-moody, 637), not written.
        if !FrameworkVersion(framework).usesFetchIndexForms, model.entities.contains(where: ModelArchiveWriter.declaresIndexes) { return nil }
        return try RawDeflate.deflate(archive(model, framework: min(framework, provenFrameworks.upperBound)))
    }

    /// The first feature of `model` outside what the corpus caches hold (docs/LAYOUT.md, "Z_MODELCACHE"):
    /// entities with inheritance, uniqueness constraints and renaming identifiers, not abstract; on root
    /// entities, indexed attributes with compound indexes, or fetch indexes of ascending elements;
    /// attributes of type String, Date, Integer 16/32/64, Boolean, Double, Float, Binary (external storage
    /// allowed), Transformable (with or without a transformer) or UUID, optional or not, preserved after
    /// deletion or not, with a version hash modifier or not, with an integer or Boolean default at most,
    /// or derived as `relationship.@count`; relationships with an inverse, to-one, to-many and ordered,
    /// any delete rule. The whole archive matches byte for byte in the caches of ``provenFrameworks``
    /// (indexes, modifiers and an entity's renaming identifier in ddg-bookmarks-v2 and
    /// coredataplus-2018-samplemodel-v2; compound indexes from model files in Wire's caches, object for
    /// object); Transformable, external-storage, UUID and derived attributes match object for object
    /// (`ModelArchiverAttributeEvidenceTests`).
    /// Nil when the archive is proven.
    public static func unprovenFeature(_ model: Model) -> String? {
        if let feature = unsupportedFeature(model) { return feature }
        for entity in model.entities {
            let what = "entity \(entity.name)"
            if entity.isAbstract { return "\(what): abstract" }
            if entity.representedClassName?.hasPrefix(".") == true { return "\(what): a module-relative class name" }
            if let reason = ModelArchiveWriter.unprovenIndexes(entity) { return "\(what): \(reason)" }
            for attribute in entity.attributes {
                let name = "\(what).\(attribute.name)"
                guard [.string, .date, .integer16, .integer32, .integer64, .boolean, .double, .float, .binary, .transformable, .uuid].contains(attribute.type) else {
                    return "\(name): type \(attribute.type.rawValue)"
                }
                if attribute.defaultValueString != nil && !attribute.type.isInteger && attribute.type != .boolean {
                    return "\(name): a default value of type \(attribute.type.rawValue)"
                }
                if attribute.isTransient { return "\(name): transient" }
                if attribute.renamingIdentifier != nil { return "\(name): a renaming identifier" }
                if attribute.allowsExternalBinaryDataStorage && attribute.type != .binary { return "\(name): external storage on a \(attribute.type.rawValue) attribute" }
            }
            for relationship in entity.relationships where relationship.renamingIdentifier != nil {
                return "\(what).\(relationship.name): a renaming identifier"
            }
        }
        return nil
    }

    /// The first feature of `model` that ``archive(_:framework:shape:)`` cannot write as Core Data
    /// does (no store in the corpus shows its archived form), or nil.
    public static func unsupportedFeature(_ model: Model) -> String? {
        guard model.configurations.isEmpty else { return "configurations" }
        guard model.composites.isEmpty else { return "composite attributes" }
        for entity in model.entities {
            let what = "entity \(entity.name)"
            if !entity.userInfo.isEmpty { return "\(what): user info" }
            if !entity.fetchedPropertyNames.isEmpty { return "\(what): fetched properties" }
            if let reason = ModelArchiveWriter.unsupportedIndexes(entity) { return "\(what): \(reason)" }
            if entity.versionHashModifier != nil { return "\(what): a version hash modifier" }
            for attribute in entity.attributes {
                if let reason = ModelArchiveWriter.unsupported(attribute) { return "\(what).\(attribute.name): \(reason)" }
            }
            for relationship in entity.relationships {
                let name = "\(what).\(relationship.name)"
                if !relationship.userInfo.isEmpty { return "\(name): user info" }
                if relationship.versionHashModifier != nil { return "\(name): a version hash modifier" }
                if relationship.isTransient { return "\(name): a transient relationship" }
                if relationship.inverseName == nil { return "\(name): no inverse" }
            }
        }
        return nil
    }
}
