"""Campaigns of `make fault` over stores with external-storage files (issue 24), used by fault.py.

A two-entity model (Cook ←→> Recipe; Recipe.photo Binary with allowsExternalBinaryDataStorage,
values of 2–24 KB above `externalAbove`, so most go to `.NAME_SUPPORT/_EXTERNAL_DATA/<UUID>`):

- kill -9 during `backup` onto a new and onto an existing destination, `export` over a previous
  export set, `build --into A` and `build --into A --output B`: afterwards every store verifies and
  holds either the before or the after content (external files read and compared), an export
  folder is exactly the old or the new set, the source store (its file and every external file) is
  untouched, and the same command run again completes with the after content;
- sibling store names (Carriers.sqlite beside Carriers.db / Carriers.new, both `.Carriers_SUPPORT`):
  refused or done, never a file of the other store touched;
- concurrent `build --into` on one store: every update that reported success is in the store, a
  loser says the store is in use, the store verifies.

A store's content is compared as (recipe name, note, digest of the photo bytes — read from the
external file when the column holds a reference —, cook) and the cook names.
"""
import hashlib, os, random, shutil, sqlite3, subprocess, time

MODEL = """<?xml version="1.0" encoding="UTF-8"?>
<model userDefinedModelVersionIdentifier="">
<entity name="Cook"><attribute name="name" attributeType="String"/>
  <relationship name="recipes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Recipe" inverseName="cook" inverseEntity="Recipe"/></entity>
<entity name="Recipe"><attribute name="name" attributeType="String"/><attribute name="note" optional="YES" attributeType="String"/>
  <attribute name="photo" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
  <relationship name="cook" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Cook" inverseName="recipes" inverseEntity="Cook"/></entity>
</model>
"""


class Broken(Exception):
    """A store whose rows reference an external file that is missing or not a regular file."""


