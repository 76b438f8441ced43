# cardsmith — every target sets up .venv on its own, so a fresh checkout needs nothing else.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test soak lint bench bench-count bench-count-tools bench-since-issue browser editor clean

# setuptools' notice about editable installs is silenced: it warns of a folder named like the
# package, and here that folder is the package.
$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	PYTHONWARNINGS="ignore:Editable installation" $(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/cardsmith demo

test: $(STAMP) browser editor
	$(BIN)/python -m pytest -n auto

# The long soaks: many more random games of every game and more fuzzing examples than
# `make test` plays (it keeps to a few minutes on two cores).
soak: $(STAMP)
	CARDSMITH_RANDOM_GAMES=2000 CARDSMITH_FUZZ_SCALE=5 $(BIN)/python -m pytest -n auto \
	    tests/test_sakura_games.py tests/test_eatpaint.py tests/test_ccs.py tests/test_fuzz.py

# Headless Chromium for the browser tests (tests/browser.py drives it with Playwright): Debian's
# `chromium`, with fonts-noto-cjk so Chinese and Japanese pages are legible in the screenshots,
# installed with apt when it is missing and apt can be used (as root, or with sudo that needs
# no password). This never fails the build: without a browser those tests skip and
# say why.
CHROMIUM ?= /usr/bin/chromium
browser:
	@if [ ! -x "$(CHROMIUM)" ]; then \
	    if ! command -v apt-get >/dev/null 2>&1; then \
	        echo "note: no $(CHROMIUM) and no apt-get: the browser tests will be skipped"; \
	    else \
	        if [ "$$(id -u)" = 0 ]; then sudo=; else sudo="sudo -n"; fi; \
	        echo "installing chromium with apt-get for the browser tests"; \
	        { $$sudo apt-get update -qq && $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk; } \
	            >/dev/null 2>&1 || echo "note: chromium could not be installed: the browser tests will be skipped"; \
	    fi; \
	fi

# VS Code's TextMate engine for the grammar test (editors/vscode's development dependencies),
# installed with npm when npm is here; without it that one test skips and says why.
editor:
	@if [ ! -d editors/vscode/node_modules ]; then \
	    if command -v npm >/dev/null 2>&1; then \
	        (cd editors/vscode && npm install --silent --no-audit --no-fund >/dev/null 2>&1) \
	            || echo "note: npm install failed in editors/vscode: the grammar's engine test will be skipped"; \
	    else \
	        echo "note: no npm: the grammar's engine test will be skipped"; \
	    fi; \
	fi

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy compiler runtime cardsmith
	$(BIN)/cardsmith fmt --check cards examples

bench: $(STAMP)  # bytecode compiled first: whole-process times measure an installed cardsmith even where .pyc files are not written
	$(BIN)/python -m compileall -q compiler runtime cardsmith
	$(BIN)/python bench/run.py

# The same work counted in instructions (bench/count.py, valgrind's cachegrind): steady where
# timings drift. valgrind is installed with apt when it is missing and apt can be used.
bench-count: bench-count-tools
	$(BIN)/python -m compileall -q compiler runtime cardsmith
	$(BIN)/python bench/count.py

bench-count-tools: $(STAMP)
	@command -v valgrind >/dev/null 2>&1 || { if [ "$$(id -u)" = 0 ]; then sudo=; else sudo="sudo -n"; fi; \
	    echo "installing valgrind with apt-get"; \
	    { $$sudo apt-get update -qq && $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind; } \
	        >/dev/null 2>&1 || echo "note: valgrind could not be installed"; }

# Sakura's game loop against the commit before issue 16's first change, in instructions (and,
# with ARGS=--time 10, timed by turns): the issue's 3x target read through the reviewer's figures.
bench-since-issue: bench-count-tools
	$(BIN)/python bench/since_issue.py $(ARGS)

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
