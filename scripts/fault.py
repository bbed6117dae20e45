#!/usr/bin/env python3
"""`make fault`: the fault campaign of issue 16, scripted and repeatable.

Runs the release binary against stores it builds in a scratch folder and asserts, for every run,
that nothing the user had was lost:

- kill -9 at random points during builds from CSV, SQLite and XML (KILL_RUNS, default 36): the
  output is the previous store, byte for byte, or a complete new store that `verify` passes; the next
  build leaves no temporary file behind;
- SIGINT and SIGTERM during builds (SIGNAL_RUNS, default 10): the previous store (or, when the signal
  came after the rename, the complete new one) and no temporary file;
- `ulimit -f` below the store's size: one error line naming the output, previous store kept;
- a full tmpfs (when this process may mount one; otherwise skipped with a notice);
- concurrent builds to one output (8 at once): each succeeds or fails cleanly, the result verifies;
- an app process writing to a WAL store (committing rows that keep Z_MAX equal to the highest Z_PK)
  while `backup`, `verify` and `build --into` run: every committed row is still there afterwards, the
  backup is one consistent committed state, `verify` reports no false corruption, `--into` refuses
  the store that is in use and changes nothing;
- a hostile store (an entity table replaced by a view over an endless recursive query): `verify`,
  `export` and `inspect` end within 30 s, non-zero, naming the view;
- stores with external-storage files (scripts/fault_stores.py): kill -9 during `backup` (onto a new
  and an existing destination), `export`, `build --into A` and `--into A --output B` (STORE_KILL_RUNS
  each, default 12), sibling store names sharing one support folder, and concurrent `--into` on one
  store (CONCURRENT_ROUNDS of 3 writers, default 6).

Prints one line per campaign (runs, survived, lost) and exits 1 if anything was lost.
Usage: scripts/fault.py [BINARY]   (default .build/release/coreseed; SEED=N for another random order)
"""
import hashlib, os, fault_stores, random, shutil, signal, sqlite3, subprocess, sys, tempfile, threading, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/release/coreseed"))
CARRIERS = os.path.join(ROOT, "Inputs/Carriers.xcdatamodeld")
BANKS_MODEL = os.path.join(ROOT, "Inputs/FailedBanksCD.xcdatamodeld")
random.seed(int(os.environ.get("SEED", "16")))
results = []  # (campaign, runs, survived, lost, note)


def run(args, cwd, timeout=120, **kw):
    return subprocess.run([BIN] + args, cwd=cwd, capture_output=True, text=True, timeout=timeout, **kw)


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def leftovers(folder):
    return sorted(n for n in os.listdir(folder) if ".coreseed-" in n or n.endswith(".tmp") or n.endswith("-journal"))


def verifies(store, model):
    return run(["verify", store, "--model", model], os.path.dirname(store)).returncode == 0


def record(name, runs, lost, note=""):
    results.append((name, runs, runs - lost, lost, note))
    print(f"fault: {name}: {runs} runs, {runs - lost} survived, {lost} lost{(' — ' + note) if note else ''}", flush=True)


def bank_specs(work):
    subprocess.run([sys.executable, os.path.join(ROOT, "Benchmarks/generate.py"), "--rows", "150000", "--dir", work],
                   check=True, capture_output=True)
    specs = {}
    for kind in ["csv", "sqlite", "xml"]:
        with open(os.path.join(ROOT, f"Benchmarks/specs/bench-{kind}.json")) as f:
            text = f.read()
        text = text.replace("../../Inputs/FailedBanksCD.xcdatamodeld", BANKS_MODEL)
        text = text.replace("../../.build/bench/out/", work + "/").replace("../../.build/bench/", work + "/")
        path = os.path.join(work, f"{kind}.json")
        with open(path, "w") as f:
            f.write(text)
        specs[kind] = path
    return specs


