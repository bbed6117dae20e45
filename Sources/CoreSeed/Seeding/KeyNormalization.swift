import Foundation

/// Keys that differ only in Unicode normalization ("Québec" with one code point for é, NFC, or with
/// `e` and a combining accent, NFD) are different keys, as they are for Core Data, which compares
/// bytes. When a key matches nothing, the message says whether its other form exists.
enum KeyNormalization {
    /// `a key "Québec" (NFC) exists; this one is NFD` when `exists` finds the key's NFC or NFD form
    /// (and it differs from the key); nil otherwise, and for ASCII keys (one form only).
    static func note(for key: String, exists: (String) -> Bool) -> String? {
        guard key.utf8.contains(where: { $0 >= 0x80 }) else { return nil }
        let composed = key.precomposedStringWithCanonicalMapping, decomposed = key.decomposedStringWithCanonicalMapping
        let form = key.utf8.elementsEqual(composed.utf8) ? "NFC" : key.utf8.elementsEqual(decomposed.utf8) ? "NFD" : "in neither form"
        for (other, name) in [(composed, "NFC"), (decomposed, "NFD")] where !other.utf8.elementsEqual(key.utf8) && exists(other) {
            return "a key \"\(NaturalKey.display(other))\" (\(name)) exists; this one is \(form == "in neither form" ? "in neither NFC nor NFD" : form)"
        }
        return nil
    }
}

/// The key pass's key maps, for the row pass's messages about unresolved keys: read only after the key
/// pass, so the reading thread may look keys up in them.
// SAFETY: `pass` is a copy made after the key pass; only non-mutating look-ups read it (on the reading
// thread), and the build's thread only reads its own copy (shared storage, never written again).
struct KnownKeys: @unchecked Sendable {
    private let pass: KeyPass
    private let candidates: [String: [Int]]

    /// The keys of `pass`, when a record has an unresolved key to report (nil otherwise: nothing is kept).
    init?(_ pass: inout KeyPass) {
        guard pass.states.contains(where: { !$0.numbers.unresolved.isEmpty }) else { return nil }
        var candidates: [String: [Int]] = [:]
        for entity in pass.plan.seedPlan.entities {
            for link in entity.fieldLinks {
                let destination = link.relationship.destinationEntity
                if candidates[destination] == nil { candidates[destination] = pass.candidates(for: destination) }
            }
        }
        self.pass = pass
        self.candidates = candidates
    }

    /// The note on an unresolved `key` of a relationship to `destination`.
    func note(for key: String, destination: String) -> String? {
        guard let candidates = candidates[destination] else { return nil }
        return KeyNormalization.note(for: key) { (try? pass.lookup(candidates, LinkKey($0))) != nil }
    }
}

extension KeyPass {
    /// ``KeyNormalization/note(for:exists:)`` of `key` among the keys of `candidates`.
    func normalizationNote(_ key: String?, _ candidates: [Int]) -> String? {
        key.flatMap { key in KeyNormalization.note(for: key) { (try? lookup(candidates, LinkKey($0))) != nil } }
    }
}
