/// Everything Core Data would create in a store for one model (and configuration): entity numbers,
/// tables and their columns in order, join tables, indexes, triggers — as exact SQL text.
///
/// A pure value: built by `StoreLayout(model:configuration:framework:)`, no I/O.
public struct StoreLayout: Sendable {
    /// One entity as the store knows it.
    public struct EntityInfo: Sendable, Equatable {
        public let name: String
        /// `Z_ENT`, 1-based.
        public let number: Int
        /// The parent's number, 0 for a root (`Z_SUPER`).
        public let superNumber: Int
        public let rootName: String
        /// The root's table, shared by the whole hierarchy.
        public let tableName: String
        public let isAbstract: Bool
        /// Whether the entity belongs to the laid-out configuration (all do when there is none).
        public let isInConfiguration: Bool
    }

    /// One column of an entity table, with what it holds.
    public struct Column: Sendable, Equatable {
        public enum Role: Sendable, Equatable {
            case primaryKey
            case entity
            case optimisticLock
            /// An attribute's value (declared on `entity`).
            case attribute(entity: String, attribute: String, type: AttributeType)
            /// One element of a Composite attribute (flattened into its own column).
            case compositeElement(entity: String, attribute: String, element: String, type: AttributeType)
            /// A to-one relationship's destination `Z_PK`.
            case toOne(entity: String, relationship: String, destination: String)
            /// The destination row's concrete `Z_ENT`, when the destination has sub-entities.
            case toOneEntity(entity: String, relationship: String)
            /// The position of this row in the inverse ordered to-many.
            case toOneOrder(entity: String, relationship: String)
            /// The hidden key of a to-many with no inverse (declared on `entity`), on its destination's
            /// table: the `Z_PK` of the source row whose to-many holds this row (§4c.4).
            case toManyKey(entity: String, relationship: String, destination: String)
            /// The source row's concrete `Z_ENT`, when the source entity has sub-entities.
            case toManyKeyEntity(entity: String, relationship: String)
            /// The position of this row in the source's ordered to-many.
            case toManyKeyOrder(entity: String, relationship: String)
        }
        public let name: String
        public let sqlType: String
        public let role: Role
    }

    /// One entity table (a root and all its sub-entities).
    public struct Table: Sendable, Equatable {
        public let name: String
        public let rootEntity: String
        public let columns: [Column]
        /// Inline `CONSTRAINT … UNIQUE (…)` clauses (framework 637 era), as column-name lists.
        public let inlineUniqueConstraints: [[String]]
    }

    /// A many-to-many join table.
    public struct JoinTable: Sendable, Equatable {
        public let name: String
        /// Holds the `Z_PK` of `firstEntity` (the lower-numbered side).
        public let firstColumn: String
        /// Holds the `Z_PK` of `secondEntity`.
        public let secondColumn: String
        /// `Z_FOK_` columns: (column name, the key column whose order it keeps).
        public let orderColumns: [OrderColumn]
        public let firstEntity: String
        /// The first entity's relationship (to the second).
        public let firstRelationship: String
        public let secondEntity: String
        /// The second entity's relationship (to the first).
        public let secondRelationship: String

        public struct OrderColumn: Sendable, Equatable {
            public let name: String
            /// The key column whose position this records (e.g. `Z_2AUTHORS` for `Z_FOK_2AUTHORS`).
            public let orderedColumn: String
        }
    }

    /// A to-many relationship with no inverse, as Core Data stores it (§4c.4, `_addVirtualToOneForToMany:`):
    /// no join table; each destination row holds the `Z_PK` of the source row whose to-many contains it.
    public struct HiddenToManyKey: Sendable, Equatable {
        /// The entity that declares the to-many.
        public let sourceEntity: String
        public let relationship: String
        public let destinationEntity: String
        /// The destination's table.
        public let table: String
        /// `Z<source #><NAME>`, indexed.
        public let column: String
        /// `Z<source #>_<source #><NAME>`: the source row's `Z_ENT`, when the source has sub-entities.
        public let entityColumn: String?
        /// `Z_FOK_<source #><NAME>`: the row's position, when the to-many is ordered.
        public var orderColumn: String?
    }

    /// One index (or unique index).
    public struct Index: Sendable, Equatable {
        public let name: String
        public let table: String
        public let sql: String
    }

    public let framework: FrameworkVersion
    /// Entities in `Z_ENT` order (all of the model's, even outside the configuration).
    public let entities: [EntityInfo]
    /// Entity tables, in entity-number order of their roots.
    public let tables: [Table]
    public let joinTables: [JoinTable]
    /// The hidden keys of to-many relationships without inverse, in the order Core Data creates them.
    public let hiddenToManyKeys: [HiddenToManyKey]
    public let indexes: [Index]
    public let triggers: [String]
    /// The derived attributes the triggers keep (`<to-many>.@count`).
    public let derivedCounts: [DerivedCount]
    /// The derived attributes the triggers keep that read a to-one's attribute (`<to-one>.<attribute>`).
    public let derivedKeyPaths: [DerivedKeyPath]
    /// The columns of Binary attributes that allow external storage (values marked `0x01` / `0x02`).
    public let externalStorageColumns: [ExternalStorageColumn]
    /// How many `ZTOMBSTONE<i>` columns the history change table has if the store tracks history
    /// (``HistoryTombstones``).
    public let historyTombstoneCount: Int
    /// Per concrete entity, the bits of an update change's `ZCOLUMNS` (``HistoryColumns``).
    public let historyColumns: [String: HistoryColumns]

    /// A column of a Binary attribute with Allows External Storage.
    public struct ExternalStorageColumn: Sendable, Equatable {
        public let table: String
        public let column: String
        public let entity: String
        public let attribute: String
    }

    /// The entity named `name`.
    public func entity(named name: String) -> EntityInfo? { entities.first { $0.name == name } }

    /// The table holding rows of entity `name`.
    public func table(forEntity name: String) -> Table? {
        guard let info = entity(named: name) else { return nil }
        return tables.first { $0.name == info.tableName }
    }

    /// Every statement Core Data runs to create the store, in creation order, without trailing `;`.
    public var statements: [String] {
        var result: [String] = []
        for table in tables {
            result.append(CoreDataSQL.createTable(table))
            for join in joinTables where entity(named: join.firstEntity)?.tableName == table.name {
                result.append(CoreDataSQL.createJoinTable(join))
            }
        }
        result += indexes.map(\.sql)
        result += triggers
        result.append(CoreDataSchema.createPrimaryKeyTable)
        result.append(CoreDataSchema.createMetadataTable)
        if framework.hasModelCache { result.append(CoreDataSchema.createModelCacheTable) }
        return result
    }
}
