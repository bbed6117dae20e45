# Each target is a one-liner over swift / coreseed. CI (.ci/run) runs `make lint`, then `make test`.
SWIFT ?= swift
CONFIG ?= release
BUILD_FLAGS ?=
PREFIX ?= /usr/local
BIN = .build/$(CONFIG)/coreseed

.PHONY: build seed test install lint bench fuzz fault tsan memcheck docs clean core-data-check artifactbundle

build:
	@echo "building coreseed ($(CONFIG); the first build takes a few minutes)…"
	$(SWIFT) build -c $(CONFIG) --product coreseed $(BUILD_FLAGS)

seed: build
	./scripts/seed.sh $(BIN)

# The suite, then the `seed` plugin from a consumer package (scripts/plugin-test.sh).
test:
	$(SWIFT) build --build-tests && $(SWIFT) test --skip-build
	SWIFT=$(SWIFT) ./scripts/plugin-test.sh

# The release binary to $(PREFIX)/bin/coreseed; on Linux, BUILD_FLAGS=--static-swift-stdlib makes it
# run without a Swift toolchain.
install: build
	install -d "$(DESTDIR)$(PREFIX)/bin" && install -m 755 $(BIN) "$(DESTDIR)$(PREFIX)/bin/coreseed"

lint:
	./scripts/lint.sh

# A prebuilt coreseed as a SwiftPM artifact bundle in .build/artifactbundle/ (info.json, the binary,
# a zip and its checksum) and CoreSeedPlugin/, the seed plugin over it (docs/INTEGRATION.md). On a
# Mac, BUILD_FLAGS="--arch arm64 --arch x86_64" makes it universal.
artifactbundle: build
	./scripts/artifactbundle.sh "$$($(SWIFT) build -c $(CONFIG) --product coreseed $(BUILD_FLAGS) --show-bin-path)/coreseed" .build/artifactbundle

# Tools/CoreDataCheck as .build/core-data-check: on macOS it opens, compares, saves and migrates
# stores with Core Data (core-data-check --help); elsewhere only its Linux half runs (exit 77).
core-data-check:
	./scripts/core-data-check.sh .build/core-data-check

bench: build
	./scripts/bench.sh $(BIN)

fuzz:
	./scripts/fuzz.sh

# The fault campaign (kill -9, signals, ulimit -f, a full tmpfs, concurrent builds, an app writing
# to a live store, a hostile store; kill -9 of backup, export and --into on stores with external
# files, sibling store names, concurrent --into): runs, survived, lost (scripts/fault.py and
# scripts/fault_stores.py, a few minutes).
fault: build
	python3 scripts/fault.py $(BIN)

# ThreadSanitizer: a --sanitize=thread release build in /tmp/tsan-build, then CSV, JSON and XML
# builds, --max-errors, --into, verify, export and backup under it (scripts/tsan.sh).
tsan:
	SWIFT="$(SWIFT)" ./scripts/tsan.sh

# Memory checks (issue 30): the suite optimized under AddressSanitizer, then the release binary's
# commands under valgrind on make seed's stores and copies of the corpus (scripts/memcheck.sh).
memcheck:
	./scripts/memcheck.sh

clean:
	rm -rf .build Outputs
