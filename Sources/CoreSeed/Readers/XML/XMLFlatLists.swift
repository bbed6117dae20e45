/// Lists of plain values in plain memory: list `i` is `items[starts[i]..<starts[i + 1]]`.
/// Freed when it goes (`~Copyable`: one owner).
struct XMLFlatLists<Element: BitwiseCopyable>: ~Copyable {
    // SAFETY: both allocated in init and freed in deinit; ~Copyable, so one owner frees them once.
    private let starts: UnsafeMutablePointer<Int>
    private let items: UnsafeMutablePointer<Element>

    init(_ lists: [[Element]]) {
        starts = .allocate(capacity: lists.count + 1)
        items = .allocate(capacity: max(lists.reduce(0) { $0 + $1.count }, 1))
        var end = 0
        for (index, list) in lists.enumerated() {
            starts[index] = end
            (items + end).initialize(from: list, count: list.count)
            end += list.count
        }
        starts[lists.count] = end
    }

    @inline(__always)
    // SAFETY: a view of `items`, valid while these lists live (the plan that owns them outlives every use).
    subscript(index: Int) -> UnsafeBufferPointer<Element> {
        UnsafeBufferPointer(start: items + starts[index], count: starts[index + 1] - starts[index])
    }

    deinit {
        starts.deallocate()
        items.deallocate()
    }
}

// SAFETY: see `init(copying:)`: the caller owns what it makes.
extension UnsafeBufferPointer {
    /// `array` in plain memory, freed with `deallocate()`.
    /// SAFETY: the copy is owned by the caller, which frees it with `deallocate()` (XMLRecordPlan.deinit).
    init(copying array: [Element]) {
        let copy = UnsafeMutableBufferPointer<Element>.allocate(capacity: Swift.max(array.count, 1))
        _ = copy.initialize(from: array)
        self.init(start: copy.baseAddress, count: array.count)
    }
}
