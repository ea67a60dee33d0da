# make test is the one command CI runs (.ci/run). It needs only Go: the
# tools it uses are installed with `go install` at pinned versions into ./bin.

GO              ?= go
# Every go command of make test builds with -trimpath, as the release check
# must (its module cache is its own, in a directory of its own): the build
# cache keys a package built with -trimpath by its module and version, not
# its directory, so the release check reuses what vet and the tests
# compiled, where without it a fresh machine compiled the standard library
# and every dependency a third time. The settings of go env (GOFLAGS in
# the go env file) are kept: the environment's GOFLAGS would replace them;
# -trimpath once, though each step of make test, a make of its own, reads
# it back from the environment.
export GOFLAGS  := $(strip $(filter-out -trimpath,$(shell $(GO) env GOFLAGS)) -trimpath)
# vet, lint, race, doccheck-genkit and the release check's integrations all
# build with -race, so that each dependency is compiled once, with -race,
# where vet and lint compiled it plain and race again with -race: on a
# fresh machine, compiling the dependencies is most of make test's CPU time,
# and a second compile of them cost some 550s of it. GOFLAGS, not a -race
# flag, where a tool or a test runs go commands of its own: staticcheck's
# go list, doccheck's (internal/doccheck lists the packages its README
# blocks import). What -race leaves out, files constrained by !race, vet and
# lint check plain (race_and_plain); the steps that must build plain do so:
# allocs (sync.Pool drops what is put back under -race), fuzz-smoke (its own
# instrumentation), and the core in the release check.
RACE_GOFLAGS    := $(GOFLAGS) -race
STATICCHECK     := honnef.co/go/tools/cmd/staticcheck@v0.8.2
BENCHSTAT       := golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da
BIN             := $(CURDIR)/bin
FUZZTIME        ?= 60s
# Minimizing each new coverage-expanding input may take 60s by default, and
# while both workers minimize, nothing is fuzzed: a 60s run of
# FuzzDecodeDifferential did 35k executions that way, 1.09M with 5s. Crashers
# are minimized within the same bound; raise it to shrink one further.
FUZZMINIMIZETIME ?= 10s
# The smoke run is a count of executions, not a duration: go1.26's fuzz
# coordinator can report a spurious "context deadline exceeded" when a
# -fuzztime duration ends while a worker is busy (golang/go#75804, fixed in
# go1.27). A count has no deadline to race. 10000 runs cost 2 to 20s of CPU a
# target here (FuzzUnions, whose inputs hold up to 2000 values, the most):
# 20000 cost a tenth of a fresh machine's make test, and a smoke run is there
# to catch what breaks at once; make fuzz is the search.
SMOKE_FUZZTIME  ?= 10000x
ROUNDS          ?= 8
BENCHTIME       ?= 100ms
# Every module go.work lists: the core, each integration and each example
# (modules of their own, so that the core keeps no third-party dependency).
# Read from go.work, so that a module is checked as soon as it is listed.
# vet, lint and race take the packages of all of them in one command (a
# workspace has one build list, so this builds what a command per module
# would): the go command then schedules the whole build at once, and loads
# the module graph once rather than once per module.
WORK_MODULES    := $(shell $(GO) work edit -json go.work | sed -n 's/.*"DiskPath": "\(.*\)".*/\1/p')
WORK_PACKAGES   := $(addsuffix /...,$(WORK_MODULES))
# genkit is developed in a workspace of its own (genkit/go.work; the root
# go.work says why): the go command finds it from inside genkit/, so the
# steps below run a second command there.

.PHONY: test forget-own-versions node-check bench-proxy fmt vet lint race doccheck-genkit allocs fuzz-smoke suite shared-copies release-check release-serve no-trace fuzz bench bench-ajv bench-base tools clean

