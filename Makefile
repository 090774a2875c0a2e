# migrant-chat: set-up, build, run and test.
#
#   make        the release binary, completions and man page in .build/dist/files (as yourself)
#   make run    the chat (pass flags with ARGS="--server http://localhost:5005")
#   make test   every test tier: unit, adapters, end-to-end, transcripts, real Rasa, the
#               start-up guard (counted, not timed), lint
#   make test-rasa   only the real-Rasa tier (Python 3.10 venv with rasa 3.6.21, cached)
#   make bench             every benchmark side by side, one table (release build; BENCHMARKS.md)
#   make bench-directory   the contact directory at 100,000 contacts (release build)
#   make bench-serve       `serve` requests per second and latency, 1 and 16 connections (wrk)
#   make fuzz              libFuzzer targets, FUZZ_SECONDS each (default 60)
#   make test-sanitizers   unit and adapter tests under AddressSanitizer and under ThreadSanitizer
#   make test-busy         make test with stress-ng keeping every core busy beside it (no test may
#                          wait a fixed time: this is how that is checked)
#   sudo make install [PREFIX=/usr/local] [DESTDIR=...]   copies what `make` built: binary, completions, man page
#   make uninstall         removes what install wrote
#   make dist              a .deb and a tarball in .build/dist/ (Tests/Package/check.sh checks them)
#
# `make deps` installs the Debian packages the build needs when run as root,
# and otherwise prints the exact command to run.

.DEFAULT_GOAL := all
SWIFT ?= swift
APT_PACKAGES := libcurl4-openssl-dev libreadline-dev libsqlite3-dev libstemmer-dev zlib1g-dev pkg-config openssl binutils patchelf
# The package tier of `make test` runs the installed completions in fish (and checks zsh's),
# and installs the .deb on a fresh system that debootstrap makes; the journeys run in tmux;
# groff checks the man page.
test: APT_PACKAGES += fish zsh debootstrap tmux groff-base strace valgrind
ARGS ?=

.PHONY: static-libs locales all deps check-versions build release run test dist-files install uninstall dist test-rasa test-unit lint format clean bench bench-tools bench-directory bench-serve fuzz test-sanitizers test-busy

deps:
	@missing=""; \
	for package in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$package 2>/dev/null | grep -q "install ok installed" \
	    || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	  else \
	    echo "missing Debian packages:$$missing"; \
	    echo "run: sudo apt-get update && sudo apt-get install -y$$missing"; \
	    exit 1; \
	  fi; \
	fi
	@$(MAKE) --no-print-directory check-versions

# The oldest system libraries the code uses: libcurl 7.85 (CURLOPT_PROTOCOLS_STR,
# the HTTP/HTTPS-only allow-list), SQLite 3.27 (FTS5's remove_diacritics 2;
# json_each, built in from 3.38 and in Debian's builds before), readline 8.0
# (bracketed paste, the callback interface as used). Older ones fail here with
# what was found, not later with a compiler error.
MIN_LIBCURL := 7.85.0
MIN_SQLITE := 3.27.0
MIN_READLINE := 8.0
READLINE_HEADER ?= /usr/include/readline/readline.h

