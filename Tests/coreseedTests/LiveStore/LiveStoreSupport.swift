import Foundation
import CoreSeed
import CoreSeedTestSupport

/// A `coreseed` run in a child process with a private `TMPDIR`, which a test can signal, time and
/// inspect while it runs (`BinaryRunner` waits for the end; these tests act in the middle).
///
/// Spawned with `posix_spawn`, every signal unblocked and at its default disposition, as a shell starts a
/// command: `Foundation.Process` passes on the test runner's blocked signals, and a child that blocks
/// SIGINT and SIGTERM is never interrupted. The CPU time it used comes from `wait4`.
final class ChildRun {
    let pid: pid_t
    /// The child's `TMPDIR`: nothing may remain in it once the child has ended.
    let temporaryDirectory: URL
    private let output: URL
    private let errors: URL
    private let started = Date()
    private var ended: (status: Int32, cpu: Double)?

    init(_ arguments: [String], in directory: URL) throws {
        let token = UUID().uuidString
        temporaryDirectory = directory.appendingPathComponent("tmp-\(token)")
        try FileManager.default.createDirectory(at: temporaryDirectory, withIntermediateDirectories: true)
        output = directory.appendingPathComponent("out-\(token).txt")
        errors = directory.appendingPathComponent("err-\(token).txt")
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = temporaryDirectory.path + "/"
        // The shell changes directory, then becomes the command (exec keeps the pid and the signal state).
        let words = ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\" >\"$OUT\" 2>\"$ERR\"", directory.path, BinaryRunner.binary.path] + arguments
        environment["OUT"] = output.path
        environment["ERR"] = errors.path
        let argv = words.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        #if canImport(Darwin)
        var attributes: posix_spawnattr_t? = nil
        #else
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), defaults = sigset_t()
        sigemptyset(&none)
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, "/bin/sh", nil, &attributes, argv, envp)
        guard rc == 0 else { throw FileError(path: "/bin/sh", message: "posix_spawn: \(String(cString: strerror(rc)))") }
        self.pid = pid
    }

    /// Seconds since the child started.
    var elapsed: Double { Date().timeIntervalSince(started) }

    /// Whether the child is still running (reaps it when it has ended).
    var isRunning: Bool {
        reap(blocking: false)
        return ended == nil
    }

    /// What is in the child's `TMPDIR` now.
    func temporaryFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: temporaryDirectory.path)) ?? []).sorted()
    }

    /// Sends `signal` to the child.
    func send(_ signal: Int32) {
        if ended == nil { kill(pid, signal) }
    }

    /// CPU seconds (user + system) the child used, once it has ended.
    var cpuSeconds: Double? { ended?.cpu }

    private func reap(blocking: Bool) {
        guard ended == nil else { return }
        var status: Int32 = 0
        var usage = rusage()
        guard wait4(pid, &status, blocking ? 0 : WNOHANG, &usage) == pid else { return }
        // As a shell reports it: the exit code, or 128 + the signal that ended the process.
        let signal = status & 0x7f
        let code = signal == 0 ? (status >> 8) & 0xff : 128 + signal
        let cpu = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        ended = (code, cpu)
    }

    /// Waits up to `seconds` for the child to end. When it has not, kills it (SIGKILL) and returns nil.
    func wait(upTo seconds: Double) -> BinaryRunner.Result? {
        let deadline = Date().addingTimeInterval(seconds)
        while isRunning && Date() < deadline { usleep(5_000) }
        if isRunning {
            send(SIGKILL)
            reap(blocking: true)
            return nil
        }
        return BinaryRunner.Result(status: ended?.status ?? -1,
                                   stdout: (try? String(contentsOf: output, encoding: .utf8)) ?? "",
                                   stderr: (try? String(contentsOf: errors, encoding: .utf8)) ?? "")
    }
}

/// Writes to a store from its own connection and thread, the way an app does while a command reads the
/// store: each transaction adds three `AccessPoint` rows, raises `Z_MAX` by three in the same
/// transaction, and rewrites a column in rows spread over the whole file, so a reader that does not
/// see one committed state finds `Z_MAX` and the rows disagreeing, or pages from two states.
final class LiveWriter: @unchecked Sendable {
    private let lock = NSLock()
    private var stopping = false
    private var commits = 0
    private var failure: String?
    private let done = DispatchSemaphore(value: 0)

