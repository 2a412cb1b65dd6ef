# The two set-up commands of the README: `make demo` and `make test`.
CARGO ?= cargo
BIN := target/release/adjudicate
DEMO_DIR ?= demo-out

VENV := .venv

.PHONY: build demo test check bench fuzz crash clean-demo

build:
	$(CARGO) build --release --locked

## Plays the sample games round by round into $(DEMO_DIR)/<game>/, prints the reports, plays a
## short season into $(DEMO_DIR)/season/, writes the public archive as a web site into
## $(DEMO_DIR)/site/, and simulates 20,000 Final Rituals into $(DEMO_DIR)/simulate/.
demo: build
	bash scripts/demo.sh $(BIN) $(DEMO_DIR)/room-swap room-swap dave
	bash scripts/demo.sh $(BIN) $(DEMO_DIR)/god-race god-race erin
	bash scripts/demo.sh $(BIN) $(DEMO_DIR)/planar-control planar-control alice
	bash scripts/demo.sh $(BIN) $(DEMO_DIR)/final-ritual final-ritual bob
	bash scripts/season_demo.sh $(BIN) $(DEMO_DIR)/season dave
	$(BIN) site $(DEMO_DIR) $(DEMO_DIR)/site
	@echo "The public archive of the games and the season: $(DEMO_DIR)/site/index.html"
	$(BIN) simulate final-ritual --games 5000 --sweep options.selfish_hand=6..9 --out $(DEMO_DIR)/simulate
	@echo "Final Ritual's balance across selfish_hand, with charts: $(DEMO_DIR)/simulate/index.html"

## Unit tests, rule cases and the integration tests (the built binary on real temp directories,
## mail through a real SMTP server: aiosmtpd from PyPI, installed into $(VENV)).
test: $(VENV)/.ready
	$(CARGO) test --locked

$(VENV)/.ready:
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check aiosmtpd==1.4.6
	touch $@

## The fuzzers (tests/fuzz.rs: proptest on stable) over submissions, mail and host files, with
## FUZZ_CASES mutants each (make test runs 64; `FUZZ_CASES=1000000 make fuzz` runs longer). A
## failure is shrunk and kept in tests/fuzz.proptest-regressions: commit it.
FUZZ_CASES ?= 20000
fuzz:
	FUZZ_CASES=$(FUZZ_CASES) $(CARGO) test --locked --test main fuzz::

## The crash matrix (tests/crash.rs) at every kill point: every shape of run (the ticks of every
## game, a season's, season match, ingest, send, each host lever) killed before each call that
## writes, opens, renames, makes or removes, then finished by the next run, which must leave the
## bytes of an uninterrupted run. Prints the kill points per shape. `make test` runs a sample.
crash: $(VENV)/.ready
	ADJUDICATE_CRASH=all $(CARGO) test --locked --test main crash:: -- --nocapture

## What CI should keep green: formatting, lints, tests.
check:
	$(CARGO) fmt --check
	$(CARGO) clippy --locked --all-targets -- -D warnings
	$(MAKE) test

## Speed targets (issues #17, #30; never asserted in tests), each against its floor, side by side:
## the sample ticks against a program that writes the same files (examples/floor.rs); the God
## Race round at 10,000 and 100,000 players (resolving, idle, status; peak memory); the resolve
## phase against a plain Python model (scripts/god_race_model.py); simulate's games per second
## against plain Python models of whole games (scripts/<game>_games.py: God Race, Room Swap,
## Final Ritual, with the check that engine and model agree), every game's default bots, and its
## memory at N and 10N games; then the phase-by-phase bench.
## BENCH_TMP picks the file system (default /tmp; /dev/shm shows the CPU cost alone).
BENCH_TMP ?= /tmp
bench: build
	$(CARGO) build --release --locked --examples
	TMPDIR=$(BENCH_TMP) bash scripts/bench.sh $(BIN) target/release/examples/floor 30 room-swap
	TMPDIR=$(BENCH_TMP) bash scripts/bench.sh $(BIN) target/release/examples/floor 30 final-ritual
	TMPDIR=$(BENCH_TMP) bash scripts/bench_big.sh $(BIN) target/release/examples/floor 10000 3
	TMPDIR=$(BENCH_TMP) bash scripts/bench_big.sh $(BIN) target/release/examples/floor 100000 3
	bash scripts/bench_resolve.sh target/release/examples/race_resolve 1000 10000 100000
	bash scripts/bench_simulate.sh $(BIN) 100000
	$(CARGO) bench --locked --bench god_race_round

clean-demo:
	rm -rf $(DEMO_DIR)
