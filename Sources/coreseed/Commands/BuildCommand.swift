import CoreSeed
import Foundation

/// `coreseed build [SPEC]`: runs a seed spec and writes the store.
enum BuildCommand: Command {
    static let name = "build"
    static let summary = "build a store from a seed spec (default Inputs/seed.json)"
    static let arguments: [CommandArgument] = [.optional("SPEC", "the seed spec (JSON; default Inputs/seed.json)")]
    static let options: [CommandOption] = [
        .value("output", "PATH", "write the store here instead of the spec's \"output\""),
        .flag("dry-run", "check every value and key, write nothing"),
        .flag("explain", "print how each attribute and relationship is fed (field, conversion, first value); build nothing"),
        .value("report", "FILE", "write a JSON report: rows per entity, every rejected value and where"),
        .count("max-errors", "N", "tolerate N rejected values (or all), leaving their records out (default 0)"),
        .flag("fail-on-rejects", "check every value, list every problem, then fail without writing if any was rejected"),
        .flag("allow-empty", "let a build that wrote no rows replace an existing store that holds rows"),
        .value("configuration", "NAME", "build a store of only this configuration's entities"),
        .value("into", "STORE", "update this existing store instead (it must match the model)"),
        .choice("mode", ["replace", "upsert", "insert", "sync"], "replace: write a new store; upsert, insert, sync: update one (see above)"),
        .flag("allow-deletes", "let --mode sync delete more than half of an entity's stored rows (nothing else deletes)"),
        .flag("no-history", "update a store that tracks persistent history without recording this run"),
        .value("author", "NAME", "the history transaction's author (default coreseed; see \"historyTracking\")"),
        .flag("quiet", "print no progress and no summary"),
        .timeout,
    ]
    static let discussion = """
        Reads the spec's sources, maps them onto the model's entities and writes a single-file Core Data
        store. The store is built in a temporary file and replaces the output only when complete and
        verified; on any error the previous output is untouched. Prints one summary line.

        --into STORE updates an existing store that matches the model, in a copy that replaces it when
        complete (with --output PATH, the updated store goes there and STORE is left as it was):
        --mode upsert (the default) updates the rows matched by key (Z_OPT + 1 when a value changes;
        a blank cell keeps the stored value unless the spec says "onBlank": "null"), adds new rows
        above Z_MAX and keeps the rows the input does not mention; insert adds new rows only. A store
        an app has open is refused, never replaced under it. In a store that tracks persistent history
        (ATRANSACTION, ACHANGE) the update's new rows are recorded as one transaction, as Core Data
        would; an update that changes stored objects (a stored row updated, a new row or join row
        linking a stored one) is refused, since its history cannot be written yet: without history
        CloudKit would never export it and extensions would not see it. --no-history updates it anyway.

        A spec with "historyTracking": true gives the new store Core Data's history tables and records
        the seed as one transaction (author coreseed or --author NAME), one insert change per row,
        timestamped SOURCE_DATE_EPOCH (seconds since 1970) when set, else 2001-01-01 00:00:00 UTC, so
        that identical inputs give identical stores.

        --mode sync is upsert plus deletion: the stored rows of the entities the spec maps whose key no
        record has are deleted, each applying the model's delete rules as Core Data's deleteObject:
        and save would (Nullify clears the inverse, Cascade deletes the related rows, Deny refuses
        the whole run naming the rows, No Action leaves their keys dangling). A run that would delete
        more than half of an entity's stored rows stops, changing nothing, unless --allow-deletes is
        given. The summary, --report and --dry-run (which changes nothing) list the deletions per
        entity and the relationships whose Cascade caused them.

        --explain prints the mapping instead of building: per entity its sources and key, then one line
        per attribute ('closeDate ← 'Closing Date' (the spec): Date, date matching "d-MMM-yy" in
        America/New_York; first: 2010-03-26T04:00:00Z') and per relationship, the field found by the
        spec, a userInfo key (mappedKeyName, JSONKeyPath, sync.remoteKey) or a name match, and the first
        record's value.

        Progress goes to stderr: on a terminal one line rewritten in place (reading, linking, writing,
        checking, with counts and a percentage when the total is known); otherwise a plain line at
        most every 5 seconds (CORESEED_PROGRESS_INTERVAL=SECONDS sets the interval, 0 prints every one).
        """
    static let examples = ["coreseed build Inputs/seed.json --output Outputs/Carriers.sqlite --report build-report.json"]

