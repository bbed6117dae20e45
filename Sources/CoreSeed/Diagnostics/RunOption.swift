import Synchronization

/// An option of a run that a message suggests ("pass --no-history to …"): the library names it, the
/// front end spells it. The command line installs its flags with ``spell(with:)`` before it runs a
/// command; a program that calls the library sees the option's name in `SeedBuild.Options` and the
/// readers' parameters (the default spelling, ``name``).
public enum RunOption: String, Sendable, CaseIterable, CustomStringConvertible {
    /// How long to wait for a store another process holds.
    case timeout
    /// Update or delete in a tracked store without recording persistent history.
    case noHistory
    /// Let a sync delete more than half of an entity's stored rows.
    case allowDeletes
    /// Let a build with no rows replace a store that has some.
    case allowEmpty
    /// The model to read a store with.
    case model
    /// Which version of a model with several.
    case modelVersion
    /// The store an update writes into.
    case into
    /// The same, with its argument.
    case intoStore
    /// Where a new store is written.
    case output
    /// An update that inserts and replaces (mode upsert).
    case upsert
    /// An update that also deletes (mode sync, into a store).
    case sync

    private static let spelling = Mutex<(@Sendable (RunOption) -> String)?>(nil)

    /// How every later message spells options (nil: by ``name``). Set once, before the work.
    public static func spell(with spelling: (@Sendable (RunOption) -> String)?) {
        self.spelling.withLock { $0 = spelling }
    }

    /// The option as the installed spelling writes it, else as ``name``.
    public var description: String {
        let spell = Self.spelling.withLock { $0 }
        return spell?(self) ?? name
    }

    /// The library's words for the option: the name of what a program sets.
    public var name: String {
        switch self {
        case .intoStore: "the `into` option (a store)"
        case .upsert: "the `upsert` mode"
        case .sync: "the `sync` mode with `into`"
        default: "the `\(rawValue)` option"
        }
    }
}
