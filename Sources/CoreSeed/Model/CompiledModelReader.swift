/// Reads a compiled model (the keyed archive in a `.mom` file or a store's `Z_MODELCACHE`).
///
/// ``model(_:versionName:path:)`` decodes the whole model (``CompiledModelDecoder``);
/// ``entities(_:)`` reads only its outline: its entities by name with their parents.
public enum CompiledModelReader {
    /// Why an archive is not a compiled model.
    public struct Failure: Error, Sendable, Equatable {
        public let message: String
    }

    /// One entity of the archive: its name and its parent's name.
    public struct EntityOutline: Sendable, Equatable {
        public var name: String
        public var parentName: String?
    }

    /// The model archived in `bytes`, as ``ModelParser`` would read its XML source; an error naming
    /// the class or key when the archive holds a model part CoreSeed does not know.
    public static func model(_ bytes: [UInt8], versionName: String, path: String) throws(Failure) -> Model {
        try CompiledModelDecoder.model(bytes, versionName: versionName, path: path)
    }

    /// The entities of the compiled model archived in `bytes`, sorted by name; an error naming the
    /// class when the root is not a managed object model or an entity is of an unknown class.
    public static func entities(_ bytes: [UInt8]) throws(Failure) -> [EntityOutline] {
        do {
            let graph = try KeyedArchiveGraph(bytes)
            guard case .object(let rootClass, let root) = try graph.node(graph.root) else {
                throw Failure(message: "the archive's root is not an object")
            }
            guard rootClass == "NSManagedObjectModel" else {
                throw Failure(message: "the archive holds a \(rootClass), not a compiled model (NSManagedObjectModel)")
            }
            guard case .object(let dictionaryClass, var dictionary)? = try graph.field(root, "NSEntities") else {
                throw Failure(message: "NSManagedObjectModel without an NSEntities dictionary")
            }
            switch dictionaryClass {
            case "NSDictionary", "NSMutableDictionary": break
            case "NSKnownKeysDictionary1":
                // Its values are an NSArray in the order of its searchMapping's keys.
                guard case .object(_, let values)? = try graph.field(dictionary, "values") else {
                    throw Failure(message: "NSKnownKeysDictionary1 without values")
                }
                dictionary = values
            default: throw Failure(message: "NSEntities is an object of unknown class \(dictionaryClass)")
            }
            var result: [EntityOutline] = []
            for member in try graph.members(dictionary) {
                guard case .object(let entityClass, let entity) = member else { throw Failure(message: "NSEntities holds a value that is not an entity") }
                guard entityClass == "NSEntityDescription" else { throw Failure(message: "NSEntities holds an object of unknown class \(entityClass)") }
                guard case .string(let name)? = try graph.field(entity, "NSEntityName") else { throw Failure(message: "an entity without NSEntityName") }
                var parentName: String?
                if case .object(_, let parent)? = try graph.field(entity, "NSSuperentity"),
                   case .string(let parent)? = try graph.field(parent, "NSEntityName") { parentName = parent }
                result.append(EntityOutline(name: name, parentName: parentName))
            }
            return result.sorted { $0.name < $1.name }
        } catch let failure as Failure {
            throw failure
        } catch let failure as KeyedUnarchiver.Failure {
            throw Failure(message: failure.message)
        } catch {
            throw Failure(message: "\(error)")
        }
    }
}
