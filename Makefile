# contend - precomputed scheduling policies for GPU clusters with network
# contention.  GNU make.  `make help` lists the targets.
#
# Copyright (C) 2026 the contend authors. GPL-3.0-or-later.

PREFIX     ?= /usr/local
DESTDIR    ?=
BINDIR     ?= $(PREFIX)/bin
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
DATADIR    ?= $(PREFIX)/share
MANDIR     ?= $(DATADIR)/man
PYTHON     ?= python3
# Where the system's python3 looks: Debian's searches /usr/lib/python3/dist-packages
# and, for other prefixes, PREFIX/lib/python3.X/dist-packages (X: its minor version).
PYTHON_VERSION = $(shell $(PYTHON) -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)
ifeq ($(PREFIX),/usr)
PYTHONDIR  ?= $(PREFIX)/lib/python3/dist-packages
else
PYTHONDIR  ?= $(PREFIX)/lib/python$(or $(PYTHON_VERSION),3)/dist-packages
endif

VERSION    := 0.1.0
SOVERSION  := 0

CC       ?= cc
CFLAGS   ?= -O2 -g
WARNINGS := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wvla -Wformat=2 -Wmissing-prototypes
ifdef CI
WARNINGS += -Werror
endif
MOREFLAGS ?=
BUILD    ?= build
# A line per file built ("  CC build/graph/dag.o"); V=1 shows the commands.
Q := $(if $(filter 1,$(V)),,@)
SAY := $(if $(or $(filter 1,$(V)),$(findstring s,$(firstword -$(MAKEFLAGS)))),true,echo)
# make MPI=1: sweeps spread over mpirun's ranks (Debian's OpenMPI: mpicc), built in build/mpi.
ifdef MPI
CC       := mpicc
BUILD    := build/mpi
MPI_FLAGS := -DCT_MPI
endif

PKGS     := igraph gsl libcjson libmicrohttpd
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lglpk -lm -lpthread
# libcontend itself does not use libmicrohttpd (only the service linked into contend)
CORE_LIBS  := $(shell pkg-config --libs igraph gsl libcjson 2>/dev/null) -lglpk -lm -lpthread
CJSON_CFLAGS := $(shell pkg-config --cflags libcjson 2>/dev/null)
CJSON_LIBS   := $(shell pkg-config --libs libcjson 2>/dev/null)

# ONNX import (graph/onnx_import.c) reads models with protobuf-c, from C code
# generated at build time out of ONNX's own onnx.proto (Debian:
# protobuf-c-compiler, libprotobuf-c-dev, libonnx-dev). Without them the rest
# builds and `contend dag import onnx` says what to install.
ONNX_PROTO ?= /usr/include/onnx/onnx.proto
ONNX := $(shell command -v protoc-c >/dev/null 2>&1 && test -f $(ONNX_PROTO) && pkg-config --exists libprotobuf-c 2>/dev/null && echo 1)
ifeq ($(ONNX),1)
ONNX_OBJ    := $(BUILD)/gen/onnx.pb-c.o
ONNX_CFLAGS := -DCT_HAVE_ONNX -I$(BUILD)/gen $(shell pkg-config --cflags libprotobuf-c)
ONNX_LIBS   := $(shell pkg-config --libs libprotobuf-c)
PKG_LIBS    += $(ONNX_LIBS)
CORE_LIBS   += $(ONNX_LIBS)
endif

INCDIRS  := -Igraph -Imodels -Isolver -Isampler -Iservice
ALL_CFLAGS = -std=c11 -fPIC $(WARNINGS) $(CFLAGS) $(INCDIRS) $(PKG_CFLAGS) $(ONNX_CFLAGS) $(MPI_FLAGS) $(MOREFLAGS)
ALL_LDFLAGS = $(LDFLAGS) $(MOREFLAGS)

