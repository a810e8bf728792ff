# Local tasks. `make run` starts the workbench, `make test` runs the tests.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
TEST_WORKERS ?= 2
BIN := $(VENV)/bin
# Where `make run` serves: make run ADDRESS=0.0.0.0:8080
ADDRESS ?= 127.0.0.1:8000

.PHONY: venv run test lint format bench

venv: $(VENV)/.installed

# What the tests synthesise the CDK exports with (aws-cdk-lib, the cdk CLI,
# TypeScript), pinned in tests/cdk/package-lock.json; reinstalled only when
# it changes. npm keeps its downloads in its cache (~/.npm) between clones.
CDK_TOOLS := tests/cdk/node_modules/.installed
$(CDK_TOOLS): tests/cdk/package-lock.json
	npm ci --prefix tests/cdk --no-audit --no-fund --loglevel=error
	touch $@

# What the tests run JavaScript with (the AWS SDK for JavaScript v3 against
# serve_dynamodb, ElectroDB and DynamoDB-Toolbox entity modules, tsc on
# generated TypeScript), pinned in tests/node/package-lock.json.
NODE_TOOLS := tests/node/node_modules/.installed
$(NODE_TOOLS): tests/node/package-lock.json
	npm ci --prefix tests/node --no-audit --no-fund --loglevel=error
	touch $@

# Reinstalls only when a requirements file changed since the last install.
$(VENV)/.installed: $(wildcard requirements*.txt)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $@

# The job worker (simulations) runs in the background beside the server and
# is stopped with it, however the server ends (Ctrl-C included); it finishes
# the job it runs first.
run: venv
	$(BIN)/python manage.py migrate
	$(BIN)/python manage.py load_examples
	@$(BIN)/python manage.py db_worker & worker=$$!; \
	trap 'kill $$worker 2>/dev/null; wait $$worker 2>/dev/null' EXIT INT TERM; \
	$(BIN)/python manage.py runserver $(ADDRESS)

# The suite runs on TEST_WORKERS processes (pytest-xdist; TEST_WORKERS=0
# runs it in this one). Extra pytest arguments: make test ARGS="-k signup -x". With
# TEST_DATABASE_URL set (.ci/run starts a PostgreSQL server for it), the
# tests that use the database run a second time on that database (the domain
# and browser tests, once), on as many processes (each has a test database
# of its own).
test: venv $(CDK_TOOLS) $(NODE_TOOLS)
	$(BIN)/python -m pytest -n $(TEST_WORKERS) $(ARGS)
	@if [ -n "$$TEST_DATABASE_URL" ]; then \
		echo "== the database tests again, on $${TEST_DATABASE_URL%%:*}"; \
		DATABASE_URL="$$TEST_DATABASE_URL" WORKBENCH_DATABASE_TESTS_ONLY=1 \
			$(BIN)/python -m pytest -n $(TEST_WORKERS) $(ARGS); \
	fi

lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

format: venv
	$(BIN)/ruff check --select I --fix .
	$(BIN)/ruff format .

bench: venv
	@set -e; for script in bench/*.py; do \
		[ -e "$$script" ] || continue; \
		echo "== $$script"; \
		PYTHONPATH=. $(BIN)/python "$$script"; \
	done
