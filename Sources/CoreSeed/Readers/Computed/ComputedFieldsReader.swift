/// A source's records with its computed fields added and its filter applied: each record of `base`
/// gets one value per computed field (after its own fields, in the order that lets each use the
/// ones it names), then the filter leaves out the records for which it is not true (SQLite's truth:
/// NULL and 0 are false). Every expression is prepared once (``SQLiteExpression``).
///
/// Not `Sendable`: one reader thread uses it.
final class ComputedFieldsReader: RecordReader {
    let fieldNames: [String]
    /// How many of ``fieldNames`` are `base`'s own.
    let ownCount: Int
    /// The in-place path's current record (``ComputedFieldsReader+InPlace``).
    let slots: ComputedSlots
    /// The base as the in-place path reads it, once that path has started (a reader says whether it
    /// reads in place only before it starts).
    // SAFETY: the reader's thread only; no method re-enters another (as every reader's state).
    @exclusivity(unchecked) var inPlaceBase: (any FieldViewReader)?
    /// ``inPlaceBase`` when it is a CSV reader, for direct calls without a retain per field.
    // SAFETY: as `inPlaceBase`, which holds the same reader strongly for as long as this is set.
    @exclusivity(unchecked) var csvBase: Unmanaged<CSVReader>?
    /// Records the filter left out so far.
    // SAFETY: as `inPlaceBase`.
    @exclusivity(unchecked) var filtered = 0
    /// With `--max-errors` (the build's value checks reject such records): an expression that fails
    /// on a record leaves its fields NULL and marks the record (``currentFailure``) instead of throwing.
    var toleratesFailures = false
    /// The failure of the current record, when tolerated.
    // SAFETY: as `inPlaceBase`.
    @exclusivity(unchecked) var currentFailure: ReaderError?
    let base: any RecordReader
    let file: String
    /// How one step computes its value.
    enum Rule {
        case expression(SQLiteExpression)
        case uuidFromKey(entity: String)
        case uuidRandom(entity: String, seed: String)
        case joined(table: Int, field: Int)
    }

    /// In evaluation order: the computed field's index in the record (nil for the filter), its rule,
    /// and the record index of each field it reads (an expression's parameters, a UUID's key fields).
    let steps: [(field: Int?, name: String, rule: Rule, arguments: [Int])]
    /// How the steps run: consecutive expression steps by one statement (one step per record for all
    /// of them; none reads a field another of them computes), each other step alone.
    enum Stage {
        /// A key, UUID or join step (index into ``steps``), computed from the record's values.
        case record(Int)
        /// Expression steps evaluated by one statement.
        case expressions(ExpressionStage)
    }

    /// Expression steps run by one statement: per column the record index it fills (nil: the filter),
    /// the record index of each parameter, and the steps (for messages). A class, so that a record's
    /// pass over the stages takes one reference per stage, not three arrays.
    final class ExpressionStage {
        let expression: SQLiteExpression
        let outputs: [Int?]
        let arguments: [Int]
        let members: [Int]
        /// The in-place path's results by arguments.
        let memo: ExpressionMemo

        init(_ expression: SQLiteExpression, outputs: [Int?], arguments: [Int], members: [Int]) {
            (self.expression, self.outputs, self.arguments, self.members) = (expression, outputs, arguments, members)
            memo = ExpressionMemo(columns: outputs.count)
        }
    }

    /// Every step's stages.
    let allStages: [Stage]
    /// The stages a record runs: ``allStages``, or without the expressions whose fields the reader's
    /// projection does not want (``chooseStages()``).
    // SAFETY: as `inPlaceBase`; set before the first record only.
    @exclusivity(unchecked) var stages: [Stage]
    /// The steps whose values the projection wants (nil: all), with every step they read.
    var wantedSteps: Set<Int>?
    // SAFETY: as `inPlaceBase`.
    @exclusivity(unchecked) var stagesChosen = false
    /// Records read from `base` (the position a random UUID is derived from).
    // SAFETY: as `inPlaceBase`.
    @exclusivity(unchecked) var position = 0
    /// The joined sources' records, one table per join.
    let tables: [JoinedRecords]
    /// Per join, once `base` is read: joined keys that no record looked up.
    var unmatchedJoinKeys: [String: Int] = [:]