# make test's steps, each a make of its own, timed by internal/maketest.bash:
# after each, a line gives its wall time and the CPU time (user+sys) of every
# process it ran, and the end a table of them all, so that a CI log shows
# where the minutes went (on a fresh machine, mostly in compiling the
# dependencies of every module, with -race: see RACE_GOFLAGS). The steps
# of TEST_FIRST run one after another, then those of TEST_MAIN likewise
# while those of TEST_BESIDE run beside them, then TEST_LAST; @vet in a
# lane waits for vet to pass. Two go commands compiling one package at once
# both do the work, so what runs side by side compiles different packages.
# vet compiles, with -race, every dependency that race, lint,
# doccheck-genkit and the release check build; beside it run the steps
# that build nothing with -race (allocs and suite plain, fuzz-smoke
# instrumented), which keep busy the core that vet's downloads and its
# last packages leave idle (vet's plain pass over the packages whose files
# differ with -race comes last, and finds allocs' plain build done). Then
# race compiles the tests of the workspace's packages, and lint, after it,
# reads their export data (staticcheck's go list -test), while the release
# check compiles the modules as it serves them (their own versions, under
# another path). The first step to fail stops both lanes; the output of
# TEST_BESIDE is printed once both are done.
TEST_FIRST  := forget-own-versions node-check fmt
TEST_MAIN   := vet release-check
TEST_BESIDE := allocs suite shared-copies fuzz-smoke @vet race lint doccheck-genkit
TEST_LAST   := no-trace

# make test links without DWARF (-ldflags=-w): the 60-odd test binaries,
# commands and tools it links are run, never debugged, and DWARF is some 40%
# of the linker's CPU time (the panics and the race detector's reports read
# the symbol table, which stays). Each step, a make of its own, finds it in
# GOFLAGS; a step made alone links as before, and so does make bench.
test:
	@GOFLAGS='$(strip $(filter-out -ldflags=-w,$(GOFLAGS)) -ldflags=-w)' \
		bash internal/maketest.bash "$(MAKE)" "$(TEST_FIRST)" "$(TEST_MAIN)" "$(TEST_BESIDE)" "$(TEST_LAST)"

# A fresh machine, for our own modules. The workspace must build without any
# version of github.com/coerce-go/... in the module cache, since none is
# published: go.work replaces the core's v0.1.0 by the tree for that reason.
# A module cache that holds such a version (left by a release check that once
# shared the machine's cache, or by hand) would hide a go.work that lost its
# replace, and CI would be green on this machine and red on a new one, at the
# README's second command. So every run starts by removing our own module
# paths from the module cache, and no-trace checks at the end that nothing
# put them back. Third-party modules stay cached.
GOMODCACHE_DIR := $(shell $(GO) env GOMODCACHE)
OWN_CACHED     := $(GOMODCACHE_DIR)/github.com/coerce-go $(GOMODCACHE_DIR)/cache/download/github.com/coerce-go

forget-own-versions:
	@for d in $(OWN_CACHED); do \
		if [ -e "$$d" ]; then echo "removing $$d"; chmod -R u+w "$$d" && rm -rf "$$d"; fi; \
	done

no-trace:
	@for d in $(OWN_CACHED); do \
		if [ -e "$$d" ]; then echo "$$d appeared during make test: a step used the machine's module cache for our own versions"; exit 1; fi; \
	done; echo "module cache holds none of our own versions"

# cmd/coerce's proxy tests put real Node servers and clients
# (@modelcontextprotocol/server-everything, the TypeScript SDK) around the
# proxy; race runs them where node and npm are found, as on CI, and go test
# hides a skip, so this says beforehand which it will be.
node-check:
	@if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then \
		echo "node $$(node --version) and npm $$(npm --version) found: cmd/coerce's proxy tests run against @modelcontextprotocol/server-everything and the TypeScript SDK"; \
	else \
		echo "SKIPPING cmd/coerce's tests against @modelcontextprotocol/server-everything and the TypeScript SDK: node or npm not found"; \
	fi

