#!/usr/bin/env python3
"""`make lint`: Core Data's SQL has one home (issue 25 item 3). Outside Sources/CoreSeed/Layout/SQL/, no
Swift string literal may spell Core Data's tables or columns as SQL text: a literal that holds a Core Data
name (`Z_PK`, `Z_ENT`, `Z_OPT`, `Z_MAX`, `Z_PRIMARYKEY`, `Z_METADATA`, `Z_MODELCACHE`, `Z_FOK_`, `Z_DA_`,
any `Z_…`, or the `'Z%'` pattern) is refused when it is SQL — it holds an upper-case SQL word (SELECT,
FROM, WHERE, AND, …) — or when it is the bare name (`"Z_UUID"`, `"Z_FOK_"`: vocabulary, which the home
spells as a named constant). Prose that mentions a name (an error message: "Z_PRIMARYKEY: Z_MAX of …")
and comments are allowed. Inside the home, only CoreDataSchema.swift spells the names at all: the
statements are built from its named constants.

Usage: scripts/coredata-sql.py [FILE_OR_FOLDER …]   (default: Sources)
       scripts/coredata-sql.py --self-test           (the rule finds planted lines and passes clean ones)
Prints `path:line: …` for each literal refused; exits 1 if any."""
import pathlib, re, sys

HOME = 'Sources/CoreSeed/Layout/SQL/'
VOCABULARY = HOME + 'CoreDataSchema.swift'
NAME = re.compile(r"\bZ_(?=[A-Z0-9_\x00]|$)[A-Z0-9_]*|'Z%'")
KEYWORD = (r'SELECT|INSERT|UPDATE|DELETE|CREATE|DROP|ALTER|FROM|WHERE|SET|VALUES|INTO|JOIN|AND|OR|NOT|IN|IS|'
           r'NULL|LIKE|ORDER|GROUP|BY|LIMIT|TABLE|INDEX|TRIGGER|BEGIN|END|ON|AS|WHEN|THEN|ELSE|CASE|UNIQUE|'
           r'PRIMARY|KEY|INTEGER|VARCHAR|BLOB')
# What stands next to a name in SQL (commas and parentheses skipped): a keyword, a comparison, a bound
# parameter, a function call, a table alias or trigger row (`t.Z_PK`, `NEW.Z_ENT`).
BEFORE = re.compile(r'(\b(' + KEYWORD + r')|[=<>?]|\b(max|min|count|substr|IFNULL|COALESCE)\(|(\b[a-z]|\bNEW|\bOLD)\.)$')
AFTER = re.compile(r'^(\b(' + KEYWORD + r')\b|[=<>?])')
BARE = re.compile(r"^\s*(Z_[A-Z0-9_]*|'Z%')\s*$")
PLACEHOLDER = '\x00'


def literals(source: str):
    """(line, text) of every string literal outside comments, interpolations replaced by a placeholder
    (literals inside an interpolation are yielded on their own)."""
    found = []
    i, line, n = 0, 1, len(source)

    def scan_code(i, line, stop_at_paren):
        depth = 0
        while i < n:
            c = source[i]
            if c == '\n':
                line += 1
                i += 1
            elif source.startswith('//', i):
                while i < n and source[i] != '\n':
                    i += 1
            elif source.startswith('/*', i):
                nest = 0
                while i < n:
                    if source.startswith('/*', i):
                        nest += 1
                        i += 2
                    elif source.startswith('*/', i):
                        nest -= 1
                        i += 2
                        if nest == 0:
                            break
                    else:
                        line += source[i] == '\n'
                        i += 1
            elif c == '"' or (c == '#' and re.match(r'#+"', source[i:])):
                i, line = scan_string(i, line)
            elif c == '(':
                depth += 1
                i += 1
            elif c == ')':
                if stop_at_paren and depth == 0:
                    return i + 1, line
                depth -= 1
                i += 1
            else:
                i += 1
        return i, line

    def scan_string(i, line):
        hashes = 0
        while source[i] == '#':
            hashes += 1
            i += 1
        multi = source.startswith('"""', i)
        quote = '"""' if multi else '"'
        i += len(quote)
        start_line, text = line, []
        close = quote + '#' * hashes
        escape = '\\' + '#' * hashes
        while i < n:
            if source.startswith(close, i):
                i += len(close)
                break
            if source.startswith(escape, i):
                j = i + len(escape)
                if j < n and source[j] == '(':
                    text.append(PLACEHOLDER)
                    i, line = scan_code(j + 1, line, stop_at_paren=True)
                    continue
                text.append(source[i:j + 1])
                i = j + 1
                continue
            if source[i] == '\n':
                line += 1
            text.append(source[i])
            i += 1
        found.append((start_line, ''.join(text)))
        return i, line

    scan_code(i, line, stop_at_paren=False)
    return found


