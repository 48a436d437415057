# The README's two commands: `make demo` and `make test`.  Both create .venv if missing.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip --disable-pip-version-check
B2T := $(VENV)/bin/basic2tile

.PHONY: demo test golden bench fuzz clean

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: $(VENV)/bin/python pyproject.toml
	$(PIP) install -q -e .
	touch $@

$(VENV)/.installed-test: $(VENV)/bin/python pyproject.toml
	$(PIP) install -q -e '.[test]'
	touch $@ $(VENV)/.installed

demo: $(VENV)/.installed
	@echo "== basic2tile examples/saxpy.bas --interpret"
	@$(B2T) examples/saxpy.bas --interpret
	@echo "== basic2tile examples/saxpy.bas -o out/saxpy.py"
	@mkdir -p out && $(B2T) examples/saxpy.bas -o out/saxpy.py && sed -n '1,60p' out/saxpy.py
	@echo "== basic2tile examples/saxpy.bas --run --device cpu"
	@$(B2T) examples/saxpy.bas --run --device cpu

test: $(VENV)/.installed-test
	$(PY) -m pytest -n auto -q

golden: $(VENV)/.installed-test
	$(PY) -m tests.regenerate_golden

bench: $(VENV)/.installed-test
	$(PY) bench/cpu_run.py
	$(PY) bench/transpile.py

fuzz: $(VENV)/.installed-test
	$(PY) bench/fuzz.py

clean:
	rm -rf $(VENV) out build dist .pytest_cache
