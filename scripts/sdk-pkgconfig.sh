#!/usr/bin/env bash
# macOS: pkg-config files for the macOS SDK's own libxml2 and SQLite, so that CoreSeed builds against
# the libraries every Mac has (libxml2.2.dylib and libsqlite3.dylib in /usr/lib) and nothing from
# Homebrew. (libcrypto is Linux-only: Apple platforms use CommonCrypto.) Prints the folder; put it
# in PKG_CONFIG_PATH:   export PKG_CONFIG_PATH="$(scripts/sdk-pkgconfig.sh)"
# Needs a pkg-config (pkgconf) on PATH for SwiftPM to read them, as GitHub's macOS images have.
# Usage: scripts/sdk-pkgconfig.sh [FOLDER]   (default .build/sdk-pkgconfig)
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(uname -s)" = Darwin ] || { echo "sdk-pkgconfig: macOS only (on Linux, pkg-config finds the -dev packages)" >&2; exit 1; }
sdk=$(xcrun --sdk macosx --show-sdk-path)
folder=${1:-.build/sdk-pkgconfig}
header="$sdk/usr/include/libxml2/libxml/xmlversion.h"
[ -f "$header" ] || { echo "sdk-pkgconfig: no $header in the SDK" >&2; exit 1; }
mkdir -p "$folder"
xml_version=$(sed -n 's/^#define LIBXML_DOTTED_VERSION "\(.*\)"$/\1/p' "$header")
sqlite_version=$(sed -n 's/^#define SQLITE_VERSION  *"\(.*\)"$/\1/p' "$sdk/usr/include/sqlite3.h")
cat > "$folder/libxml-2.0.pc" <<PC
Name: libxml-2.0
Description: libxml2 of the macOS SDK $sdk
Version: ${xml_version:-0}
Cflags: -I$sdk/usr/include/libxml2
Libs: -lxml2
PC
cat > "$folder/sqlite3.pc" <<PC
Name: sqlite3
Description: SQLite of the macOS SDK $sdk
Version: ${sqlite_version:-0}
Cflags:
Libs: -lsqlite3
PC
(cd "$folder" && pwd)
