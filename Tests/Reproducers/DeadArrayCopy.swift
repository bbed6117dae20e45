// A Swift optimizer bug (issue 30), reduced: in a loop, an `Array` made from a slice whose value is
// never used is freed before the bytes are copied into it, so the copy writes into freed memory.
// Seen with Swift 6.3.1 (swift-6.3.1-RELEASE, x86_64 Linux) at -O; -Onone is clean. The copy that
// `SeedBuild`'s self-check and `coreseed verify` made of every inline external-storage value
// (`ExternalBinary.decode`, `Array(column.dropFirst())`, bytes unused by the check) was one; while the
// self-check's other thread allocated, the freed block could be someone else's by the time of the write.
//
// The pass is DeadCodeElimination (the first bad one by -Xllvm -sil-opt-pass-count bisection: "DCE",
// HighLevel,Function+EarlyLoopOpt): it deletes the copy_value that kept the new buffer alive across the
// copyArray builtin, whose destination is a raw pointer it does not count as a use.
//
//   swiftc -O -sanitize=address Tests/Reproducers/DeadArrayCopy.swift -o /tmp/dead-array-copy && /tmp/dead-array-copy
//     → "AddressSanitizer: heap-use-after-free … WRITE of size 15" while the bug is there; "clean" once fixed.
//   (or: swiftc -O … && valgrind --error-exitcode=9 /tmp/dead-array-copy → "Invalid write of size 1")
// `scripts/memcheck.sh` runs it and says which. The workaround in the code: `ExternalBinary.Stored.inline`
// holds an `ArraySlice` of the column (no copy to be made dead); see the comment there.

@inline(never)
func discardTails(_ columns: [[UInt8]]) {
    for column in columns {
        _ = Array(column.dropFirst())  // freed, then written
    }
}

discardTails([Array(repeating: 1, count: CommandLine.arguments.count + 15)])
print("clean")