class Stores:
    """The scratch folder of these campaigns and the helpers they share with fault.py."""

    def __init__(self, binary, work, run, record, verifies_with):
        self.binary, self.work, self.run, self.record = binary, os.path.join(work, "ext"), run, record
        self.verifies_with = verifies_with
        os.makedirs(self.work)
        self.model = os.path.join(self.work, "R.xcdatamodeld")
        os.makedirs(os.path.join(self.model, "R.xcdatamodel"))
        with open(os.path.join(self.model, "R.xcdatamodel", "contents"), "w") as f:
            f.write(MODEL)

    # Inputs -------------------------------------------------------------------------------------

    def spec(self, name, cooks, recipes, output="A.sqlite"):
        """Writes spec NAME.json over the given cook names and (name, note, photo bytes, cook) rows."""
        import base64
        with open(os.path.join(self.work, f"{name}-cooks.csv"), "w") as f:
            f.write("name\n" + "".join(f"{c}\n" for c in cooks))
        with open(os.path.join(self.work, f"{name}-recipes.csv"), "w") as f:
            f.write("name,note,photo,cook\n")
            for recipe, note, photo, cook in recipes:
                f.write(f"{recipe},{note},{base64.b64encode(photo).decode()},{cook}\n")
        path = os.path.join(self.work, f"{name}.json")
        with open(path, "w") as f:
            f.write('{ "model": "R.xcdatamodeld", "output": "%s", "externalAbove": 1000,\n'
                    '  "sources": { "cooks": { "csv": "%s-cooks.csv" }, "recipes": { "csv": "%s-recipes.csv" } },\n'
                    '  "entities": { "Cook": { "from": "cooks", "key": "name" },\n'
                    '    "Recipe": { "from": "recipes", "key": "name", "attributes": { "photo": { "field": "photo", "base64": true } },\n'
                    '                "relationships": { "cook": { "key": "cook" } } } } }\n' % (output, name, name))
        return path

    @staticmethod
    def rows(names, cooks, tag):
        return [(n, f"{tag}-{n}", random.randbytes(random.choice([200, 2000, 8000, 24000])), random.choice(cooks)) for n in names]

    # Observations -------------------------------------------------------------------------------

    @staticmethod
    def support(store):
        stem = os.path.splitext(os.path.basename(store))[0]
        return os.path.join(os.path.dirname(store), f".{stem}_SUPPORT")

    def content(self, store):
        """The store's rows, external values read from their files; raises Broken when one is missing."""
        folder = os.path.join(self.support(store), "_EXTERNAL_DATA")
        db = sqlite3.connect(f"file:{store}?mode=ro&immutable=1", uri=True)
        try:
            rows = db.execute("SELECT r.ZNAME, r.ZNOTE, r.ZPHOTO, c.ZNAME FROM ZRECIPE r LEFT JOIN ZCOOK c ON c.Z_PK = r.ZCOOK").fetchall()
            cooks = tuple(sorted(n for (n,) in db.execute("SELECT ZNAME FROM ZCOOK")))
        finally:
            db.close()
        result = []
        for name, note, photo, cook in rows:
            value = photo
            if photo is not None and photo[:1] == b"\x01":
                value = photo[1:]
            elif photo is not None and photo[:1] == b"\x02":
                path = os.path.join(folder, photo[1:37].decode())
                if not os.path.isfile(path) or os.path.islink(path):
                    raise Broken(f"{store}: row {name} references missing {os.path.basename(path)}")
                with open(path, "rb") as f:
                    value = f.read()
            result.append((name, note, hashlib.sha256(value).hexdigest() if value is not None else None, cook))
        return tuple(sorted(result)), cooks

    def state(self, store):
        """`content` when the store verifies, else None."""
        if not os.path.exists(store) or not self.verifies_with(store, self.model):
            return None
        try:
            return self.content(store)
        except (Broken, sqlite3.Error):
            return None

    @staticmethod
    def files(store):
        """The store file's and every support-folder file's digest (what "untouched" compares)."""
        found = {}
        for path in [store] + [os.path.join(d, n) for d, _, names in os.walk(Stores.support(store)) for n in names]:
            with open(path, "rb") as f:
                found[os.path.relpath(path, os.path.dirname(store))] = hashlib.sha256(f.read()).hexdigest()
        return found

    @staticmethod
    def folder(path):
        found = {}
        for d, _, names in os.walk(path):
            for n in names:
                with open(os.path.join(d, n), "rb") as f:
                    found[os.path.relpath(os.path.join(d, n), path)] = hashlib.sha256(f.read()).hexdigest()
        return found

    @staticmethod
    def copy(src, dst):
        Stores.remove(dst)
        shutil.copy2(src, dst)
        if os.path.isdir(Stores.support(src)):
            shutil.copytree(Stores.support(src), Stores.support(dst))

    @staticmethod
    def remove(store):
        for path in [store, store + "-wal", store + "-shm", store + "-journal"]:
            if os.path.lexists(path):
                os.remove(path)
        shutil.rmtree(Stores.support(store), ignore_errors=True)

    def timed(self, args):
        start = time.monotonic()
        result = self.run(args, self.work)
        assert result.returncode == 0, f"{args}: {result.stderr}"
        return time.monotonic() - start

    # Campaigns ----------------------------------------------------------------------------------

    def prepare(self):
        """A0 (before) and A1 (A0 after the update), the update's spec, their export sets."""
        random.seed(24)
        cooks = [f"c{i}" for i in range(20)]
        self.base = self.spec("base", cooks, self.rows([f"r{i}" for i in range(800)], cooks, "v1"))
        new_cooks = [f"n{i}" for i in range(5)]
        changed = self.rows([f"r{i}" for i in range(250)], cooks + new_cooks, "v2")
        self.update = self.spec("upd", new_cooks, changed + self.rows([f"r{i}" for i in range(800, 1000)], cooks + new_cooks, "v2"))
        self.a0, self.a1 = os.path.join(self.work, "A0.sqlite"), os.path.join(self.work, "A1.sqlite")
        self.durations = {"build": self.timed(["build", self.base, "--output", self.a0, "--quiet"])}
        self.copy(self.a0, self.a1)
        self.durations["into"] = self.timed(["build", self.update, "--into", self.a1, "--quiet"])
        self.before, self.after = self.state(self.a0), self.state(self.a1)
        assert self.before and self.after and self.before != self.after, "the update store does not verify"
        self.sources = self.files(self.a0)
        export = os.path.join(self.work, "x0")
        self.durations["export"] = self.timed(["export", self.a0, "--model", self.model, "--spec", "--output", export])
        self.set0 = self.folder(export)
        self.timed(["export", self.a1, "--model", self.model, "--spec", "--output", export])
        self.set1 = self.folder(export)
        assert self.set0 != self.set1 and len(self.set0) == 3
        self.durations["backup"] = self.timed(["backup", self.a0, os.path.join(self.work, "b0.sqlite")])
        print("fault: store campaigns: one uninterrupted " + ", ".join(f"{k} {v:.2f} s" for k, v in self.durations.items()), flush=True)

    def killed(self, args, duration):
        child = subprocess.Popen([self.binary] + args, cwd=self.work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(random.uniform(0, duration * 1.1))
        child.kill()
        child.wait()

    def leftovers(self, *folders):
        return sorted(os.path.join(d, n) for folder in folders for d, _, names in os.walk(folder)
                      for n in names + _ if ".coreseed-" in n or n.endswith(".tmp") or n.endswith("-journal"))

    def kill_campaign(self, name, runs, reset, args, duration, allowed, target, rerun_state, source=None):
        """Kills `args` at random points `runs` times; `allowed()` says whether what it left is whole,
        `source` (default A0) must be untouched."""
        lost = 0
        for index in range(runs):
            reset()
            source_files = self.files(source or self.a0)
            self.killed(args, duration)
            problems = []
            if self.files(source or self.a0) != source_files:
                problems.append("the source store or its external files changed")
            if not allowed():
                problems.append("what the killed run left is neither the before nor the after state")
            result = self.run(args, self.work)
            if result.returncode != 0 or rerun_state() != target:
                problems.append(f"the run after it failed or is wrong (exit {result.returncode}: {result.stderr.strip()})")
            if self.leftovers(self.work):
                problems.append(f"left {self.leftovers(self.work)}")
            if problems:
                lost += 1
                print(f"  lost: kill -9 of {name} (run {index}): " + "; ".join(problems), flush=True)
        self.record(f"kill -9 during {name}", runs, lost)

    def kills(self, runs):
        b = os.path.join(self.work, "B.sqlite")
        a = os.path.join(self.work, "A.sqlite")
        x = os.path.join(self.work, "x")
        self.kill_campaign("backup onto a new destination (external files)", runs, lambda: self.remove(b),
                           ["backup", self.a0, b], self.durations["backup"],
                           lambda: not os.path.exists(b) or self.state(b) == self.before, self.before, lambda: self.state(b))
        self.kill_campaign("backup onto an existing destination (external files)", runs, lambda: self.copy(self.a1, b),
                           ["backup", self.a0, b], self.durations["backup"],
                           lambda: self.state(b) in (self.before, self.after), self.before, lambda: self.state(b))
        def reset_export():
            shutil.rmtree(x, ignore_errors=True)
            assert self.run(["export", self.a1, "--model", self.model, "--spec", "--output", x], self.work).returncode == 0
        self.kill_campaign("export over a previous export set", runs, reset_export,
                           ["export", self.a0, "--model", self.model, "--spec", "--output", x], self.durations["export"],
                           lambda: self.folder(x) in (self.set0, self.set1), self.set0, lambda: self.folder(x))
        self.kill_campaign("build --into (external files)", runs, lambda: self.copy(self.a0, a),
                           ["build", self.update, "--into", a, "--quiet"], self.durations["into"],
                           lambda: self.state(a) in (self.before, self.after), self.after, lambda: self.state(a))
        # --into A --output B: A is the source here; B is new, or the previous B (the after state) is replaced.
        def reset_into_output():
            self.copy(self.a0, a)
            self.remove(b)
            if random.random() < 0.5:
                self.copy(self.a1, b)
        self.kill_campaign("build --into A --output B (external files)", runs, reset_into_output,
                           ["build", self.update, "--into", a, "--output", b, "--quiet"], self.durations["into"],
                           lambda: not os.path.exists(b) or self.state(b) in (self.after, ), self.after, lambda: self.state(b), source=a)

    def siblings(self):
        """Carriers.sqlite beside Carriers.db / Carriers.new (one `.Carriers_SUPPORT` for both names),
        also reached through a symbolic link to its folder; and the store itself under another spelling."""
        folder, link = os.path.join(self.work, "sib"), os.path.join(self.work, "sib-link")
        os.makedirs(folder)
        os.symlink(folder, link)
        store = os.path.join(folder, "Carriers.sqlite")
        db, new = os.path.join(folder, "Carriers.db"), os.path.join(folder, "Carriers.new")
        # (arguments, whether the command acts on Carriers.sqlite itself: then done or refused, whole either way)
        cases = [(["backup", store, db], False),
                 (["backup", store, os.path.join(link, "Carriers.db")], False),
                 (["backup", self.a1, db], False),
                 (["build", self.base, "--output", db, "--quiet"], False),
                 (["build", self.update, "--output", new, "--quiet"], False),
                 (["build", self.update, "--into", store, "--output", new, "--quiet"], False),
                 (["build", self.update, "--into", store, "--output", os.path.join(link, "Carriers.new"), "--quiet"], False),
                 (["backup", store, os.path.join(link, "Carriers.sqlite")], True),
                 (["build", self.update, "--into", store, "--output", os.path.join(link, "Carriers.sqlite"), "--quiet"], True),
                 (["build", self.update, "--into", os.path.join(link, "Carriers.sqlite"), "--quiet"], True)]
        lost = 0
        for args, itself in cases:
            self.copy(self.a0, store)
            sources = self.files(store)
            result = self.run(args, self.work)
            problems = []
            if itself:
                if self.state(store) not in (self.before, self.after):
                    problems.append("Carriers.sqlite is neither its before nor its after state")
            elif self.files(store) != sources:
                problems.append("Carriers.sqlite or its external files changed")
            elif result.returncode == 0:
                problems.append("it succeeded: two stores now share .Carriers_SUPPORT")
            elif result.stderr.count("\n") != 1 or "Carriers.sqlite" not in result.stderr:
                problems.append(f"not one line naming the other store: {result.stderr.strip()}")
            if problems:
                lost += 1
                print(f"  lost: {' '.join(os.path.relpath(a, self.work) if '/' in a else a for a in args)}: " + "; ".join(problems), flush=True)
            for name in os.listdir(folder):
                if name not in ("Carriers.sqlite", ".Carriers_SUPPORT"):
                    self.remove(os.path.join(folder, name))
        self.record("sibling store names (Carriers.sqlite beside Carriers.db, Carriers.new)", len(cases), lost)

    def concurrent(self, rounds, writers):
        """`writers` `build --into` at once on one store, `rounds` times (half of them with --timeout 0)."""
        store = os.path.join(self.work, "C.sqlite")
        cooks = [f"c{i}" for i in range(20)]
        specs, expected = [], []
        for j in range(writers):
            rows = self.rows([f"r{i}" for i in range(j * 50, j * 50 + 50)], cooks, f"w{j}") + \
                self.rows([f"w{j}-{k}" for k in range(30)], cooks + [f"w{j}c"], f"w{j}")
            specs.append(self.spec(f"w{j}", [f"w{j}c"], rows, output="C.sqlite"))
            expected.append(rows)
        lost = runs = 0
        for index in range(rounds):
            self.copy(self.a0, store)
            wait = ["--timeout", "0"] if index % 2 else []
            children = [subprocess.Popen([self.binary, "build", spec, "--into", store, "--quiet"] + wait, cwd=self.work,
                                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True) for spec in specs]
            statuses = [(c.wait(), c.stderr.read()) for c in children]
            runs += writers
            state = self.state(store)
            if state is None:
                lost += writers
                print(f"  lost: concurrent --into (round {index}) left a store that does not verify: {statuses}", flush=True)
                continue
            rows = set(state[0])
            for j, (status, err) in enumerate(statuses):
                want = {(n, note, hashlib.sha256(photo).hexdigest(), cook) for n, note, photo, cook in expected[j]}
                if status == 0 and not want <= rows:
                    lost += 1
                    print(f"  lost: concurrent --into (round {index}): writer {j} said updated, {len(want - rows)} of its rows are not in the store", flush=True)
                elif status != 0 and ("in use" not in err or err.count("\n") != 1):
                    lost += 1
                    print(f"  lost: concurrent --into (round {index}): writer {j} exit {status}: {err.strip()}", flush=True)
        self.record(f"{writers} concurrent build --into on one store", runs, lost)
