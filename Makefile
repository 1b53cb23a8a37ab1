# Proactive compaction lab: a patched Debian kernel tree (the mainline
# linux-source-7.x Debian offers, or the stable linux-source-6.12 or 6.1)
# booted in QEMU on a debootstrap guest.  `make help` lists the targets.

# ---- Settings: the one place each is defined; override on the command line,
# ---- e.g. `make MEM_PER_NODE=2048 KFLAVOR=debug test`.
# Kernel tree: mainline (the linux-source-7.x that Debian offers, from
# unstable or experimental: scripts/mainline-source.sh says which it took),
# 6.12 or 6.1; patched with patches/$(KVER).
KVER ?= mainline
# For KVER=mainline: the package to take (e.g. linux-source-7.3); empty: the
# newest linux-source-7.x in unstable, else in experimental.  A choice stays
# in effect (build/mainline.pkg) until another is made.
MAINLINE_PKG ?=
# Kernel flavour: base, debug (KASAN, lockdep, DEBUG_VM, ...), or bench
# (static keys, -O2: make bench's kernels).
KFLAVOR ?= base
# The guest: NODES emulated NUMA nodes of MEM_PER_NODE MiB and CPUS_PER_NODE
# CPUs each.
NODES ?= 2
CPUS_PER_NODE ?= 1
MEM_PER_NODE ?= 1024
# MiB of hot-pluggable memory per node: a QEMU pc-dimm, onlined into
# ZONE_MOVABLE (0: none).  guest/memory-hotplug declares its own.
DIMM_PER_NODE ?= 0
# QEMU accelerator: tcg (CPUS_PER_NODE vCPUs on every node), or icount, the
# repeatable mode: TCG with one instruction-counted vCPU on node 0, the other
# nodes memory only (Documentation/testing.md).  kvm is opt-in: nested KVM
# hangs on the lab machines.
ACCEL ?= tcg
# QEMU's CPU model.  The repeatable mode fixes a named one: its count of an
# instruction such as rep movs depends on the model's features.
QEMU_CPU_icount := qemu64
QEMU_CPU ?= $(or $(QEMU_CPU_$(ACCEL)),max)
# Seconds a guest run may take before it is killed and failed (the debug
# kernel runs about three times slower under TCG).
TIMEOUT_base := 300
TIMEOUT_debug := 900
TIMEOUT_bench := 300
TIMEOUT ?= $(TIMEOUT_$(KFLAVOR))
# Appended to the guest kernel command line.
EXTRA_CMDLINE ?=
# Size of the guest root filesystem image.
IMAGE_SIZE ?= 2G
# make demo-quick: proactiveness values to compare (SWEEP=1: 0,20,50,80,100), the
# settle time after fragmenting, the experiments, the back-off window.
SWEEP ?=
DEMO_MODES ?= $(if $(SWEEP),0$(comma)20$(comma)50$(comma)80$(comma)100,0$(comma)20)
DEMO_SETTLE ?= 30
DEMO_EXPERIMENTS ?= alloc,pretouch
DEMO_BACKOFF_S ?= 70
# make demo and demo-quick: the pre-toucher's share of free memory, in percent.
DEMO_PRETOUCH_PCT ?= 80
# make demo-quick: the rate sweep, huge pages per second of the paced allocation
# experiments (empty: none), and the seconds each runs.
DEMO_RATES ?= 10,30,100,300,1000
DEMO_PACE_S ?= 20
# Seconds each of demo-quick's guest boots may take.
DEMO_TIMEOUT ?= 900
# make demo (Documentation/protocol.md; scripts/protocol.sh): the
# sizes (MiB per node), the knee sweep's rates (huge pages a second) and
# the share of attempts needing direct compaction the knee allows (%),
# blocks of boots, boots of each arm of the long compactions, the seed of
# the boot order (empty: a random one, kept in the run), the other host
# processes' CPU that excludes a boot (% of one CPU), and how many times
# a failed boot is run again.  The defaults are the protocol's.  The
# run's record (plan, knees, each boot's small files: what the report
# reads, what a published run commits) goes under PROTO_RUNS, its
# recordings and logs under results/.
PROTO_RUNS ?= results/runs
PROTO_SIZES ?= 1024,3072
PROTO_SWEEP ?= 5,10,20,50,100,200,500
PROTO_KNEE_PCT ?= 5
PROTO_BOOTS ?= 5
PROTO_LONG_BOOTS ?= 8
PROTO_SEED ?=
PROTO_HOST_PCT ?= 10
PROTO_RETRIES ?= 2
# make bench: blocks of boots (one of each configuration: stock, stock with
# one existing event recorded, patched with tracing off, patched with the
# series' events on), seconds of proactive rounds and of idle checks in
# each, and the seconds a boot may take; the kernels' flavour and the
# accelerator (the repeatable mode); the seed of the boot order (empty: a
# random one, kept in the run's plan); guests at a time (empty: 2 in the
# repeatable mode, else 1).
BENCH_BOOTS ?= 10
BENCH_FLAVOR ?= bench
BENCH_ACCEL ?= icount
BENCH_SEED ?=
BENCH_PAR ?=
BENCH_ROUND_S ?= 10
BENCH_IDLE_S ?= 20
BENCH_TIMEOUT ?= 900
# make long-compaction: the paced allocation experiment under perf and a
# full compaction recording: proactiveness, huge pages a second, seconds.
LONG_MODE ?= 0
LONG_RATE ?= 10
LONG_S ?= 40
# make stress: seconds of stress (tests/host/stress-short runs STRESS_CI_S:
# room for the two traced windows it asserts past a TCG stall of a minute,
# as a memory offline under stress has given; the debug kernel needs longer).
STRESS_S ?= 600
# make stress: seconds of each traced and each untraced window.
STRESS_WINDOW_S ?= 15
STRESS_CI_S_base := 180
STRESS_CI_S_debug := 300
STRESS_CI_S_bench := 180
STRESS_CI_S ?= $(STRESS_CI_S_$(KFLAVOR))
# make kernelshark: the trace.dat to open (default: the newest demo-quick's p20
# allocation experiment), the screenshot, its size, and the seconds to let
# KernelShark load and draw.
KS_TRACE ?= results/latest/p20/alloc.dat
# make report: the demo-quick results folder to report again.
R ?= results/latest
KS_PNG ?= Documentation/images/kernelshark-proactive.png
KS_GEOMETRY ?= 1600x800
KS_WAIT_S ?= 10
# The QEMU binary.
QEMU ?= qemu-system-x86_64
# make posting: the identity that signs the mainline posting, 'Name <address>'
# (required: the repository's git identity is a placeholder, not a person).
POSTER ?=
# make check-series: 0 skips the per-prefix builds (checkpatch and the
# config matrix only).
CHECK_PREFIXES ?= 1
# Tests to run: shell globs on test names (host/NAME, guest/NAME), space
# separated; and tags, comma separated: a test with any of the plain tags
# (all, if none is given) and none of the "-tag"s (e.g. TAGS=-slow).
T ?= *
TAGS ?=
# Put before every test name in make test's KTAP output (CI: the tree).
TEST_PREFIX ?=
JOBS ?= $(shell echo $$(($$(nproc) + 1)))

