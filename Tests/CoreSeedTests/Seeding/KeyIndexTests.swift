import Testing
@testable import CoreSeed

@Suite struct KeyIndexTests {
    @Test(arguments: [("35216", 35216), ("-7", -7), ("0", 0), ("999999999999999999", 999_999_999_999_999_999)] as [(String, Int64)])
    func canonicalIntegers(text: String, value: Int64) {
        #expect(NaturalKey.canonicalInteger(text) == value)
    }

    @Test(arguments: ["007", "+5", "-0", "", "-", "1.0", "12a", " 1", "1234567890123456789", "１２"])
    func nonCanonicalTextStaysText(text: String) {
        #expect(NaturalKey.canonicalInteger(text) == nil)
    }

    /// A seeded random mix of integer and text keys, checked against a dictionary through growth.
    @Test func agreesWithADictionary() {
        var generator = SplitMix64(seed: 42)
        var index = KeyIndex()
        var reference: [String: Int32] = [:]
        for ordinal in 0..<200_000 {
            let roll = generator.next()
            let key: String = switch roll % 4 {
            case 0: String(Int64(bitPattern: generator.next()) >> 8)
            case 1: String(roll % 50_000)  // repeats: values replaced
            case 2: "0" + String(roll % 1000)  // leading zero: text
            default: "k\(roll % 70_000)"
            }
            index[key] = Int32(ordinal)
            reference[key] = Int32(ordinal)
        }
        #expect(index.count == reference.count)
        for (key, value) in reference { #expect(index[key] == value) }
        #expect(index["absent"] == nil && index["123456789012"] == nil)
    }

    /// Sequential ids must spread over the hash table, not pile up in one probe chain.
    @Test func sequentialIdsStayCheap() {
        var table = ProbeTable<Int64>()
        for key in 1...300_000 { table[Int64(key)] = Int32(key) }
        #expect(table.count == 300_000)
        #expect(table[150_000] == 150_000 && table[300_001] == nil)
        #expect(table.longestProbe < 64)
    }
}

@Suite struct IntegerKeyTableTests {
    /// A shuffled dense range (the bench's certificate numbers) ends up wholly in the array, whatever
    /// the order: keys first put in the probe table move into the array as it grows.
    @Test func shuffledDenseIdsEndInTheArray() {
        var generator = SplitMix64(seed: 11)
        var keys = Array(Int64(10_000)..<Int64(310_000))
        for index in keys.indices.reversed() { keys.swapAt(index, Int(generator.next() % UInt64(index + 1))) }
        var table = IntegerKeyTable()
        for (ordinal, key) in keys.enumerated() { table[key] = Int32(ordinal) }
        #expect(table.count == keys.count && table.otherCount == 0)
        #expect(table.directCount <= 4 * keys.count)
        for (ordinal, key) in keys.enumerated() { #expect(table[key] == Int32(ordinal)) }
        #expect(table[9_999] == nil && table[310_000] == nil && table[-1] == nil)
    }

    /// Negative, huge, dense, repeated and migrating keys agree with a dictionary; sparse keys do not
    /// make the array grow past four slots a key.
    @Test func agreesWithADictionary() {
        var generator = SplitMix64(seed: 5)
        var table = IntegerKeyTable()
        var reference: [Int64: Int32] = [:]
        for ordinal in 0..<150_000 {
            let roll = generator.next()
            let key: Int64 = switch roll % 5 {
            case 0: -Int64(roll % 1000)
            case 1: Int64(bitPattern: generator.next()) >> 4
            case 2: Int64(roll % 40_000)  // repeats: values replaced
            case 3: Int64(ordinal) * 3  // ahead of the array, then covered by it
            default: Int64(roll % 2_000_000)
            }
            table[key] = Int32(ordinal)
            reference[key] = Int32(ordinal)
            #expect(table.directCount <= max(1 << 16, 4 * (table.count + 1)))
        }
        #expect(table.count == reference.count)
        for (key, value) in reference { #expect(table[key] == value) }
        #expect(table[Int64.max] == nil && table[Int64.min] == nil)
    }
}

@Suite struct KeySetTests {
    @Test func insertReportsRepeatsForEveryKindOfKey() {
        var keys = KeySet()
        let samples = ["1", "0", "63", "64", "134217727", "134217728", "-5", "007", "abc", "9000000000"]
        for key in samples {
            let inserted = keys.insert(key)
            #expect(inserted, "\(key) is new")
        }
        for key in samples {
            let inserted = keys.insert(key)
            #expect(!inserted, "\(key) repeats")
        }
        let seven = keys.insert("7")  // "007" is text, "7" the integer
        #expect(seven)
    }

    @Test func agreesWithASetOverSeededRandomKeys() {
        var generator = SplitMix64(seed: 7)
        var keys = KeySet()
        var reference = Set<String>()
        for _ in 0..<100_000 {
            let roll = generator.next()
            let key = roll % 3 == 0 ? String(roll % 5_000_000) : (roll % 3 == 1 ? String(Int64(bitPattern: roll)) : "x\(roll % 9_000)")
            let inserted = keys.insert(key)
            #expect(inserted == reference.insert(key).inserted)
        }
    }
}

/// Text keys are kept as 128-bit fingerprints (issue 16: 1M 100-byte keys took 250 bytes each).
@Suite struct LinkKeyTests {
    @Test func integersAreExactAndTextIsFingerprinted() {
        #expect(LinkKey("35") == LinkKey(integer: 35))
        #expect(LinkKey("35").integer == 35)
        #expect(LinkKey("035").integer == nil && LinkKey("035") != LinkKey("35"))
        #expect(LinkKey("Soup") == LinkKey("Soup") && LinkKey("Soup") != LinkKey("soup"))
        #expect(LinkKey("Soup").high >> 63 == 1, "a fingerprint never looks like an integer key")
    }

    /// 100-byte keys that differ in one byte anywhere (and the same bytes at other lengths) all differ,
    /// and a table of them agrees with a dictionary through growth.
    @Test func longKeysDifferingInOneByteStayApart() {
        let base = Array(repeating: UInt8(ascii: "k"), count: 100)
        var table = FingerprintTable()
        var seen = Set<LinkKey>()
        for position in 0..<100 {
            for byte in [UInt8(ascii: "a"), UInt8(ascii: "z")] {
                var bytes = base
                bytes[position] = byte
                let key = bytes.withUnsafeBufferPointer { LinkKey(bytes: $0) }
                #expect(seen.insert(key).inserted)
                table[key] = Int32(seen.count)
            }
        }
        for length in 1..<100 { #expect(seen.insert(base.prefix(length).withUnsafeBufferPointer { LinkKey(bytes: $0) }).inserted) }
        #expect(table.count == 200)
        var generator = SplitMix64(seed: 3)
        var reference: [String: Int32] = [:]
        for ordinal in 0..<50_000 {
            let key = String(repeating: "x", count: 80) + String(generator.next() % 30_000)
            table[LinkKey(key)] = Int32(ordinal)
            reference[key] = Int32(ordinal)
        }
        for (key, value) in reference { #expect(table[LinkKey(key)] == value) }
        #expect(table.count == 200 + reference.count)
    }
}
