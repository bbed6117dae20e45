#!/usr/bin/env python3
"""`make lint`: every unsafe construct in Sources/ carries a `SAFETY:` comment saying why its lifetime and
exclusivity hold (issue 30): on its line, or in the lines above it up to a blank line (at most 12).
Prints each one without; exits 1 if any. Usage: scripts/unsafe-comments.py [FOLDER]"""
import pathlib, re, sys
PATTERN = re.compile(r'@exclusivity\(unchecked\)|withUnsafe|Unsafe(Mutable)?(Raw)?(Buffer)?Pointer|unsafeBitCast|'
                     r'@unchecked Sendable|Unmanaged|withMemoryRebound|assumingMemoryBound|bindMemory|'
                     r'nonisolated\(unsafe\)|unowned\(unsafe\)|unsafelyUnwrapped')
# Files this check does not read yet, each with why.
EXCEPTIONS: set[str] = set()
root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else 'Sources')
missing = 0
for path in sorted(root.rglob('*.swift')):
    if str(path) in EXCEPTIONS:
        continue
    lines = path.read_text().split('\n')
    for number, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith('//') or not PATTERN.search(line) or 'SAFETY:' in line:
            continue
        covered = False
        for above in range(number - 1, max(-1, number - 13), -1):
            if not lines[above].strip():
                break
            if 'SAFETY:' in lines[above]:
                covered = True
                break
        if not covered:
            print(f'{path}:{number + 1}: unsafe construct without a SAFETY: comment: {stripped}')
            missing += 1
sys.exit(1 if missing else 0)
