/// A path on disk (swift-system's `FilePath` shape, written here since no package is fetched): the
/// bytes the system calls are given, with the component arithmetic CoreSeed needs.
public struct FilePath: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The path as text.
    public let string: String

    public init(_ string: String) { self.string = string }
    public init(stringLiteral value: String) { self.string = value }

    public var description: String { string }

    /// The last component (`Store.sqlite` of `/a/Store.sqlite`); the whole path when it has no slash.
    public var lastComponent: String {
        guard let slash = string.lastIndex(of: "/") else { return string }
        return String(string[string.index(after: slash)...])
    }

    /// The path without its last component (`/a` of `/a/Store.sqlite`, `.` of `Store.sqlite`, `/` of `/a`).
    public var removingLastComponent: FilePath {
        guard let slash = string.lastIndex(of: "/") else { return FilePath(".") }
        return slash == string.startIndex ? FilePath("/") : FilePath(String(string[..<slash]))
    }

    /// `component` appended with one slash.
    public func appending(_ component: String) -> FilePath {
        FilePath(string.hasSuffix("/") ? string + component : string + "/" + component)
    }
}
