import Foundation
import Testing

/// Golden files: the exact text a command prints, checked in under `Golden/` beside the test that
/// compares with it (swift-argument-parser's snapshots). `CORESEED_RECORD_GOLDEN=1` rewrites them
/// from what the test got, and fails every test it rewrote for, so that a recording run never
/// passes: review the diff (`git diff Tests/`), then run again without the variable.
public enum GoldenFile {
    /// `CORESEED_RECORD_GOLDEN=1`: golden files are written, not compared.
    public static let isRecording = ProcessInfo.processInfo.environment["CORESEED_RECORD_GOLDEN"] == "1"

    /// `Golden/NAME` in the folder of the test file `testFile` (a `#filePath`).
    public static func url(_ name: String, besideTestFile testFile: String) -> URL {
        URL(fileURLWithPath: testFile).deletingLastPathComponent().appendingPathComponent("Golden").appendingPathComponent(name)
    }

    /// Compares `actual` with the file at `url`, or records it there when `recording`: nil when it
    /// matches, else why the test fails (a recording always fails).
    public static func check(_ actual: String, against url: URL, recording: Bool) -> String? {
        let shown = displayPath(url)
        if recording {
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(actual.utf8).write(to: url)
            } catch {
                return "could not record the golden file \(shown): \(error)"
            }
            return "recorded the golden file \(shown) (CORESEED_RECORD_GOLDEN=1); a recording run fails: "
                + "review the file, then run again without CORESEED_RECORD_GOLDEN"
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            return "no golden file \(shown): run with CORESEED_RECORD_GOLDEN=1 to record it, then review it"
        }
        let expected = String(decoding: data, as: UTF8.self)
        guard expected != actual else { return nil }
        return "the text differs from the golden file \(shown) " + firstDifference(expected: expected, actual: actual)
            + "; if the change is meant, run with CORESEED_RECORD_GOLDEN=1 and review the diff"
    }

    /// Where two texts first differ: the line number and both lines (`<end of text>` past the end).
    static func firstDifference(expected: String, actual: String) -> String {
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let line = (0..<min(old.count, new.count)).first { old[$0] != new[$0] } ?? min(old.count, new.count)
        func text(_ lines: [Substring]) -> String { line < lines.count ? "\"\(lines[line])\"" : "<end of text>" }
        return "at line \(line + 1): expected \(text(old)), got \(text(new))"
    }

    /// The path from the repository root, as a reader finds the file.
    static func displayPath(_ url: URL) -> String {
        let root = TestPaths.repositoryRoot.path + "/"
        return url.path.hasPrefix(root) ? String(url.path.dropFirst(root.count)) : url.path
    }
}

/// Compares `actual` with the golden file `Golden/NAME` beside the calling test file, exactly (every
/// byte, the last newline included); records a test issue naming the file and the first difference.
/// With `CORESEED_RECORD_GOLDEN=1` the file is rewritten and the test fails saying so.
public func assertGolden(_ actual: String, file name: String, recording: Bool = GoldenFile.isRecording,
                         filePath: String = #filePath, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    let url = GoldenFile.url(name, besideTestFile: filePath)
    if let failure = GoldenFile.check(actual, against: url, recording: recording) {
        Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation)
    }
}
