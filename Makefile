# Every entry point of the repository. `make help` lists them.
SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8080

VENV_STAMP := $(VENV)/.installed
NODE_STAMP := node_modules/.installed
CONTRACT_STAMP := $(VENV)/.contract-installed
CONTRACT_NODE_STAMP := contract-tests/node_modules/.installed

.PHONY: help serve demo generate check-generated lint lint-spec typecheck test test-python test-python-client test-bench test-typescript test-go test-rust contract docs bench bench-client setup clean

help: ## List the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-zA-Z_-]+:.*## / {printf "  \033[36m%-20s\033[0m %s\n", $$1, $$2}' $(MAKEFILE_LIST)

$(VENV_STAMP): requirements-dev.txt server/pyproject.toml clients/python/pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt -e server -e clients/python
	touch $@

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

setup: $(VENV_STAMP) $(NODE_STAMP) ## Install every tool into .venv and node_modules

serve: $(VENV_STAMP) ## Serve the host on $(HOST):$(PORT) with the embedded default (echo provider)
	$(BIN)/agentic-driver serve --host $(HOST) --port $(PORT)

demo: $(VENV_STAMP) ## Start a host on a free port, run a two-turn session through the Python client, stop
	$(BIN)/python clients/python/examples/demo.py

generate: $(VENV_STAMP) $(NODE_STAMP) ## Regenerate the server models and every client from openapi.yaml (needs go, cargo)
	$(BIN)/python generator/generate.py

check-generated: $(VENV_STAMP) $(NODE_STAMP) ## Fail if any generated tree differs from a fresh generation
	$(BIN)/python generator/generate.py --check

lint: $(VENV_STAMP) ## ruff on hand-written Python (the generated client is excluded in ruff.toml)
	$(BIN)/ruff check server clients/python generator bench contract-tests
	$(BIN)/ruff format --check server clients/python generator bench contract-tests

typecheck: $(VENV_STAMP) ## mypy (strict) on the host, the Python SDK and its examples
	cd server && ../$(BIN)/mypy
	$(BIN)/mypy --strict clients/python/agentic_driver_sdk clients/python/examples

lint-spec: $(NODE_STAMP) ## Redocly CLI lint of openapi.yaml
	npx --no-install redocly lint openapi.yaml

$(CONTRACT_STAMP): $(VENV_STAMP) contract-tests/requirements.txt
	$(BIN)/python -m pip install --quiet -r contract-tests/requirements.txt
	touch $@

$(CONTRACT_NODE_STAMP): contract-tests/package.json contract-tests/package-lock.json
	cd contract-tests && npm ci --no-audit --no-fund --loglevel=error
	touch $@

contract: $(CONTRACT_STAMP) $(NODE_STAMP) $(CONTRACT_NODE_STAMP) ## Contract tests: the live host against openapi.yaml (schemathesis, scenarios, spec rules)
	$(BIN)/python contract-tests/run.py

test-python: $(VENV_STAMP) ## The host's unit and end-to-end tests
	cd server && ../$(BIN)/pytest -q

test-bench: $(VENV_STAMP) ## Smoke test of the benchmark harness (seconds; runs no benchmark)
	cd bench && ../$(BIN)/pytest -q

test-python-client: $(VENV_STAMP) ## The Python SDK's tests against live hosts (and its examples and docs build)
	cd clients/python && ../../$(BIN)/pytest -q

docs: $(VENV_STAMP) ## API reference of the Python SDK from its docstrings -> clients/python/docs/_build
	$(BIN)/pdoc --docformat markdown -o clients/python/docs/_build agentic_driver_sdk

test-typescript: $(VENV_STAMP) ## The TypeScript client's unit, end-to-end and scenario tests (npm ci, tsc, node --test)
	cd clients/typescript && npm ci --no-audit --no-fund --loglevel=error && npm test

test-go: $(VENV_STAMP) ## The Go client's unit, end-to-end and scenario tests (go mod download, go vet, go test)
	cd clients/go && go mod download && go vet ./... && go test -count=1 ./...

test-rust: $(VENV_STAMP) ## The Rust client's unit, end-to-end and scenario tests (cargo fetch, cargo test)
	cd clients/rust && cargo fetch --locked && cargo test --locked

test: check-generated lint typecheck lint-spec test-python test-python-client test-bench contract test-typescript test-go test-rust ## Set up and run every check and test

bench: $(VENV_STAMP) ## Host vs floor vs peer, one run (a few minutes): table on stdout, bench/results/latest.json
	cd bench && ../$(BIN)/python -m harness

bench-client: $(VENV_STAMP) ## SDK overhead vs plain httpx on one session turn, and import time -> bench/results/client.json
	$(BIN)/python bench/client/bench_client.py

clean: ## Remove installed tools and caches
	rm -rf $(VENV) node_modules .pytest_cache server/.pytest_cache server/.mypy_cache bench/.venv-peer bench/results/logs \
		clients/python/.pytest_cache clients/python/docs/_build
	rm -rf clients/typescript/node_modules clients/typescript/dist clients/typescript/build
	rm -rf clients/rust/target generator/rust/codegen/target
