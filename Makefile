# The README's two commands: `make demo` and `make test`.  Both create .venv if missing.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip --disable-pip-version-check
B2T := $(VENV)/bin/basic2tile
# The exact versions CI tests (pyproject.toml states the ranges); the environment
# variable also reaches pip's isolated build of the package.
export PIP_CONSTRAINT := $(CURDIR)/constraints.txt

.PHONY: demo test docs golden bench fuzz clean

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)

# The compiler pins basic2tile-runtime, which is runtime/ here (not from the index).
$(VENV)/.installed: $(VENV)/bin/python pyproject.toml runtime/pyproject.toml constraints.txt
	$(PIP) install -q -e ./runtime -e .
	touch $@

$(VENV)/.installed-test: $(VENV)/bin/python pyproject.toml runtime/pyproject.toml constraints.txt
	$(PIP) install -q -e ./runtime -e '.[test]'
	touch $@ $(VENV)/.installed

$(VENV)/.installed-docs: $(VENV)/bin/python pyproject.toml constraints.txt
	$(PIP) install -q -e '.[docs]'
	touch $@ $(VENV)/.installed

demo: $(VENV)/.installed
	@echo "== basic2tile examples/saxpy.bas --interpret      (the reference interpreter)"
	@$(B2T) examples/saxpy.bas --interpret
	@echo "== basic2tile examples/saxpy.bas --explain        (which loops become kernels)"
	@$(B2T) examples/saxpy.bas --explain
	@echo "== basic2tile examples/saxpy.bas -o out/saxpy.py  (cuTile Python; first kernel shown)"
	@mkdir -p out && $(B2T) examples/saxpy.bas -o out/saxpy.py && awk '/^@ct.kernel/{f=1} f&&/^$$/{exit} f' out/saxpy.py
	@echo "== basic2tile examples/saxpy.bas -o out/saxpy.cu  (CUDA C++)"
	@$(B2T) examples/saxpy.bas -o out/saxpy.cu && echo "wrote out/saxpy.cu ($$(wc -l < out/saxpy.cu) lines)"
	@echo "== basic2tile examples/saxpy.bas --run --device cpu   (generated Python, CPU tile simulator)"
	@$(B2T) examples/saxpy.bas --run --device cpu
	@echo "== basic2tile examples/saxpy.bas --check --target cuda --device cpu   (generated C++ vs interpreter)"
	@$(B2T) examples/saxpy.bas --check --target cuda --device cpu
	@echo "== basic2tile examples/kernels/gemm.bas --run --device cpu   (a cuTile BASIC kernel program)"
	@$(B2T) examples/kernels/gemm.bas --run --device cpu

test: $(VENV)/.installed-test
	$(PY) -m pytest -n auto --dist worksteal -q --durations=30

# The manual (docs/) as a site in site/; strict: a warning (a broken link or anchor) fails.
docs: $(VENV)/.installed-docs
	$(PY) -m mkdocs build --strict --site-dir site
	@echo "the manual: site/index.html"

golden: $(VENV)/.installed-test
	$(PY) -m tests.regenerate_golden

bench: $(VENV)/.installed-test
	$(PY) bench/cpu_run.py
	$(PY) bench/transpile.py
	$(PY) bench/linear_time.py

fuzz: $(VENV)/.installed-test
	$(PY) bench/fuzz.py

clean:
	rm -rf $(VENV) out build dist site .pytest_cache