LIB_SRC  := $(wildcard graph/*.c models/*.c solver/*.c)
LIB_HDR  := $(wildcard graph/ct_*.h models/ct_*.h solver/ct_*.h)
SMP_SRC  := $(wildcard sampler/*.c)
SMP_HDR  := $(wildcard sampler/ct_*.h)
SVC_SRC  := $(wildcard service/*.c)
SVC_HDR  := $(wildcard service/ct_*.h)
CLI_SRC  := $(wildcard cli/*.c)
TEST_SRC := $(wildcard tests/unit/*.c)
BENCH_SRC := $(wildcard tests/bench/*.c)
FUZZ_SRC := $(wildcard tests/fuzz/fuzz_*.c)

LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o) $(ONNX_OBJ)
SMP_OBJ  := $(SMP_SRC:%.c=$(BUILD)/%.o)
SVC_OBJ  := $(SVC_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/%.o)
TEST_BIN := $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)
BENCH_BIN := $(BENCH_SRC:tests/bench/%.c=$(BUILD)/bench/%)
REPLAY_BIN := $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/fuzz-replay/%)
FUZZ_NAMES := $(FUZZ_SRC:tests/fuzz/fuzz_%.c=%)

LIBA     := $(BUILD)/libcontend.a
LIBSO    := $(BUILD)/libcontend.so.$(SOVERSION)
SMPA     := $(BUILD)/libcontend-sampler.a
SMPSO    := $(BUILD)/libcontend-sampler.so.$(SOVERSION)
SVCA     := $(BUILD)/libcontend-service.a
CLI      := $(BUILD)/contend

.PHONY: all test check docs-check bench install uninstall asan ubsan valgrind clean help print-pythondir data deps demo fuzz notebooks test-mpi man

ifneq ($(filter-out deps help clean,$(or $(MAKECMDGOALS),all)),)
ifneq ($(shell pkg-config --exists $(PKGS) 2>/dev/null && echo yes),yes)
$(error missing build dependencies (igraph, gsl, libcjson, libmicrohttpd via pkg-config): run 'sh .ci/install-deps' as root)
endif
endif

all: $(CLI) $(LIBSO) $(SMPSO) $(BUILD)/contend.pc $(BUILD)/contend-sampler.pc ## build the library, the sampler library and the contend command

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(SAY) "  CC   $@"
	$(Q)$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

# The command finds its bundled data (data/share/apps.json...) installed:
# beside itself (BIN/../share/contend), else under the DATADIR it was built for.
$(BUILD)/cli/cli.o: MOREFLAGS += -DCT_DATADIR='"$(DATADIR)/contend"'

ifeq ($(ONNX),1)
$(BUILD)/gen/onnx.pb-c.h: $(ONNX_PROTO)
	@mkdir -p $(BUILD)/gen
	@$(SAY) "  GEN  $@"
	$(Q)protoc-c --proto_path=$(dir $(ONNX_PROTO)) --c_out=$(BUILD)/gen $(ONNX_PROTO)
$(BUILD)/gen/onnx.pb-c.c: $(BUILD)/gen/onnx.pb-c.h
	@test -f $@ || { rm -f $<; $(MAKE) --no-print-directory $<; }
# generated code: compiled without the project's warnings
$(ONNX_OBJ): $(BUILD)/gen/onnx.pb-c.c
	@$(SAY) "  CC   $@"
	$(Q)$(CC) -std=c11 -fPIC $(CFLAGS) $(ONNX_CFLAGS) $(MOREFLAGS) -c $< -o $@
# (ONNX_CFLAGS go in every compile: a MOREFLAGS given on the command line,
# as asan and fuzz do, would override a target's own)
$(BUILD)/graph/onnx_import.o: $(BUILD)/gen/onnx.pb-c.h
$(BUILD)/bench/bench_onnx: $(BUILD)/gen/onnx.pb-c.h
$(BUILD)/tests/onnx_import: $(BUILD)/gen/onnx.pb-c.h
endif

-include $(wildcard $(BUILD)/*/*.d)

$(LIBA): $(LIB_OBJ)
	@rm -f $@
	@$(SAY) "  AR   $@"
	$(Q)$(AR) rcs $@ $^

$(LIBSO): $(LIB_OBJ) $(SMPSO)
	@$(SAY) "  LD   $@"
	$(Q)$(CC) -shared -Wl,-soname,libcontend.so.$(SOVERSION) $(ALL_LDFLAGS) -o $@ $(LIB_OBJ) $(SMPSO) $(CORE_LIBS)

$(SMPA): $(SMP_OBJ)
	@rm -f $@
	@$(SAY) "  AR   $@"
	$(Q)$(AR) rcs $@ $^

$(SMPSO): $(SMP_OBJ)
	@$(SAY) "  LD   $@"
	$(Q)$(CC) -shared -Wl,-soname,libcontend-sampler.so.$(SOVERSION) $(ALL_LDFLAGS) -o $@ $^ $(CJSON_LIBS) -lm

