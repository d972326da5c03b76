# mobsim: every target sets itself up on a fresh machine with only python3 and make.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
export NUMBA_CACHE_DIR := $(CURDIR)/.numba_cache
export MPLBACKEND := Agg
# one BLAS thread a process (sim/__init__.py says why), also for the processes that load numpy before mobsim
export OPENBLAS_NUM_THREADS := 1

.PHONY: install demo test warm warm-nyk warm-others fuzz golden bench lint lock clean

install: $(STAMP)

$(STAMP): requirements.lock pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.lock
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $(STAMP)

demo: install
	$(BIN)/mobsim demo --out reports/demo

test: install  # one worker per core; a file stays on one worker (its module fixtures run once); longest first
	@$(MAKE) --no-print-directory -j2 warm
	$(BIN)/python -m pytest -n auto --dist loadfile --no-loadscope-reorder

# Compile before the tests, two chains side by side (a core each), every command a process of its
# own: a process that compiles keeps LLVM's modules of all it compiled (a test worker that compiled
# the searches grew past 2 GB), one that loads them from numba's cache does not (1.6 GB at most).
warm: warm-nyk warm-others

warm-nyk: install
	@t=$$(mktemp -d); $(BIN)/mobsim play --seed 0 > /dev/null \
	&& $(BIN)/mobsim run --games 40 --strategies tuned,learned,distilled,simple --out $$t/run > /dev/null \
	&& $(BIN)/mobsim run --games 1 --strategies search-leaf-all,distilled,distilled,distilled --out $$t/search > /dev/null; \
	s=$$?; rm -rf $$t; exit $$s

warm-others: install
	@t=$$(mktemp -d); $(BIN)/mobsim play --game ag --seed 0 > /dev/null \
	&& $(BIN)/mobsim run --game ag --games 20 --strategies warlord,learned,simple,racketeer --out $$t/run > /dev/null \
	&& $(BIN)/mobsim run --game ag --games 1 --strategies search-200,warlord,warlord,warlord --out $$t/search > /dev/null \
	&& $(BIN)/mobsim run --game pig --games 20 --out $$t/pig > /dev/null; \
	s=$$?; rm -rf $$t; exit $$s

fuzz: install  # fresh random rulesets and seeds, far more of them than the suite draws, every game
	HYPOTHESIS_PROFILE=fuzz $(BIN)/python -m pytest -x tests/test_game_contract.py tests/nyk/test_invariants.py \
		tests/ag/test_ag_invariants.py -k random_rulesets

golden: install  # write every game's golden playthrough again (tests/golden/): read the diff, then commit
	$(BIN)/python tests/golden/playthrough.py
	$(BIN)/python tests/golden/nyk_tables.py

bench: install
	$(BIN)/mobsim bench --json

lint: install
	$(BIN)/ruff check sim strategies tests

lock: install
	$(BIN)/python -m pip freeze --exclude-editable | sed '1i # Pinned environment for mobsim (make install). Regenerate with `make lock`.' > requirements.lock

clean:
	rm -rf $(VENV) .numba_cache .pytest_cache

.PHONY: notebooks notebooks-run
NB_STAMP := $(VENV)/.notebooks-installed

notebooks-run: install  # execute every notebook headless at its default size (nbclient), timed, no warnings
	$(BIN)/python notebooks/run.py

notebooks: install $(NB_STAMP)  # open JupyterLab on notebooks/ (installed into the venv once, pinned)
	cd notebooks && MPLBACKEND= ../$(BIN)/jupyter lab $(if $(filter 0,$(shell id -u)),--allow-root)  # root: containers

$(NB_STAMP): requirements-notebooks.lock
	$(BIN)/python -m pip install --quiet -r requirements-notebooks.lock
	touch $(NB_STAMP)
