import Foundation

/// Where the CLI writes: results to stdout, diagnostics to stderr.
enum Terminal {
    static func out(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// True when stderr is a terminal (progress lines, colour).
    static var stderrIsTTY: Bool { isatty(2) == 1 }
}

extension Terminal {
    /// Rewrites the progress line on stderr (a TTY only); nil clears it.
    static func progress(_ line: String?) {
        let text = line.map { "\r\u{1B}[K\($0)" } ?? "\r\u{1B}[K"
        FileHandle.standardError.write(Data(text.utf8))
    }
}

extension Terminal {
    /// `path` relative to the current directory when it lies inside it, as the user would type it.
    static func displayPath(_ path: String) -> String {
        let cwd = FileManager.default.currentDirectoryPath
        return path.hasPrefix(cwd + "/") ? String(path.dropFirst(cwd.count + 1)) : path
    }
}