comma := ,

# ---- Paths: each tree, and each flavour of each tree, in its own folders.
B        := build
TARBALL_mainline := $(B)/linux-source-mainline.tar.xz
TARBALL  := $(or $(TARBALL_$(KVER)),/usr/src/linux-source-$(KVER).tar.xz)
PATCHES  := patches/$(KVER)
TREE     := $(B)/linux-$(KVER)
KBUILD   := $(B)/kbuild-$(KVER)-$(KFLAVOR)
SELFTEST_OUT := $(B)/selftests-$(KVER)
KERNEL   := $(KBUILD)/arch/x86/boot/bzImage
MODDIR   := $(KBUILD)/lab-modules
BINDIR   := $(B)/bin
ROOTFS   := $(B)/guest/rootfs
IMAGE    := $(B)/guest/rootfs.img
RUNS     := $(B)/runs

FRAGS_base  := scripts/kconfig/base.config
FRAGS_debug := $(FRAGS_base) scripts/kconfig/debug.config
FRAGS_bench := $(FRAGS_base) scripts/kconfig/bench.config
FRAGS       := $(FRAGS_$(KFLAVOR))
ifeq ($(FRAGS),)
$(error KFLAVOR=$(KFLAVOR): unknown flavour (base, debug or bench))
endif
ifeq ($(wildcard $(PATCHES)/*.patch),)
$(error KVER=$(KVER): no series in $(PATCHES) (trees: $(patsubst patches/%/,%,$(wildcard patches/*/))))
endif

