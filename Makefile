# Each target is a one-liner over swift / coreseed. CI (.ci/run) runs `make lint`, then `make test`.
SWIFT ?= swift
CONFIG ?= release
BIN = .build/$(CONFIG)/coreseed

.PHONY: build seed test lint bench fuzz docs clean

build:
	$(SWIFT) build -c $(CONFIG) --product coreseed

seed: build
	./scripts/seed.sh $(BIN)

test:
	$(SWIFT) build --build-tests && $(SWIFT) test --skip-build

lint:
	./scripts/lint.sh

bench: build
	./scripts/bench.sh $(BIN)

fuzz:
	./scripts/fuzz.sh

clean:
	rm -rf .build Outputs
