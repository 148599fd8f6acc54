# sdl: build, test, benchmarks, fuzzing, lint.
GO      ?= go
BIN     ?= bin/sdl
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X main.version=$(VERSION)

.PHONY: build install test bench fuzz soak lint clean

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

# Each fuzz target for FUZZTIME (default 30s). What the fuzzer found worth
# keeping (up to FUZZKEEP inputs per target) is copied into the package's
# testdata/fuzz, so that plain go test, and CI, replays it.
FUZZTIME ?= 30s
FUZZKEEP ?= 200
fuzz:
	@cache="$$($(GO) env GOCACHE)/fuzz"; \
	for pkg in $$($(GO) list ./...); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "== $$pkg $$f"; \
	    CGO_ENABLED=1 $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) -fuzzminimizetime 10s -parallel $${FUZZPAR:-2} $$pkg || exit 1; \
	    dir="$$($(GO) list -f '{{.Dir}}' $$pkg)/testdata/fuzz/$$f"; mkdir -p "$$dir"; \
	    if [ -d "$$cache/$$pkg/$$f" ]; then ls -t "$$cache/$$pkg/$$f" | head -n $(FUZZKEEP) | while read -r x; do cp -n "$$cache/$$pkg/$$f/$$x" "$$dir/"; done; fi; \
	  done; \
	done

# Long reliability runs, not CI: 60 kills of index runs, 4 servers and 4
# terminal readers against 50 new versions, and with SDL_CORPUS=DIR the
# scale benchmark over a large tree (see README "Reliability").
soak:
	SDL_KILLS=60 CGO_ENABLED=1 $(GO) test -count=1 -run '^TestKill9$$' -v -timeout 2h ./index/
	SDL_SOAK_VERSIONS=50 CGO_ENABLED=1 $(GO) test -count=1 -run '^TestManyServersWhileIndexing$$' -v -timeout 2h ./serve/
	CGO_ENABLED=1 $(GO) test -count=1 -run '^(TestHostileArguments|TestHostileFiles)$$' -v -timeout 1h ./serve/ ./index/
	@if [ -n "$(SDL_CORPUS)" ]; then \
	  SDL_CORPUS=$(SDL_CORPUS) CGO_ENABLED=1 $(GO) test -run '^$$' -bench '^BenchmarkIndexCorpus$$' -benchtime 1x -timeout 3h ./index/; \
	else echo "soak: set SDL_CORPUS=DIR for the scale benchmark"; fi

lint:
	test -z "$$(gofmt -l $$(git ls-files '*.go' | grep -v '^testdata/') | tee /dev/stderr)"
	$(GO) vet ./...

clean:
	rm -rf bin dist
