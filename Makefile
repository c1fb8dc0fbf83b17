# The two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
HOST   ?= 127.0.0.1
PORT   ?= 5000

.PHONY: run test validate clean

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
	$(BIN)/companion setup duquesa --seed demo
	@echo
	@echo "Card data validated and a sample Duquesa deal shown above. The PDF build (companion build) and the"
	@echo "web app (companion serve) are not implemented yet: see issues #4 and #5. Meanwhile try:"
	@echo "  $(BIN)/companion score duquesa docs/examples/duquesa-score.json"

test: $(VENV)/.installed-test
	$(BIN)/python -m pytest

validate: $(VENV)/.installed
	$(BIN)/companion validate

clean:
	rm -rf $(VENV) build dist .pytest_cache
	find output -mindepth 1 ! -name .gitkeep -delete
