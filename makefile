# hoflow — PETSc-conventional build.
#   make            CPU build against PETSc (PETSC_DIR/PETSC_ARCH, default Debian's /usr/lib/petsc)
#   make CUDA=1     also compiles cuda/*.cu with nvcc and links the CUDA kernels
#   make test       builds, generates meshes and runs the test suite
#   make run        builds and runs the default case
#   make deps       installs the Debian/Ubuntu packages hoflow needs (when missing)
PETSC_DIR ?= /usr/lib/petsc
PETSC_ARCH ?=
CUDA ?= 0
NVCC ?= nvcc
CUDA_ARCH ?= sm_90
# Debian's python3 (with numpy/matplotlib from scripts/install-deps.sh), whatever else is on PATH
PYTHON ?= $(shell test -x /usr/bin/python3 && echo /usr/bin/python3 || echo python3)

include $(PETSC_DIR)/lib/petsc/conf/variables

OPT_FLAGS ?= -O3 -march=x86-64-v2
HOFLOW_CFLAGS = -std=c99 -Wall -Wextra -Wno-unused-parameter -Werror $(OPT_FLAGS) -g -fPIC \
                -Isrc/include $(PETSC_CC_INCLUDES)
HOFLOW_LIBS = $(PETSC_WITH_EXTERNAL_LIB) -lm

# muparser (expressions in options): the system's (Debian/Ubuntu libmuparser-dev), or a copy
# unpacked by scripts/deps-muparser.sh under .deps/muparser (machines without the package)
MUPARSER_DIR ?= $(if $(wildcard .deps/muparser/include/muParserDLL.h),$(CURDIR)/.deps/muparser,)
ifneq ($(MUPARSER_DIR),)
  HOFLOW_CFLAGS += -isystem $(MUPARSER_DIR)/include
  HOFLOW_LIBS += -L$(MUPARSER_DIR)/lib -Wl,-rpath,$(MUPARSER_DIR)/lib
endif
HOFLOW_LIBS += -lmuparser

SRC_DIRS = core ref mesh kernels disc op solver ts io problems physics
LIB_SRC = $(foreach d,$(SRC_DIRS),$(wildcard src/$(d)/*.c))
LIB_OBJ = $(patsubst src/%.c,build/%.o,$(LIB_SRC))
CU_SRC = $(wildcard cuda/*.cu)
CU_OBJ = $(patsubst cuda/%.cu,build/cuda/%.o,$(CU_SRC))
TEST_SRC = $(wildcard tests/unit/*.c)
TEST_BIN = $(patsubst tests/unit/%.c,build/tests/%,$(TEST_SRC))
BENCH_SRC = $(wildcard bench/*.c)
BENCH_BIN = $(patsubst bench/%.c,build/bench/%,$(BENCH_SRC))
HEADERS = $(wildcard src/include/hoflow/*.h src/include/hoflow/*/*.h)
GEO = $(wildcard examples/meshes/*.geo)
MSH = $(GEO:.geo=.msh)

ifeq ($(CUDA),1)
  HOFLOW_CFLAGS += -DHOFLOW_HAVE_CUDA
  CUDA_HOME ?= $(patsubst %/bin/nvcc,%,$(shell which $(NVCC)))
  HOFLOW_LIBS += -L$(CUDA_HOME)/lib64 -lcudart
  KERNEL_OBJ = $(CU_OBJ)
else
  KERNEL_OBJ =
endif

# quiet rules; `make V=1` shows the commands
ifeq ($(V),1)
  Q =
else
  Q = @
endif

.PHONY: all test test-gpu run format clean deps meshes cuda-check gpu-c-check
all: hoflow $(TEST_BIN) $(BENCH_BIN) meshes

build/libhoflow.a: $(LIB_OBJ) $(KERNEL_OBJ)
	@rm -f $@
	$(Q)ar rcs $@ $^

build/%.o: src/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	@echo CC $<
	$(Q)$(PCC) $(HOFLOW_CFLAGS) -c $< -o $@

build/cuda/%.o: cuda/%.cu $(wildcard cuda/*.h) $(HEADERS)
	@mkdir -p $(dir $@)
	@echo NVCC $<
	$(Q)$(NVCC) -std=c++17 -O3 -arch=$(CUDA_ARCH) -Isrc/include -Xcompiler -fPIC,-Wall,-Werror -c $< -o $@

hoflow: build/main.o build/libhoflow.a
	@echo LINK $@
	$(Q)$(PCC_LINKER) -o $@ $< build/libhoflow.a $(HOFLOW_LIBS)

build/main.o: src/main.c $(HEADERS)
	@mkdir -p build
	@echo CC $<
	$(Q)$(PCC) $(HOFLOW_CFLAGS) -c $< -o $@

build/tests/%: tests/unit/%.c build/libhoflow.a $(HEADERS)
	@mkdir -p build/tests
	@echo LINK $@
	$(Q)$(PCC) $(HOFLOW_CFLAGS) -o $@ $< build/libhoflow.a $(HOFLOW_LIBS)

build/bench/%: bench/%.c build/libhoflow.a $(HEADERS)
	@mkdir -p build/bench
	@echo LINK $@
	$(Q)$(PCC) $(HOFLOW_CFLAGS) -o $@ $< build/libhoflow.a $(HOFLOW_LIBS)

# Meshes are generated from the committed .geo files (Gmsh 4, written as MSH 4.1); a line
# "// hoflow: gmsh FLAGS" in a .geo gives its flags (3D meshes: -3), else -2.
gmsh_flags = $(or $(shell sed -n 's|^// hoflow: gmsh ||p' $(1)),-2)
meshes: $(MSH)
examples/meshes/%.msh: examples/meshes/%.geo
	gmsh $(call gmsh_flags,$<) -format msh41 -v 2 $< -o $@ > /dev/null
# curved (high-order) variants, built on request: make examples/meshes/annulus_p2.msh (or _p3)
examples/meshes/%_p2.msh: examples/meshes/%.geo
	gmsh $(call gmsh_flags,$<) -order 2 -format msh41 -v 2 $< -o $@ > /dev/null
examples/meshes/%_p3.msh: examples/meshes/%.geo
	gmsh $(call gmsh_flags,$<) -order 3 -format msh41 -v 2 $< -o $@ > /dev/null

# CUDA sources compile with plain nvcc anywhere (no PETSc calls in cuda/), so CI checks them;
# gpu-c-check compiles the C sources as the GPU build does (PETSc 3.22 headers, -DHOFLOW_HAVE_CUDA).
cuda-check: $(CU_OBJ)
gpu-c-check:
	@sh scripts/check-gpu-c.sh

run: all
	./hoflow -options_file options/default.yaml

test: all
	$(PYTHON) tests/run.py

test-gpu:
	$(PYTHON) tests/run.py --gpu

format:
	clang-format -i src/*.c src/*/*.c $(HEADERS) tests/unit/*.c bench/*.c $(CU_SRC)

deps:
	@sh scripts/install-deps.sh

clean:
	rm -rf build hoflow examples/meshes/*.msh
