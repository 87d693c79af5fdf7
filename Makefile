# foldkit - small, fast filters for profiler stacks.
# make [all] | test | check | demo | bench | install | uninstall | clean

VERSION = 0.1.0
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
DESTDIR ?=

CC ?= cc
CFLAGS ?= -O2 -g
LDFLAGS ?=
WARNFLAGS = -std=c11 -Wall -Wextra -pedantic -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes
ALL_CPPFLAGS = -D_POSIX_C_SOURCE=200809L -DFOLDKIT_VERSION='"$(VERSION)"' \
	-Ilib $(CPPFLAGS)
ALL_CFLAGS = $(WARNFLAGS) $(CFLAGS) -pthread

# Everything built goes below $(BUILD).
BUILD ?= build
TOOLS = foldtop stackcollapse-perf foldcallers foldmodules foldstats flamegraph-svg stackcollapse-dtrace folddiff stackcollapse-pprof stackcollapse-xctrace \
	stackcollapse-callgrind stackcollapse-samply \
	stackcollapse-sample
# The library: a folder per domain, each with its header (see lib/fold.h).
LIBSRC = $(wildcard lib/*/*.c)
LIBHDR = lib/fold.h $(wildcard lib/*/*.h)
LIBOBJ = $(LIBSRC:lib/%.c=$(BUILD)/obj/lib/%.o)
BINS = $(TOOLS:%=$(BUILD)/bin/%)
MAN1 = $(TOOLS:%=man/%.1)
MAN5 = man/folded.5

# Sanitizer build for `make check`.
SANFLAGS = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=all

BATSFLAGS ?=

.SECONDARY:

.PHONY: all test check demo bench fuzz install uninstall clean lint

all: $(BINS)

$(BUILD)/libfold.a: $(LIBOBJ)
	@rm -f $@
	$(AR) rcs $@ $(LIBOBJ)

$(BUILD)/obj/lib/%.o: lib/%.c $(LIBHDR)
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

# The XML reader and the xctrace and sample collapsers, which read the
# largest text inputs: -O3 took 5% off the first two's CPU time on the
# 200k-row export (O2 and O3 interleaved, best of 21, 2026-11-28), 3% off
# the sample collapser's on the 86 MB report (its mean of 41 runs,
# interleaved, twice; wall time 2.5% less, median).  HOTOPT= leaves them
# at CFLAGS.
HOTOPT ?= -O3
$(BUILD)/obj/lib/markup/xml.o $(BUILD)/obj/lib/xctrace/xctrace.o \
    $(BUILD)/obj/lib/sample/sample.o: \
    ALL_CFLAGS += $(HOTOPT)

$(BUILD)/obj/cmd/%.o: cmd/%.c $(LIBHDR)
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/bin/%: $(BUILD)/obj/cmd/%.o $(BUILD)/libfold.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libfold.a -lm

# Helpers the tests use (no python or jq needed).
TESTTOOLS = $(BUILD)/test/jsoncheck $(BUILD)/test/xmlcheck $(BUILD)/test/randbytes \
	$(BUILD)/test/pdmangle $(BUILD)/test/symlookup $(BUILD)/test/demangle \
	$(BUILD)/test/libcheck $(BUILD)/test/cfidump $(BUILD)/test/inflate \
	$(BUILD)/test/pprofgen $(BUILD)/test/dwarfinl $(BUILD)/test/xctracegen \
	$(BUILD)/test/samplygen $(BUILD)/test/failpread.so
$(BUILD)/test/failpread.so: tests/tools/failpread.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -shared -fPIC -o $@ $<
$(BUILD)/test/symlookup: tests/tools/symlookup.c $(LIBHDR) $(BUILD)/libfold.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libfold.a -lm
$(BUILD)/test/cfidump: tests/tools/cfidump.c $(LIBHDR) $(BUILD)/libfold.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libfold.a -lm
$(BUILD)/test/dwarfinl: tests/tools/dwarfinl.c $(LIBHDR) $(BUILD)/libfold.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libfold.a -lm
# Drivers over the library (the demangler's tests and bench, the sorts).
$(BUILD)/test/libcheck: tests/tools/libcheck.c $(BUILD)/libfold.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libfold.a -lm
$(BUILD)/test/demangle: tests/tools/demangle.c $(BUILD)/libfold.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libfold.a -lm
$(BUILD)/test/inflate: tests/tools/inflate.c $(LIBHDR) $(BUILD)/libfold.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libfold.a -lm
$(BUILD)/test/%: tests/tools/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $<

