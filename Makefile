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

# Short names of scripts/kernels.tab: `make trixie` builds the module for
# the kernel trixie carries today (as `make KVER=trixie` does).
KNAMES := $(shell sed -e 's/\#.*//' $(TOP)/scripts/kernels.tab | awk 'NF {print $$1}')

.PHONY: all module install uninstall dkms dkms-remove clean distclean help kunit \
	kunit-module check check-full errtest hosttest lint vmtest demo bench soak scale fuzz tools siw rxe ibcore matrix kernels ab \
	patches patches-check debug-kernel debugtest \
	buildroot-clean wireshark wireshark-patch install-wireshark install-wireshark-c \
	uninstall-wireshark $(KNAMES)

all: module

module: ## build build/$(KVER)/rpcrdma.ko
	@$(TOP)/scripts/build-module.sh

install: module ## install into /lib/modules/$(KVER)/updates and run depmod; signed with DKMS's key (/var/lib/dkms/mok.key) or SIGN_KEY= SIGN_CERT= when one exists; stops when Secure Boot, module.sig_enforce or lockdown would refuse it unsigned
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

bench: module ## measure chunks, RDMA operations and wire packets per RPC with and without negotiation (BENCH_REPEATS=, BENCH_CONFIGS=, BENCH_PCAP=0)
	@$(TOP)/scripts/vm/bench.sh

soak: module ## fio/stress-ng/dbench across device removal, nfsd restarts, reconnects, link drops (make rxe's rdma_rxe) (SOAK_SECONDS=, SOAK_SEED=, SOAK_LONG=1: 30 min, its row in Documentation/soak.md, SOAK_TRANSPORTS=siw)
	@$(TOP)/scripts/vm/soak.sh

scale: module ## one server VM, five client VMs (1 KiB, default, 4 KiB, 16 KiB, stock), nconnect 1/4/16 over rxe: every connection negotiated on both sides, fio crc32c verify across nfsd restarts, link drops, device removal, server memory per connection -> Documentation/bench.md (SCALE_CLIENTS=, SCALE_NCONNECT=, SCALE_FAULTS=)
	@$(TOP)/scripts/vm/scale.sh

fuzz: ## fuzz the codec in userspace (FUZZ_SECONDS=, default 60)
	@$(TOP)/scripts/fuzz.sh

wireshark: ## test the Wireshark dissectors (Lua vs codec, C vs Lua under tshark 4.0 and 4.4, VM pcaps)
	@$(TOP)/scripts/wireshark.sh test

wireshark-patch: ## the C dissector as a patch to Wireshark (apt-get source of WIRESHARK_UPSTREAM_SUITE, default trixie) -> build/wireshark-upstream/
	@$(TOP)/scripts/wireshark-upstream.sh

install-wireshark: ## install the RFC 8797 dissector in ~/.local/lib/wireshark/plugins
	@$(TOP)/scripts/wireshark.sh install

install-wireshark-c: ## build the C dissector and install it in ~/.local/lib/wireshark/plugins/<version>/epan
	@$(TOP)/scripts/wireshark.sh install-c

uninstall-wireshark: ## remove what `make install-wireshark` and install-wireshark-c installed
	@$(TOP)/scripts/wireshark.sh uninstall

tools: ## build tools/rpcrdma-cm-probe (and rpcrdma-cm-status with its version)
	@$(TOP)/scripts/tools.sh

.PHONY: status-test
status-test: ## rpcrdma-cm-status against made-up hosts: every verdict, its exit code, --json, --prometheus
	@$(TOP)/scripts/status-test.sh

.PHONY: install-test
install-test: ## make install's signing (the installed file's signer and hash) and its Secure Boot stop, on made-up hosts
	@$(TOP)/scripts/install-test.sh

.PHONY: deb debtest repo
deb: ## Debian packages rpcrdma-cm-dkms, rpcrdma-cm-tools and the prebuilt rpcrdma-cm-modules-<kernel> (DEB_MODULES=) in fresh roots of DEB_RELEASE (default: the host's) -> build/deb/<release>/
	@$(TOP)/scripts/deb.sh

repo: ## a signed apt repository of make deb's packages in build/repo/ (REPO_KEY=<your gpg key>, else a key made once in build/repo-key/); prints the sources.list line
	@$(TOP)/scripts/repo.sh

debtest: ## per DEB_RELEASES (default "bookworm trixie"): install the packages in a fresh root, DKMS, dkms-autopkgtest, VM pairs, removal (DEBTEST_PATH=modules: the prebuilt package from make repo's repository, no compiler)
	@$(TOP)/scripts/debtest.sh

siw: ## build siw.ko out of tree for $(KVER), with the fixes of scripts/coccinelle/siw (SIW_UPSTREAM=1: without)
	@$(TOP)/scripts/siw.sh

.PHONY: rxe
rxe: ## build rdma_rxe.ko out of tree for $(KVER), with the fixes of scripts/coccinelle/rxe (RXE_UPSTREAM=1: without)
	@$(TOP)/scripts/rxe.sh

ibcore: ## build ib_core.ko and ib_cm.ko out of tree for $(KVER), with the fixes of scripts/coccinelle/ibcore: a CM message whose send fails locally is resent, a DREQ that cannot be sent is reported (IBCORE_UPSTREAM=1: without)
	@$(TOP)/scripts/ibcore.sh

lint: ## checkpatch --strict, kernel-doc, W=1 + sparse build, shellcheck
	@$(TOP)/scripts/lint.sh