$(SVCA): $(SVC_OBJ)
	@rm -f $@
	@$(SAY) "  AR   $@"
	$(Q)$(AR) rcs $@ $^

$(CLI): $(CLI_OBJ) $(SVCA) $(LIBA) $(SMPA)
	@$(SAY) "  LD   $@"
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $(CLI_OBJ) $(SVCA) $(LIBA) $(SMPA) $(PKG_LIBS)

$(BUILD)/tests/%: tests/unit/%.c tests/unit/ct_test.h tests/unit/ct_test_scenario.h tests/unit/ct_test_lookup.h tests/unit/ct_test_fleet.h $(SVCA) $(LIBA) $(SMPA)
	@mkdir -p $(dir $@)
	@$(SAY) "  LD   $@"
	$(Q)$(CC) $(ALL_CFLAGS) -Itests/unit -o $@ $< $(SVCA) $(LIBA) $(SMPA) $(ALL_LDFLAGS) $(PKG_LIBS)

$(BUILD)/fuzz-replay/%: tests/fuzz/%.c tests/fuzz/replay.c tests/fuzz/fuzz.h $(SVCA) $(LIBA) $(SMPA)
	@mkdir -p $(dir $@)
	@$(SAY) "  LD   $@"
	$(Q)$(CC) $(ALL_CFLAGS) -Itests/fuzz -o $@ $< tests/fuzz/replay.c $(SVCA) $(LIBA) $(SMPA) $(ALL_LDFLAGS) $(PKG_LIBS)

$(BUILD)/bench/%: tests/bench/%.c tests/bench/bench_util.h tests/unit/ct_test_fleet.h $(SVCA) $(LIBA) $(SMPA)
	@mkdir -p $(dir $@)
	@$(SAY) "  LD   $@"
	$(Q)$(CC) $(ALL_CFLAGS) -Itests/unit -o $@ $< $(SVCA) $(LIBA) $(SMPA) $(ALL_LDFLAGS) $(PKG_LIBS)

# pkg-config files: paths relative to ${prefix} (so pkgconf --define-prefix
# works on relocated trees), written again whenever PREFIX/LIBDIR change.
PC_LIBDIR := $(patsubst $(PREFIX)%,$${prefix}%,$(LIBDIR))
PC_INCDIR := $(patsubst $(PREFIX)%,$${prefix}%,$(INCLUDEDIR))
PC_STAMP  := $(BUILD)/.pc-$(subst /,_,$(PREFIX)$(LIBDIR)$(INCLUDEDIR))

$(PC_STAMP):
	@mkdir -p $(BUILD)
	@rm -f $(BUILD)/.pc-*
	@touch $@

$(BUILD)/contend.pc: Makefile $(PC_STAMP)
	@printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$(PC_LIBDIR)' 'includedir=$(PC_INCDIR)' '' \
	  'Name: contend' 'Description: precomputed scheduling policies for GPU clusters with network contention' \
	  'Version: $(VERSION)' 'Requires.private: igraph gsl libcjson' \
	  'Libs: -L$${libdir} -lcontend -lcontend-sampler' 'Libs.private: -lglpk -lm -lpthread $(ONNX_LIBS)' 'Cflags: -I$${includedir}/contend -I$${includedir}' > $@

$(BUILD)/contend-sampler.pc: Makefile $(PC_STAMP)
	@printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$(PC_LIBDIR)' 'includedir=$(PC_INCDIR)' '' \
	  'Name: contend-sampler' 'Description: online placement sampler for contend lookup files (no solver libraries)' \
	  'Version: $(VERSION)' 'Requires.private: libcjson' \
	  'Libs: -L$${libdir} -lcontend-sampler' 'Libs.private: -lm' 'Cflags: -I$${includedir}/contend -I$${includedir}' > $@

test: $(CLI) $(TEST_BIN) $(REPLAY_BIN) ## build and run every test; ends with "N passed, N failed"
	@CONTEND=$(CLI) BUILD=$(BUILD) WRAP="$(WRAP)" sh tests/run.sh $(TEST_BIN)

check: test

docs-check: $(CLI) ## re-run the figures the documentation quotes and fail where a page drifted (also in make test)
	@CONTEND=$(CLI) sh tests/cli/docs_figures.sh && echo "docs-check: every figure re-run matches its page"

