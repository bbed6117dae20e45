#!/usr/bin/env bash
# Lint: warnings are errors, no file over 800 lines, no command-line flag in a library message, file-system calls only in FileSystem/, only SQLite/ imports CSQLite,
# only Readers/XML (the data reader and the element parser the model reader uses) imports CLibXML2 and
# nothing imports FoundationXML, only Crypto/ imports the crypto library (CCrypto, CommonCrypto), every unsafe
# construct has its SAFETY: comment (scripts/unsafe-comments.py), Core Data's SQL is built in
# Sources/CoreSeed/Layout/SQL only (scripts/coredata-sql.py, which first proves itself on planted
# lines), Tools/CoreDataCheck (both halves) and the fuzz targets compile.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
while IFS= read -r file; do
  lines=$(wc -l <"$file")
  if [ "$lines" -gt 800 ]; then echo "$file: $lines lines (limit 800)"; status=1; fi
done < <(find Sources Tests -name '*.swift')
if grep -rl 'import CSQLite' Sources | grep -v '^Sources/CoreSeed/SQLite/'; then echo "only Sources/CoreSeed/SQLite may import CSQLite"; status=1; fi
if grep -rl 'import CLibXML2' Sources | grep -v '^Sources/CoreSeed/Readers/XML/'; then echo "only Sources/CoreSeed/Readers/XML may import CLibXML2 (the one XML stack: its element parser serves the model reader)"; status=1; fi
if grep -rl 'import FoundationXML' Sources; then echo "no FoundationXML in Sources: every XML document is read with libxml2 (Readers/XML)"; status=1; fi
if grep -rlE 'import (CCrypto|CommonCrypto)' Sources | grep -v '^Sources/CoreSeed/Crypto/'; then echo "only Sources/CoreSeed/Crypto may import CCrypto or CommonCrypto"; status=1; fi
if grep -rn 'try!' Sources; then echo "no try! in Sources"; status=1; fi
# File system calls go through Sources/CoreSeed/FileSystem (Errno, FilePath, FileDescriptor, FileSystem):
# these C calls may not appear anywhere else in Sources (the command line reaches them through the
# layer's public part). One exception, with its reason:
#   Store/InterruptCleanup.swift: the SIGINT/SIGTERM handler calls unlink/rmdir, which must stay
#     async-signal-safe (no Swift allocation, no Errno).
posix='(^|[^.A-Za-z_])(open|openat|close|fstat|stat|lstat|read|pread|write|pwrite|fsync|rename|unlink|mkdir|rmdir|opendir|readdir|closedir|flock|fcntl|chmod|chown|kill|link|symlink|readlink|access|getpid|geteuid|usleep|strerror|coreseed_rename_exchange)\('
if grep -rnE "$posix" Sources --include='*.swift' \
   | grep -vE '^Sources/CoreSeed/FileSystem/|^Sources/CoreSeed/Store/InterruptCleanup\.swift:' \
   | grep -vE '^[^:]+:[0-9]+:[[:space:]]*//|func [a-z]+\(|try write\(|try read\(|mutating func link'; then
  echo "a C file-system call outside Sources/CoreSeed/FileSystem: go through FileSystem/FileDescriptor (scripts/lint.sh lists the calls)"; status=1
fi
# The library names the options its messages suggest (Diagnostics/RunOption.swift); only the command line
# spells them as flags: no `--flag` inside a string literal of Sources/CoreSeed (doc comments aside).
if grep -rnE '"[^"]*--[a-z][a-z-]*' Sources/CoreSeed --include='*.swift' | grep -vE '^[^:]+:[0-9]+:[[:space:]]*//'; then
  echo "a command-line flag in a library message: name it with RunOption (the command line spells it)"; status=1
fi
python3 scripts/unsafe-comments.py Sources || { echo "an unsafe construct has no SAFETY: comment (scripts/unsafe-comments.py)"; status=1; }
# Core Data's SQL has one home: the rule must refuse its planted lines before its pass over Sources counts.
python3 scripts/coredata-sql.py --self-test || { echo "the Core Data SQL rule does not refuse its planted lines (scripts/coredata-sql.py --self-test)"; status=1; }
python3 scripts/coredata-sql.py Sources || { echo "Core Data SQL outside Sources/CoreSeed/Layout/SQL (scripts/coredata-sql.py)"; status=1; }
swift build -Xswiftc -warnings-as-errors >/dev/null || { echo "build has warnings or errors"; status=1; }
# The macOS Core Data check must keep compiling here too: its Linux half as it is, its Core Data
# half (behind canImport) against the declarations in Tools/CoreDataCheck/TypeCheck/CoreData.swift.
./scripts/core-data-check.sh --typecheck || { echo "Tools/CoreDataCheck does not compile (scripts/core-data-check.sh --typecheck)"; status=1; }
# The seed plugin, its Xcode conformance included (behind canImport(XcodeProjectPlugin)).
./scripts/plugin-typecheck.sh || { echo "Plugins/SeedPlugin does not compile (scripts/plugin-typecheck.sh)"; status=1; }
# The fuzz targets are built outside the package: check they still compile with its sources.
FUZZ_TYPECHECK=1 ./scripts/fuzz.sh || { echo "a fuzz target does not compile (scripts/fuzz.sh)"; status=1; }
exit $status