# ccache: paths below the checkout are hashed relative to it, so that a
# second clone (CI's) hits the cache the first one filled.
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := 1

KMAKE = $(MAKE) -s -C $(TREE) O=$(abspath $(KBUILD)) CC="ccache gcc" \
	KBUILD_BUILD_USER=lab KBUILD_BUILD_HOST=lab -j$(JOBS)

PROGS   := $(patsubst tests/progs/%.c,$(BINDIR)/%,$(wildcard tests/progs/*.c))
MODULES := $(notdir $(wildcard tests/modules/*))

# The settings: exported to every script (a guest job gets those its
# header declares), and shown by make settings.
SETTINGS := KVER MAINLINE_PKG KFLAVOR NODES CPUS_PER_NODE MEM_PER_NODE DIMM_PER_NODE ACCEL QEMU_CPU \
	TIMEOUT STRESS_CI_S EXTRA_CMDLINE IMAGE_SIZE DEMO_MODES DEMO_SETTLE DEMO_EXPERIMENTS \
	DEMO_BACKOFF_S DEMO_TIMEOUT DEMO_PRETOUCH_PCT DEMO_RATES DEMO_PACE_S BENCH_BOOTS \
	PROTO_RUNS PROTO_SIZES PROTO_SWEEP PROTO_KNEE_PCT PROTO_BOOTS PROTO_LONG_BOOTS PROTO_SEED PROTO_HOST_PCT PROTO_RETRIES \
	BENCH_ROUND_S BENCH_IDLE_S BENCH_TIMEOUT BENCH_FLAVOR BENCH_ACCEL BENCH_SEED BENCH_PAR LONG_MODE LONG_RATE LONG_S STRESS_S \
	STRESS_WINDOW_S QEMU POSTER CHECK_PREFIXES T TAGS TEST_PREFIX JOBS R KS_TRACE KS_PNG \
	KS_GEOMETRY KS_WAIT_S
export $(SETTINGS)

# What the launcher and the tests read: the lab's paths on the host, and
# in the guest (where the project is /lab).
export LAB_KERNEL := $(abspath $(KERNEL))
export LAB_IMAGE  := $(abspath $(IMAGE))
export LAB_ROOT   := $(CURDIR)
export LAB_RUNS   := $(abspath $(RUNS))/$(KVER)-$(KFLAVOR)
export LAB_TREE   := $(abspath $(TREE))
export LAB_PATCHES := $(abspath $(PATCHES))
export LAB_BIN     := /lab/$(BINDIR)
export LAB_MODULES := /lab/$(MODDIR)
export LAB_TESTS   := /lab/tests/guest
export LAB_SELFTESTS := /lab/$(SELFTEST_OUT)
# The guest shape settings the user gave (command line or environment):
# a job that requires another value of one of them is skipped, not run on
# a shape the user did not ask for.  Computed once, by the first make.
export LAB_GIVEN ?= $(strip $(foreach v,NODES CPUS_PER_NODE MEM_PER_NODE DIMM_PER_NODE,\
	$(if $(filter command line environment,$(origin $(v))),$(v))))

MAKEFLAGS += --no-print-directory

.PHONY: all help deps tree kernel modules progs selftests image lab test test-debug shell demo demo-quick stress \
	check-series posting check-other-tree debian-check ci-step htmldocs kernelshark report captures bench bench-run stock-kernel long-compaction settings settings-debug clean distclean
all: lab

help:
	@echo "make demo        the evaluation under Documentation/protocol.md (hours; resumes): report in $(PROTO_RUNS)/protocol-*/"
	@echo "make demo-quick  the original's experiments once each, one boot a measurement: report in results/latest"
	@echo "make report      a demo-quick's report again, from its raw results: R=results/latest"
	@echo "make test        build everything needed, run host and guest tests"
	@echo "make shell       boot the guest with a root shell (or run stdin)"
	@echo "make stress      STRESS_S seconds of everything at once, with checks"
	@echo "make bench       kcompactd's cost: stock vs patched, tracing off and on"
	@echo "make captures    the excerpts the docs quote, from six guest tests"
	@echo "make long-compaction  a paced allocation run under perf: where long compactions go"
	@echo "make test-debug  make test on the debug kernel (KASAN, lockdep, ...)"
	@echo "make lab         build kernel, test modules, guest programs, image"
	@echo "make deps        install missing Debian packages"
	@echo "make check-series  build every prefix of the series, W=1, checkpatch,"
	@echo "                   and with each of COMPACTION, DEBUG_FS, FTRACE,"
	@echo "                   VM_EVENT_COUNTERS, NUMA off"
	@echo "make posting     the mainline series as a v3 posting, signed by POSTER='Name <addr>':"
	@echo "                 build/posting-v3 (To/Cc from get_maintainer.pl, checkpatch)"
	@echo "make check-other-tree  the mainline series applies (git am) to the other 7.x"
	@echo "make debian-check  the touched objects under Debian's config, W=1, stock vs"
	@echo "                 patched, and the kABI they change: build/debian-KVER/report.txt"
	@echo "make htmldocs    the tree's admin-guide docs with the series' pages"
	@echo "make kernel      (re)build the kernel of KFLAVOR=$(KFLAVOR)"
	@echo "make kernelshark screenshot of KS_TRACE in KernelShark (Xvfb): KS_PNG"
	@echo "make ci-step STEP=NAME  one of CI's steps (.ci/steps) alone"
	@echo "make settings    the settings in effect (settings-debug: for test-debug)"
	@echo "make clean       drop run logs; make distclean drops build/"
	@echo "Every target works on the tree KVER=$(KVER): add KVER=6.12 or KVER=6.1 for those."

# ---- Dependencies: every other target needs them.
# The mainline tree's package can be chosen (MAINLINE_PKG=linux-source-7.N):
# each choice has its own stamp, and the tree follows build/mainline.pkg.
DEPS_STAMP := $(B)/deps-$(KVER)$(if $(and $(filter mainline,$(KVER)),$(MAINLINE_PKG)),-$(MAINLINE_PKG)).stamp
TREE_KEY_mainline := $(B)/mainline.pkg
deps: $(DEPS_STAMP)
DEPS_PKG := $(if $(filter mainline,$(KVER)),,linux-source-$(KVER))
$(DEPS_STAMP): scripts/deps.sh scripts/mainline-source.sh
	@mkdir -p $(B)
	@scripts/deps.sh $(DEPS_PKG)
	@$(if $(filter mainline,$(KVER)),scripts/mainline-source.sh $(B))
	@touch $@

# ---- Kernel tree: unpacked once per tarball, series re-applied when
# ---- patches/ changes.
TREE_STAMP := $(B)/tree-$(KVER).stamp
tree: $(TREE_STAMP)
$(TREE_STAMP): $(TARBALL) $(TREE_KEY_$(KVER)) $(filter-out %/0000-cover-letter.patch,$(wildcard $(PATCHES)/*.patch)) $(PATCHES) scripts/prepare-tree.sh | $(DEPS_STAMP)
	@scripts/prepare-tree.sh $(TARBALL) $(TREE) $(PATCHES)
	@touch $@

$(TARBALL) $(TREE_KEY_$(KVER)): | $(DEPS_STAMP)

# ---- Kernel
$(KBUILD)/.config: $(FRAGS) scripts/kconfig.sh $(TREE_STAMP)
	@echo "  KCONFIG $(KVER) $(KFLAVOR): tinyconfig + $(notdir $(FRAGS))"
	@scripts/kconfig.sh $(TREE) $(KBUILD) $(FRAGS)

kernel: $(KBUILD)/.config
	@echo "  KBUILD  $(KVER) $(KFLAVOR)"
	@$(KMAKE) bzImage modules
	@touch $(KBUILD)/lab-kernel.stamp

$(KBUILD)/lab-kernel.stamp: $(KBUILD)/.config $(TREE_STAMP)
	@$(MAKE) kernel

# ---- The stock kernel, for make bench: the same tree at its base (tag
# ---- lab-base, a worktree), without the series, with the same base
# ---- configuration.  It changes only with the tarball or the fragments.
STOCK_TREE   := $(B)/linux-$(KVER)-stock
STOCK_KBUILD := $(B)/kbuild-$(KVER)-$(KFLAVOR)-stock
STOCK_KERNEL := $(STOCK_KBUILD)/arch/x86/boot/bzImage
$(STOCK_TREE).stamp: $(TARBALL) | $(TREE_STAMP)
	@rm -rf $(STOCK_TREE)
	@git -C $(TREE) worktree prune
	@git -C $(TREE) worktree add -q --detach $(abspath $(STOCK_TREE)) lab-base
	@touch $@
stock-kernel: $(STOCK_KERNEL)
$(STOCK_KERNEL): $(STOCK_TREE).stamp $(FRAGS) scripts/kconfig.sh
	@echo "  KCONFIG $(KVER) $(KFLAVOR) stock: tinyconfig + $(notdir $(FRAGS))"
	@scripts/kconfig.sh $(STOCK_TREE) $(STOCK_KBUILD) $(FRAGS)
	@echo "  KBUILD  $(KVER) $(KFLAVOR) stock"
	@$(MAKE) -s -C $(STOCK_TREE) O=$(abspath $(STOCK_KBUILD)) CC="ccache gcc" \
		KBUILD_BUILD_USER=lab KBUILD_BUILD_HOST=lab -j$(JOBS) bzImage

# ---- Test modules, built out of tree against the kernel (copied into the
# ---- build folder so that the sources stay clean).
.SECONDEXPANSION:
modules: $(MODULES:%=$(MODDIR)/%.ko)
$(MODDIR)/%.ko: $$(wildcard tests/modules/%/*) $(KBUILD)/lab-kernel.stamp
	@echo "  MODULE  $*"
	@rm -rf $(MODDIR)/src/$* && mkdir -p $(MODDIR)/src && cp -r tests/modules/$* $(MODDIR)/src/
	@$(MAKE) -s -C $(KBUILD) M=$(abspath $(MODDIR))/src/$* CC="ccache gcc" W=1 modules
	@cp $(MODDIR)/src/$*/$*.ko $@

# ---- Guest programs: the guest runs Debian bookworm, as the host does.
CFLAGS_PROGS := -O2 -g -Wall -Wextra -Werror
progs: $(PROGS)
$(BINDIR)/%: tests/progs/%.c tests/progs/lab-opt.h tests/progs/lab-kb.h | $(DEPS_STAMP)
	@mkdir -p $(BINDIR)
	@echo "  CC      $@"
	@$(CC) $(CFLAGS_PROGS) -o $@ $<

# ---- The trace analysis tool: on the host, and in the guest, whose trace-cmd
# ---- package brings the same libtracecmd.
TRACE_TOOL := $(BINDIR)/proactive-trace
$(TRACE_TOOL): trace/proactive-trace.c tests/progs/lab-opt.h | $(DEPS_STAMP)
	@mkdir -p $(BINDIR)
	@echo "  CC      $@"
	@$(CC) $(CFLAGS_PROGS) -Itests/progs $$(pkg-config --cflags libtracecmd) -o $@ $< \
		$$(pkg-config --libs libtracecmd)

# ---- The report program (host only: libc and libm): make demo's, make
# ---- demo-quick's and make bench's reports from their raw results (Documentation/tools.md).
REPORT_TOOL := $(BINDIR)/lab-report
REPORT_SRC  := $(wildcard report/*.c report/*.h)
$(REPORT_TOOL): $(REPORT_SRC) tests/progs/lab-opt.h
	@mkdir -p $(BINDIR)
	@echo "  CC      $@"
	@$(CC) $(CFLAGS_PROGS) -Itests/progs -o $@ $(filter %.c,$(REPORT_SRC)) -lm

# ---- kselftests from the tree, built for the guest.
SELFTESTS := proactive_compaction compaction_test migration split_huge_page_test khugepaged
selftests: $(SELFTEST_OUT).stamp
$(SELFTEST_OUT).stamp: $(TREE_STAMP) scripts/build-selftests.sh
	@scripts/build-selftests.sh $(TREE) $(SELFTEST_OUT) $(SELFTESTS)
	@touch $@

# ---- Guest image: debootstrap once per package list; the image from it.
$(ROOTFS).stamp: guest-image/packages scripts/build-rootfs.sh scripts/apt-mirror.sh | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@scripts/build-rootfs.sh guest-image/packages $(ROOTFS)
	@touch $@

image: $(IMAGE)
$(IMAGE): $(ROOTFS).stamp guest-image/init scripts/build-image.sh
	@echo "  IMAGE   $@"
	@scripts/build-image.sh $(ROOTFS) guest-image/init $@ $(IMAGE_SIZE)

lab: $(KBUILD)/lab-kernel.stamp modules progs $(TRACE_TOOL) selftests $(IMAGE)

# ---- The series: every prefix builds, W=1 adds no warning in the files a
# ---- patch touches, checkpatch --strict is clean.  Slow: not part of test.
check-series: $(TREE_STAMP)
	@scripts/check-series.sh $(TREE) $(B)/kbuild-$(KVER)-series $(PATCHES) $(FRAGS_base)

# ---- The posting: the mainline series, signed by POSTER, addressed by the
# ---- tree's get_maintainer.pl.  Written anew each time (never sent).
posting: $(TREE_STAMP)
	@$(if $(filter mainline,$(KVER)),,echo "posting: KVER=$(KVER): only the mainline series is posted (its backports are downstream)"; exit 1)
	@scripts/posting.sh $(TREE) $(PATCHES) $(B)/posting-v3

# ---- The mainline series applies with git am to the other linux-source-7.x
# ---- Debian offers (installed by name, pinned as the mainline one is).
check-other-tree: $(DEPS_STAMP)
	@$(if $(filter mainline,$(KVER)),,echo "check-other-tree: KVER=$(KVER): this checks the mainline series"; exit 1)
	@scripts/mainline-source.sh --other $(B)
	@scripts/apply-series.sh $(B)/linux-source-other.tar.xz $(PATCHES)/*.patch

# ---- The series under Debian's own config (linux-config-X.Y, amd64): the
# ---- touched objects with W=1, stock and patched, and the kABI they change
# ---- (CRCs, enums, sizeof(struct pglist_data)): build/debian-$(KVER)/report.txt.
DEBIAN_CONFIG_PKG = $(if $(filter mainline,$(KVER)),$(subst linux-source,linux-config,$(firstword $(shell cat $(B)/mainline.pkg 2>/dev/null))),linux-config-$(KVER))
debian-check: $(TREE_STAMP)
	@scripts/deps.sh $(DEBIAN_CONFIG_PKG)
	@scripts/debian-check.sh $(TREE) /usr/src/$(DEBIAN_CONFIG_PKG)/config.amd64_none_amd64.xz $(B)/debian-$(KVER)

# ---- The series' rst pages build with the tree's Sphinx documentation build
# ---- (admin-guide) without warnings.  Slow: not part of test.
htmldocs: $(TREE_STAMP)
	@scripts/htmldocs.sh $(TREE) $(B)/htmldocs-$(KVER)

# ---- KernelShark (on the host, under Xvfb, as nobody): a screenshot of a
# ---- demo-quick's trace.dat, after checking that every field of the series'
# ---- events parses.  Installs its packages on first use.
kernelshark:
	@scripts/deps.sh kernelshark xvfb xdotool x11-utils imagemagick
	@[ -r $(KS_TRACE) ] || { echo "kernelshark: no $(KS_TRACE): run 'make demo-quick' first, or set KS_TRACE"; exit 1; }
	@scripts/trace-fields.sh $(KS_TRACE)
	@mkdir -p $(dir $(KS_PNG))
	@scripts/kernelshark-shot.sh $(KS_TRACE) $(KS_PNG)

# ---- Running
test: lab $(REPORT_TOOL)
	@scripts/run-tests.sh

# The same suite on the debug kernel, in its own build and run folders.
# The settings whose default depends on the flavour: a sub-make for another
# flavour gets that flavour's default, unless the setting was given on the
# command line or in the environment (this make exports the others, so
# without this the base default would win).
FLAVOR_SETTINGS := TIMEOUT STRESS_CI_S
flavor_defaults = $(foreach v,$(FLAVOR_SETTINGS),$(if $(filter file,$(origin $(v))),$(v)=$($(v)_$(1))))

test-debug:
	@$(MAKE) KFLAVOR=debug $(call flavor_defaults,debug) test

# One of CI's steps alone (.ci/steps: e.g. STEP=6.1-base), as .ci/run runs it.
STEP ?=
ci-step:
	@args=$$(awk -v s='$(STEP)' '!/^#/ && $$1 == s { $$1 = $$2 = ""; print }' .ci/steps); \
	[ -n "$$args" ] || { echo "ci-step: STEP='$(STEP)' is not a step of .ci/steps: $$(awk '!/^#/ && NF { printf "%s ", $$1 }' .ci/steps)"; exit 1; }; \
	echo "ci-step: make$$args"; $(MAKE) $$args

# The settings in effect, one NAME=value a line (settings-debug: as
# test-debug would see them).
settings:
	@$(foreach v,$(SETTINGS),echo '$(v)=$($(v))';)
settings-debug:
	@$(MAKE) KFLAVOR=debug $(call flavor_defaults,debug) settings

shell: lab
	@scripts/run-guest.sh --shell $(LAB_RUNS)/shell || { cat $(LAB_RUNS)/shell/verdict >&2 2>/dev/null; exit 1; }

# The evaluation under Documentation/protocol.md: hundreds of boots over
# hours, resumable (scripts/protocol.sh); its record in
# $(PROTO_RUNS)/protocol-*, its recordings in results/protocol-*.  The
# committed run's record is Documentation/runs/protocol-*: make demo
# PROTO_RUNS=Documentation/runs resumes it.
demo: lab $(REPORT_TOOL)
	@scripts/protocol.sh $(PROTO_RUNS) results

# The original's experiments once each, one boot a measurement, under no
# protocol: a look in minutes, not evidence (Documentation/demo.md).
demo-quick: lab $(REPORT_TOOL)
	@scripts/demo.sh results

# make captures: the excerpts the docs and the mainline cover letter quote
# (trace lines, counter deltas, the kselftest's output), cut from one run
# of the guest tests that assert them; scripts/captures.sh says what
# each file holds.  They go to results/captures-<tree>; publishing one is
# committing it to Documentation/runs/ and quoting it there
# (Documentation/testing.md, "Figures").
CAPTURE_TESTS := guest/proactive-round guest/backoff-unmovable guest/kselftest-proactive \
	guest/perf-proactive guest/bpftrace-rounds guest/node-exporter
captures: lab
	@LAB_RUNS=$(LAB_RUNS)/captures T='$(CAPTURE_TESTS)' TAGS= TEST_PREFIX=captures/ scripts/run-tests.sh
	@scripts/captures.sh $(LAB_RUNS)/captures results/captures-$(KVER)

# The report of a demo-quick run again, from its raw data (after a change to the
# report's code; needs only the host's trace tool and lab-report).
report: $(TRACE_TOOL) $(REPORT_TOOL)
	@$(REPORT_TOOL) demo $(R)
	@echo "report: $(R)/report.md"

# One boot of tests/guest/jobs/long-compaction.sh: where a compaction that
# takes seconds spends them (Documentation/demo.md, "The long compactions").
long-compaction: lab
	@scripts/lab-run.sh tests/guest/jobs/long-compaction.sh $(LAB_RUNS)/long-compaction || \
		{ cat $(LAB_RUNS)/long-compaction/verdict >&2; exit 1; }
	@grep '^long:' $(LAB_RUNS)/long-compaction/out/job.log
	@echo "long-compaction: results in $(LAB_RUNS)/long-compaction/out/long"

# make bench: on the bench flavour's kernels, stock and patched, in the
# repeatable mode (Documentation/bench.md); bench-run: on the kernels and
# accelerator of this make's settings.
bench:
	@$(MAKE) KFLAVOR=$(BENCH_FLAVOR) ACCEL=$(BENCH_ACCEL) $(call flavor_defaults,$(BENCH_FLAVOR)) \
		$(if $(filter file,$(origin QEMU_CPU)),QEMU_CPU=$(or $(QEMU_CPU_$(BENCH_ACCEL)),max)) bench-run
bench-run: lab $(STOCK_KERNEL) $(REPORT_TOOL)
	@scripts/bench.sh results $(STOCK_KERNEL)

stress: lab
	@scripts/stress.sh $(LAB_RUNS)/stress

clean:
	rm -rf $(RUNS)

distclean:
	rm -rf $(B)
