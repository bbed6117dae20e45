import Foundation
import Testing
@testable import CoreSeed

/// The wrappers the export and the command line moved onto (issue 25 item 4): each does its one call
/// and reports a failure as the call's `Errno`.
struct FileSystemTests {
    /// A fresh empty folder, removed by the caller.
    static func folder() throws -> FilePath {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("coreseed-fs-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        return FilePath(path)
    }

    @Test func writeAllWritesEveryByteAndClosesChecked() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder.string) }
        let path = folder.appending("out.txt")
        let descriptor = try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_TRUNC)
        let bytes = [UInt8](repeating: UInt8(ascii: "x"), count: 3 << 20) + Array("end\n".utf8)
        // SAFETY: the view is written out before `withUnsafeBytes` returns.
        let failure = bytes.withUnsafeBytes { view -> Errno? in
            do throws(Errno) { try descriptor.writeAll(view); return nil } catch { return error }
        }
        #expect(failure == nil)
        try descriptor.sync()
        try descriptor.closeChecked()
        #expect(FileManager.default.contents(atPath: path.string) == Data(bytes))
    }

    @Test func writeAllToAClosedDescriptorIsItsErrno() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder.string) }
        let descriptor = try FileDescriptor.open(folder.appending("closed"), O_WRONLY | O_CREAT)
        descriptor.close()
        let bytes: [UInt8] = [1, 2, 3]
        // SAFETY: the view is used inside the closure only.
        let failure = bytes.withUnsafeBytes { view -> Errno? in
            do throws(Errno) { try descriptor.writeAll(view); return nil } catch { return error }
        }
        #expect(failure == .badFileDescriptor)
        #expect(throws: Errno.badFileDescriptor) { try descriptor.closeChecked() }
    }

    @Test func hardLinkGivesTheFileASecondName() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder.string) }
        let first = folder.appending("first"), second = folder.appending("second")
        #expect(FileManager.default.createFile(atPath: first.string, contents: Data("kept".utf8)))
        try FileSystem.hardLink(first, to: second)
        #expect(try FileSystem.linkStatus(first).isSameFile(as: FileSystem.linkStatus(second)))
        #expect(throws: Errno(rawValue: EEXIST)) { try FileSystem.hardLink(first, to: second) }
        #expect(throws: Errno.noSuchFileOrDirectory) { try FileSystem.hardLink(folder.appending("none"), to: folder.appending("third")) }
    }

    @Test func symbolicLinkTargetIsTheLinksText() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder.string) }
        let link = folder.appending("link")
        try FileManager.default.createSymbolicLink(atPath: link.string, withDestinationPath: "../elsewhere/é.txt")
        #expect(try FileSystem.symbolicLinkTarget(link) == FilePath("../elsewhere/é.txt"))
        #expect(throws: Errno.invalidArgument) { try FileSystem.symbolicLinkTarget(folder) }
        #expect(throws: Errno.noSuchFileOrDirectory) { try FileSystem.symbolicLinkTarget(folder.appending("none")) }
    }
}
