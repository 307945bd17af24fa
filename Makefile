# formulary-fsm — every target installs what it needs into .venv/ first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
BENCH_STAMP := $(VENV)/.bench-installed
DATA_DIR ?= ./var
GROUP ?= all
export DATA_DIR

.PHONY: install run test lint typecheck bench soak review clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

## Serve the chat backend on the embedded default (SQLite + Qdrant Edge + offline providers).
run: $(STAMP)
	$(BIN)/formulary-fsm serve --host 127.0.0.1 --port 8000

## Unit + integration tests, property tests (CI profile), then the golden transcripts.
test: $(STAMP)
	HYPOTHESIS_PROFILE=ci $(BIN)/python -m pytest -q -p no:cacheprovider
	$(BIN)/formulary-fsm replay fixtures/transcripts/

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

# The bench-only extra (LangGraph + its SQLite checkpointer, the orchestration group's reference).
$(BENCH_STAMP): $(STAMP) pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	touch $(BENCH_STAMP)

bench: $(BENCH_STAMP)
	$(BIN)/python -m bench.run --group $(GROUP)

soak: $(STAMP)
	$(BIN)/python -m tests.soak --conversations 10000

review: $(STAMP)
	$(BIN)/formulary-fsm review --out docs/review

clean:
	rm -rf $(VENV) var .pytest_cache .mypy_cache
