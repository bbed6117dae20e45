/// The key pass's loop over one source group's records (``KeyPass/readKeys(progress:)`` drives it):
/// what it reads of each entity, and the key indexes entities keyed alike share.
extension KeyPass {
    /// What the key pass reads of one entity's records from one source, copied out of the plan once
    /// per source so that the per-record loop touches one object instead of copying plan structs.
    final class KeyFields {
        let entityIndex: Int
        let source: SourcePlan
        let hasKey: Bool
        /// The key's field when the key is one field, else -1.
        let singleKeyField: Int
        let primaryKeyField: Int?
        let linkFields: [[Int]]
        let linkSeparators: [String?]
        let checksUniqueness: Bool

        init(entityIndex: Int, entity: EntityPlan, sourceIndex: Int) {
            let source = entity.sources[sourceIndex]
            self.entityIndex = entityIndex
            self.source = source
            hasKey = entity.hasKey
            singleKeyField = source.keyFields.count == 1 ? source.keyFields[0] : -1
            primaryKeyField = source.primaryKeyField
            linkFields = source.linkFields
            linkSeparators = entity.fieldLinks.map(\.separator)
            checksUniqueness = !entity.uniqueness.isEmpty
        }
    }

    /// The key pass over one source group: the group's entity states while they are filled.
    struct Reading: RowInputVisitor {
        var pass: KeyPass
        let group: BuildPlan.SourceGroup
        /// The values' failures, when values are checked.
        var checks: ValueChecks?
        let progress: (@Sendable (String) -> Void)?
        var locals: [EntityState]
        private var sharing: IndexSharing
        private var fields: [KeyFields] = []
        private var sourceIndex = 0
        private var sourceName = ""
        private var sourcePath = ""
        private var read = 0
        /// Records read from the group's sources so far.
        private var groupRead = 0

        init(pass: KeyPass, group: BuildPlan.SourceGroup, checks: ValueChecks?, progress: (@Sendable (String) -> Void)?) {
            self.pass = pass
            self.group = group
            self.checks = checks
            self.progress = progress
            locals = group.entities.map { index in
                var state = EntityState()
                state.linkKeys = Array(repeating: LinkKeys(), count: pass.seedPlan.entities[index].fieldLinks.count)
                return state
            }
            sharing = IndexSharing(group: group, plan: pass.plan)
        }

        mutating func start(source: Int, name: String) {
            sourceIndex = source
            sourceName = name
            sourcePath = pass.seedPlan.spec.resolve(pass.seedPlan.entities[group.entities[0]].sources[source].spec.path)
            read = 0
            fields = group.entities.map { KeyFields(entityIndex: $0, entity: pass.seedPlan.entities[$0], sourceIndex: source) }
        }

        mutating func visit<Input: RowInput>(_ input: inout Input) throws -> Bool {
            let failures = try checks?.failures(of: groupRead, in: sourcePath)
            if sharing.isSharing { sharing.check(&input, failures: failures, fields: fields, locals: &locals) }
            for slot in fields.indices {
                try pass.readKeys(&input, fields[slot], sourceIndex: sourceIndex, failures: failures, slot: slot,
                                  indexShared: sharing.shares[slot], state: &locals[slot])
            }
            groupRead += 1
            read += 1
            if read & 0xFFFF == 0 { progress?("\(sourceName): \(read) records read") }
            return true
        }

        /// The group's entity states once every source is read.
        mutating func finish() -> [EntityState] {
            sharing.finish(locals: &locals)
            return locals
        }
    }

    /// Entities of one source group keyed by the same one field under the same duplicate policy see
    /// the same records, and so build the same key index as long as each record is kept or left out by
    /// all of them alike and brings a key not seen before. While that holds, the first of them (the
    /// leader) keeps the one index for all, and each record's key goes into it here, once for all of
    /// them. At the first record that breaks it, the others take a copy of the index as it stands and
    /// go on with their own, so every entity ends with exactly the index it would have built alone.
    struct IndexSharing {
        /// Per slot: the slot is in a family still sharing one index (its records' keys go in here).
        private(set) var shares: [Bool]
        /// The leaders and the slots still sharing their index.
        private var families: [(leader: Int, followers: [Int])] = []

        var isSharing: Bool { !families.isEmpty }

        init(group: BuildPlan.SourceGroup, plan: BuildPlan) {
            shares = Array(repeating: false, count: group.entities.count)
            var leaders: [String: Int] = [:]
            for (slot, index) in group.entities.enumerated() {
                let entity = plan.seedPlan.entities[index]
                guard entity.hasKey, !entity.keepsPrimaryKeys, entity.sources.allSatisfy({ $0.keyFields.count == 1 }) else { continue }
                let family = "\(plan.duplicateIndexKey(index)) \(entity.duplicatePolicy)"
                if let leader = leaders[family] {
                    shares[slot] = true
                    shares[leader] = true
                    if let position = families.firstIndex(where: { $0.leader == leader }) {
                        families[position].followers.append(slot)
                    } else {
                        families.append((leader, [slot]))
                    }
                } else {
                    leaders[family] = slot
                }
            }
        }

        /// Before a record: puts its key into each sharing family's index when every member would
        /// (kept by all, a new integer key); ends the sharing of each family the record would give
        /// different indexes (kept by some and not others, a key that is not an integer, a key seen before).
        mutating func check<Input: RowInput>(_ input: inout Input, failures: ArraySlice<ValueChecks.Failure>?, fields: [KeyFields],
                                             locals: inout [EntityState]) {
            var position = 0
            while position < families.count {
                let (leader, followers) = families[position]
                let leaderFails = failures?.contains { $0.slot == leader } ?? false
                var alike = followers.allSatisfy { slot in (failures?.contains { $0.slot == slot } ?? false) == leaderFails }
                if alike && !leaderFails {
                    if let key = input.integerKey(field: fields[leader].singleKeyField), locals[leader].keyIndex[integer: key] == nil {
                        locals[leader].keyIndex[integer: key] = Int32(locals[leader].count)
                    } else {
                        alike = false
                    }
                }
                if alike {
                    position += 1
                } else {
                    shares[leader] = false
                    for slot in followers {
                        locals[slot].keyIndex = locals[leader].keyIndex
                        shares[slot] = false
                    }
                    families.remove(at: position)
                }
            }
        }

        /// After the group: the slots still sharing get the leader's index (the same storage, not a copy).
        func finish(locals: inout [EntityState]) {
            for (leader, followers) in families {
                for slot in followers { locals[slot].keyIndex = locals[leader].keyIndex }
            }
        }
    }
}
