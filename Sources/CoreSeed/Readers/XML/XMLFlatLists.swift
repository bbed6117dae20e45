/// Lists of plain values in plain memory: list `i` is `items[starts[i]..<starts[i + 1]]`.
/// Freed when it goes (`~Copyable`: one owner).
struct XMLFlatLists<Element: BitwiseCopyable>: ~Copyable {
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
    subscript(index: Int) -> UnsafeBufferPointer<Element> {
        UnsafeBufferPointer(start: items + starts[index], count: starts[index + 1] - starts[index])
    }

    deinit {
        starts.deallocate()
        items.deallocate()
    }
}

extension UnsafeBufferPointer {
    /// `array` in plain memory, freed with `deallocate()`.
    init(copying array: [Element]) {
        let copy = UnsafeMutableBufferPointer<Element>.allocate(capacity: Swift.max(array.count, 1))
        _ = copy.initialize(from: array)
        self.init(start: copy.baseAddress, count: array.count)
    }
}