    init(base: any RecordReader, fields: [ComputedField], filter: String?, file: String, directory: String) throws(ReaderError) {
        self.base = base
        self.file = file
        let own = base.fieldNames
        let names = own + fields.map(\.name)
        fieldNames = names
        ownCount = own.count
        slots = ComputedSlots(count: fields.count)
        func fail(_ message: String) -> ReaderError { ReaderError(.computedField(message), at: SourceLocation(file: file)) }
        if let repeated = fields.first(where: { own.contains($0.name) }) {
            throw fail("field '\(repeated.name)': the source already has a field of this name; give the computed one another")
        }
        var compiled: [(name: String, rule: Rule, reads: [String])] = []
        var tables: [JoinedRecords] = []
        for field in fields {
            switch field.formula {
            case .sql(let sql):
                do throws(SQLiteExpression.Problem) {
                    let expression = try SQLiteExpression(sql)
                    compiled.append((field.name, .expression(expression), expression.parameterNames))
                } catch {
                    throw fail("field '\(field.name)': \(error.message)")
                }
            case .uuidFromKey(let entity, let keyFields): compiled.append((field.name, .uuidFromKey(entity: entity), keyFields))
            case .uuidRandom(let entity, let seed): compiled.append((field.name, .uuidRandom(entity: entity, seed: seed), []))
            case .joined(let plan, let taken, let keyFields):
                if !tables.contains(where: { $0.plan == plan }) { tables.append(try JoinedRecords(plan, directory: directory)) }
                compiled.append((field.name, .joined(table: tables.firstIndex { $0.plan == plan }!, field: taken), keyFields))
            }
        }
        // A `:name` that is no field's exact name stands for the one field it folds to (`:closing_date`
        // for `Closing Date`): SQLite's parameter names are identifiers.
        for index in compiled.indices {
            compiled[index].reads = compiled[index].reads.map { Self.fieldName(for: $0, in: names) ?? $0 }
        }
        // Each computed field after the computed fields it names; a cycle is an error.
        var ordered: [(field: Int?, name: String, rule: Rule, arguments: [Int])] = []
        var done = Set<String>(own), pending = Array(compiled.indices)
        while !pending.isEmpty {
            guard let next = pending.firstIndex(where: { compiled[$0].reads.allSatisfy { done.contains($0) || !names.contains($0) } }) else {
                throw fail("computed fields \(pending.map { "'\(compiled[$0].name)'" }.joined(separator: ", ")) name each other in a cycle")
            }
            let index = pending.remove(at: next)
            let (name, rule, reads) = compiled[index]
            let arguments = try Self.indexes(of: reads, names: names, what: "field '\(name)'", fail: fail)
            ordered.append((own.count + index, name, rule, arguments))
            done.insert(name)
        }
        if let filter {
            let expression: SQLiteExpression
            do throws(SQLiteExpression.Problem) { expression = try SQLiteExpression("(\(filter)) IS TRUE") } catch {
                throw fail("\"where\": \(error.message)")
            }
            ordered.append((nil, "where", .expression(expression),
                            try Self.indexes(of: expression.parameterNames, names: names, what: "\"where\"", fail: fail)))
        }
        steps = ordered
        self.tables = tables
        allStages = try Self.stages(ordered, including: Array(ordered.indices), names: names, fail: fail)
        stages = allStages
    }

    /// Before the first record: leaves out the expression steps no wanted field needs (a key pass reads
    /// only keys), unless failures are tolerated (then every expression runs, so each pass leaves out
    /// the same records). Keys, UUIDs, joins and the filter always run.
    func chooseStages() {
        guard !stagesChosen else { return }
        stagesChosen = true
        guard !toleratesFailures, let wanted = wantedSteps, wanted.count < steps.count else { return }
        stages = (try? Self.stages(steps, including: steps.indices.filter(wanted.contains), names: fieldNames) { message in
            ReaderError(.computedField(message), at: SourceLocation(file: file))
        }) ?? allStages
    }

    /// The steps a projection needs: the filter, every step that is not an expression, each whose field
    /// it wants, and (again and again) the steps those read.
    func neededSteps(wanting wanted: [Bool]) -> Set<Int> {
        var needed = Set(steps.indices.filter { index in
            guard case .expression = steps[index].rule, let field = steps[index].field else { return true }
            return field >= wanted.count || wanted[field]
        })
        var pending = Array(needed)
        while let index = pending.popLast() {
            for argument in steps[index].arguments where argument >= ownCount {
                if let producer = steps.firstIndex(where: { $0.field == argument }), needed.insert(producer).inserted { pending.append(producer) }
            }
        }
        return needed
    }

    /// ``Stage``s of `steps`: runs of expression steps merged where no member reads another's field.
    private static func stages(_ steps: [(field: Int?, name: String, rule: Rule, arguments: [Int])], including: [Int], names: [String],
                               fail: (String) -> ReaderError) throws(ReaderError) -> [Stage] {
        var stages: [Stage] = [], run: [Int] = []
        func alone(_ index: Int) -> Stage? {
            guard case .expression(let expression) = steps[index].rule else { return nil }
            return .expressions(ExpressionStage(expression, outputs: [steps[index].field], arguments: steps[index].arguments, members: [index]))
        }
        func flush() throws(ReaderError) {
            defer { run = [] }
            guard run.count > 1 else {
                if let only = run.first, let stage = alone(only) { stages.append(stage) }
                return
            }
            let texts = run.map { index -> String in
                guard case .expression(let expression) = steps[index].rule else { return "NULL" }
                return expression.texts[0]
            }
            guard let merged = try? SQLiteExpression(texts: texts) else {
                stages += run.compactMap(alone)  // each was prepared alone already: evaluate them alone
                return
            }
            stages.append(.expressions(ExpressionStage(merged, outputs: run.map { steps[$0].field },
                                                       arguments: try indexes(of: merged.parameterNames, names: names, what: "fields", fail: fail),
                                                       members: run)))
        }
        for index in including {
            let step = steps[index]
            guard case .expression = step.rule else {
                try flush()
                stages.append(.record(index))
                continue
            }
            let produced = Set(run.compactMap { steps[$0].field })
            if step.arguments.contains(where: produced.contains) { try flush() }
            run.append(index)
        }
        try flush()
        return stages
    }

