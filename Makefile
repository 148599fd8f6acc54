# sdl: build, test, benchmarks, fuzzing, lint.
GO      ?= go
BIN     ?= bin/sdl
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X main.version=$(VERSION)

.PHONY: build install test bench fuzz lint clean

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

clean:
	rm -rf bin dist
