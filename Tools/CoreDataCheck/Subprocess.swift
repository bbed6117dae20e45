import Foundation

/// One finished run of another program: its exit status and what it wrote.
struct Subprocess {
    let command: String
    let status: Int32
    let output: Data
    let errors: String

    /// Runs `executable` with `arguments` and waits for it. Standard error goes through a file, so
    /// that a program writing much to both streams cannot block on a full pipe.
    static func run(_ executable: String, _ arguments: [String]) throws(CheckFailure) -> Subprocess {
        let command = ([executable] + arguments).map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " ")
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("core-data-check-\(UUID().uuidString).stderr")
        guard FileManager.default.createFile(atPath: errorFile.path, contents: nil),
              let errorHandle = try? FileHandle(forWritingTo: errorFile) else {
            throw .failed("cannot create \(errorFile.path) for the standard error of \(command)")
        }
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errorHandle
        do {
            try process.run()
        } catch {
            throw .failed("cannot run \(executable): \(error.localizedDescription)")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try? errorHandle.close()
        let errors = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
        let status = process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
        return Subprocess(command: command, status: status, output: data, errors: errors)
    }

    /// Runs it and requires exit status 0; otherwise fails naming the command and its first error line.
    static func succeed(_ executable: String, _ arguments: [String]) throws(CheckFailure) -> Subprocess {
        let result = try run(executable, arguments)
        guard result.status == 0 else {
            throw .failed("\(result.command) failed (exit status \(result.status)): \(result.firstErrorLine)")
        }
        return result
    }

    var firstErrorLine: String {
        errors.split(separator: "\n").first.map(String.init) ?? "no message"
    }

    /// Standard output as text.
    var text: String { String(decoding: output, as: UTF8.self) }
}

/// What the checks of one store found: problems fail it, notes are facts worth seeing.
struct StoreReport {
    let store: String
    private(set) var problems: [String] = []
    private(set) var notes: [String] = []
    /// One line per check that passed, for the summary.
    private(set) var passed: [String] = []

    init(store: String) { self.store = store }

    var ok: Bool { problems.isEmpty }

    mutating func fail(_ problem: String) { problems.append(problem) }
    mutating func note(_ note: String) { notes.append(note) }
    mutating func pass(_ check: String) { passed.append(check) }

    /// `STORE: error: …` lines on standard error; notes, passed checks and `STORE: OK` on standard output.
    func print() {
        for line in passed { Swift.print("\(store): \(line)") }
        for note in notes { Swift.print("\(store): note: \(note)") }
        for problem in problems { printError("\(store): error: \(problem)") }
        if ok { Swift.print("\(store): OK") }
    }
}

func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