# The test suite: bats over the built binaries (installs bats if missing).
test: all $(TESTTOOLS)
	@bats=$$(sh tests/find-bats) || exit 1; \
	FOLDKIT_BIN=$(CURDIR)/$(BUILD)/bin FOLDKIT_TESTBIN=$(CURDIR)/$(BUILD)/test \
		LC_ALL=C "$$bats" $(BATSFLAGS) tests

# The code with threads (perf.data: kallsyms and symbol tables read while
# the records are; sample's and xctrace's second thread, fold_pair) again
# under ThreadSanitizer, where the compiler has it.
TSANFLAGS = -O1 -g -fsanitize=thread
TSANTESTS = tests/stackcollapse-perf-data.bats tests/stackcollapse-perf-symbols.bats \
	tests/libfold.bats \
	tests/stackcollapse-sample.bats tests/stackcollapse-sample-hostile.bats \
	tests/stackcollapse-xctrace.bats
TSANTOOLS = build/tsan/test/symlookup build/tsan/test/pdmangle \
	build/tsan/test/randbytes build/tsan/test/xctracegen build/tsan/test/libcheck

# The suite again under AddressSanitizer + UBSan, warnings as errors, then
# the perf.data tests under ThreadSanitizer.
check: test
	@if command -v clang >/dev/null 2>&1; then \
		$(MAKE) --no-print-directory CC=clang BUILD=build/clang \
			CFLAGS='-O2 -Werror' all; fi
	$(MAKE) --no-print-directory CFLAGS='-O2 -g -Werror' BUILD=build/werror all
	$(MAKE) --no-print-directory BUILD=build/san CFLAGS='$(SANFLAGS) -Werror' \
		LDFLAGS='-fsanitize=address,undefined' all build/san/test/symlookup \
		build/san/test/libcheck build/san/test/cfidump build/san/test/inflate \
		build/san/test/dwarfinl
	@bats=$$(sh tests/find-bats) || exit 1; \
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	FOLDKIT_BIN=$(CURDIR)/build/san/bin FOLDKIT_TESTBIN=$(CURDIR)/$(BUILD)/test \
	FOLDKIT_SAN=1 LC_ALL=C \
		"$$bats" $(BATSFLAGS) tests
	@mkdir -p build/tsan && printf 'int main(void){return 0;}\n' > build/tsan/probe.c; \
	if $(CC) -fsanitize=thread -o build/tsan/probe build/tsan/probe.c \
		>/dev/null 2>&1 && build/tsan/probe; then \
		$(MAKE) --no-print-directory BUILD=build/tsan \
		CFLAGS='$(TSANFLAGS) -Werror' LDFLAGS=-fsanitize=thread all \
		$(TSANTOOLS) >/dev/null || exit 1; \
		bats=$$(sh tests/find-bats) || exit 1; \
		TSAN_OPTIONS=halt_on_error=1 \
		FOLDKIT_BIN=$(CURDIR)/build/tsan/bin \
		FOLDKIT_TESTBIN=$(CURDIR)/build/tsan/test FOLDKIT_SAN=1 LC_ALL=C \
			"$$bats" $(BATSFLAGS) $(TSANTESTS); \
	else echo "ThreadSanitizer unavailable here: $(TSANTESTS) not run under it"; fi

demo: all
	@FOLDKIT_BIN=$(CURDIR)/$(BUILD)/bin sh examples/demo.sh

bench: all $(BUILD)/bench/gen $(BUILD)/bench/runstat $(BUILD)/bench/floor \
		$(BUILD)/test/demangle $(BUILD)/test/pprofgen $(BUILD)/test/xctracegen \
		$(BUILD)/test/samplygen
	@FOLDKIT_BIN=$(CURDIR)/$(BUILD)/bin BENCH=$(CURDIR)/$(BUILD)/bench \
		sh tests/bench/run.sh

