import Foundation

/// The one way a finished store file takes its target's place, shared by a build, an upsert
/// (`build --into`) and `backup`: the steps, in order, that keep every file a store refers to while
/// it is the one at the target, and never replace a store an app has open or another process changed.
///
/// 1. take the target's `StoreLock` (an upsert and a backup have held it since before they read), or
///    check that the target is still the locked file, unchanged;
/// 2. refuse a target an app has open (`refuseIfInUse`);
/// 3. lock the folder (`ExternalDataFolder.lock`) and read which files the replaced store's rows refer to;
/// 4. place the external files the new store refers to (staged ones renamed in, copied ones through a
///    `.part` name, each `fsync`ed);
/// 5. give the new file the old one's permission bits, `fsync` it, rename it over the target;
/// 6. unlink the target's stale sidecars; remove the files only the replaced store referred to.
enum StoreInstall {
    /// Creates the target's folder, removes dead runs' scratch files beside it and any leftover of this
    /// process's `temporary`, and registers `temporary` for removal on SIGINT/SIGTERM.
    /// Errors are said of `reportedAs` (the user's output, never the temporary file).
    static func prepare(temporary: String, besides target: String, reportedAs: String) throws(FileError) -> InterruptCleanup.Registration {
        do {
            try FileManager.default.createDirectory(atPath: StoreLocations(temporary).folder, withIntermediateDirectories: true)
        } catch {
            throw FileError(.cannotWriteOutput, path: reportedAs, message: "cannot create the output folder: \(error.localizedDescription)")
        }
        removeStaleScratch(besides: target)
        removeStore(at: temporary)
        return InterruptCleanup.register(store: temporary)
    }

    /// Installs the complete, closed store at `temporary` over `target`, with the steps above.
    /// `lock`: the lock held since the target was read, or nil (taken here, when there is a target).
    /// `referenced`: the external files the new store refers to, however the caller learned them.
    /// `what`: the new file in the words of a rename failure ("the finished store", "the copy").
    /// `placed` runs once the new store is at the target (from then on it is no longer temporary).
    static func install(_ temporary: String, over target: String, lock: StoreLock?, referenced: Set<String>,
                        externalData: ExternalDataFolder, keepOwnership: Bool, what: String, timeout: Duration,
                        placed: () -> Void = {}) throws(FileError) {
        let held: StoreLock?
        if let lock { try lock.refuseIfChanged(target); held = lock } else { held = try StoreLock.acquire(target, timeout: timeout) }
        // Never rename over a store an app has open (its later commits would go nowhere).
        if FileManager.default.fileExists(atPath: target) { try refuseIfInUse(target, timeout: timeout) }
        // The files the new store refers to are in place before it is: the old store keeps all of its own.
        // Placing, renaming and removing old files is one step for runs to the same output at once.
        let installLock = ExternalDataFolder.lock(besides: target)
        defer { installLock.map(ExternalDataFolder.unlock) }
        let previous = ExternalDataFolder.previousReferences(ofStoreAt: target, timeout: timeout)
        try externalData.place(referenced)
        if keepOwnership { StoreInstall.keepOwnership(of: target, on: temporary) }
        if let descriptor = try? FileDescriptor.open(FilePath(temporary), O_RDONLY) {
            try? descriptor.sync()
            descriptor.close()
        }
        do {
            try FileSystem.rename(FilePath(temporary), to: FilePath(target))
        } catch {
            throw FileError(.cannotWriteOutput, path: target, message: "cannot move \(what) into place: \(error)")
        }
        placed()
        // Sidecars of an older store at the target would be replayed into the new one: remove them.
        for sidecar in StoreLocations.Sidecar.allCases { FileSystem.remove(FilePath(StoreLocations.sidecar(sidecar, of: target))) }
        externalData.removeUnreferenced(referenced, previous: previous)
        withExtendedLifetime(held) {}
    }

    /// Removes the store at `path` and its sidecars.
    static func removeStore(at path: String) {
        for file in StoreLocations.files(ofStoreAt: path) { FileSystem.remove(FilePath(file)) }
    }

    /// Removes the temporary stores and staging folders (`StoreLocations.Scratch`) left beside the
    /// target by runs that were killed (their process no longer exists).
    static func removeStaleScratch(besides target: String) {
        for (path, kind) in StoreLocations(target).staleScratch() {
            if kind == .store { removeStore(at: path) } else { try? FileManager.default.removeItem(atPath: path) }
        }
    }

    /// Gives the new file the permission bits (and, when allowed, the owner) of the store it replaces.
    static func keepOwnership(of target: String, on replacement: String) {
        guard let info = try? FileSystem.status(FilePath(target)) else { return }
        FileSystem.setPermissions(FilePath(replacement), info.mode)
        FileSystem.setOwnerIfRoot(FilePath(replacement), user: info.user, group: info.group)
    }
    /// Refuses to replace a WAL store that another process has open: an app's connection keeps a shared
    /// lock on the store while it is open, so switching the store out of WAL (which needs the only
    /// connection) fails while it is there. Renaming over it and removing its `-wal` would make the
    /// app's later commits go nowhere. A store nobody has open is checkpointed into its main file here,
    /// so its `-wal`/`-shm` hold nothing when they are removed.
    ///
    /// The check and the rename are not one atomic step: a process that opens the store in between is
    /// not seen. A rollback-journal store is checked for a transaction in progress only (an idle
    /// connection holds no lock there).
    static func refuseIfInUse(_ path: String, timeout: Duration) throws(FileError) {
        let inUse = FileError(.cannotWriteOutput, path: path,
                              message: "store in use by another process (an app has it open): nothing was changed; close the app, then update the store")
        guard let header = try? StoreFileHeader(path: path) else { return }
        do {
            let database = try SQLiteDatabase(path: path, mode: .readWrite)
            database.setBusyTimeout(timeout)
            if header.journalMode == .wal {
                let mode = try database.scalar("PRAGMA journal_mode = DELETE")
                guard case .text(let now)? = mode, now.lowercased() == "delete" else { throw inUse }
            } else {
                try database.execute("BEGIN EXCLUSIVE; ROLLBACK")
            }
        } catch let error as SQLiteError {
            if [.busy, .locked].contains(error.code.primary) { throw inUse }
            throw FileError(.cannotWriteOutput, path: path, message: "cannot take the store over to replace it: \(error.message)")
        } catch let error as FileError {
            throw error
        } catch {
            throw inUse
        }
    }
}
