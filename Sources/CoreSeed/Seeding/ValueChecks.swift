import Foundation

/// The key pass's value checks (when errors are tolerated, and in dry runs), run ahead on a thread of
/// their own: it reads a source group's sources a second time and converts every value while the key
/// pass numbers the rows, and the key pass takes each record's failed values where it used to convert
/// them itself. The same failures in the same order reach the same `Rejections`, so what is rejected,
/// what is said and where `--max-errors` stops are unchanged: only the work moves to the other core.
struct ValueChecks {
    /// A value that cannot be converted: the record (counted over the group's sources, in order), the
    /// entity's place in the group, and the error the key pass rejects.
    struct Failure: Sendable {
        let record: Int
        let slot: Int
        let error: MappingError
    }

    /// The failures of the records before `end` not yet handed over, in record and fill order.
    struct Batch: Sendable {
        let end: Int
        let failures: [Failure]
    }

    /// Records per batch.
    static let batchRecords = 4096

    private let handoff: BatchHandoff<Batch, any Error>
    private var batch = Batch(end: 0, failures: [])
    private var position = 0

    /// Starts reading `group`'s sources on a thread of its own.
    init(plan: BuildPlan, group: BuildPlan.SourceGroup) {
        let handoff = BatchHandoff<Batch, any Error>(capacity: 8)
        self.handoff = handoff
        handoff.producerStarting()
        let thread = Thread {
            do {
                try Self.check(plan: plan, group: group, handoff: handoff)
            } catch {
                handoff.finish(error)
            }
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// The failures of record `record` (records are asked for in order), read from the source at
    /// `path`. Throws what stopped the checking thread before it reached the record, such as a reader
    /// error.
    mutating func failures(of record: Int, in path: String) throws -> ArraySlice<Failure> {
        while record >= batch.end {
            guard let next = try handoff.take() else {
                // Both threads read the same files: the checks end first only if a file changed between.
                throw FileError(.unreadableInput, path: path, message: "the file changed while it was read (fewer records "
                                + "the second time): build again once nothing writes to it")
            }
            batch = next
            position = 0
        }
        let failures = batch.failures
        while position < failures.count && failures[position].record < record { position += 1 }
        let start = position
        while position < failures.count && failures[position].record == record { position += 1 }
        return failures[start..<position]
    }

    /// Stops the checking thread (it may be waiting for room) and waits until it has.
    func stop() {
        handoff.cancelAndWait()
    }

    /// The checking thread's work: every record of the group's sources, every checked value of each
    /// entity, in the order the key pass checked them.
    private static func check(plan: BuildPlan, group: BuildPlan.SourceGroup, handoff: BatchHandoff<Batch, any Error>) throws {
        var visitor = Checking(plan: plan, group: group, handoff: handoff)
        let seedPlan = plan.seedPlan
        let sourceCount = seedPlan.entities[group.entities[0]].sources.count
        for sourceIndex in 0..<sourceCount {
            let first = seedPlan.entities[group.entities[0]].sources[sourceIndex]
            let reader = try first.spec.openReader(relativeTo: plan.specDirectory)
            reader.project(plan.projection(group, sourceIndex: sourceIndex, fieldCount: first.fieldNames.count, values: true))
            visitor.start(source: sourceIndex)
            guard try reader.visitRows(&visitor, toleratingComputeFailures: true) else { return handoff.finish(nil) }
        }
        guard visitor.flush() else { return handoff.finish(nil) }
        handoff.finish(nil)
    }

    /// One pass over the records on the checking thread.
    private struct Checking: RowInputVisitor {
        let plan: BuildPlan
        let group: BuildPlan.SourceGroup
        let handoff: BatchHandoff<Batch, any Error>
        /// Per slot: the entity's name and its checked attribute fills for the current source.
        private var checked: [(entity: String, fills: [AttributeFill])] = []
        private var record = 0
        private var failures: [Failure] = []

        init(plan: BuildPlan, group: BuildPlan.SourceGroup, handoff: BatchHandoff<Batch, any Error>) {
            self.plan = plan
            self.group = group
            self.handoff = handoff
        }

        mutating func start(source: Int) {
            checked = group.entities.map { index in
                let entity = plan.seedPlan.entities[index]
                return (entity.name, entity.sources[source].fills.compactMap { if case .attribute(let fill) = $0 { fill } else { nil } })
            }
        }

        mutating func visit<Input: RowInput>(_ input: inout Input) throws -> Bool {
            if let failure = input.computeFailure, case .computedFieldFailed(let field, _) = failure.reason {
                // A computed field failed: every entity of the group rejects the record.
                for slot in checked.indices {
                    failures.append(Failure(record: record, slot: slot, error: MappingError(
                        location: failure.location, field: field, entity: checked[slot].entity, attribute: field,
                        failure: .breaksRule(failure.message))))
                }
                record += 1
                return record % ValueChecks.batchRecords != 0 || flush()
            }
            for slot in checked.indices {
                for attribute in checked[slot].fills where !input.acceptsFast(attribute) {
                    let full = try input.record()
                    do {
                        _ = try attribute.value(full)
                    } catch {
                        failures.append(Failure(record: record, slot: slot, error: Rejections.mappingError(
                            full, fieldIndex: attribute.fieldIndex, field: attribute.fieldName, entity: checked[slot].entity,
                            attribute: attribute.attribute.name, failure: error)))
                    }
                }
            }
            record += 1
            return record % ValueChecks.batchRecords != 0 || flush()
        }

        /// Hands over the records checked so far; false once the key pass has stopped.
        mutating func flush() -> Bool {
            defer { failures = [] }
            return handoff.put(Batch(end: record, failures: failures))
        }
    }
}
