/// What a build did: rows per entity, every rejected value with its location, where the store went.
public struct BuildReport: Sendable {
    public struct EntityCount: Sendable, Equatable {
        public let name: String
        /// Rows written (or, in a dry run, that would be written).
        public var rows: Int
        /// Records dropped: rejected values, duplicate keys.
        public var rejected: Int
        /// Upsert: existing rows that changed (their `Z_OPT` raised).
        public var updated = 0
        /// Upsert and insert: existing rows the input matched that needed no change (or were kept).
        public var unchanged = 0
    }

    /// A sync's deletions in one entity (`--mode sync`).
    public struct Deletions: Sendable, Equatable {
        /// Rows deleted (or, in a dry run, that would be).
        public var rows: Int
        /// Of those, per "Entity.relationship" whose Cascade rule deleted them: how many.
        public var cascades: [String: Int]

        /// How many were deleted because their key is in no record.
        public var unlisted: Int { rows - cascades.values.reduce(0, +) }
    }

    public var entities: [EntityCount] = []
    /// A sync: per entity, the rows deleted.
    public var deletions: [String: Deletions] = [:]
    /// Join-table rows written, per join table.
    public var joinRows: [String: Int] = [:]
    /// Per "Entity.relationship": links dropped because their key matched no row (`"onUnresolved":
    /// "skip"` or `"null"`).
    public var droppedLinks: [String: Int] = [:]
    /// Per source: records its `"where"` left out.
    public var filtered: [String: Int] = [:]
    /// Per joined source (`"join"`): its keys that matched no row's key.
    public var unmatchedJoinKeys: [String: Int] = [:]
    /// Every rejected value (with `--max-errors`), in the order found.
    public var rejected: [MappingError] = []
    /// What the build noticed but did not refuse: a source with no records, so an entity has no rows.
    public var warnings: [Diagnostic] = []
    /// The store written; nil in a dry run.
    public var output: String?
    /// An update (`--into`): the store it reads (also in a dry run, which leaves it as it was).
    public var storePath: String?
    /// An update of an existing store (`--into`): how many rows of the seeded entities it had before
    /// (nil for a new store). The summary says how many of them were kept as they were.
    public var storedRowsBefore: Int?
    public var seconds: Double = 0

    public var totalRows: Int { entities.reduce(0) { $0 + $1.rows } }

    /// Rows a sync deleted, over all entities.
    public var totalDeleted: Int { deletions.values.reduce(0) { $0 + $1.rows } }

    /// The summary line's words for a sync's deletions ("" when none): `, 3 deleted (Item 2 by cascade
    /// from Owner.items; Owner 1)`.
    public var deletedText: String {
        guard totalDeleted > 0 else { return "" }
        let each = deletions.sorted { $0.key < $1.key }.map { entity, counts -> String in
            let causes = counts.cascades.sorted { $0.key < $1.key }
            if causes.isEmpty { return "\(entity) \(counts.rows)" }
            if counts.unlisted == 0 && causes.count == 1 { return "\(entity) \(counts.rows) by cascade from \(causes[0].key)" }
            return "\(entity) \(counts.rows), of which " + causes.map { "\($0.value) by cascade from \($0.key)" }.joined(separator: ", ")
        }
        return ", \(totalDeleted) deleted (\(each.joined(separator: "; ")))"
    }

    /// What the summary line adds for records left out as rejected (`--max-errors`: each listed in
    /// ``rejected``) and for dropped links ("" when there are none):
    /// `, 2 records rejected, 3 unresolved links dropped (Book.author 3)`. Duplicates the duplicate
    /// policy drops are not rejections (they count in ``EntityCount/rejected`` only).
    public var rejectedAndDropped: String {
        var text = ""
        let rejected = self.rejected.count
        if rejected > 0 { text += ", \(rejected) record\(rejected == 1 ? "" : "s") rejected" }
        let dropped = droppedLinks.values.reduce(0, +)
        if dropped > 0 {
            let each = droppedLinks.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            text += ", \(dropped) unresolved link\(dropped == 1 ? "" : "s") dropped (\(each))"
        }
        let left = filtered.values.reduce(0, +)
        if left > 0 {
            let each = filtered.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            text += ", \(left) record\(left == 1 ? "" : "s") filtered out (\(each))"
        }
        let unmatched = unmatchedJoinKeys.values.reduce(0, +)
        if unmatched > 0 {
            let each = unmatchedJoinKeys.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            text += ", \(unmatched) joined key\(unmatched == 1 ? "" : "s") matched no row (\(each))"
        }
        return text
    }

    /// The report as JSON (`--report FILE`).
    public var json: String {
        var writer = JSONWriter()
        writer.object { json in
            json.field("output", output)
            json.field("seconds", { $0.raw(String(format3(seconds))) })
            json.field("rows", totalRows)
            json.field("entities") { json in
                json.object { json in
                    for entity in entities {
                        json.field(entity.name) { json in
                            json.object { json in
                                json.field("rows", entity.rows)
                                json.field("rejected", entity.rejected)
                                json.field("updated", entity.updated)
                                json.field("unchanged", entity.unchanged)
                            }
                        }
                    }
                }
            }
            if !deletions.isEmpty {
                json.field("deleted") { json in
                    json.object { json in
                        for (name, counts) in deletions.sorted(by: { $0.key < $1.key }) {
                            json.field(name) { json in
                                json.object { json in
                                    json.field("rows", counts.rows)
                                    json.field("cascades") { json in
                                        json.object { json in
                                            for (cause, count) in counts.cascades.sorted(by: { $0.key < $1.key }) { json.field(cause, count) }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            json.field("joinTables") { json in
                json.object { json in
                    for (name, count) in joinRows.sorted(by: { $0.key < $1.key }) { json.field(name, count) }
                }
            }
            json.field("droppedLinks") { json in
                json.object { json in
                    for (name, count) in droppedLinks.sorted(by: { $0.key < $1.key }) { json.field(name, count) }
                }
            }
            if !unmatchedJoinKeys.isEmpty {
                json.field("unmatchedJoinKeys") { json in
                    json.object { json in
                        for (name, count) in unmatchedJoinKeys.sorted(by: { $0.key < $1.key }) { json.field(name, count) }
                    }
                }
            }
            if !filtered.isEmpty {
                json.field("filtered") { json in
                    json.object { json in
                        for (name, count) in filtered.sorted(by: { $0.key < $1.key }) { json.field(name, count) }
                    }
                }
            }
            json.field("warnings") { json in
                json.array { json in
                    for warning in warnings {
                        json.object { item in
                            item.field("location", warning.location ?? "")
                            item.field("message", warning.message)
                        }
                    }
                }
            }
            json.field("rejectedValues") { json in
                json.array { json in
                    for error in rejected {
                        json.object { item in
                            item.field("location", error.location.description)
                            item.field("entity", error.entity)
                            item.field("attribute", error.attribute)
                            item.field("field", error.field)
                            item.field("message", error.message)
                        }
                    }
                }
            }
        }
        return writer.text
    }

    private func format3(_ value: Double) -> String {
        let scaled = (value * 1000).rounded() / 1000
        return String(scaled)
    }
}

/// A build that failed: every problem found (one line each), and the report so far.
public struct BuildFailure: Error, Diagnosable {
    public let problems: [any Diagnosable & Sendable]
    public let report: BuildReport

    public var diagnostics: [Diagnostic] { problems.flatMap(\.diagnostics) }
    public var kind: FailureKind { problems.first?.kind ?? .invalid }
}
