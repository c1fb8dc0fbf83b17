# The two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
HOST   ?= 0.0.0.0# the table mode: phones on the same Wi-Fi join; HOST=127.0.0.1 keeps it to this machine
PORT   ?= 5000
BASE_URL ?=# what the cards' QR codes open; empty: this machine's LAN address (companion address finds it)

.PHONY: run test test-fast quick lint validate messages vnu clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Stamps record what was installed, so a second `make` does not reinstall.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
	touch $@ $(VENV)/.installed

run: $(VENV)/.installed
	$(BIN)/companion validate
	$(BIN)/companion build --out output --base-url "$(or $(BASE_URL),$$($(BIN)/companion address --host $(HOST) --port $(PORT)))"
	@echo "PDFs are in output/ (print at 100 %; see README). Starting the companion:"
	$(BIN)/companion serve --host $(HOST) --port $(PORT)

# The lanes (README, "Tests"). Both run on JOBS processes (pytest-xdist); an idle worker takes tests from a busy one's
# queue (worksteal), so the few minute-long browser tests do not leave one worker alone at the end.
JOBS ?= 2
# Compiled modules (pytest's rewritten tests among them) are kept in .venv/pycache, not beside the sources, even
# where PYTHONDONTWRITEBYTECODE is set: without them each worker and each server a test starts compiles anew.
PYTEST := PYTHONDONTWRITEBYTECODE= PYTHONPYCACHEPREFIX=$(CURDIR)/$(VENV)/pycache $(BIN)/python -m pytest

# Everything, as CI runs it: the browser, PostgreSQL and slow tests, every property at its full count.
test: $(VENV)/.installed-test lint
	$(PYTEST) -n $(JOBS) --dist worksteal

# The edit loop's lane: no browser, no PostgreSQL (SQLite only), no slow test; a tenth of each property's examples.
test-fast: $(VENV)/.installed-test lint
	$(PYTEST) -q -x -n $(JOBS) --dist worksteal -m "not browser and not postgres and not slow" --hypothesis-profile=fast

quick: test-fast  # the lane's old name

# ruff (pyproject.toml's [tool.ruff]): pyflakes, pycodestyle's errors, isort, bugbear, pyupgrade. Both lanes run it
# first; `make lint` alone takes under a second. `.venv/bin/ruff check --fix .` mends what it can mend by itself.
lint: $(VENV)/.installed-test
	$(BIN)/ruff check .

# The Nu Html Checker the HTML test runs (tests/web/test_html_valid.py; with Java: Debian's default-jre-headless):
# vnu-jar, pinned in tests/helpers/vnu.py, from the npm registry, checked against its sha512. .ci/run fetches it.
vnu: $(VENV)/vnu/vnu.jar

$(VENV)/vnu/vnu.jar: | $(BIN)/python
	$(BIN)/python -P tests/helpers/vnu.py fetch $@  # (-P: not beside helpers/http.py, which is not the http package)

validate: $(VENV)/.installed
	$(BIN)/companion validate

# After adding or changing a user-facing text: merge it into companion/translations/es.po, then translate it there.
messages: $(VENV)/.installed
	$(BIN)/python companion/translations/update.py

clean:
	rm -rf $(VENV) build dist .pytest_cache
	find output -mindepth 1 ! -name .gitkeep -delete
