import Foundation
import Testing
@testable import CoreSeed

/// Several temporary files can be registered for removal on SIGINT/SIGTERM at once (a backup's copy and
/// the private copy of the store it reads), each as a block the signal handler walks without allocating.
/// What the handler does is tested end to end (`LiveStoreTests`): it ends the process.
struct InterruptCleanupTests {
    /// The paths of the block registered in `slot`, folders ending with "/".
    static func paths(in slot: Int) -> [String]? {
        InterruptCleanup.slots[slot].load(ordering: .sequentiallyConsistent).map { pointer in
            var strings: [String] = []
            var cursor = pointer
            while cursor.pointee != 0 {
                strings.append(String(cString: cursor))
                cursor += strlen(cursor) + 1
            }
            return strings
        }
    }

    @Test func severalRegistrationsAreKeptAndForgotten() {
        let first = InterruptCleanup.register(store: "/nonexistent/a.sqlite")
        let second = InterruptCleanup.register(files: ["/nonexistent/b"], folders: ["/nonexistent/folder"])
        #expect(first != second)
        #expect(Self.paths(in: first.slot) == ["/nonexistent/a.sqlite", "/nonexistent/a.sqlite-journal",
                                               "/nonexistent/a.sqlite-wal", "/nonexistent/a.sqlite-shm"])
        #expect(Self.paths(in: second.slot) == ["/nonexistent/b", "/nonexistent/folder/"])
        InterruptCleanup.unregister(first)
        InterruptCleanup.unregister(second)
        #expect(Self.paths(in: first.slot) == nil && Self.paths(in: second.slot) == nil)
    }
}