bench: $(CLI) $(BENCH_BIN) ## run the benchmarks (ratios against baselines, in one run)
	@for b in $(BENCH_BIN); do $$b || exit 1; done
	@if command -v mpicc >/dev/null 2>&1; then $(MAKE) -s MPI=1 build/mpi/contend >/dev/null; fi
	@CONTEND=$(CLI) sh tests/bench/sweeps.sh
	@CONTEND=$(CLI) sh tests/bench/model_check.sh
	@if command -v python3 >/dev/null 2>&1; then \
	  $(CLI) nona solve data/scenarios/five-models.json -o $(BUILD)/bench-five.json >/dev/null && \
	  CONTEND_SAMPLER_LIB=$(SMPSO) PYTHONPATH=sampler/python python3 tests/bench/python_binding.py $(BUILD)/bench-five.json; fi

data: $(CLI) ## regenerate the bundled model DAGs (data/dags, data/dags-cpu); export torchvision models to ONNX and import them (build/onnx)
	@for m in alexnet vgg16 resnet18 densenet121 gpt2; do \
	  $(CLI) dag zoo $$m -o data/dags/$$m.json || exit 1; \
	  $(CLI) dag zoo $$m --flops 1e11 --mem-bw 2e10 -o data/dags-cpu/$$m.json || exit 1; done
	@sh data/onnx/import_models.sh $(CLI) $(BUILD)/onnx

man: $(CLI) ## manual pages contend(1) and contend-COMMAND(1) from the command's own --help (build/man/)
	@sh docs/man/make-man.sh $(CLI) $(BUILD)/man $(VERSION)

