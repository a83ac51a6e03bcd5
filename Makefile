# freezegraph: freeze filesystems on suspend in dependency order.
#
#   make demo     install what is missing, build, boot the default topology,
#                 suspend it, and render its freeze graph
#   make test     the whole suite (TAP, run by prove)
#
# Other targets: deps kernel guest fsgraph run patches checkpatch clean;
# "make kernel STOCK=1" then "make compare" for the stock comparison;
# "make soak" runs SOAK_CYCLES (200) cycles on each topology;
# "make configs" links the series without a block layer and without system
# sleep (two small kernels, about 13 min cold on 2 cores).

SHELL := /bin/bash
TOP := $(CURDIR)
B := $(TOP)/build
TOPOLOGY ?= topologies/ext4
# make demo: the plain ext4, then an inversion; DEMO=path... for others.
DEMO ?= topologies/ext4 topologies/dm-reload-onto-loop
CYCLES ?=
APPEND ?=
# Every test file: tests/GROUP/NNN, in order.  TESTS=tests/tools runs a group.
# The long groups are left to their own targets (make configs), not to
# make test, which CI runs: TESTS=tests/configs runs one all the same.
TESTS ?= tests
LONG_GROUPS := configs
TEST_FILES = $(shell find $(TESTS) -path '*/common' -prune \
	$(if $(filter tests,$(TESTS)),$(foreach g,$(LONG_GROUPS),-o -path 'tests/$(g)' -prune)) \
	-o -type f -regex '.*/[0-9][0-9][0-9]' -print | sort)
CFLAGS_TOOLS := -O2 -g -Wall -Wextra -Werror -Wno-format-truncation -std=gnu11

.PHONY: all deps kernel guest fsgraph run demo test unit patches checkpatch clean compare configs soak bench

all: kernel guest

deps:
	@scripts/deps.sh

# make kernel STOCK=1: the unpatched tree, into build/stock (make compare).
# make kernel FLAVOR=kasan: the series with kernel/flavor-kasan.config, into
# build/kasan; make test FLAVOR=kasan [TESTS=...] boots that kernel, and
# keeps its results in build/test-results-kasan.
# KARGS=... adds to every guest's kernel command line, before what a test
# adds: make test KARGS=fs_freeze_async=1 runs the suite on the parallel
# freeze.
STOCK ?=
FLAVOR ?=
KARGS ?=
export FG_KARGS := $(KARGS)
export FG_FLAVOR := $(FLAVOR)
RESULTS_DIR := $(B)/test-results$(if $(FLAVOR),-$(FLAVOR))
kernel: deps
	@kernel/prepare.sh
	@if [ "$(STOCK)" = 1 ]; then kernel/stock.sh; \
	elif [ -n "$(FLAVOR)" ]; then kernel/flavor.sh "$(FLAVOR)"; \
	else kernel/build.sh; fi

# SOAK_CYCLES (200) cycles on every topology (SOAK_TOPOLOGIES): one table.
soak: kernel guest fsgraph
	@scripts/soak.sh

# Sequential against parallel freeze on throttled disks: one table.
bench: kernel guest fsgraph
	@scripts/bench.sh

# Every topology on the stock kernel and on the series: one table.
compare: guest
	@scripts/compare.sh

# The series' guards, in configs other than the guest's (tests/configs).
configs: kernel
	@prove tests/configs/[0-9][0-9][0-9]

# --- tools/: fsgraph ---------------------------------------------------
FSGRAPH_SRC := $(wildcard tools/*.c)
FSGRAPH_HDR := $(wildcard tools/*.h)

$(B)/fsgraph: $(FSGRAPH_SRC) $(FSGRAPH_HDR) | deps
	@mkdir -p $(B)
	$(CC) $(CFLAGS_TOOLS) $(shell pkg-config --cflags libcgraph libgvc) \
		-o $@ $(FSGRAPH_SRC) $(shell pkg-config --libs libcgraph libgvc)

# The same sources with AddressSanitizer and UBSan, for the unit tests.
$(B)/fsgraph-asan: $(FSGRAPH_SRC) $(FSGRAPH_HDR) | deps
	@mkdir -p $(B)
	$(CC) $(CFLAGS_TOOLS) -O1 -fsanitize=address,undefined -fno-omit-frame-pointer \
		$(shell pkg-config --cflags libcgraph libgvc) \
		-o $@ $(FSGRAPH_SRC) $(shell pkg-config --libs libcgraph libgvc)

fsgraph: $(B)/fsgraph

# --- guest/ -----------------------------------------------------------
GUEST_SRC := $(wildcard guest/init guest/lib/*.sh guest/mkinitramfs.sh) \
	$(shell find guest/rootfs -type f)

# Small C helpers for the guest, one program each.
$(B)/helpers/%: guest/helpers/%.c | deps
	@mkdir -p $(B)/helpers
	$(CC) $(CFLAGS_TOOLS) -o $@ $<

GUEST_HELPERS := $(patsubst guest/helpers/%.c,$(B)/helpers/%,$(wildcard guest/helpers/*.c))

$(B)/initramfs.cpio.gz: $(GUEST_SRC) $(B)/fsgraph $(GUEST_HELPERS) | deps
	@guest/mkinitramfs.sh $@ $(B)/fsgraph $(GUEST_HELPERS)

guest: $(B)/initramfs.cpio.gz

# --- running ------------------------------------------------------------
RUN_OPTS = $(if $(CYCLES),-c "$(CYCLES)") $(if $(APPEND),-a "$(APPEND)")

# The topology is checked before anything is built, so that a typo costs
# seconds, not a kernel build.
run:
	@guest/run.sh -n $(RUN_OPTS) "$(TOPOLOGY)"
	@$(MAKE) -s kernel guest
	@guest/run.sh $(RUN_OPTS) "$(TOPOLOGY)"

demo: kernel guest
	@scripts/demo.sh $(DEMO)

unit: $(B)/fsgraph $(B)/fsgraph-asan
	@prove $(sort $(wildcard tests/tools/[0-9][0-9][0-9]))

test: kernel guest $(B)/fsgraph-asan
	@rm -f $(RESULTS_DIR)/topology-table.txt $(RESULTS_DIR)/failures.txt
	@prove $(TEST_FILES); status=$$?; \
	if [ -s $(RESULTS_DIR)/topology-table.txt ]; then \
		echo; echo "Topologies (list violates: A>B, A needs B but list order freezes B first; ms: median freeze, both phases):"; \
		cat $(RESULTS_DIR)/topology-table.txt; fi; \
	if [ -s $(RESULTS_DIR)/failures.txt ]; then \
		echo; echo "Failures (details under $(RESULTS_DIR)):"; \
		cat $(RESULTS_DIR)/failures.txt; fi; \
	exit $$status

# --- the patch series ---------------------------------------------------
patches:
	@kernel/export.sh

checkpatch:
	@kernel/checkpatch.sh

clean:
	rm -rf $(B)/obj $(B)/bzImage $(B)/initramfs.cpio.gz $(B)/fsgraph* $(B)/results