    static func run(_ arguments: Arguments) throws -> ExitStatus {
        let spec = arguments.positionals.first ?? "Inputs/seed.json"
        if arguments.flag("explain") {
            try Terminal.out(BuildExplanation.lines(specPath: spec, configuration: arguments.option("configuration")).joined(separator: "\n"))
            return .success
        }
        var options = SeedBuild.Options()
        options.output = arguments.option("output")
        options.dryRun = arguments.flag("dry-run")
        options.maxErrors = arguments.count("max-errors", default: 0)
        options.failOnRejects = arguments.flag("fail-on-rejects")
        options.allowEmpty = arguments.flag("allow-empty")
        options.timeout = arguments.timeout
        options.configuration = arguments.option("configuration")
        options.into = arguments.option("into")
        options.allowDeletes = arguments.flag("allow-deletes")
        options.noHistory = arguments.flag("no-history")
        if let author = arguments.option("author") {
            guard !author.isEmpty else { throw Arguments.UsageError(message: "--author needs a name, not an empty one") }
            options.author = author
        }
        options.historyTimestamp = try historyTimestamp(ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"])
        if let mode = arguments.option("mode") {
            options.mode = SeedSpec.Mode(rawValue: mode)
        } else if options.into != nil {
            options.mode = .upsert
        }
        // --mode says how --into updates a store: without it there is no store to update, and replace
        // would ignore it.
        if options.into == nil, let mode = options.mode, mode != .replace {
            throw Arguments.UsageError(message: "--mode \(mode.rawValue) needs --into STORE, the store to update")
        }
        if options.into != nil, options.mode == .replace {
            throw Arguments.UsageError(message: "--mode replace writes a new store; --into updates one: give one of them")
        }
        let quiet = arguments.flag("quiet")
        let display = quiet ? nil : ProgressDisplay()
        if let display { options.progress = { line in display.report(line) } }
        let reportPath = arguments.option("report")
        options.reportPath = reportPath
        if let reportPath { try checkWritable(reportPath) }
        let report: BuildReport
        do {
            report = try SeedBuild.run(specPath: spec, options: options)
            display?.finish()
        } catch {
            display?.finish()
            if let failure = error as? BuildFailure {
                try write(failure.report, to: reportPath, rejected: failure.problems.compactMap { $0 as? MappingError })
            }
            throw error
        }
        try write(report, to: reportPath)
        for warning in report.warnings { Terminal.error(warning.text) }
        // Rejected values did not fail the build (--max-errors): warnings, each saying it was left out.
        for error in report.rejected {
            for diagnostic in error.diagnostics {
                var warning = diagnostic
                if warning.severity == .error {
                    warning.severity = .warning
                    warning.message = "rejected: " + warning.message
                }
                Terminal.error(warning.text)
            }
        }
        if !quiet { try Terminal.out(summary(report, dryRun: options.dryRun)) }
        return .success
    }

    /// `SOURCE_DATE_EPOCH` (reproducible builds: seconds since 1970) as seconds since 2001; 0 when unset.
    static func historyTimestamp(_ value: String?) throws -> Double {
        guard let value, !value.isEmpty else { return 0 }
        guard let seconds = Int64(value), seconds >= 0 else {
            throw FileError(.badRequest, message: "SOURCE_DATE_EPOCH must be whole seconds since 1970, not '\(value)': set it to a number (git log -1 --format=%ct) or unset it")
        }
        return Double(seconds) - 978_307_200
    }

    /// The report is written after the store is in place: a report that cannot be written must fail
    /// the build before it replaces anything, so its folder and file are tried first (and a file made
    /// only for the try is removed again).
    private static func checkWritable(_ path: String) throws {
        let existed = FileManager.default.fileExists(atPath: path)
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(FilePath(path), O_WRONLY | O_CREAT | O_APPEND, permissions: 0o644)
        } catch {
            throw FileError(.cannotWriteOutput, path: path,
                            message: "cannot write the report: \(error.description); nothing was built")
        }
        descriptor.close()
        if !existed { FileSystem.remove(FilePath(path)) }
    }

    private static func write(_ report: BuildReport, to path: String?, rejected: [MappingError]? = nil) throws {
        guard let path else { return }
        var report = report
        if let rejected { report.rejected = rejected }
        do {
            try Data((report.json + "\n").utf8).write(to: URL(fileURLWithPath: path))
        } catch {
            throw FileError(.cannotWriteOutput, path: path, message: "cannot write the report: \(error.localizedDescription)")
        }
    }

    static func summary(_ report: BuildReport, dryRun: Bool) -> String {
        let rows = report.totalRows
        let rate = report.seconds > 0 ? Int(Double(rows) / report.seconds) : rows
        let what = dryRun ? "checked (dry run, nothing written)" : "built \(Terminal.displayPath(report.output ?? ""))"
        let seconds = String(format: "%.2f", report.seconds)
        if let before = report.storedRowsBefore {
            // An update says what happened to the store: rows added, rows changed, rows kept as they were.
            let updated = report.entities.reduce(0) { $0 + $1.updated }
            let links = report.joinRows.values.reduce(0, +)
            let linkText = links > 0 ? ", \(links) join row\(links == 1 ? "" : "s") added" : ""
            let deleted = report.deletions.filter { name, _ in report.entities.contains { $0.name == name } }.values.reduce(0) { $0 + $1.rows }
            let counts = "\(rows) added, \(updated) updated, \(before - updated - deleted) kept\(report.deletedText)\(linkText)\(report.rejectedAndDropped)"
            if dryRun { return "checked (dry run, nothing written): would update \(Terminal.displayPath(report.storePath ?? "")): \(counts) in \(seconds) s" }
            return "updated \(Terminal.displayPath(report.output ?? "")): \(counts) in \(seconds) s"
        }
        let joins = report.joinRows.values.reduce(0, +)
        let joinText = joins > 0 ? " and \(joins) join rows" : ""
        return "\(what): \(report.entities.count) entities, \(rows) rows\(joinText)\(report.rejectedAndDropped) in \(seconds) s (\(rate) rows/s)"
    }
}