install: all man ## install the command, libraries, headers, pkg-config files, manual pages, bash completion and the Python binding (PREFIX, DESTDIR)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR)/contend $(DESTDIR)$(PKGCONFIGDIR)
	install -m 755 $(CLI) $(DESTDIR)$(BINDIR)/contend
	install -m 644 $(LIBA) $(SMPA) $(DESTDIR)$(LIBDIR)/
	install -m 755 $(LIBSO) $(SMPSO) $(DESTDIR)$(LIBDIR)/
	ln -sf libcontend.so.$(SOVERSION) $(DESTDIR)$(LIBDIR)/libcontend.so
	ln -sf libcontend-sampler.so.$(SOVERSION) $(DESTDIR)$(LIBDIR)/libcontend-sampler.so
	install -m 644 $(LIB_HDR) $(SMP_HDR) $(DESTDIR)$(INCLUDEDIR)/contend/
	install -m 644 $(BUILD)/contend.pc $(BUILD)/contend-sampler.pc $(DESTDIR)$(PKGCONFIGDIR)/
	install -d $(DESTDIR)$(MANDIR)/man1
	install -m 644 $(BUILD)/man/*.1 $(DESTDIR)$(MANDIR)/man1/
	install -d $(DESTDIR)$(PYTHONDIR) $(DESTDIR)$(DATADIR)/contend/examples
	install -m 644 sampler/python/contend_sampler.py $(DESTDIR)$(PYTHONDIR)/
	install -m 644 sampler/python/examples/ray_place.py $(DESTDIR)$(DATADIR)/contend/examples/
	install -d $(DESTDIR)$(DATADIR)/bash-completion/completions
	install -m 644 cli/contend.bash $(DESTDIR)$(DATADIR)/bash-completion/completions/contend
	for d in $$(cd data && find . -type d); do install -d $(DESTDIR)$(DATADIR)/contend/data/$$d; done
	for f in $$(cd data && find . -type f); do install -m 644 data/$$f $(DESTDIR)$(DATADIR)/contend/data/$$f; done

print-pythondir: ## print where install puts the Python binding (PREFIX, PYTHON)
	@echo $(PYTHONDIR)

uninstall: ## remove what install put in place
	rm -f $(DESTDIR)$(BINDIR)/contend
	rm -f $(DESTDIR)$(LIBDIR)/libcontend.a $(DESTDIR)$(LIBDIR)/libcontend.so $(DESTDIR)$(LIBDIR)/libcontend.so.$(SOVERSION)
	rm -f $(DESTDIR)$(LIBDIR)/libcontend-sampler.a $(DESTDIR)$(LIBDIR)/libcontend-sampler.so $(DESTDIR)$(LIBDIR)/libcontend-sampler.so.$(SOVERSION)
	rm -rf $(DESTDIR)$(INCLUDEDIR)/contend
	rm -f $(DESTDIR)$(PKGCONFIGDIR)/contend.pc $(DESTDIR)$(PKGCONFIGDIR)/contend-sampler.pc
	rm -f $(DESTDIR)$(PYTHONDIR)/contend_sampler.py
	rm -rf $(DESTDIR)$(DATADIR)/contend
	rm -f $(DESTDIR)$(DATADIR)/bash-completion/completions/contend
	rm -f $(DESTDIR)$(MANDIR)/man1/contend.1 $(DESTDIR)$(MANDIR)/man1/contend-*.1

asan: ## build and run the tests with AddressSanitizer + UndefinedBehaviorSanitizer
	$(MAKE) BUILD=build/asan CFLAGS="-O1 -g -fno-omit-frame-pointer" \
	  MOREFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined" test

ubsan: ## build and run the tests with UndefinedBehaviorSanitizer only
	$(MAKE) BUILD=build/ubsan CFLAGS="-O1 -g" MOREFLAGS="-fsanitize=undefined -fno-sanitize-recover=undefined" test

valgrind: ## run the tests under valgrind memcheck (leaks are errors)
	CT_TEST_QUICK=1 $(MAKE) BUILD=build/valgrind CFLAGS="-O1 -g -DCT_BIG_PLAIN" \
	  WRAP="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect" test

FUZZ_SECONDS ?= 30
FUZZ_CC ?= clang
FUZZ_BUILD := build/fuzz
FUZZ_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g -O1
fuzz: ## libFuzzer harnesses for every loader (clang); each runs FUZZ_SECONDS (30) from tests/fuzz/corpus
	@command -v $(FUZZ_CC) >/dev/null 2>&1 || { echo "fuzz: needs clang with libFuzzer ('sh .ci/install-deps' installs it)"; exit 1; }
	$(MAKE) CI= BUILD=$(FUZZ_BUILD) CC=$(FUZZ_CC) CFLAGS="$(FUZZ_FLAGS)" MOREFLAGS="-fsanitize=fuzzer-no-link" \
	  $(FUZZ_BUILD)/libcontend.a $(FUZZ_BUILD)/libcontend-sampler.a $(FUZZ_BUILD)/libcontend-service.a
	@for n in $(FUZZ_NAMES); do \
	  $(FUZZ_CC) -std=c11 $(FUZZ_FLAGS) -fsanitize=fuzzer $(INCDIRS) -Itests/fuzz $(PKG_CFLAGS) -o $(FUZZ_BUILD)/fuzz_$$n \
	    tests/fuzz/fuzz_$$n.c $(FUZZ_BUILD)/libcontend-service.a $(FUZZ_BUILD)/libcontend.a \
	    $(FUZZ_BUILD)/libcontend-sampler.a $(PKG_LIBS) || exit 1; \
	done
	@fails=0; for n in $(FUZZ_NAMES); do \
	  mkdir -p $(FUZZ_BUILD)/corpus/$$n $(FUZZ_BUILD)/crashes/$$n; \
	  cp tests/fuzz/corpus/$$n/* $(FUZZ_BUILD)/corpus/$$n/ 2>/dev/null; \
	  $(FUZZ_BUILD)/fuzz_$$n -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
	    -artifact_prefix=$(FUZZ_BUILD)/crashes/$$n/ $(FUZZ_BUILD)/corpus/$$n >$(FUZZ_BUILD)/$$n.log 2>&1; \
	  rc=$$?; runs=$$(grep -o 'Done [0-9]* runs' $(FUZZ_BUILD)/$$n.log | tail -1); \
	  if [ $$rc -eq 0 ]; then echo "fuzz $$n: $$runs in $(FUZZ_SECONDS) s, no crash"; \
	  else echo "fuzz $$n: FAILED (exit $$rc): inputs in $(FUZZ_BUILD)/crashes/$$n; add them to tests/fuzz/corpus/$$n"; \
	    tail -30 $(FUZZ_BUILD)/$$n.log; fails=$$((fails + 1)); fi; \
	done; [ $$fails -eq 0 ]

deps: ## install the Debian packages this project needs (as root; prints the command otherwise)
	@sh .ci/install-deps

demo: $(CLI) ## the main job: contract the bundled DAGs, solve scenarios (one splits), sweep, sample, simulate, schedule training, simulate a training cluster, compare GPU-sharing schedulers
	@mkdir -p $(BUILD)/demo
	@for m in alexnet vgg16 resnet18 densenet121 gpt2; do \
	  $(CLI) dag contract data/dags/$$m.json -o $(BUILD)/demo/$$m.contracted.json | head -1 || exit 1; done
	$(CLI) nona solve data/scenarios/five-models.json -o $(BUILD)/demo/five-models.table.json
	$(CLI) nona solve data/scenarios/video-analytics.json -o $(BUILD)/demo/video-analytics.table.json
	$(CLI) sim sweep data/scenarios/video-analytics.json --loads 0.2:0.6:0.2 --policies nona,local,fair \
	  --reps 3 --jobs 5000 -o $(BUILD)/demo/video-analytics.sim.csv
	$(CLI) nona sweep data/scenarios/five-models.json --scale 0.25:2.0:0.25 -o $(BUILD)/demo/five-models.lookup.json
	$(CLI) nona sweep data/scenarios/fig1.json --scale 0.5:6:0.5 -o $(BUILD)/demo/fig1.lookup.json
	$(CLI) sample $(BUILD)/demo/fig1.lookup.json --class fig1 --rates fig1=450 --servers 80 --count 3 --seed 1
	$(CLI) bco workload --seed 1 -o $(BUILD)/demo/training
	@for p in sjf-bco ff ls rand; do $(CLI) bco schedule $(BUILD)/demo/training/cluster.json \
	  $(BUILD)/demo/training/jobs.json --policy $$p -o $(BUILD)/demo/training/$$p.schedule.json || exit 1; done
	$(CLI) train workload --seed 1 --scale 100 -o $(BUILD)/demo/training/online-jobs.json
	@for p in lwf ff ls rand; do $(CLI) train run $(BUILD)/demo/training/online-jobs.json --placement $$p \
	  -o $(BUILD)/demo/training/online-$$p.jobs.csv || exit 1; done
	$(CLI) train share-workload --jobs 240 --seed 1 -o $(BUILD)/demo/training/sharing-240.csv
	$(CLI) train table $(BUILD)/demo/training/sharing-240.csv -o $(BUILD)/demo/training/sharing-240.table.csv

test-mpi: $(CLI) ## build with MPI (build/mpi) and check that 2 ranks write what one process writes
	@command -v mpicc >/dev/null 2>&1 || { echo "test-mpi: needs OpenMPI (openmpi-bin libopenmpi-dev; 'sh .ci/install-deps' installs them)"; exit 1; }
	$(MAKE) MPI=1 build/mpi/contend
	@CONTEND=build/mpi/contend SERIAL=$(CLI) sh tests/mpi.sh

NB_OUT := $(BUILD)/notebooks

notebooks: $(CLI) ## execute notebooks-export/*.ipynb headless into build/notebooks (.ipynb, .html, figures/*.png|svg)
	@command -v jupyter-nbconvert >/dev/null 2>&1 || { echo "notebooks: needs jupyter-nbconvert, python3-matplotlib, python3-pandas, python3-ipykernel ('sh .ci/install-deps' installs them)"; exit 1; }
	@mkdir -p $(NB_OUT)
	@for nb in notebooks-export/*.ipynb; do n=$$(basename $$nb .ipynb); t0=$$(date +%s); \
	  CONTEND=$(abspath $(CLI)) CONTEND_ROOT=$(CURDIR) CONTEND_OUT=$(abspath $(NB_OUT)) \
	    jupyter-nbconvert --to notebook --execute --ExecutePreprocessor.timeout=300 --output-dir $(NB_OUT) $$nb \
	    >$(NB_OUT)/$$n.log 2>&1 || { cat $(NB_OUT)/$$n.log; echo "notebooks: $$nb failed"; exit 1; }; \
	  jupyter-nbconvert --to html --output-dir $(NB_OUT) $(NB_OUT)/$$n.ipynb >>$(NB_OUT)/$$n.log 2>&1 || \
	    { cat $(NB_OUT)/$$n.log; exit 1; }; \
	  echo "notebooks: $$n executed in $$(( $$(date +%s) - t0 )) s: $(NB_OUT)/$$n.html"; done
	@echo "notebooks: figures in $(NB_OUT)/figures: $$(ls $(NB_OUT)/figures | grep -c png) PNG, $$(ls $(NB_OUT)/figures | grep -c svg) SVG"

clean: ## remove build outputs
	rm -rf build

help: ## list the targets
	@grep -hE '^[a-z-]+:.*## ' Makefile | sed 's/:.*## /\t/' | awk -F'\t' '{printf "  %-10s %s\n", $$1, $$2}'