    /// The field a parameter `:read` names: the field of that exact name, else the one field whose name
    /// folds to the same letters and digits (``ASCII/foldedName(_:)``); nil when none or several do.
    static func fieldName(for read: String, in names: [String]) -> String? {
        if names.contains(read) { return read }
        let folded = ASCII.foldedName(read)
        let matches = names.filter { ASCII.foldedName($0) == folded }
        return matches.count == 1 ? matches[0] : nil
    }

    /// The record index of each field in `reads`; an unknown name is an error listing the fields.
    private static func indexes(of reads: [String], names: [String], what: String,
                                fail: (String) -> ReaderError) throws(ReaderError) -> [Int] {
        try reads.map { name throws(ReaderError) in
            guard let index = names.firstIndex(of: fieldName(for: name, in: names) ?? name) else {
                let matches = names.filter { ASCII.foldedName($0) == ASCII.foldedName(name) }
                if matches.count > 1 {
                    throw fail("\(what): ':\(name)' could be the field \(matches.map { "'\($0)'" }.joined(separator: " or ")): name one of them exactly")
                }
                throw fail("\(what): ':\(name)' is not a field of this source\(Suggestion.hint(for: name, in: names)) (fields: \(names.joined(separator: ", ")))")
            }
            return index
        }
    }

    func next() throws(ReaderError) -> Record? {
        chooseStages()
        while var record = try base.next() {
            let count = record.values.count
            record.values += Array(repeating: .null, count: fieldNames.count - count)
            record.fieldLines? += Array(repeating: 0, count: fieldNames.count - count)
            record.fieldColumns? += Array(repeating: 0, count: fieldNames.count - count)
            position += 1
            currentFailure = nil
            var kept = true
            stages: for stage in stages {
                switch stage {
                case .record(let index):
                    let step = steps[index]
                    let value = try computeValue(step, record)
                    if let field = step.field { record.values[field] = value }
                case .expressions(let stage):
                    let (expression, outputs, arguments, members) = (stage.expression, stage.outputs, stage.arguments, stage.members)
                    guard let values = try? expression.evaluateAll(try arguments.map { index throws(ReaderError) in
                        try Self.argument(record.values[index], record, steps[members[0]].name)
                    }) else {
                        // One of them fails on this record: evaluated alone, it names itself.
                        do throws(ReaderError) {
                            for member in members { _ = try computeValue(steps[member], record) }
                            throw ReaderError(.computedFieldFailed(field: steps[members[0]].name, problem: "the expressions failed together"), at: record.location)
                        } catch {
                            guard toleratesFailures, case .computedFieldFailed = error.reason else { throw error }
                            currentFailure = error
                            record.computeFailure = error
                            break stages
                        }
                    }
                    for (column, output) in outputs.enumerated() {
                        let value = FieldValue(values[column])
                        if let output { record.values[output] = value } else if value != .integer(1) { kept = false }
                    }
                }
            }
            if kept { return record }
            filtered += 1
        }
        for table in tables { unmatchedJoinKeys[table.plan.name] = table.unmatched }
        return nil
    }

    /// The value of one step for `record` (whose values before the step's field are computed).
    func computeValue(_ step: (field: Int?, name: String, rule: Rule, arguments: [Int]), _ record: Record) throws(ReaderError) -> FieldValue {
        switch step.rule {
        case .expression(let expression):
            let arguments = try step.arguments.map { index throws(ReaderError) in try Self.argument(record.values[index], record, step.name) }
            do throws(SQLiteExpression.Problem) { return FieldValue(try expression.evaluate(arguments)) } catch {
                throw ReaderError(.computedFieldFailed(field: step.name, problem: error.message), at: record.location)
            }
        case .uuidFromKey(let entity):
            return NaturalKey.key(record.values, at: step.arguments).map {
                .text(NameBasedUUID.text(NameBasedUUID.version5(namespace: NameBasedUUID.urlNamespace, name: "coreseed:\(entity)/\($0)")))
            } ?? .null
        case .uuidRandom(let entity, let seed):
            return .text(NameBasedUUID.text(NameBasedUUID.random(seed: "\(seed)/\(entity)", counter: position)))
        case .joined(let table, let field):
            return tables[table].lookUp(NaturalKey.key(record.values, at: step.arguments))?[field] ?? .null
        }
    }

    static func argument(_ value: FieldValue, _ record: Record, _ name: String) throws(ReaderError) -> SQLiteValue {
        switch value {
        case .null: return .null
        case .integer(let number): return .integer(number)
        case .real(let number): return .real(number)
        case .text(let text): return .text(text)
        case .blob(let bytes): return .blob(bytes)
        case .list:
            throw ReaderError(.computedFieldFailed(field: name, problem: "a field it names holds a list (repeated values); an expression takes one value"),
                              at: record.location)
        }
    }
}