$(BUILD)/bench/floor: tests/bench/floor.c $(LIBHDR) $(BUILD)/libfold.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libfold.a -lm
$(BUILD)/bench/%: tests/bench/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $<

# libFuzzer harnesses (clang), ASan+UBSan; each runs FUZZ_SECONDS on its
# corpus (tests/fuzz/corpus/NAME, grown in build/fuzz/corpus/NAME), after
# the inputs that once failed (tests/fuzz/regress/NAME).
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZERS = folded regex perf dtrace svg elf perfdata demangle demangle_rust \
	demangle_fast demangle_rust_fast cfi unwind inflate pprof dwarf xctrace \
	callgrind json macho sample
FUZZFLAGS = -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZOBJ = $(LIBSRC:lib/%.c=build/fuzz/obj/%.o)

build/fuzz/obj/%.o: lib/%.c $(LIBHDR)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(ALL_CPPFLAGS) $(WARNFLAGS) $(FUZZFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

build/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(FUZZOBJ)
	$(FUZZ_CC) $(ALL_CPPFLAGS) -D_DEFAULT_SOURCE $(FUZZFLAGS) -fsanitize=fuzzer -o $@ $< \
		$(FUZZOBJ) $(filter %_ref.o,$^) -lm -pthread

# The demanglers without their fast paths (the C++ two passes alone, Rust's
# reference parse alone), their entry points renamed NAME_ref, to check the
# fast paths against.
REFFLAGS_demangle_cxx = -DCX_FAST=0
REFFLAGS_demangle_rust = -DRS_FAST=0 -Dfold_rust_remangle=fold_rust_remangle_ref
build/fuzz/obj/%_ref.o: lib/%.c $(LIBHDR)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(ALL_CPPFLAGS) $(WARNFLAGS) $(FUZZFLAGS) -fsanitize=fuzzer-no-link \
		$(REFFLAGS_$(*F)) -Dfold_$(*F)=fold_$(*F)_ref -c -o $@ $<

build/fuzz/fuzz_demangle_fast: build/fuzz/obj/demangle/demangle_cxx_ref.o
build/fuzz/fuzz_demangle_rust_fast: build/fuzz/obj/demangle/demangle_rust_ref.o

fuzz: $(FUZZERS:%=build/fuzz/fuzz_%)
	@for f in $(FUZZERS); do \
		mkdir -p build/fuzz/corpus/$$f build/fuzz/crash/$$f; \
		echo "== fuzz_$$f for $(FUZZ_SECONDS) s"; \
		build/fuzz/fuzz_$$f -max_total_time=$(FUZZ_SECONDS) -max_len=65536 \
			-timeout=10 -print_final_stats=1 \
			-artifact_prefix=build/fuzz/crash/$$f/ \
			build/fuzz/corpus/$$f tests/fuzz/corpus/$$f \
			$$(test -d tests/fuzz/regress/$$f && echo tests/fuzz/regress/$$f) 2>&1 | \
			grep -E '^(#[0-9]+.*DONE|stat::number_of_executed_units|stat::peak_rss|INFO: -max_total_time|==[0-9]+==ERROR|SUMMARY)' ; \
	done

install: all
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5
	for t in $(TOOLS); do cp -f $(BUILD)/bin/$$t $(DESTDIR)$(BINDIR)/$$t; \
		chmod 755 $(DESTDIR)$(BINDIR)/$$t; done
	for m in $(MAN1); do cp -f $$m $(DESTDIR)$(MANDIR)/man1/; done
	cp -f $(MAN5) $(DESTDIR)$(MANDIR)/man5/

uninstall:
	for t in $(TOOLS); do rm -f $(DESTDIR)$(BINDIR)/$$t \
		$(DESTDIR)$(MANDIR)/man1/$$t.1; done
	rm -f $(DESTDIR)$(MANDIR)/man5/folded.5

# mandoc -Tlint over the pages, when mandoc is installed.
lint:
	@if command -v mandoc >/dev/null; then mandoc -Tlint -Wwarning $(MAN1) $(MAN5); \
	else echo "mandoc not installed: man pages not linted"; fi

clean:
	rm -rf build