def killed_builds(work, specs):
    store = os.path.join(work, "banks.sqlite")
    lost, runs, timings = 0, int(os.environ.get("KILL_RUNS", "36")), {}
    for kind, spec in specs.items():  # a first good store, and how long a build takes
        start = time.monotonic()
        assert run(["build", spec, "--output", store, "--quiet"], work).returncode == 0
        timings[kind] = time.monotonic() - start
    for index in range(runs):
        kind = ["csv", "sqlite", "xml"][index % 3]
        before = digest(store)
        child = subprocess.Popen([BIN, "build", specs[kind], "--output", store, "--quiet"], cwd=work,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(random.uniform(0, timings[kind] * 1.1))
        child.send_signal(signal.SIGKILL)
        child.wait()
        after = digest(store)
        if after != before and not verifies(store, BANKS_MODEL):
            lost += 1
            print(f"  lost: kill -9 of a {kind} build left a store that fails verify", flush=True)
        # The next build removes what the killed one left.
        if run(["build", specs["csv"], "--output", store, "--quiet"], work).returncode != 0 or leftovers(work):
            lost += 1
            print(f"  lost: after a killed {kind} build, the next build failed or left {leftovers(work)}", flush=True)
    record("kill -9 during builds (CSV, SQLite, XML)", runs, lost)


def signalled_builds(work, specs):
    store = os.path.join(work, "banks.sqlite")
    lost, runs = 0, int(os.environ.get("SIGNAL_RUNS", "10"))
    for index in range(runs):
        kind, sig = ["csv", "sqlite", "xml"][index % 3], [signal.SIGINT, signal.SIGTERM][index % 2]
        before = digest(store)
        child = subprocess.Popen([BIN, "build", specs[kind], "--output", store, "--quiet"], cwd=work,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(random.uniform(0.05, 0.4))
        child.send_signal(sig)
        status = child.wait()
        # A signal that lands after the finished store was renamed into place ends the process with the
        # signal's status, the new store complete: nothing lost either way.
        ok = (digest(store) == before or verifies(store, BANKS_MODEL)) and not leftovers(work)
        if not ok:
            lost += 1
            print(f"  lost: signal {sig} during a {kind} build (exit {status}) left {leftovers(work)}", flush=True)
    record("SIGINT/SIGTERM during builds", runs, lost)


def size_limit(work, specs):
    store = os.path.join(work, "banks.sqlite")
    before = digest(store)
    result = subprocess.run(["/bin/sh", "-c", f'ulimit -f 2000; exec "{BIN}" build "{specs["csv"]}" --output "{store}"'],
                            cwd=work, capture_output=True, text=True)
    lines = result.stderr.strip().split("\n")
    ok = (result.returncode == 73 and len(lines) == 1 and lines[0].startswith(f"{store}: error: cannot write the store")
          and digest(store) == before and not leftovers(work))
    if not ok:
        print(f"  lost: ulimit -f: exit {result.returncode}: {result.stderr.strip()}", flush=True)
    record("ulimit -f below the store's size", 1, 0 if ok else 1)


def full_disk(work, specs):
    mount = os.path.join(work, "tiny")
    os.makedirs(mount)
    attempt = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", mount], capture_output=True, text=True)
    if attempt.returncode != 0:
        reason = (attempt.stderr.strip() or "mount failed").split("\n")[0]
        print(f"fault: full tmpfs: skipped — cannot mount a tmpfs here ({reason})", flush=True)
        results.append(("full tmpfs", 0, 0, 0, "skipped"))
        return
    try:
        store = os.path.join(mount, "banks.sqlite")
        small = os.path.join(ROOT, "Inputs/failedbanks-csv.json")
        assert run(["build", small, "--output", store, "--quiet"], ROOT).returncode == 0
        before = digest(store)
        result = run(["build", specs["csv"], "--output", store], work)
        ok = result.returncode == 73 and "disk is full" in result.stderr and digest(store) == before and not leftovers(mount)
        if not ok:
            print(f"  lost: full disk: exit {result.returncode}: {result.stderr.strip()}", flush=True)
        record("full tmpfs", 1, 0 if ok else 1)
    finally:
        subprocess.run(["umount", mount], capture_output=True)


def concurrent_builds(work, specs):
    store = os.path.join(work, "banks.sqlite")
    children = [subprocess.Popen([BIN, "build", specs[["csv", "sqlite", "xml"][i % 3]], "--output", store, "--quiet"], cwd=work,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True) for i in range(8)]
    statuses = [(c.wait(), c.stderr.read()) for c in children]
    clean = all(status == 0 or (status != 0 and err.count("\n") == 1 and ": error: " in err) for status, err in statuses)
    ok = clean and verifies(store, BANKS_MODEL) and not leftovers(work)
    if not ok:
        print(f"  lost: concurrent builds: {statuses}, leftovers {leftovers(work)}", flush=True)
    record("8 concurrent builds to one output", 1, 0 if ok else 1)


class App(threading.Thread):
    """An app with the store open in WAL mode, committing a row at a time (Z_MAX kept with the rows)."""

    def __init__(self, path):
        super().__init__(daemon=True)
        self.path, self.stop, self.committed, self.error = path, threading.Event(), 0, None

    def run(self):
        try:
            db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            db.execute("PRAGMA journal_mode = WAL")
            while not self.stop.is_set():
                db.execute("BEGIN IMMEDIATE")
                top = db.execute("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'FailedBankInfo'").fetchone()[0]
                db.execute("INSERT INTO ZFAILEDBANKINFO (Z_PK, Z_ENT, Z_OPT, ZNAME, ZCITY, ZSTATE) VALUES (?, "
                           "(SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'FailedBankInfo'), 1, 'app', ?, 'AZ')", (top + 1, "x" * 300))
                db.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_NAME = 'FailedBankInfo'", (top + 1,))
                db.execute("COMMIT")
                self.committed += 1
                time.sleep(0.002)
            db.close()
        except Exception as error:  # reported by the campaign
            self.error = error


def app_rows(path):
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    rows = db.execute("SELECT count(*) FROM ZFAILEDBANKINFO WHERE ZNAME = 'app'").fetchone()
    total = db.execute("SELECT count(*), max(Z_PK), (SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'FailedBankInfo') FROM ZFAILEDBANKINFO").fetchone()
    db.close()
    return rows[0], total


def live_store(work):
    store = os.path.join(work, "live.sqlite")
    spec = os.path.join(ROOT, "Inputs/failedbanks-csv.json")
    assert run(["build", spec, "--output", store, "--quiet"], ROOT).returncode == 0
    app = App(store)
    app.start()
    lost, runs = 0, 0
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        for command in ["backup", "verify", "into"]:
            runs += 1
            if command == "backup":
                copy = os.path.join(work, "copy.sqlite")
                result = run(["backup", store, copy], work)
                if result.returncode != 0:
                    lost += 1; print(f"  lost: backup of a live store failed: {result.stderr.strip()}", flush=True); continue
                _, (count, top, z_max) = app_rows(copy)
                if top != z_max or not verifies(copy, BANKS_MODEL):
                    lost += 1; print(f"  lost: inconsistent backup: max Z_PK {top}, Z_MAX {z_max}", flush=True)
            elif command == "verify":
                result = run(["verify", store, "--model", BANKS_MODEL], work)
                if result.returncode != 0:
                    lost += 1; print(f"  lost: verify of a healthy live store failed: {result.stderr.strip()}", flush=True)
            else:
                before = app.committed
                result = run(["build", spec, "--into", store, "--quiet", "--timeout", "2"], ROOT)
                if result.returncode != 73 or "in use by another process" not in result.stderr:
                    lost += 1; print(f"  lost: --into a store in use: exit {result.returncode}: {result.stderr.strip()}", flush=True)
    app.stop.set()
    app.join()
    committed, (count, top, z_max) = app_rows(store)
    if app.error or committed != app.committed or top != z_max:
        lost += 1
        print(f"  lost: the app committed {app.committed} rows, the store holds {committed} (error: {app.error})", flush=True)
    record(f"backup, verify and build --into while an app writes ({app.committed} app commits)", runs, lost)


def hostile_store(work):
    store = os.path.join(work, "hostile.sqlite")
    assert run(["build", os.path.join(ROOT, "Inputs/seed.json"), "--output", store, "--quiet"], ROOT).returncode == 0
    db = sqlite3.connect(store)
    db.executescript("DROP TABLE ZCOUNTRY; CREATE VIEW ZCOUNTRY AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
                     "SELECT x AS Z_PK, 2 AS Z_ENT, 1 AS Z_OPT, 'c' || x AS ZCODE, 'n' AS ZNAME FROM c")
    db.close()
    lost = 0
    for args in [["verify", store, "--model", CARRIERS], ["export", store, "--model", CARRIERS, "--output", os.path.join(work, "x")],
                 ["inspect", store]]:
        try:
            result = run(args, work, timeout=30)
            if result.returncode == 0 or "ZCOUNTRY" not in result.stderr:
                lost += 1; print(f"  lost: {args[0]} on a hostile store: exit {result.returncode}: {result.stderr.strip()}", flush=True)
        except subprocess.TimeoutExpired:
            lost += 1; print(f"  lost: {args[0]} on a hostile store ran past 30 s", flush=True)
    record("hostile store (a view over an endless query)", 3, lost)


def main():
    if not os.access(BIN, os.X_OK):
        sys.exit(f"no binary at {BIN}: run `make build` first")
    work = tempfile.mkdtemp(prefix="coreseed-fault-")
    started = time.monotonic()
    try:
        if os.environ.get("ONLY") != "stores":  # ONLY=stores: the campaigns of fault_stores.py alone
            specs = bank_specs(work)
            killed_builds(work, specs)
            signalled_builds(work, specs)
            size_limit(work, specs)
            full_disk(work, specs)
            concurrent_builds(work, specs)
            live_store(work)
            hostile_store(work)
        stores = fault_stores.Stores(BIN, work, run, record, verifies)
        stores.prepare()
        stores.kills(int(os.environ.get("STORE_KILL_RUNS", "12")))
        stores.siblings()
        stores.concurrent(int(os.environ.get("CONCURRENT_ROUNDS", "6")), 3)
    finally:
        if os.environ.get("KEEP"):
            print(f"fault: scratch kept in {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    runs = sum(r[1] for r in results)
    lost = sum(r[3] for r in results)
    print(f"fault: total {runs} runs, {runs - lost} survived, {lost} lost, in {time.monotonic() - started:.0f} s")
    sys.exit(1 if lost else 0)


if __name__ == "__main__":
    main()