    /// Starts writing to the store at `path`. `journal` is "wal" or "delete". `holdMilliseconds` keeps each
    /// write transaction open that long before it commits; with a small page cache a rollback-journal
    /// writer then holds its exclusive lock (it spilled pages into the file) for that time.
    init(path: String, journal: String, holdMilliseconds: UInt32 = 5) {
        let thread = Thread { [self] in
            defer { done.signal() }
            do {
                let database = try SQLiteDatabase(path: path, mode: .readWrite)
                database.setBusyTimeout(milliseconds: 60_000)
                _ = try database.scalar("PRAGMA journal_mode = \(journal)")
                try database.execute("PRAGMA cache_size = 20; PRAGMA wal_autocheckpoint = 1; PRAGMA synchronous = OFF")
                var round: Int64 = 0
                while !isStopping {
                    round += 1
                    try database.execute("BEGIN IMMEDIATE")
                    guard case .integer(let max)? = try database.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 1") else {
                        throw FileError(path: path, message: "no Z_MAX for AccessPoint")
                    }
                    try database.execute("""
                        INSERT INTO ZACCESSPOINT (Z_PK, Z_ENT, Z_OPT, ZPROVIDER, Z_FOK_PROVIDER, ZAPN, ZNAME)
                          VALUES (\(max + 1), 1, 1, 1, \(max + 1), 'live', hex(randomblob(400))), (\(max + 2), 1, 1, 1, \(max + 2), 'live', hex(randomblob(400))),
                                 (\(max + 3), 1, 1, 1, \(max + 3), 'live', hex(randomblob(400)));
                        UPDATE ZACCESSPOINT SET ZUSERNAME = hex(randomblob(8)) WHERE Z_PK % 61 = \(round % 61);
                        UPDATE Z_PRIMARYKEY SET Z_MAX = \(max + 3) WHERE Z_ENT = 1
                        """)
                    usleep(holdMilliseconds * 1000)
                    try database.execute("COMMIT")
                    lock.withLock { commits += 1 }
                    usleep(2_000)
                }
            } catch {
                lock.withLock { failure = "\(error)" }
            }
        }
        thread.start()
    }

    private var isStopping: Bool { lock.withLock { stopping } }

    /// Transactions committed so far.
    var committed: Int { lock.withLock { commits } }

    /// Stops the writer and waits for it; returns its error, if it had one.
    func stop() -> String? {
        lock.withLock { stopping = true }
        done.wait()
        return lock.withLock { failure }
    }
}

/// Stores for the live-store tests, built from the repository's own inputs (no corpus needed).
enum LiveStores {
    /// Builds the Carriers store into `scratch` as `name`, then grows `ZACCESSPOINT` by `rows` rows of
    /// about 1 KB each (`Z_MAX` kept equal to the highest `Z_PK`; each row given a position in the ordered
    /// `Provider.accessPoints`, as Core Data gives one), in the given journal mode.
    static func carriers(in scratch: Scratch, name: String, rows: Int, journal: String = "delete") throws -> String {
        let build = try BinaryRunner.run(["build", "Inputs/seed.json", "--output", scratch.path(name), "--quiet"])
        guard build.status == 0 else { throw FileError(path: name, message: "build failed: \(build.stderr)") }
        let database = try SQLiteDatabase(path: scratch.path(name), mode: .readWrite)
        if rows > 0 {
            try database.execute("""
            BEGIN;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))
            INSERT INTO ZACCESSPOINT (Z_PK, Z_ENT, Z_OPT, ZPROVIDER, Z_FOK_PROVIDER, ZAPN, ZNAME)
              SELECT (SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 1) + i, 1, 1, 1, (SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 1) + i, 'grown', hex(randomblob(500)) FROM n;
            UPDATE Z_PRIMARYKEY SET Z_MAX = (SELECT max(Z_PK) FROM ZACCESSPOINT) WHERE Z_ENT = 1;
            COMMIT
            """)
        }
        _ = try database.scalar("PRAGMA journal_mode = \(journal)")
        return scratch.path(name)
    }

    /// `AccessPoint`'s `Z_MAX`, its row count and its highest `Z_PK` in the store at `path`, which must
    /// agree in any committed state of a store a `LiveWriter` writes.
    static func accessPointCounts(_ path: String) throws -> [String] {
        let database = try SQLiteDatabase(path: path, mode: .readOnly(immutable: true))
        return try StoreOps.rows(database, """
            SELECT (SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 1), count(*), max(Z_PK) FROM ZACCESSPOINT
            """)[0]
    }
}
