# The two set-up commands of the README: `make demo` and `make test`.
CARGO ?= cargo
BIN := target/release/adjudicate
DEMO_DIR ?= demo-out

VENV := .venv

.PHONY: build demo test check bench clean-demo

build:
	$(CARGO) build --release --locked

## Plays the sample games round by round into $(DEMO_DIR)/<game>/ and prints the reports.
demo: build
	bash scripts/demo.sh $(BIN) $(DEMO_DIR)/room-swap room-swap dave
	bash scripts/demo.sh $(BIN) $(DEMO_DIR)/god-race god-race erin
	bash scripts/demo.sh $(BIN) $(DEMO_DIR)/planar-control planar-control alice
	bash scripts/demo.sh $(BIN) $(DEMO_DIR)/final-ritual final-ritual bob

## Unit tests, rule cases and the integration tests (the built binary on real temp directories,
## mail through a real SMTP server: aiosmtpd from PyPI, installed into $(VENV)).
test: $(VENV)/.ready
	$(CARGO) test --locked

$(VENV)/.ready:
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check aiosmtpd==1.4.6
	touch $@

## What CI should keep green: formatting, lints, tests.
check:
	$(CARGO) fmt --check
	$(CARGO) clippy --locked --all-targets -- -D warnings
	$(MAKE) test

## Speed targets (never asserted in tests): a sample tick (Room Swap, Final Ritual) against process
## start + file writes,
## and a synthetic God Race round at 1,000 and 10,000 players, phase by phase.
bench: build
	bash scripts/bench.sh $(BIN) 30 room-swap
	bash scripts/bench.sh $(BIN) 30 final-ritual
	$(CARGO) bench --locked --bench god_race_round

clean-demo:
	rm -rf $(DEMO_DIR)