ab: ## scenario AB_SCENARIO run AB_RUNS times per cell (module x QEMU x smp): faults per cell
	@$(TOP)/scripts/vm/ab.sh

debug-kernel: ## build (or reuse) the KASAN/lockdep/kmemleak/UBSAN/KUnit test kernel of $(KVER)'s source
	@$(TOP)/scripts/debug-kernel.sh >/dev/null

debugtest: ## KUnit in the guest and scenarios 1 2 6 7 8 9 under the debug kernel (others on request: DEBUGTEST_SCENARIOS=; DEBUGTEST_PLANT=1: a planted over-read KASAN must catch)
	@$(TOP)/scripts/debugtest.sh

matrix: ## kernel x {build, lint, vmtest} for the kernels of scripts/kernels.tab
	@$(TOP)/scripts/matrix.sh

kernels: ## the Debian kernels this tree knows and the release each names today
	@$(TOP)/scripts/kernels-list.sh

# Documentation: the generated tables and the links between the pages.
.PHONY: doctables doclinks
doctables: ## rewrite README.md's kernel table from scripts/kernels.tab
	@$(TOP)/scripts/doctables.sh kernels

doclinks: ## check every relative link and anchor of the Markdown files
	@$(TOP)/scripts/doclinks.py

$(KNAMES):
	@$(MAKE) --no-print-directory module KVER=$@

buildroot-clean: ## delete the cached build roots (recreated on demand)
	@for f in bookworm trixie sid; do $(TOP)/scripts/buildroot.sh remove $$f; done

patches: ## build/patches/: the fixes per tree (nfsd, nfs), their stable/6.12 and stable/6.1 backports, the features, siw, rxe, as git format-patch series
	@$(TOP)/scripts/patches.sh generate

patches-check: patches ## each fix alone and in its series on 7.3, 6.12, 6.1: build, checkpatch, scenario 15 with the fixes-only module; the features: build, checkpatch, KUnit, VM scenario 15 (PATCHES_VM=0: no VMs, fixes: the fixes' only)
	@$(TOP)/scripts/patches.sh check

check: ## CI's tier (30 min from nothing, 15 warm): KUnit, fuzz, build+lint per kernel, VM scenarios of kernels.tab's check column, dissector, package build (CHECK_KERNELS=, CHECK_SCENARIOS=, CHECK_DOC=cold|warm)
	@$(TOP)/scripts/check.sh check

check-full: ## everything: the full matrix, debug lane, soak, patch series, packages' install test, bare hosts; each step is recorded in Documentation/testing.md (CHECK_UNTIL=<time>: start no step that would end later; CHECK_RESUME=1: carry steps that passed on the same code)
	@$(TOP)/scripts/check.sh full

errtest: ## provoke the first errors a user meets (no network, no space, not root, unknown release, a release without source, a kernel without NFS/RDMA, unsupported host): each must say what to do
	@$(TOP)/scripts/errtest.sh

hosttest: ## fresh bookworm and trixie roots (git, make, ca-certificates only): clone, make demo, a bounded make check (HOSTTEST_HOSTS=, HOSTTEST_CHECK=0|full, HOSTTEST_DEMO=0, HOSTTEST_KEEP=1)
	@$(TOP)/scripts/hosttest.sh

clean: ## remove build/ (the cache outside the clone stays)
	rm -rf $(TOP)/build

distclean: clean ## also remove the cache: build roots, unpacked kernels, sources
	rm -rf "$${RPCRDMA_CM_CACHE:-/var/cache/rpcrdma-cm}"

help: ## this list
	@echo "rpcrdma-cm targets (KVER=$(KVER)):"
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | \
		sed -E 's/^([a-z-]+):.*## (.*)/\1\t\2/' | \
		sed 's/\$$(KVER)/$(KVER)/g' | \
		awk -F'\t' '{printf "  make %-20s %s\n", $$1, $$2}'
	@echo "  make <name>               the module for a kernel of the table: $(KNAMES)"
	@echo "Variables: KVER=<release or name> KSRC=<kernel tree> FUZZ_SECONDS=<n>"
	@echo "  SIGN_KEY=<key> SIGN_CERT=<certificate> (make install; default: DKMS's, /var/lib/dkms/mok.key and mok.pub)"
	@echo "  PATCHES_KVER=<name or release> PATCHES_VM=0|fixes|1 PATCHES_KUNIT=first|last|both|none"
	@echo "  VM_QEMU=system|backports|<path> VM_SMP=<n> MATRIX=\"<names>\" RPCRDMA_CM_CACHE=<dir>"
	@echo "  DEBUG_KERNEL_CONFIG_ONLY=1 (make debug-kernel: configure and check the fragments only, seconds)"
	@echo "  DEBUGTEST_SCENARIOS=\"<numbers>\"|none DEBUGTEST_KUNIT=0 DEBUGTEST_PLANT=1 (make debugtest)"
	@echo "Kernels (scripts/kernels.tab; make kernels shows today's releases):"
	@sed -e 's/\#.*//' $(TOP)/scripts/kernels.tab | \
		awk 'NF {printf "  %-20s %-30s %s, make check: %s, VM QEMU: %s\n", $$1, $$2, $$6, $$5, $$7}'
	@echo "  a release's -rt-amd64 and -cloud-amd64 flavours build as it does (KVER=<release>-rt-amd64); a release"
	@echo "  whose linux-source Debian dropped does not (make kernels: no-source)"
	@echo "Cache outside the clone (roots, images, sources): $${RPCRDMA_CM_CACHE:-/var/cache/rpcrdma-cm}"
