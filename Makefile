# SPDX-License-Identifier: GPL-2.0
#
# rpcrdma-cm: RFC 8797 for Linux NFS/RDMA as a drop-in rpcrdma.ko.
# Every target is a thin wrapper around a script under scripts/ so the
# logic can be read, run and debugged on its own. `make help` lists them.

SHELL := /bin/bash
TOP := $(CURDIR)
# Default kernel: the running one if its headers are installed, else the
# newest installed linux-headers-*, else Debian's default flavour.
KVER ?= $(shell $(TOP)/scripts/kver.sh)
export KVER KSRC TOP

.PHONY: all module install uninstall dkms dkms-remove clean distclean help kunit \
	kunit-module check lint vmtest demo bench fuzz tools siw

all: module

module: ## build build/$(KVER)/rpcrdma.ko
	@$(TOP)/scripts/build-module.sh

install: module ## install into /lib/modules/$(KVER)/updates and run depmod
	@$(TOP)/scripts/install.sh install

uninstall: ## remove what `make install` installed
	@$(TOP)/scripts/install.sh uninstall

dkms: ## register with DKMS (/usr/src/rpcrdma-cm-<ver>) and install for $(KVER)
	@$(TOP)/scripts/dkms.sh install

dkms-remove: ## remove the DKMS package and its staged source
	@$(TOP)/scripts/dkms.sh remove

kunit: ## run the codec KUnit suite with kunit.py (ARCH=um)
	@$(TOP)/scripts/kunit.sh

kunit-module: ## build the KUnit suite as a module (needs CONFIG_KUNIT=m)
	@$(TOP)/scripts/kunit-module.sh

vmtest: module ## end-to-end NFS/RDMA scenarios in QEMU VMs
	@$(TOP)/scripts/vm/vmtest.sh

demo: module ## boot two VMs, mount NFSv4.2 over RDMA, print the negotiation
	@$(TOP)/scripts/vm/demo.sh

bench: module ## measure chunks per RPC with and without negotiation
	@$(TOP)/scripts/vm/bench.sh

fuzz: ## fuzz the codec in userspace (FUZZ_SECONDS=, default 60)
	@$(TOP)/scripts/fuzz.sh

tools: ## build tools/rpcrdma-cm-probe
	@$(TOP)/scripts/tools.sh

siw: ## build siw.ko out of tree for $(KVER)
	@$(TOP)/scripts/siw.sh

lint: ## checkpatch --strict, kernel-doc, W=1 + sparse build, shellcheck
	@$(TOP)/scripts/lint.sh

check: ## everything CI runs
	@$(TOP)/scripts/check.sh

clean: ## remove build/ (the cached kernel sources too)
	rm -rf $(TOP)/build

help: ## this list
	@echo "rpcrdma-cm targets (KVER=$(KVER)):"
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | \
		sed -E 's/^([a-z-]+):.*## (.*)/  make \1\t\2/' | \
		sed 's/\$$(KVER)/$(KVER)/g' | expand -t 24
	@echo "Variables: KVER=<release> KSRC=<kernel tree> FUZZ_SECONDS=<n>"