# Every Go file, tracked or not, so that a file not yet added is checked too.
# Files under testdata are fixtures, left as their tests need them.
fmt:
	@out=$$(gofmt -l $$(find . -name '*.go' -not -path '*/testdata/*')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

# $(call race_differs,PACKAGES) is a command that prints those of PACKAGES
# whose files differ in a build with -race (a file constrained by race or
# !race, such as mcpgo's raceEnabled): each package with the files a build
# leaves out, from go list plain and with -race; those listed once differ.
# -buildvcs=false: go list stamps a main package with its module's version
# from git, and looking up that pseudo-version writes it into the module
# cache, which must hold none of ours (no-trace); a GOFLAGS set in the
# environment replaces the -buildvcs=false of a go env file.
race_differs = { $(GO) list -buildvcs=false -e -f '{{.ImportPath}} {{.IgnoredGoFiles}}' $(1) && \
	GOFLAGS='$(RACE_GOFLAGS)' $(GO) list -buildvcs=false -e -f '{{.ImportPath}} {{.IgnoredGoFiles}}' $(1); } | \
	LC_ALL=C sort | uniq -u | cut -d' ' -f1 | LC_ALL=C sort -u

# $(call race_and_plain,COMMAND,PACKAGES) runs COMMAND over PACKAGES with
# -race (RACE_GOFLAGS), then plain over those whose files differ with -race,
# so that every file is checked, each package built as race builds it.
race_and_plain = echo "GOFLAGS=-race $(1) $(2)"; GOFLAGS='$(RACE_GOFLAGS)' $(1) $(2); \
	plain=$$($(call race_differs,$(2))); \
	if [ -n "$$plain" ]; then echo "$(1)" $$plain "(plain: their files differ with -race)"; $(1) $$plain; fi

vet:
	@set -e; $(call race_and_plain,$(GO) vet,$(WORK_PACKAGES)); \
	echo "(in genkit)"; cd genkit; $(call race_and_plain,$(GO) vet,./...)

$(BIN)/staticcheck:
	GOBIN=$(BIN) $(GO) install $(STATICCHECK)

$(BIN)/benchstat:
	GOBIN=$(BIN) $(GO) install $(BENCHSTAT)

tools: $(BIN)/staticcheck $(BIN)/benchstat

lint: $(BIN)/staticcheck
	@set -e; $(call race_and_plain,$(BIN)/staticcheck,$(WORK_PACKAGES)); \
	echo "(in genkit)"; cd genkit; $(call race_and_plain,$(BIN)/staticcheck,./...)

# -vet=off: the checks go test runs by default are a subset of go vet's, which
# the vet step ran on the same packages and their tests; here they would
# only be run again. internal/doccheck runs with GOFLAGS=-race, so that the
# go list -export its tests run reads what vet compiled; the others with
# the flag only, so that cmd/coerce's tests build the command (go build)
# plain, as users do.
RACE_PACKAGES = $(filter-out ./internal/doccheck/...,$(WORK_PACKAGES))
race:
	@set -e; echo "go test -race -vet=off $(RACE_PACKAGES)"; $(GO) test -race -vet=off -count=1 $(RACE_PACKAGES); \
	echo "GOFLAGS=-race go test -vet=off ./internal/doccheck/..."; GOFLAGS='$(RACE_GOFLAGS)' $(GO) test -vet=off -count=1 ./internal/doccheck/...; \
	echo "go test -race -vet=off ./... (in genkit)"; cd genkit && $(GO) test -race -vet=off -count=1 ./...

# The tests that count allocations, again without the race detector, which
# makes sync.Pool drop what is put back at random: under -race they skip.
# Only the packages that have such a test, found by its name: go test of
# ./... would compile and link a test binary for every package of the
# module, plain, to run nothing in most (on a fresh machine, compiles no
# other step makes). -buildvcs=false: see race_differs.
ALLOC_RE    = Alloc|CostNothing
ALLOC_TESTS = '$(ALLOC_RE)'
allocs:
	@set -e; for m in . ./mcpgo; do \
		pkgs=$$(cd $$m && for d in $$($(GO) list -buildvcs=false -f '{{.Dir}}' ./...); do \
			if grep -qE '^func (Test|Example|Fuzz)[A-Za-z0-9_]*($(ALLOC_RE))' $$d/*_test.go 2>/dev/null; then echo $$d; fi; \
		done); \
		echo "go test -run $(ALLOC_TESTS)" $$pkgs; (cd $$m && $(GO) test -count=1 -run $(ALLOC_TESTS) $$pkgs); \
	done

# Each fuzz target briefly, so that CI catches regressions; `make fuzz` runs
# them for FUZZTIME each, a duration or a count such as 1000000x. With a
# duration on go1.26, a bare "context deadline exceeded" with no "Failing
# input written" line is golang/go#75804 (see SMOKE_FUZZTIME), not a finding.
# go test -fuzz takes one target of one package at a time: each is listed
# as package:target.
FUZZ_PACKAGES = . ./internal/jsonwire ./internal/godecode ./internal/nearjson
FUZZ_TARGETS = $$(for p in $(FUZZ_PACKAGES); do $(GO) test -list '^Fuzz' $$p | sed -n "s|^Fuzz|$$p:Fuzz|p"; done)

# The smoke run builds each package's test binary once, instrumented for
# fuzzing (go test -c -fuzz), lists its targets and runs it once per target
# as go test -fuzz would: in the package's directory (the seed corpus is in
# its testdata/fuzz, where a failing input is written too), with the corpus
# cache go test gives it ($GOCACHE/fuzz/<import path>). go test -fuzz per
# target, and go test -list per package, loaded the packages and checked
# or linked a test binary each time, some 30 times.
fuzz-smoke:
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; cache=$$($(GO) env GOCACHE)/fuzz; \
	for p in $(FUZZ_PACKAGES); do \
		ip=$$($(GO) list $$p); bin=$$tmp/$$(echo $$ip | tr / _).test; \
		$(GO) test -c -fuzz=. -o $$bin $$p; \
		for f in $$(cd $$p && $$bin -test.list '^Fuzz'); do \
			echo "fuzz $$p:$$f for $(SMOKE_FUZZTIME)"; \
			(cd $$p && $$bin -test.paniconexit0 -test.timeout=10m0s -test.fuzzcachedir=$$cache/$$ip \
				-test.run='^$$' -test.fuzz="^$$f$$" -test.fuzztime=$(SMOKE_FUZZTIME)); \
		done; \
	done

# The JSON Schema Test Suite, run again (race runs it too) so that CI
# output shows the counts it logs per draft: the lines it logs itself, which
# -v heads with "=== NAME  TestJSONSchemaSuite", not those of its subtests.
# A failure is shown by a run without -v, which prints only what failed.
SUITE := TestJSONSchemaSuite

suite:
	@echo "go test -run '^$(SUITE)$$' -v ."; \
	out=$$($(GO) test -run '^$(SUITE)$$' -v . 2>&1); rc=$$?; \
	if [ $$rc -ne 0 ]; then $(GO) test -run '^$(SUITE)$$' .; exit $$rc; fi; \
	printf '%s\n' "$$out" | awk '/^=== / {own = $$3 == "$(SUITE)"; next} /^--- / {own = 0} \
		own {print; n++} END {if (!n) {print "$(SUITE) did not run, or logged no counts"; exit 1}}'

# The READMEs' Go blocks of the genkit workspace (the others are checked
# by race, in internal/doccheck), with -race as race does, for the same
# reason.
doccheck-genkit:
	cd internal/doccheck && GOWORK=$(CURDIR)/genkit/go.work DOCCHECK_WORKSPACE=genkit GOFLAGS='$(RACE_GOFLAGS)' $(GO) test -count=1 ./

# The copies in testdata of ../shared's conformance vectors and JSON Schema
# Test Suite still equal it, wherever ../shared exists (SHARED=dir for
# another place); in a clone without it there is nothing to compare.
SHARED ?= ../shared
shared-copies:
	@if [ -d "$(SHARED)" ]; then \
		echo "go test -run TestVendoredCopiesAreCurrent (COERCE_SHARED=$(SHARED))"; \
		COERCE_SHARED="$(SHARED)" $(GO) test -count=1 -run '^TestVendoredCopiesAreCurrent$$' . ; \
	else echo "no $(SHARED): the copies in testdata are not compared"; fi

# What users' go get will fetch once the modules are tagged, from a module
# proxy made of the working tree: see internal/releasecheck. -race: the
# integrations' modules build with -race, reusing what vet compiled. -p 2:
# two modules at once, so that one's links, test runs and last compiles,
# which keep a core at most, leave the other core to the next module.
release-check:
	$(GO) run ./internal/releasecheck -race -p 2

# Only the proxy of release-check, kept, and the line a tester pastes to
# go get each module from it in a module of their own (see CHANGELOG.md).
# No part of make test.
release-serve:
	@$(GO) run ./internal/releasecheck -serve

fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		echo "fuzz $$t for $(FUZZTIME)"; \
		$(GO) test -run='^$$' -fuzz="^$${t#*:}$$" -fuzztime=$(FUZZTIME) -fuzzminimizetime=$(FUZZMINIMIZETIME) $${t%%:*} ; \
	done

# The README's performance tables: every benchmark behind them, in rounds
# that alternate the implementations compared in a row (see
# internal/benchtable). The raw `go test -bench` output goes to bench.txt,
# for benchstat.
bench:
	$(GO) run ./internal/benchtable -rounds $(ROUNDS) -benchtime $(BENCHTIME) -raw bench.txt

# A tools/call round trip through cmd/coerce's stdio proxy beside the same
# call direct, fitting and repaired, and the proxy's own work per message.
bench-proxy:
	cd cmd/coerce && $(GO) test -run '^$$' -bench 'ToolsCall|ProxyMessage' -count 5 .

# BenchmarkRepairArgsJSON's two calls in Node, with JSON.parse, AJV
# (coerceTypes) and JSON.stringify (examples/compare/ajv/bench.mjs), then
# coerce's rows of that benchmark, in the same minute: the README's "Against
# Node and AJV". Needs Node and npm, so it is no part of make test.
bench-ajv:
	cd examples/compare/ajv && npm ci --no-audit --no-fund && node bench.mjs
	cd examples/compare && $(GO) test -run '^$$' -bench 'RepairArgsJSON/.*/impl=coerce' -count 5 .

# The root benchmarks of an earlier commit against the tree's, alternating
# run by run, compared by benchstat: make bench-base BASE=v0.1.0
# [BASE_BENCH='^BenchmarkSchemaCoerce$$']. Each binary runs in its own
# tree, on its own testdata.
BASE       ?= HEAD
BASE_BENCH ?= .
bench-base: $(BIN)/benchstat
	@set -e; tmp=$$(mktemp -d); \
	trap 'git worktree remove --force '$$tmp/base' >/dev/null 2>&1; rm -rf '$$tmp EXIT; \
	git worktree add --detach $$tmp/base $(BASE) >/dev/null 2>&1; \
	(cd $$tmp/base && GOWORK=off $(GO) test -c -o $$tmp/base.test .); \
	$(GO) test -c -o $$tmp/tree.test .; \
	for i in $$(seq $(ROUNDS)); do \
		echo "round $$i of $(ROUNDS)" >&2; \
		(cd $$tmp/base && $$tmp/base.test -test.run '^$$' -test.bench '$(BASE_BENCH)' -test.benchmem -test.benchtime $(BENCHTIME)) >> $$tmp/base.txt; \
		$$tmp/tree.test -test.run '^$$' -test.bench '$(BASE_BENCH)' -test.benchmem -test.benchtime $(BENCHTIME) >> $$tmp/tree.txt; \
	done; \
	$(BIN)/benchstat base=$$tmp/base.txt tree=$$tmp/tree.txt

clean:
	rm -rf $(BIN) bench.txt
