# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Host-side helper for the scenarios that run tools/rpcrdma-cm-probe or
# rpcrdma-cm-status in the guests (01, 02, 07, 08, 09, 11, 12, 13, 15,
# 16, 17). Sourced by their sc_run.

# sc_probe_guests: build the probe if needed (scripts/tools.sh, i.e.
# `make tools`); mkinitramfs.sh puts build/tools/rpcrdma-cm-probe in the
# guests' /usr/local/bin whenever it exists (the base is rebuilt once).
sc_probe_guests() {
	local probe=$BUILD/tools/rpcrdma-cm-probe
	local f stale=0
	# every probe source (the probe is split by concern) and the codecs
	for f in "$TOP"/tools/rpcrdma-cm-probe*.[ch] "$TOP"/tools/rpcrdma-cm-status \
		 "$TOP"/net/sunrpc/xprtrdma/rpcrdma_pdata.c \
		 "$TOP"/net/sunrpc/xprtrdma/rpcrdma_xchar*.c \
		 "$TOP"/include/linux/sunrpc/rpcrdma_*.h; do
		[ "$f" -nt "$probe" ] && stale=1
	done
	if [ ! -x "$probe" ] || [ $stale = 1 ]; then
		"$TOP/scripts/tools.sh" >/dev/null || { warn "cannot build the probe (scripts/tools.sh)"; return 1; }
	fi
	"$VMDIR/mkinitramfs.sh" || { warn "rebuilding the initramfs with the probe failed"; return 1; }
}

# sc_siw_ko: build siw.ko (scripts/siw.sh, i.e. `make siw`) if missing.
sc_siw_ko() {
	local siw=${SIW_KO:-$BUILD/$KVER/siw/siw.ko}
	[ -f "$siw" ] && return 0
	msg "  building siw.ko (make siw)"
	"$TOP/scripts/siw.sh" >/dev/null || { warn "make siw failed"; return 1; }
	[ -f "$siw" ]
}
