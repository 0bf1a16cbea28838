# Two commands do all the set-up on a fresh machine with python3 and pip:
#   make run    solve Yahtzee exactly and ask for advice (creates .venv on first use)
#   make test   run the whole test suite (two workers; a cold kernel cache adds about a quarter for numba compiling)
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install run test test-essay test-big test-floors compile-report fuzz bench clean

$(STAMP): pyproject.toml Makefile  # the install recipe is here: a venv made by an older one is redone
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet uv  # uv installs and byte-compiles the rest in half of pip's time
	$(BIN)/uv pip install --quiet --python $(BIN)/python --compile-bytecode -e '.[all]' --group dev
	$(BIN)/python -m compileall -q src  # bytecode now, as a regular pip install would (PYTHONDONTWRITEBYTECODE may be set)
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/dicesolver solve yahtzee
	$(BIN)/dicesolver advise yahtzee /13456/2 --top 5

test: $(STAMP)
	$(BIN)/python -m pytest -q -n 2 --dist loadfile --durations=10 --timeout=900 --timeout-method=thread --doctest-modules --doctest-glob='*.md' src/dicesolver/__init__.py README.md src/dicesolver/docs/API.md tests

# the exact evaluations on the full two-person Generala table and the seeds' full-size figures (about 11 minutes on 2 cores)
test-essay: $(STAMP)
	$(BIN)/python -m pytest -q -m essay tests

# the full two-person Yacht table, solved out of core and checked (about an hour, 2.3 GB RSS, 6.2 GB of disk)
test-big: $(STAMP)
	$(BIN)/python -m pytest -q -m big tests

# every dependency at the lowest version pyproject.toml allows (.venv-floors), and a smoke test there
test-floors: $(STAMP)
	$(BIN)/python scripts/floors.py

# the suite from empty kernel and table caches, with every kernel numba compiles logged, and where that time goes
compile-report: $(STAMP)
	rm -rf .compile-report && mkdir .compile-report
	DICESOLVER_COMPILE_LOG=.compile-report/compiles.jsonl DICESOLVER_KERNEL_CACHE=.compile-report/kernels \
		$(BIN)/python -m pytest -q -n 2 --dist loadfile -p no:cacheprovider tests
	$(BIN)/python scripts/compile_report.py .compile-report/compiles.jsonl

# every input language fuzzed: about 144,000 cases, with hypothesis's statistics (about 10 minutes on 2 cores)
fuzz: $(STAMP)
	DICESOLVER_FUZZ_SCALE=67 $(BIN)/python -m pytest -q -n 2 --dist load -p no:cacheprovider \
		--hypothesis-show-statistics tests/test_fuzz.py

bench: $(STAMP)
	$(BIN)/uv pip install --quiet --python $(BIN)/python --group bench
	$(BIN)/python benchmarks/publish.py bench_solve.py bench_answers.py bench_label.py bench_simulate.py \
		bench_play.py bench_first_use.py bench_startup.py bench_mindful.py bench_target.py bench_explain.py \
		bench_pushluck.py bench_despirala.py bench_farkle.py bench_rl.py bench_size.py bench_maxi.py load_web.py

clean:
	rm -rf $(VENV) .numba_cache .pytest_cache .hypothesis  # compiled kernels stay in the user cache (see README)
