/// Core Data's `NSSQLStoreMappingGenerator -uniqueNameWithBase:`: a name already given gets `1`, `2`, …
/// in the order names are asked for (sibling columns `ZTITLE`, `ZTITLE1`; join columns `Z_17USERS1`).
struct UniqueNames {
    private var used: Set<String>

    init(taken: some Sequence<String> = []) {
        used = Set(taken)
    }

    /// `base`, or `base` with the first number that makes it new; remembered from then on.
    mutating func name(for base: String) -> String {
        var name = base
        var suffix = 1
        while used.contains(name) {
            name = base + String(suffix)
            suffix += 1
        }
        used.insert(name)
        return name
    }
}
