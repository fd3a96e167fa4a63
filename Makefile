# Developer shortcuts; every target uses the venv that scripts/bootstrap.sh makes.
VENV ?= .venv
PY = $(VENV)/bin/python

.PHONY: setup demo test lint format i18n package bench clean

setup:            ## apt packages, venv, pinned pip packages
	bash scripts/bootstrap.sh

demo:             ## the demo on bundled data, outputs in demo_output/
	bash scripts/demo.sh

test:             ## lint + the whole test suite in headless QGIS
	bash scripts/test.sh

lint:
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format:
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

i18n:             ## extract tr() strings into i18n/*.ts and compile the .qm files
	python3 scripts/i18n.py

package:          ## dist/spatial_privacy-<version>.zip for "Install from ZIP"
	python3 scripts/package.py

bench: setup      ## speed tables (not part of the tests)
	QT_QPA_PLATFORM=offscreen $(PY) tests/benchmarks/bench_pufferfish.py

clean:
	rm -rf dist build demo_output .pytest_cache .ruff_cache
	find . -name __pycache__ -prune -exec rm -rf {} +
