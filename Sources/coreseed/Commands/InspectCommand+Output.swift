import CoreSeed
import Foundation

/// How `coreseed inspect` shows a ``StoreInspection``: the library reads the store, the command line
/// words the report.

extension StoreInspection {
    /// The text report, one fact per line:
    ///
    ///     store: Outputs/Carriers.sqlite
    ///     uuid: 3C1F…
    ///     journal mode: rollback
    ///     page size: 4096
    ///     auto_vacuum: incremental
    ///     sidecar: Carriers.sqlite-wal (4152 bytes)      (or "sidecars: none")
    ///     external data: ./.Carriers_SUPPORT/_EXTERNAL_DATA (2 files, 300000 bytes)   (when the folder exists)
    ///     persistent history: 1 transaction, 5468 changes        (or "persistent history: not tracked")
    ///     metadata NSPersistenceFrameworkVersion: 1518
    ///     metadata NSStoreModelVersionHashes.Country: "base64…"
    ///     entity 1 AccessPoint super 0 max 1304 rows 1304
    ///     coreseed: 0.10.0                                (the version that read the store)
    var lines: [String] {
        var lines = ["store: \(path)", "uuid: \(uuid ?? "none")", "journal mode: \(header.journalMode.rawValue)",
                     "page size: \(header.pageSize)", "auto_vacuum: \(header.autoVacuum.rawValue)"]
        if sidecars.isEmpty { lines.append("sidecars: none") }
        for sidecar in sidecars { lines.append("sidecar: \(sidecar.name) (\(sidecar.size) bytes)") }
        if let externalData { lines.append("external data: \(externalData.folder) (\(externalData.files) files, \(externalData.bytes) bytes)") }
        if let history {
            lines.append("persistent history: \(history.transactions) transaction\(history.transactions == 1 ? "" : "s"), \(history.changes) change\(history.changes == 1 ? "" : "s")")
        } else {
            lines.append("persistent history: not tracked")
        }
        for (key, value) in metadata {
            if key == StoreMetadata.Key.versionHashes, case .dictionary(let hashes) = value {
                for entity in hashes.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                    lines.append("metadata \(key).\(entity): \(StoreInspection.json(hashes[entity]!))")
                }
            } else {
                lines.append("metadata \(key): \(StoreInspection.json(value))")
            }
        }
        for entity in entities {
            lines.append("entity \(entity.number) \(entity.name) super \(entity.superNumber) max \(entity.max) rows \(entity.rows.map(String.init) ?? "-")")
        }
        lines.append("coreseed: \(CoreSeedInfo.version)")
        return lines
    }

    /// The JSON report, keys in this fixed order:
    /// `{"store", "uuid", "journalMode", "pageSize", "autoVacuum", "sidecars": [{"name", "size"}],
    ///   "externalData": {"folder", "files", "bytes"} or null,
    ///   "history": {"transactions", "changes"} or null (the store does not track persistent history),
    ///   "metadata": {key: value, …}, "entities": [{"number", "name", "super", "max", "rows"}], "coreseed"}`.
    /// Property-list data is base64 text, dates ISO 8601 text.
    var json: String {
        var writer = JSONWriter()
        writer.object { json in
            json.field("store", path)
            json.field("uuid", uuid)
            json.field("journalMode", header.journalMode.rawValue)
            json.field("pageSize", header.pageSize)
            json.field("autoVacuum", header.autoVacuum.rawValue)
            json.field("sidecars") { json in
                json.array { json in
                    for sidecar in sidecars {
                        json.object { json in
                            json.field("name", sidecar.name)
                            json.field("size", sidecar.size)
                        }
                    }
                }
            }
            json.field("externalData") { json in
                if let externalData {
                    json.object { json in
                        json.field("folder", externalData.folder)
                        json.field("files", externalData.files)
                        json.field("bytes", externalData.bytes)
                    }
                } else {
                    json.raw("null")
                }
            }
            json.field("history") { json in
                if let history {
                    json.object { json in
                        json.field("transactions", Int(history.transactions))
                        json.field("changes", Int(history.changes))
                    }
                } else {
                    json.raw("null")
                }
            }
            json.field("metadata") { json in
                json.object { json in
                    for (key, value) in metadata {
                        json.field(key) { $0.raw(StoreInspection.json(value)) }
                    }
                }
            }
            json.field("entities") { json in
                json.array { json in
                    for entity in entities {
                        json.object { json in
                            json.field("number", Int(entity.number))
                            json.field("name", entity.name)
                            json.field("super", Int(entity.superNumber))
                            json.field("max", Int(entity.max))
                            json.field("rows", entity.rows.map { Int($0) })
                        }
                    }
                }
            }
            json.field("coreseed", CoreSeedInfo.version)
        }
        return writer.text
    }

    /// A property-list value as JSON text: data as base64 strings, dates as ISO 8601 strings,
    /// dictionary keys in UTF-8 order.
    static func json(_ value: PropertyListValue) -> String {
        switch value {
        case .string(let text): return JSONWriter.quoted(text)
        case .integer(let number): return String(number)
        case .real(let number): return number.isFinite ? "\(number)" : JSONWriter.quoted("\(number)")
        case .boolean(let flag): return flag ? "true" : "false"
        case .date(let seconds): return JSONWriter.quoted(ExportValue.iso8601(secondsSinceReference: seconds))
        case .data(let bytes): return JSONWriter.quoted(Data(bytes).base64EncodedString())
        case .array(let items): return "[" + items.map(json).joined(separator: ", ") + "]"
        case .dictionary(let items):
            let keys = items.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            return "{" + keys.map { JSONWriter.quoted($0) + ": " + json(items[$0]!) }.joined(separator: ", ") + "}"
        }
    }
}