check-versions:
	@ok=1; \
	for pair in libcurl:$(MIN_LIBCURL) sqlite3:$(MIN_SQLITE); do \
	  lib=$${pair%%:*}; min=$${pair#*:}; \
	  if ! pkg-config --atleast-version=$$min $$lib; then \
	    echo "$$lib $$min or newer is needed; found $$(pkg-config --modversion $$lib 2>/dev/null || echo none)"; ok=0; \
	  fi; \
	done; \
	found=$$(awk '/define RL_VERSION_MAJOR/{major=$$3} /define RL_VERSION_MINOR/{minor=$$3} END{if (major != "") print major "." minor}' $(READLINE_HEADER) 2>/dev/null); \
	if [ -z "$$found" ] || [ "$$(printf '%s\n%s\n' $(MIN_READLINE) $$found | sort -V | head -1)" != "$(MIN_READLINE)" ]; then \
	  echo "GNU readline $(MIN_READLINE) or newer is needed; found $${found:-none} ($(READLINE_HEADER))"; ok=0; \
	fi; \
	if [ $$ok = 0 ]; then echo "Install newer development packages (Debian 12 or Ubuntu 24.04 have them)."; exit 1; fi

build: deps
	$(SWIFT) build

# The Swift runtime and Foundation linked in: a fifth faster start, 6 MB less
# memory, and a binary that runs without a Swift toolchain (see BENCHMARKS.md).
# Linked by lld with packed relative relocations (DT_RELR, glibc 2.36+): the 117,000
# relocations of a position-independent binary this size were 12 % of the instructions
# of the first offline answer, in 2.8 MB of tables the loader read at every start.
# Concrete generic types made by their metadata accessors, not from mangled names: each
# of those checked its requirements by walking the binary's 9,277 conformance records
# (#50: the first offline answer 36.0 -> 26.0 million instructions, BENCHMARKS.md).

# A folder of links to the static archives of libstdc++ (the Swift runtime's C++
# library; the GCC runtime exception allows it), SQLite, GNU readline and its terminfo,
# Snowball's stemmer and zlib, searched before the system's folders: the linker takes
# `-lsqlite3` from libsqlite3.a here rather than libsqlite3.so. The release binary then
# loads only libc, libm and libgcc_s at start (libcurl still on first use): 3,998 symbol
# relocations fewer. An archive the system lacks leaves that library shared, as before.
STATIC_LIBS := $(CURDIR)/.build/static-libs
STATIC_ARCHIVES := libstdc++ libsqlite3 libreadline libtinfo libstemmer libz

# The C libraries are linked from their static archives where the system has them
# (see static-libs): loading and relocating their shared objects was a fifth of the
# first offline answer's instructions (#50). `-ltinfo`: what a static readline needs.
# `--no-export-dynamic`: the static Swift runtime's link flags export every symbol of
# our code (33,000) to the dynamic table, where nothing looks them up; the runtime's
# start-up `dladdr` scanned them all, a million instructions (#50).
#
# The start-up's code and data side by side (#50): every function and variable in a
# section of its own, and the linker lays them out in the order the first offline
# answer used them (STARTUP_ORDER, written by Tools/startup/order.py from a trace of the
# binary itself, which `release_binary` then links again): a fifth fewer pages touched.
STARTUP_ORDER := $(CURDIR)/.build/startup.order
RELEASE_FLAGS := -c release --static-swift-stdlib -Xswiftc -use-ld=lld \
  -Xlinker -z -Xlinker pack-relative-relocs -Xlinker --no-export-dynamic \
  -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors \
  -Xswiftc -L$(STATIC_LIBS) -Xlinker -ltinfo \
  -Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections -Xcc -fdata-sections \
  -Xlinker --symbol-ordering-file=$(STARTUP_ORDER) -Xlinker --no-warn-symbol-ordering

# The release binary: built, its first offline answer traced, linked again in that order.
# (Without valgrind or python3 the last order traced is used, if any: only slower.)
define release_binary
	$(SWIFT) build $(RELEASE_FLAGS) $(COMMIT_FLAGS) --product migrant-chat
	$(call unlink_curl,.build/release/migrant-chat)
	@if command -v python3 >/dev/null; then python3 Tools/startup/order.py .build/release/migrant-chat $(STARTUP_ORDER); \
	else echo "no python3: the release binary is linked in the last order traced, if any"; fi
	rm -f .build/release/migrant-chat
	$(SWIFT) build $(RELEASE_FLAGS) $(COMMIT_FLAGS) --product migrant-chat
	$(call unlink_curl,.build/release/migrant-chat)
endef

static-libs:
	@mkdir -p $(STATIC_LIBS)
	@touch $(STARTUP_ORDER)
	@for lib in $(STATIC_ARCHIVES); do \
	  path=; for cc in clang gcc cc; do \
	    command -v $$cc >/dev/null && path=$$($$cc -print-file-name=$$lib.a 2>/dev/null) && break; \
	  done; \
	  if [ -f "$$path" ]; then ln -sf "$$path" $(STATIC_LIBS)/$$lib.a; \
	  else rm -f $(STATIC_LIBS)/$$lib.a; echo "static-libs: no $$lib.a here: $$lib stays a shared library"; fi; \
	done
	@# Snowball's archive without libstemmer.o, whose table links all 29 of its languages,
	@# and with Tools/stemmer/stemmers.c's table of the two the search uses (#50).
	@# Without a C compiler or ar, Snowball's archive is linked whole, as before.
	@if [ -L $(STATIC_LIBS)/libstemmer.a ]; then \
	  archive=$$(readlink -f $(STATIC_LIBS)/libstemmer.a); \
	  if $${CC:-cc} -O2 -fPIC -ffunction-sections -fdata-sections -c Tools/stemmer/stemmers.c \
	      -o $(STATIC_LIBS)/stemmers.o && \
	    cp "$$archive" $(STATIC_LIBS)/libstemmer.a.new && \
	    ar d $(STATIC_LIBS)/libstemmer.a.new libstemmer.o && \
	    ar rs $(STATIC_LIBS)/libstemmer.a.new $(STATIC_LIBS)/stemmers.o; then \
	    mv -f $(STATIC_LIBS)/libstemmer.a.new $(STATIC_LIBS)/libstemmer.a; \
	  else rm -f $(STATIC_LIBS)/libstemmer.a.new; \
	    echo "static-libs: Snowball's archive is linked whole (Tools/stemmer/stemmers.c did not build)"; fi; \
	fi

# The git commit goes into --version (a plain `swift build` says "unknown").
COMMIT := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
COMMIT_FLAGS := -Xcc -DMIGRANT_CHAT_COMMIT='"$(COMMIT)"'
VERSION := $(shell sed -n 's/.*static let current = "\(.*\)"/\1/p' Sources/MigrantChatIO/Version.swift)

# libcurl is opened on its first call (Sources/CCurlLoader/loader.c), so commands
# that never connect do not load it and its 30 libraries. Static Foundation's link
# flags still name it, and SwiftPM puts `--as-needed` after them, where it does
# nothing; so once no libcurl symbol is left for the loader to resolve (checked
# here), the release binary's dependency on it is dropped with patchelf.
define unlink_curl
	@if nm -D --undefined-only $(1) | grep ' curl_'; then \
	  echo "$(1) calls the libcurl functions above, which Sources/CCurlLoader/loader.c does not forward"; \
	  exit 1; \
	fi
	@if readelf -d $(1) | grep -q 'NEEDED.*\[libcurl'; then patchelf --remove-needed libcurl.so.4 $(1); fi
	@# SwiftPM's RUNPATH, $$ORIGIN: the static binary needs no library beside it, and
	@# with it a libcurl.so.4 (or libsqlite3.so.0, ...) next to the binary would be
	@# loaded in place of the system's.
	@if readelf -d $(1) | grep -q 'RUNPATH'; then patchelf --remove-rpath $(1); fi
endef

release: deps static-libs
	$(SWIFT) build $(RELEASE_FLAGS) $(COMMIT_FLAGS)
	$(call release_binary)

# What install and dist ship, made once in .build/dist/files: the stripped binary,
# shell completions (swift-argument-parser writes them) and the man page
# (swift-argument-parser's generator, every subcommand, plus docs/migrant-chat.1.extra:
# environment, files, exit status).
PREFIX ?= /usr/local
DESTDIR ?=
DIST := .build/dist
FILES := $(DIST)/files

dist-files: deps static-libs
	$(call release_binary)
	$(SWIFT) build --product generate-manual
	rm -rf $(FILES) && mkdir -p $(FILES)/completions $(FILES)/man
	strip -o $(FILES)/migrant-chat .build/release/migrant-chat
	$(FILES)/migrant-chat --generate-completion-script bash > $(FILES)/completions/migrant-chat.bash
	$(FILES)/migrant-chat --generate-completion-script zsh > $(FILES)/completions/_migrant-chat
	$(FILES)/migrant-chat --generate-completion-script fish > $(FILES)/completions/migrant-chat.fish
	Tools/generate-man.sh $(FILES)/migrant-chat "$$($(SWIFT) build --show-bin-path)/generate-manual" \
	  "$$(git log -1 --format=%cs 2>/dev/null || date +%F)" $(FILES)/man
	# The generator's own EXIT STATUS (.Ex -std) gives way to ours, with the other sections.
	sed -i '/^\.Sh "EXIT STATUS"/,$$d' $(FILES)/man/migrant-chat.1
	cat docs/migrant-chat.1.extra >> $(FILES)/man/migrant-chat.1
	# A help text's paragraphs (an empty line between them) are mdoc's .Pp, which the
	# generator does not write; groff warns at every empty line.
	sed -i 's/^$$/.Pp/' $(FILES)/man/migrant-chat.1

all: dist-files

# Only copies: the build runs as the user (`make`), never as root in the user's
# tree, where it would leave a root-owned .build that the next build cannot write.
install:
	@for file in migrant-chat completions/migrant-chat.bash completions/_migrant-chat \
	  completions/migrant-chat.fish man/migrant-chat.1; do \
	  if [ ! -f "$(FILES)/$$file" ]; then \
	    echo "make install: $(FILES)/$$file is not built. Run \`make\` first (as yourself, not root), then \`sudo make install\`." >&2; \
	    exit 1; \
	  fi; \
	done
	install -Dm755 $(FILES)/migrant-chat "$(DESTDIR)$(PREFIX)/bin/migrant-chat"
	install -Dm644 $(FILES)/completions/migrant-chat.bash "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/migrant-chat"
	install -Dm644 $(FILES)/completions/_migrant-chat "$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_migrant-chat"
	install -Dm644 $(FILES)/completions/migrant-chat.fish "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/migrant-chat.fish"
	install -Dm644 $(FILES)/man/migrant-chat.1 "$(DESTDIR)$(PREFIX)/share/man/man1/migrant-chat.1"

uninstall:
	rm -f "$(DESTDIR)$(PREFIX)/bin/migrant-chat" \
	  "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/migrant-chat" \
	  "$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_migrant-chat" \
	  "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/migrant-chat.fish" \
	  "$(DESTDIR)$(PREFIX)/share/man/man1/migrant-chat.1"

# A .deb (dpkg-deb; its Depends come from the libraries the binary links, each at
# the version installed here or newer) and a tarball, both in .build/dist/.
dist: dist-files
	Tests/Package/make-dist.sh "$(VERSION)" "$(COMMIT)" $(FILES) $(DIST)

run: deps
	$(SWIFT) run migrant-chat $(ARGS)

# Unit tests, adapter tests against loopback servers, and end-to-end tests of
# the built binary, all through SwiftPM; then the formatting check. A tier that
# cannot run here (no root for the fresh system, no Python 3.10 for Rasa) notes
# why in $(SKIPPED), and the closing line names it.
SKIPPED := $(CURDIR)/.build/skipped-tiers
export MIGRANT_CHAT_SKIPPED := $(SKIPPED)
# The tiers check the ordinary output, whatever the machine says of itself: a CI
# runner's TERM=dumb, or a developer's own ACCESSIBLE=1, would turn the accessible
# mode on (docs/accessibility.md). The journeys set it per session.
test: export ACCESSIBLE = 0
test: deps
	@mkdir -p .build && rm -f $(SKIPPED)
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --disable-xctest
	Tests/replay-transcripts.sh "$$($(SWIFT) build --show-bin-path)/migrant-chat"
	# Whole first hours in a real terminal (tmux), checked screen by screen.
	python3 Tests/Journeys/journeys.py "$$($(SWIFT) build --show-bin-path)/migrant-chat"
	Tests/rasa-tier.sh "$$($(SWIFT) build --show-bin-path)/migrant-chat"
	Tests/SocketIO/tier.sh "$$($(SWIFT) build --show-bin-path)/migrant-chat"
	# serve against hostile clients (raw sockets), a probe beside them checking it answers.
	python3 Tests/Serve/hostile.py "$$($(SWIFT) build --show-bin-path)/migrant-chat"
	# The package: the release build, make install/uninstall into a temporary root, the
	# .deb's contents and the installed tree run with an empty environment, then the .deb
	# installed with apt on a fresh minimal system (a chroot) and run there.
	$(MAKE) --no-print-directory dist
	Tests/Package/check.sh $(DIST) $(VERSION)
	Tests/Package/stemmers.sh $(STATIC_LIBS)
	Tests/Package/chroot.sh $(DIST) $(VERSION)
	# What the first offline answer costs, counted (not timed, so a busy machine cannot
	# fail it): no libcurl loaded, no store opened but the two it uses, and the shipped
	# binary's instructions (valgrind) within a budget; the debug build's libraries too.
	python3 Tests/Startup/guard.py $(FILES)/migrant-chat "$$($(SWIFT) build --show-bin-path)/migrant-chat"
	# The in-process benchmarks at small sizes, so they keep working; the figures mean nothing here.
	$(SWIFT) run --skip-build migrant-bench directory 2000 >/dev/null
	$(SWIFT) run --skip-build migrant-bench guidance 200 >/dev/null
	$(SWIFT) run --skip-build migrant-bench render 100 >/dev/null
	$(SWIFT) run --skip-build migrant-bench history 200 >/dev/null
	$(SWIFT) run --skip-build migrant-bench decode Tests/Benchmarks/Fixtures/*.jsonl >/dev/null
	$(SWIFT) run --skip-build migrant-bench reading Tests/MigrantChatIOTests/Reading/genuine.tsv >/dev/null
	# The fuzz harness, a few seconds a target, so it cannot rot unseen (`make fuzz` runs longer).
	FUZZ_SECONDS=2 Tests/Fuzz/run.sh
	# The version check refuses libraries older than the minimum (asked for a future libcurl here).
	! $(MAKE) --no-print-directory check-versions MIN_LIBCURL=99.0.0 >/dev/null 2>&1
	$(MAKE) lint
	@if [ -s $(SKIPPED) ]; then \
	  echo "make test: passed, with $$(wc -l <$(SKIPPED)) tier(s) SKIPPED:"; sed 's/^/  SKIPPED: /' $(SKIPPED); \
	else echo "make test: passed, every tier ran"; fi

# wrk (load) and hyperfine (whole-process timings), from Debian.
bench-tools:
	@missing=""; for tool in wrk hyperfine; do command -v $$tool >/dev/null || missing="$$missing $$tool"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq$$missing; \
	  else echo "run: sudo apt-get install -y$$missing"; exit 1; fi; \
	fi

# Startup (and `rasa shell`'s, when the Rasa tier's venv exists), turn rate
# against a C libcurl baseline, rendering and decoding, the directory and the
# guidance at scale, peak memory. One table; also in .build/bench/latest.md.
bench: deps bench-tools static-libs
	$(call release_binary)
	$(SWIFT) build $(RELEASE_FLAGS) $(COMMIT_FLAGS) --product migrant-bench
	$(SWIFT) build $(RELEASE_FLAGS) $(COMMIT_FLAGS) --product turn-baseline
	@mkdir -p .build/bench
	python3 Tests/Benchmarks/bench.py --markdown .build/bench/latest.md $(BENCH_ARGS)

bench-serve: deps bench-tools static-libs
	$(call release_binary)
	Tests/Benchmarks/serve/run.sh .build/release/migrant-chat

bench-directory: deps static-libs
	$(SWIFT) build $(RELEASE_FLAGS) $(COMMIT_FLAGS) --product migrant-bench
	.build/release/migrant-bench directory $(or $(COUNT),100000)

fuzz: deps
	Tests/Fuzz/run.sh

# Separate build folders (.build-asan, .build-tsan) so the normal build stays as it is.
# Leak checking is off: the loopback test servers and their scripts live as long
# as the test process by design; AddressSanitizer still stops at any memory error.
# The adapters are where the threads are (socket.io's reader, serve's event loops, the report
# file and the history store shared by requests), so ThreadSanitizer runs their tests too.
test-sanitizers: deps
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan
	ASAN_OPTIONS=detect_leaks=0 \
	  $(SWIFT) test --skip-build --disable-xctest --sanitize=address --scratch-path .build-asan \
	  --filter "MigrantChatCoreTests|MigrantChatIOTests"
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	# The suppressions are state behind Synchronization.Mutex, which TSan cannot see on
	# Linux (each entry says whose; docs/reliability.md).
	TSAN_OPTIONS=suppressions=$(CURDIR)/Tests/Sanitizers/tsan-suppressions.txt \
	  $(SWIFT) test --skip-build --disable-xctest --sanitize=thread --scratch-path .build-tsan \
	  --filter "MigrantChatCoreTests|MigrantChatIOTests"

# `make test` on a machine busy with other work: stress-ng loads every core (and
# some memory) for as long as the tests run, and is stopped with them.
test-busy: deps
	@command -v stress-ng >/dev/null || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq stress-ng; \
	  else echo "run: sudo apt-get install -y stress-ng"; exit 1; fi; }
	@stress-ng --cpu $$(nproc) --vm 1 --vm-bytes 512M --timeout 3h --quiet & stress=$$!; \
	  $(MAKE) --no-print-directory test; status=$$?; kill $$stress 2>/dev/null; wait $$stress 2>/dev/null; \
	  echo "make test-busy: make test exited $$status beside stress-ng --cpu $$(nproc)"; exit $$status

test-rasa: deps
	$(SWIFT) build
	Tests/rasa-tier.sh "$$($(SWIFT) build --show-bin-path)/migrant-chat"

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests

# The locale tables compiled into the program (Sources/MigrantChatCore/Localization/
# CompiledTables.swift): run after editing Locales/*.properties; the tests fail until then.
locales:
	python3 Tools/locales/compile.py

clean:
	rm -rf .build