def in_sql(text: str) -> bool:
    """Whether a Core Data name in `text` stands where SQL would have it."""
    text = text.replace(PLACEHOLDER, ' ')
    for match in NAME.finditer(text):
        before = text[:match.start()].rstrip(" ,'\n")
        after = text[match.end():].lstrip(" ,)'\n")
        if BEFORE.search(before) or BEFORE.search(before.rstrip(' (')) or AFTER.search(after):
            return True
    return False


def refused(text: str) -> bool:
    if not NAME.search(text):
        return False
    return bool(BARE.match(text.replace(PLACEHOLDER, ''))) or in_sql(text)


def check(path: pathlib.Path, source: str) -> list[str]:
    """Outside the home: Core Data names in SQL text. In the home but outside `CoreDataSchema.swift`:
    any Core Data name in a literal (the statements are built from its named constants)."""
    problems = []
    in_home = str(path).startswith(HOME)
    for line, text in literals(source):
        shown = text.strip().replace(PLACEHOLDER, '\\(…)')[:90]
        if in_home and NAME.search(text):
            problems.append(f'{path}:{line}: Core Data name spelled outside {VOCABULARY} (use its constant): "{shown}"')
        elif not in_home and refused(text):
            problems.append(f'{path}:{line}: Core Data SQL outside {HOME} (build it there, from CoreDataSchema): "{shown}"')
    return problems


def run(paths: list[pathlib.Path]) -> list[str]:
    problems = []
    for path in paths:
        if str(path) != VOCABULARY:
            problems += check(path, path.read_text())
    return problems


def self_test() -> int:
    planted = {
        'let sql = "SELECT Z_PK FROM \\(table) WHERE Z_ENT = \\(number)"': 1,
        'try database.prepare("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_NAME = ?")': 1,
        'let filter = " AND \\(low) = Z_ENT"': 1,
        'columns: ["Z_UUID", "Z_PLIST"]': 2,
        'let name = "Z_FOK_" + column': 1,
        'rows("SELECT name FROM sqlite_master WHERE name LIKE \'Z%\'")': 1,
        'let sql = """\n    SELECT Z_OPT\n    FROM t\n    """': 1,
        'f("SELECT \\(g("Z_PK")) FROM t")': 1,
        'rows("SELECT 1 FROM sqlite_master WHERE name = \'Z_MODELCACHE\'")': 1,
        'let index = "Z_\\(entity)_UNIQUE_" + names': 1,
        'let sql = "SELECT max(Z_PK) FROM \\(table)"': 1,
        'let key = "d.Z_PK = t.Z_PK"': 1,
    }
    clean = [
        'throw FileError(message: "Z_PRIMARYKEY: Z_MAX of \\(name) is \\(max), not an integer")',
        '// SELECT Z_PK FROM ZBANK',
        '/// `UPDATE … SET Z_OPT = Z_OPT + 1`',
        'let sql = "SELECT \\(CoreDataSchema.primaryKey) FROM \\(table)"',
        'let text = "Z_PK \\(key) (Z_ENT \\(number))"',
        'rows("SELECT * FROM t")',
        'let help = "a store (its Z_MODELCACHE), or max Z_MAX per Z_PRIMARYKEY row"',
        'let change = "CREATE INDEX Z_<Entity>_<attr> (observed)"',
    ]
    failures = 0
    for line, expected in planted.items():
        got = sum(refused(text) for _, text in literals(line))
        if got != expected:
            print(f'coredata-sql self-test: planted line found {got} time(s), expected {expected}: {line!r}')
            failures += 1
    for line in clean:
        if any(refused(text) for _, text in literals(line)):
            print(f'coredata-sql self-test: clean line refused: {line!r}')
            failures += 1
    # The same rule over files, as `make lint` runs it: a planted file is refused, a clean one passes.
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        planted_file = pathlib.Path(folder, 'Planted.swift')
        planted_file.write_text('let sql = "UPDATE Z_PRIMARYKEY SET Z_MAX = ?"\n')
        clean_file = pathlib.Path(folder, 'Clean.swift')
        clean_file.write_text('\n'.join(clean) + '\n')
        if len(run([planted_file])) != 1:
            print('coredata-sql self-test: a planted file is not refused')
            failures += 1
        if run([clean_file]):
            print('coredata-sql self-test: a clean file is refused')
            failures += 1
    if not failures:
        print(f'coredata-sql self-test: {len(planted)} planted lines and a planted file refused, {len(clean)} clean lines passed')
    return 1 if failures else 0


def main(arguments: list[str]) -> int:
    if arguments == ['--self-test']:
        return self_test()
    paths = []
    for argument in arguments or ['Sources']:
        root = pathlib.Path(argument)
        paths += [root] if root.is_file() else sorted(root.rglob('*.swift'))
    problems = run(paths)
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
