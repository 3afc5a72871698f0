#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make patches` and `make patches-check`: the RFC 8797 work as a
# git format-patch series against a kernel tree, for review upstream.
#
#   patches.sh generate   build/patches/: cover letter + one patch per
#                         scripts/patches/NN-*.msg
#   patches.sh check      apply the series patch by patch to a pristine
#                         copy of the tree; after each: build
#                         net/sunrpc/xprtrdma/, checkpatch --strict; KUnit
#                         after the first and the last; then the module
#                         built from the patched tree runs VM scenarios
#
# Nothing upstream is stored here. The series is generated at run time
# from the kernel's own sources (KSRC, default Debian's linux-source of
# the PATCHES_KVER kernel, trixie-backports: the newest the project
# supports), the same Coccinelle rules and project files the drop-in
# module is built from, and per patch scripts/patches/NN-*.msg:
#
#   File: <project path> [<tree path>]  project file this patch adds
#   Objects: <obj>...                   added to rpcrdma-y
#   Rules: <rule>...                    scripts/coccinelle/<rule>.cocci
#   Hold: <tree path> <regex>           what this patch adds to a file an
#                                       earlier patch added: the earlier
#                                       patches carry the file without it
#                                       (scripts/patches/carve.py)
#   Before: <rule>                      scripts/patches/features/before/
#                                       <rule>.cocci, run on the project
#                                       files of the earlier patches'
#                                       trees: what this patch changes
#                                       inside code an earlier patch
#                                       added (an argument), which Hold:
#                                       cannot carve, in its earlier form
#   Insert: <project path> <tree path> <ERE>
#                                       a fragment of ours (its SPDX line
#                                       dropped) this patch adds to an
#                                       upstream file, before the first
#                                       line matching ERE; Hold: lines on
#                                       <tree path> carve the fragment
#   KUnit: yes                          the patch adds the KUnit suite
#   Maintainers: <tree path>            an F: line for a new file no
#                                       MAINTAINERS entry covers yet
#   ---
#   <commit message>
#
# Patch N's tree = the pristine tree, rules of patches 1..N applied,
# project files of patches 1..N with the Holds of patches N+1.. carved
# out, the rules of scripts/patches/features/upstream/ and the Before:
# rules of patches N+1.. applied to them, the Insert: fragments, and
# the Makefile/Kconfig lines for what is there. The last patch's tree
# is therefore what the drop-in module builds, less what only the
# module has (ALWAYS_HOLD, upstream/: its parameters, debugfs, own
# trace system and workarounds).
#
# Environment: PATCHES_KVER (kernel whose source and headers are used,
# default trixie-backports), KSRC (another tree of the same version),
# JOBS (default 2), PATCHES_VM=0 (check: skip the VM scenarios; fixes:
# only the fixes' scenario 15 on each kernel), PATCHES_FIXES_SCENARIOS
# (default 15),
# PATCHES_VM_SCENARIOS (default 15, the scenario written for a module
# without debugfs or parameters, as the features module now is),
# PATCHES_KUNIT=first|last|
# both|none (check: when KUnit runs, default both), FORCE=1 (regenerate
# even when no input changed).

# The build root clears the environment: KVER arrives resolved there.
if [ -z "${RPCRDMA_CM_ROOT:-}" ]; then
	KVER=${PATCHES_KVER:-trixie-backports}
	export KVER
fi
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"
set -o pipefail

MSGDIR=$TOP/scripts/patches
OUT=$BUILD/patches
WORK=$OUT/.work
# the features series (the codec and glue the drop-in module is made of)
FEAT=$OUT/features
JOBS=${JOBS:-2}
# Out-of-tree only: the version stamp build-module.sh generates.
ALWAYS_HOLD=("net/sunrpc/xprtrdma/rpcrdma_cm.c ^#include \"rpcrdma_cm_version\\.h\"$"
	"net/sunrpc/xprtrdma/rpcrdma_cm.c ^MODULE_VERSION\\("
	# what only 6.1's rules call (server_payload_enotconn,
	# server_accept_errout, server_disconnect_flush): mainline's
	# svcrdma has none of those defects
	"net/sunrpc/xprtrdma/svc_rdma_cm.c ^int svc_rdma_cm_payload_err\\("
	"net/sunrpc/xprtrdma/svc_rdma_cm.c ^void svc_rdma_cm_disconnected\\("
	"net/sunrpc/xprtrdma/svc_rdma_cm.c ^void svc_rdma_cm_accept_failed\\("
	"net/sunrpc/xprtrdma/rpcrdma_cm.c ^static atomic_t rpcrdma_cm_unposted"
	"net/sunrpc/xprtrdma/rpcrdma_cm.c ^static atomic_t rpcrdma_cm_accept_failed"
	"net/sunrpc/xprtrdma/rpcrdma_cm.c ^void rpcrdma_cm_count_unposted\\("
	"net/sunrpc/xprtrdma/rpcrdma_cm.c ^void rpcrdma_cm_count_accept_failed\\("
	"net/sunrpc/xprtrdma/rpcrdma_cm.c ^\\s+debugfs_create_atomic_t\\(\"unposted\""
	"net/sunrpc/xprtrdma/rpcrdma_cm.c ^\\s+debugfs_create_atomic_t\\(\"accept_failed\""
	"include/linux/sunrpc/rpcrdma_cm.h ^int svc_rdma_cm_payload_err\\("
	"include/linux/sunrpc/rpcrdma_cm.h ^void svc_rdma_cm_disconnected\\("
	"include/linux/sunrpc/rpcrdma_cm.h ^void svc_rdma_cm_accept_failed\\("
	"include/linux/sunrpc/rpcrdma_cm.h ^void rpcrdma_cm_count_unposted\\("
	"include/linux/sunrpc/rpcrdma_cm.h ^void rpcrdma_cm_count_accept_failed\\("
	# what only client_cq_lockdep calls: a lockdep remedy for ib_core,
	# not a patch for xprtrdma
	"net/sunrpc/xprtrdma/rpcrdma_cm_client.c ^void rpcrdma_cm_cq_lockdep_class\\("
	"include/linux/sunrpc/rpcrdma_cm.h ^void rpcrdma_cm_cq_lockdep_class\\("
	# client_unpin_stranded: a workaround in xprtrdma for a provider
	# that loses completions (siw), which the siw series fixes there
	"net/sunrpc/xprtrdma/rpcrdma_cm_client.c ^static bool rpcrdma_cm_req_stranded\\("
	"net/sunrpc/xprtrdma/rpcrdma_cm_client.c ^void rpcrdma_cm_client_unpin_stranded\\("
	"net/sunrpc/xprtrdma/rpcrdma_cm.c ^static atomic_t rpcrdma_cm_stranded"
	"net/sunrpc/xprtrdma/rpcrdma_cm.c ^void rpcrdma_cm_count_stranded\\("
	"net/sunrpc/xprtrdma/rpcrdma_cm.c ^\\s+debugfs_create_atomic_t\\(\"stranded\""
	"include/linux/sunrpc/rpcrdma_cm.h ^void rpcrdma_cm_count_stranded\\("
	"include/linux/sunrpc/rpcrdma_cm.h ^void rpcrdma_cm_client_unpin_stranded\\("
	# client_unreachable: the module's form of nfs fix 3, traced and
	# counted; the series carries the fix itself (fixes/)
	"net/sunrpc/xprtrdma/rpcrdma_cm_client.c ^bool rpcrdma_cm_client_unreachable\\("
	"net/sunrpc/xprtrdma/rpcrdma_cm.c ^static atomic_t rpcrdma_cm_unreachable"
	"net/sunrpc/xprtrdma/rpcrdma_cm.c ^void rpcrdma_cm_count_unreachable\\("
	"net/sunrpc/xprtrdma/rpcrdma_cm.c ^\\s+debugfs_create_atomic_t\\(\"unreachable\""
	"include/linux/sunrpc/rpcrdma_cm.h ^void rpcrdma_cm_count_unreachable\\("
	"include/linux/sunrpc/rpcrdma_cm.h ^bool rpcrdma_cm_client_unreachable\\("
	# client_addr_change: 6.1's xprtrdma only, which lacks mainline's
	# af9b65b29af3 (6.1.y never took it)
	"net/sunrpc/xprtrdma/rpcrdma_cm_client.c ^bool rpcrdma_cm_client_addr_change\\("
	"include/linux/sunrpc/rpcrdma_cm.h ^bool rpcrdma_cm_client_addr_change\\("
	# debugfs: <debugfs>/rpcrdma_cm/, the registry of connections it
	# lists and every counter only it shows; the negotiated values are
	# traced instead (xprtrdma_cm_negotiate, svcrdma_cm_negotiate)
	"net/sunrpc/xprtrdma/rpcrdma_cm.c ^#define CREATE_TRACE_POINTS$"
	"net/sunrpc/xprtrdma/rpcrdma_cm.c ^#include <linux/(debugfs|seq_file|spinlock|list|module)\\.h>$"
	"net/sunrpc/xprtrdma/rpcrdma_cm.c ^static LIST_HEAD\\(rpcrdma_cm_conns\\);"
	"net/sunrpc/xprtrdma/rpcrdma_cm.c ^static DEFINE_SPINLOCK\\(rpcrdma_cm_lock\\);"
	"net/sunrpc/xprtrdma/rpcrdma_cm.c ^static struct dentry \\*rpcrdma_cm_debugfs;"
	"net/sunrpc/xprtrdma/rpcrdma_cm.c ^void rpcrdma_cm_(link|unlink)\\("
	"net/sunrpc/xprtrdma/rpcrdma_cm.c ^static int rpcrdma_cm_connections_show\\("
	"net/sunrpc/xprtrdma/rpcrdma_cm.c ^DEFINE_SHOW_ATTRIBUTE\\(rpcrdma_cm_connections\\);"
	"net/sunrpc/xprtrdma/rpcrdma_cm.c ^(int|void) rpcrdma_cm_(init|exit)\\("
	"net/sunrpc/xprtrdma/rpcrdma_cm.c ^static atomic_t rpcrdma_cm_(unaccepted|drained|drain_timeouts|drain_shortened|swi_without_r|recv_too_long)"
	"net/sunrpc/xprtrdma/rpcrdma_cm.c ^void rpcrdma_cm_count_(unaccepted|drained)\\("
	"net/sunrpc/xprtrdma/rpcrdma_cm.c ^\\s+atomic_long_inc\\(&conn->(recv_too_long|recv_inv)\\);"
	"net/sunrpc/xprtrdma/rpcrdma_cm.c ^\\s+atomic_inc\\(&rpcrdma_cm_recv_too_long\\);"
	"net/sunrpc/xprtrdma/rpcrdma_cm.c ^\\s+if \\(atomic_long_inc_return\\(&conn->swi_without_r\\) == 1\\)"
	"net/sunrpc/xprtrdma/rpcrdma_cm.c ^ \\* Each such Receive is counted on the connection"
	"net/sunrpc/xprtrdma/rpcrdma_cm_client.c ^\\s+rpcrdma_cm_link\\("
	"net/sunrpc/xprtrdma/rpcrdma_cm_client.c ^void rpcrdma_cm_client_destroy\\("
	"net/sunrpc/xprtrdma/svc_rdma_cm.c ^\\s+rpcrdma_cm_link\\("
	"net/sunrpc/xprtrdma/svc_rdma_cm.c ^void svc_rdma_cm_destroy\\("
	"net/sunrpc/xprtrdma/svc_rdma_cm.c ^\\s+atomic_long_inc\\("
	"net/sunrpc/xprtrdma/svc_rdma_cm.c ^\\s+rpcrdma_cm_count_unaccepted\\("
	"include/linux/sunrpc/rpcrdma_cm.h ^#include <linux/(atomic|list)\\.h>$"
	"include/linux/sunrpc/rpcrdma_cm.h ^ \\* @(list|linked|reply_chunks|short_replies|recv_inv|swi_without_r|recv_too_long):"
	"include/linux/sunrpc/rpcrdma_cm.h ^\\s+(struct list_head|bool|atomic_long_t)\\s+(list|linked|reply_chunks|short_replies|recv_inv|swi_without_r|recv_too_long);"
	"include/linux/sunrpc/rpcrdma_cm.h ^(int|void) rpcrdma_cm_(init|exit|link|unlink)\\("
	"include/linux/sunrpc/rpcrdma_cm.h ^void (rpcrdma_cm_client|svc_rdma_cm)_destroy\\("
	"include/linux/sunrpc/rpcrdma_cm.h ^void rpcrdma_cm_count_(unaccepted|drained)\\("
	# module parameters, for testing against peers: the series uses
	# their defaults (scripts/patches/features/upstream/ rewrites the
	# code that reads them)
	"net/sunrpc/xprtrdma/rpcrdma_cm.c ^#include <linux/moduleparam\\.h>$"
	"net/sunrpc/xprtrdma/rpcrdma_cm.c ^static bool rpcrdma_cm_(pdata|remote_invalidate|short_replies) = true;"
	"net/sunrpc/xprtrdma/rpcrdma_cm.c ^static unsigned int rpcrdma_cm_server_send_size = "
	"net/sunrpc/xprtrdma/rpcrdma_cm.c ^u32 rpcrdma_cm_server_send_size_wanted\\("
	"include/linux/sunrpc/rpcrdma_cm.h ^u32 rpcrdma_cm_server_send_size_wanted\\("
	# client_recv_size: the rdma_max_inline_read sysctl as a module
	# parameter; the series changes the sysctl's default only
	"net/sunrpc/xprtrdma/rpcrdma_cm_client.c ^#include <linux/(moduleparam|sysfs)\\.h>$"
	"net/sunrpc/xprtrdma/rpcrdma_cm_client.c ^static int rpcrdma_cm_recv_size_(set|get)\\("
	"net/sunrpc/xprtrdma/rpcrdma_cm_client.c ^static const struct kernel_param_ops rpcrdma_cm_recv_size_ops "
	"net/sunrpc/xprtrdma/rpcrdma_cm_client.c ^module_param_cb\\("
	"net/sunrpc/xprtrdma/rpcrdma_cm_client.c ^MODULE_PARM_DESC\\("
	"net/sunrpc/xprtrdma/rpcrdma_cm.c ^module_param_named\\("
	"net/sunrpc/xprtrdma/rpcrdma_cm.c ^MODULE_PARM_DESC\\("
	"net/sunrpc/xprtrdma/rpcrdma_cm.c ^bool rpcrdma_cm_(pdata|short_replies)_enabled\\("
	"net/sunrpc/xprtrdma/rpcrdma_cm.c ^ \\* The module parameters, the registry"
	"net/sunrpc/xprtrdma/rpcrdma_cm.c ^ \\* The remote_invalidate module parameter"
	"net/sunrpc/xprtrdma/rpcrdma_cm.c ^ \\* Reads the pdata parameter once"
	"net/sunrpc/xprtrdma/rpcrdma_cm.c ^ \\*\\t \\(0 when pdata was 0"
	"net/sunrpc/xprtrdma/rpcrdma_cm.c ^ \\* When pdata was 0 as the connection began"
	"net/sunrpc/xprtrdma/svc_rdma_cm.c ^ \\* The short_replies module parameter"
	"net/sunrpc/xprtrdma/svc_rdma_cm.c ^ \\* Kernels up to 6\\.1 need it in two more places"
	"include/linux/sunrpc/rpcrdma_cm.h ^bool rpcrdma_cm_(pdata|short_replies)_enabled\\("
	"include/linux/sunrpc/rpcrdma_cm.h ^ \\* @pdata:"
	"include/linux/sunrpc/rpcrdma_cm.h ^\\s+bool\\s+pdata;")
# Kbuild files and MAINTAINERS: the series edits them (generated, never stored)
KBUILD_FILES="net/sunrpc/xprtrdma/Makefile net/sunrpc/Makefile net/sunrpc/Kconfig MAINTAINERS"

mapfile -t MSGS < <(ls "$MSGDIR"/features/[0-9][0-9]-*.msg 2>/dev/null)
[ ${#MSGS[@]} -gt 0 ] || die "no scripts/patches/features/NN-*.msg: nothing describes the series"

# series_patches [DIR]: the patches of the series in DIR (default the
# features), in order, cover letter excluded; one per line
series_patches() {
	local f
	for f in "${1:-$FEAT}"/00[0-9][0-9]-*.patch; do
		[ -e "$f" ] && [ "${f##*/}" != 0000-cover-letter.patch ] && echo "$f"
	done
}

# subject_of PATCH: its Subject, unfolded, without the [PATCH n/m] tag.
subject_of() {
	awk '/^Subject: / {s = $0; while ((getline l) > 0 && l ~ /^ /) s = s l; print s; exit}' "$1" |
		sed -e 's/^Subject: \[PATCH[^]]*\] //'
}

# hdr MSG KEY: the values of KEY: lines of MSG's header, one per line.
hdr() { sed -n "1,/^---\$/ s/^$2: *//p" "$1"; }

# rule_path RULE TARGET: where a rule's "// Target:" lives in the tree
# (build-module.sh copies the xprtrdma directory and svc_rdma.h).
rule_path() {
	# siw's and rxe's rules, named siw/<rule> and rxe/<rule>
	# (cocci_manifest passes the basename)
	local drv
	for drv in siw rxe; do
		if [ -e "$TOP/scripts/coccinelle/$drv/${1#"$drv"/}.cocci" ]; then
			echo "drivers/infiniband/sw/$drv/$2"
			return
		fi
	done
	# make ibcore's, named ibcore/<rule>
	if [ -e "$TOP/scripts/coccinelle/ibcore/${1#ibcore/}.cocci" ]; then
		echo "drivers/infiniband/core/$2"
		return
	fi
	case $2 in
	include/*) echo "$2" ;;
	*) echo "net/sunrpc/xprtrdma/$2" ;;
	esac
}

# apply_rule RULE DIR: spatch RULE over its targets in DIR, then check
# its Expect/Absent lines (cocci_manifest, as the module build does).
apply_rule() {
	local rule=$TOP/scripts/coccinelle/$1.cocci dir=$2 t p
	[ -e "$rule" ] || die "scripts/patches names rule $1, but there is no scripts/coccinelle/$1.cocci"
	for t in $(sed -n 's|^// Target: *||p' "$rule"); do
		p=$(rule_path "$1" "$t")
		[ -e "$dir/$p" ] || die "rule $1: $p is not in the tree"
		spatch --very-quiet --in-place --no-show-diff --sp-file "$rule" \
			"$dir/$p" >"$OUT/.logs/spatch-${1//\//-}.log" 2>&1 ||
			{ cat "$OUT/.logs/spatch-${1//\//-}.log" >&2; die "rule $1: spatch failed on $p"; }
		python3 "$MSGDIR/restore_comments.py" "$KSRC_DIR/$p" "$dir/$p" ||
			die "restore_comments.py failed on $p"
		# a fix is read line by line by its maintainers: lay out what
		# the rule added as they would have typed it
		case $1 in
		fixes/*)
			python3 "$MSGDIR/tidy.py" "$KSRC_DIR/$p" "$dir/$p" \
				"$TOP/scripts/coccinelle/fixes/snippets" ||
				die "tidy.py failed on $p" ;;
		esac
	done
	cocci_manifest "$rule" "$dir" rule_path
}

# insert_after FILE ANCHOR-ERE TEXT: insert TEXT after the first line of
# FILE matching ANCHOR (a paragraph ends at the next blank line when
# ANCHOR starts a Kconfig block).
insert_after() {
	local file=$1 anchor=$2 text=$3 tmp
	grep -qE "$anchor" "$file" ||
		die "cannot find '$anchor' in ${file#"$WORK"/}: this kernel's Kbuild files changed shape; adapt scripts/patches.sh"
	tmp=$(mktemp) || die "mktemp failed"
	TEXT=$text awk -v re="$anchor" '
		{print}
		!done && $0 ~ re {print ENVIRON["TEXT"]; done = 1}' "$file" >"$tmp"
	mv "$tmp" "$file"
}

# kconfig_entry: the test's Kconfig entry, from kunit/Kconfig without
# its comment header; in tree it tests the codec rpcrdma.ko exports.
kconfig_entry() {
	printf '\n'
	sed -e '/^#/d' -e '/^$/{1d}' "$TOP/kunit/Kconfig" |
		sed -e 's/^\tdepends on KUNIT$/\tdepends on KUNIT \&\& SUNRPC_XPRT_RDMA/' |
		sed -e '/./,$!d'
}

# stage N: make $WORK the tree of patch N (on top of patch N-1's).
stage() {
	local n=$1 i m objs='' kunit='' f src dst p anchor
	local -a holds=() files=() maint=() inserts=() befores=()
	for ((i = 0; i < n; i++)); do
		m=${MSGS[$i]}
		mapfile -t -O ${#maint[@]} maint < <(hdr "$m" Maintainers)
		mapfile -t -O ${#inserts[@]} inserts < <(hdr "$m" Insert)
		objs+=" $(hdr "$m" Objects | tr '\n' ' ')"
		[ "$(hdr "$m" KUnit)" = yes ] && kunit=yes
		mapfile -t -O ${#files[@]} files < <(hdr "$m" File)
	done
	for ((i = n; i < ${#MSGS[@]}; i++)); do
		mapfile -t -O ${#holds[@]} holds < <(hdr "${MSGS[$i]}" Hold)
	done
	# the latest patch's earlier form first
	for ((i = ${#MSGS[@]} - 1; i >= n; i--)); do
		mapfile -t -O ${#befores[@]} befores < <(hdr "${MSGS[$i]}" Before)
	done
	holds+=("${ALWAYS_HOLD[@]}")

	# upstream files: this patch's rules on top of the previous tree
	for r in $(hdr "${MSGS[$((n - 1))]}" Rules); do
		apply_rule "$r" "$WORK"
	done

	# project files, with later patches' pieces carved out
	for f in "${files[@]}"; do
		read -r src dst <<<"$f"
		dst=${dst:-$src}
		[ -e "$TOP/$src" ] || die "${MSGS[$((n - 1))]##*/}: no $src in the project"
		mkdir -p "$(dirname "$WORK/$dst")"
		cp "$TOP/$src" "$WORK/$dst"
	done
	adapt
	upstream
	for r in "${befores[@]}"; do
		before "$r"
	done
	for f in "${files[@]}"; do
		read -r src dst <<<"$f"
		dst=${dst:-$src}
		local -a rx=()
		for h in "${holds[@]}"; do
			[ "${h%% *}" = "$dst" ] && rx+=("${h#* }")
		done
		[ ${#rx[@]} -eq 0 ] && continue
		python3 "$MSGDIR/carve.py" "$WORK/$dst" "${rx[@]}" ||
			die "carving $dst for patch $n failed (a Hold: of scripts/patches/ no longer matches the project file)"
	done

	# upstream files that take fragments of ours: pristine plus the
	# fragments of patches 1..N, each carved by the later Holds
	for f in "${inserts[@]}"; do
		read -r src dst anchor <<<"$f"
		cp "$KSRC_DIR/$dst" "$WORK/$dst" || die "no $dst in $KSRC_DIR"
	done
	for f in "${inserts[@]}"; do
		read -r src dst anchor <<<"$f"
		insert_fragment "$TOP/$src" "$WORK/$dst" "$anchor" "${holds[@]}"
	done

	# Kbuild: pristine files plus the lines for what this tree holds
	for p in $KBUILD_FILES; do
		cp "$KSRC_DIR/$p" "$WORK/$p"
	done
	objs=$(echo "$objs" | xargs)
	if [ -n "$objs" ]; then
		printf '\nrpcrdma-y += %s\n' "$objs" >>"$WORK/net/sunrpc/xprtrdma/Makefile"
	fi
	if [ -n "$kunit" ]; then
		# The suite is a module of its own, which the codec exports
		# to only when KUnit is built (features/upstream/
		# rpcrdma_pdata_kunit.cocci); rpcrdma.ko carries no test.
		printf '\nobj-$(CONFIG_RPCRDMA_PDATA_KUNIT_TEST) += rpcrdma_pdata_test.o\n' \
			>>"$WORK/net/sunrpc/xprtrdma/Makefile"
		kconfig_block "$WORK/net/sunrpc/Kconfig"
		cp "$MSGDIR/kunitconfig" "$WORK/net/sunrpc/xprtrdma/.kunitconfig"
	fi
	# New files outside the F: patterns of the NFS/RDMA entries go
	# next to their upstream neighbour (rpcrdma.h's entry).
	for p in "${maint[@]}"; do
		insert_after "$WORK/MAINTAINERS" '^F:	include/trace/events/rpcrdma\.h$' "F:	$p"
	done
}

# insert_fragment FRAGMENT FILE ANCHOR HOLD...: FRAGMENT without its
# SPDX line, carved by the HOLDs on FILE's tree path, inserted before
# the first line of FILE that matches the extended regular expression
# ANCHOR, a blank line after it
insert_fragment() {
	local frag=$1 file=$2 anchor=$3 h tmp
	shift 3
	local -a rx=()
	for h in "$@"; do
		[ "${h%% *}" = "${file#"$WORK"/}" ] && rx+=("${h#* }")
	done
	grep -qE -- "$anchor" "$file" ||
		die "${file#"$WORK"/} has no line matching '$anchor' to insert ${frag#"$TOP"/} before: this kernel's file changed shape; adapt the Insert: line"
	tmp=$(mktemp) || die "mktemp failed"
	# no SPDX line, no blank line at the end (one is added below)
	sed -e '1{/SPDX-License-Identifier/d}' -e :a -e '/^\n*$/{$d;N;ba' -e '}' "$frag" >"$tmp"
	if [ ${#rx[@]} -gt 0 ]; then
		python3 "$MSGDIR/carve.py" "$tmp" "${rx[@]}" ||
			{ rm -f "$tmp"; die "carving ${frag#"$TOP"/} failed (a Hold: on ${file#"$WORK"/} no longer matches it)"; }
	fi
	FRAG=$tmp awk -v re="$anchor" '
		!done && $0 ~ re {
			while ((getline l < ENVIRON["FRAG"]) > 0) print l
			print ""
			done = 1
		}
		{print}' "$file" >"$file.new" && mv "$file.new" "$file"
	rm -f "$tmp"
}

# adapt: the rules of scripts/patches/adapt/ on this patch's tree (our
# files, fitted to an API the tree changed since the kernels the module
# is built for; adapt_apply in lib.sh).
adapt() {
	adapt_apply "$KSRC_DIR" "$WORK" "$OUT/.logs"
}

# upstream: the rules of scripts/patches/features/upstream/ on this
# patch's tree: our files in the idiom the maintainers take, without
# what only the drop-in module has (module parameters). They run on
# the whole files, before the Holds carve them.
upstream() {
	cocci_apply_dir "$MSGDIR/features/upstream" "$KSRC_DIR" "$WORK" "$OUT/.logs" >/dev/null
}

# before RULE: scripts/patches/features/before/RULE.cocci on this patch's
# tree, before the Holds carve it: the form, in a project file, of code
# a later patch changes where no Hold can carve (an argument of a call
# an earlier patch added). A tree without the rule's target (the file
# comes later) is left alone; one with it must show the rule's
# Expect:/Absent: lines afterwards.
before() {
	local rule=$MSGDIR/features/before/$1.cocci t log
	[ -e "$rule" ] || die "a Before: line names $1, but there is no scripts/patches/features/before/$1.cocci"
	t=$(sed -n 's|^// Target: *||p' "$rule")
	[ -e "$WORK/$t" ] || return 0
	log=$OUT/.logs/before-$1.log
	spatch --very-quiet --in-place --no-show-diff --sp-file "$rule" \
		"$WORK/$t" >"$log" 2>&1 ||
		{ cat "$log" >&2; die "Before: rule $1: spatch failed on $t"; }
	cocci_manifest "$rule" "$WORK"
}

# kconfig_block FILE: the test's entry after SUNRPC_XPRT_RDMA's block.
kconfig_block() {
	local file=$1 tmp
	grep -q '^config SUNRPC_XPRT_RDMA$' "$file" ||
		die "no 'config SUNRPC_XPRT_RDMA' in net/sunrpc/Kconfig of this kernel; adapt scripts/patches.sh"
	tmp=$(mktemp) || die "mktemp failed"
	TEXT=$(kconfig_entry) awk '
		/^config SUNRPC_XPRT_RDMA$/ {inblk = 1; print; next}
		inblk && /^(config|menuconfig|endmenu|if|endif|source|comment)/ {
			print ENVIRON["TEXT"]; print ""; inblk = 0; done = 1}
		{print}
		END {if (inblk && !done) print ENVIRON["TEXT"]}' "$file" |
		cat -s >"$tmp"
	mv "$tmp" "$file"
}

# inputs_stamp: everything the series is generated from.
inputs_stamp() {
	{
		echo "$KVER $(headers_version) $KSRC_DIR $*"
		cat "$0" "$TOP"/scripts/coccinelle/*.cocci "$TOP"/scripts/coccinelle/siw/*.cocci \
			"$TOP"/scripts/coccinelle/fixes/*.cocci \
			"$TOP"/scripts/coccinelle/rxe/*.cocci "$TOP"/scripts/coccinelle/ibcore/*.cocci \
			"$TOP"/net/sunrpc/xprtrdma/* "$TOP"/kunit/*
		find "$MSGDIR" -type f -print0 | sort -z | xargs -0 cat
		find "$TOP/include" -type f -print0 | sort -z | xargs -0 cat
	} | sha256sum | cut -d' ' -f1
}

# cover_letter FILE: fill format-patch's template from scripts/patches/cover.txt.
cover_letter() {
	local file=$1 subject blurb maint
	subject=$(sed -n 's/^Subject: *//p' "$MSGDIR/features/cover.txt" | head -1)
	local -a series
	mapfile -t series < <(series_patches)
	maint=$(cd "$KSRC_DIR" && perl scripts/get_maintainer.pl --no-git \
		"${series[@]}" 2>/dev/null | sed 's/^/  /') || true
	[ -n "$maint" ] || die "scripts/get_maintainer.pl --no-git gave nothing for the series (run in $KSRC_DIR)"
	blurb=$(sed '1,/^---$/d' "$MSGDIR/features/cover.txt" |
		sed -e "s|@BASE@|Linux $(makefile_version "$KSRC_DIR") (${KSRC_LABEL})|")
	fill_cover "$file" "$subject" "$blurb" @GET_MAINTAINER@ "$maint" >"$file.new" &&
		mv "$file.new" "$file"
}

# fill_cover FILE SUBJECT BLURB KEY TEXT: git format-patch's cover letter
# template FILE with SUBJECT and BLURB in place, every BLURB line that
# is KEY replaced with TEXT; printed
fill_cover() {
	SUBJ=$2 BLURB=$3 KEY=$4 TEXT=$5 awk '
		/\*\*\* SUBJECT HERE \*\*\*/ {sub(/\*\*\* SUBJECT HERE \*\*\*/, ENVIRON["SUBJ"])}
		/^\*\*\* BLURB HERE \*\*\*$/ {
			n = split(ENVIRON["BLURB"], b, "\n")
			for (i = 1; i <= n; i++) {
				if (b[i] == ENVIRON["KEY"]) print ENVIRON["TEXT"]
				else print b[i]
			}
			next
		}
		{print}' "$1"
}

# git_as DIR ARGS...: git in DIR as the series' author (the caller's
# $name and $email)
git_as() {
	local dir=$1
	shift
	git -C "$dir" -c user.name="$name" -c user.email="$email" \
		-c commit.gpgsign=false "$@"
}

# commit_msg DIR MSG: commit what is staged in DIR with MSG's text (what
# follows its "---" line), signed off by the series' author
commit_msg() {
	sed '1,/^---$/d' "$2" | {
		cat
		printf '\nSigned-off-by: %s <%s>\n' "$name" "$email"
	} | git_as "$1" commit -q --cleanup=strip -F -
}

# sw_commit_msg DIR MSG: commit_msg for the siw and rxe series, whose
# messages may end with their own tags (Fixes:): the sign-off then joins
# that block instead of starting one of its own
sw_commit_msg() {
	sed '1,/^---$/d' "$2" | awk -v sob="Signed-off-by: $name <$email>" '
		NF { last = $0 }
		{ print }
		END { if (last !~ /^[A-Z][A-Za-z-]*: /) print ""; print sob }' |
		git_as "$1" commit -q --cleanup=strip -F -
}

# What the maintainers refuse at sight (Documentation/patches.md, "The
# features series"), as extended regular expressions: none may be in a
# features patch. The drop-in module keeps all of it.
FEAT_REFUSED=("rpcrdma-cm" "module_param|MODULE_PARM_DESC" "debugfs"
	"TRACE_SYSTEM rpcrdma_cm" "trace/events/rpcrdma_cm\\.h")

# feat_refused: die naming the patch and line where a FEAT_REFUSED
# pattern made it into the features series.
feat_refused() {
	local re hits
	local -a series
	mapfile -t series < <(series_patches)
	for re in "${FEAT_REFUSED[@]}"; do
		hits=$(grep -nE -- "$re" "${series[@]}" | sed "s|^$FEAT/||" | head -5)
		[ -z "$hits" ] ||
			die "the features series carries '$re', which the maintainers refuse; carve it (ALWAYS_HOLD, Hold:) or rewrite it (scripts/patches/features/upstream/):
$hits"
	done
}

# do_generate NAME EMAIL: (in the build root when one is needed)
do_generate() {
	local name=$1 email=$2 n m stamp t0=$SECONDS p
	ensure_headers
	ensure_ksrc
	need_pkgs coccinelle git python3 perl
	if [ -n "${KSRC:-}" ]; then
		KSRC_LABEL="KSRC=$KSRC"
	else
		KSRC_LABEL="Debian's linux-source-$(headers_version | cut -d. -f1-2) for $KVER"
	fi
	mkdir -p "$OUT"
	exec 9>"$OUT/.lock"
	flock 9 || die "cannot lock $OUT/.lock"
	stamp=$(inputs_stamp "$name" "$email")
	if [ -z "${FORCE:-}" ] && [ "$(cat "$OUT/.stamp" 2>/dev/null)" = "$stamp" ] &&
	   ls "$FEAT"/0000-cover-letter.patch >/dev/null 2>&1; then
		msg "patches: build/patches/ is up to date ($(find "$OUT" -name '0*.patch' | wc -l) files)"
		return 0
	fi
	rm -f "$OUT"/*.patch "$OUT/.stamp"
	rm -rf "$FEAT"
	rm -rf "$WORK" "$OUT/.logs"
	mkdir -p "$OUT/.logs"
	msg "patches: series against Linux $(makefile_version "$KSRC_DIR") from $KSRC_LABEL"

	# The base: pristine copies of every file the series touches.
	mkdir -p "$WORK"
	for m in "${MSGS[@]}"; do
		for r in $(hdr "$m" Rules); do
			for t in $(sed -n 's|^// Target: *||p' "$TOP/scripts/coccinelle/$r.cocci"); do
				p=$(rule_path "$r" "$t")
				mkdir -p "$(dirname "$WORK/$p")"
				cp "$KSRC_DIR/$p" "$WORK/$p" || die "no $p in $KSRC_DIR"
			done
		done
	done
	for p in $KBUILD_FILES $(for m in "${MSGS[@]}"; do hdr "$m" Insert | awk '{print $2}'; done); do
		mkdir -p "$(dirname "$WORK/$p")"
		cp "$KSRC_DIR/$p" "$WORK/$p" || die "no $p in $KSRC_DIR"
	done
	git -C "$WORK" init -q -b series || die "git init failed in $WORK"
	gitw() { git_as "$WORK" "$@"; }
	{ gitw add -A && gitw commit -q -m "Linux $(makefile_version "$KSRC_DIR")" &&
		gitw tag pristine; } || die "cannot commit the base tree in $WORK"

	for ((n = 1; n <= ${#MSGS[@]}; n++)); do
		m=${MSGS[$((n - 1))]}
		stage "$n"
		gitw add -A || die "git add failed in $WORK"
		gitw diff --cached --quiet &&
			die "${m##*/} changes nothing: check its File:, Rules: and Hold: lines"
		commit_msg "$WORK" "$m" || die "cannot commit patch $n (${m##*/})"
		msg "  $n: $(gitw log -1 --format=%s)"
	done

	gitw format-patch -q --cover-letter --no-signature -o "$FEAT" pristine..HEAD ||
		die "git format-patch failed"
	cover_letter "$FEAT/0000-cover-letter.patch"
	feat_refused
	sw_generate siw "$name" "$email"
	sw_generate rxe "$name" "$email"
	# ib_cm's fix goes to mainline (and from there to stable): a series
	# of its own for the RDMA core's maintainers
	sw_generate ibcm "$name" "$email" drivers/infiniband/core
	fix_generate
	echo "$stamp" >"$OUT/.stamp"
	msg "patches: features, $(ls "$FEAT"/0*.patch | wc -l) files in build/patches/features/ ($((SECONDS - t0)) s)"
}

# do_stable NAME EMAIL: (in the build root when one is needed) the
# stable backports against this kernel's source
do_stable() {
	local name=$1 email=$2 stamp xy
	ensure_headers
	ensure_ksrc
	need_pkgs coccinelle git python3 perl
	KSRC_LABEL="Debian's linux-source-$(headers_version | cut -d. -f1-2) for $KVER"
	xy=$(makefile_version "$KSRC_DIR" | cut -d. -f1-2)
	mkdir -p "$OUT/stable" "$OUT/.logs"
	exec 9>"$OUT/.lock"
	flock 9 || die "cannot lock $OUT/.lock"
	stamp=$(inputs_stamp "$name" "$email" stable)
	if [ -z "${FORCE:-}" ] && [ "$(cat "$OUT/.stamp-$xy" 2>/dev/null)" = "$stamp" ] &&
	   [ -e "$OUT/stable/$xy/0000-cover-letter.patch" ]; then
		msg "patches: build/patches/stable/$xy/ is up to date"
		return 0
	fi
	msg "patches: stable $xy.y backports against Linux $(makefile_version "$KSRC_DIR") from $KSRC_LABEL"
	stable_generate
	# ib_core's fixes are stable-only (mainline's MAD layer changed
	# shape): a series of their own to stable and linux-rdma per line
	sw_generate ibcore "$name" "$email" drivers/infiniband/core "$OUT/stable/$xy-ibcore" "PATCH $xy.y"
	echo "$stamp" >"$OUT/.stamp-$xy"
}

# sw_generate DRV NAME EMAIL [DIR OUT PREFIX]: build/patches/DRV/ (siw,
# rxe, ibcm), a series of its own for the driver's maintainers (linux-rdma):
# what make DRV fixes in it (scripts/coccinelle/DRV/), one patch per
# scripts/patches/DRV/NN-*.msg ("Rules: DRV/<rule>"), made by the same
# rules against the same tree. DIR is the source directory when it is
# not drivers/infiniband/sw/DRV, OUT the series' directory, PREFIX the
# subject's prefix (a stable line's "PATCH 6.1.y"); with PREFIX the
# series goes to stable, its maintainers in Cc.
sw_generate() {
	local drv=$1 name=$2 email=$3 dir=${4:-drivers/infiniband/sw/$1} m r p
	local out=${5:-$OUT/$1} work=$OUT/.$1-work prefix=${6:-}
	local -a msgs
	mapfile -t msgs < <(ls "$MSGDIR/$drv"/[0-9][0-9]-*.msg 2>/dev/null)
	rm -rf "$out" "$work"
	[ ${#msgs[@]} -gt 0 ] || return 0
	mkdir -p "$work/$dir" "$out"
	cp "$KSRC_DIR/$dir"/*.[ch] "$work/$dir/" || die "no $drv sources in $KSRC_DIR/$dir"
	sgit() { git_as "$work" "$@"; }
	{ sgit init -q -b "$drv" && sgit add -A &&
		sgit commit -q -m "Linux $(makefile_version "$KSRC_DIR") $drv" &&
		sgit tag pristine; } || die "cannot commit $drv's sources in $work"
	for m in "${msgs[@]}"; do
		for r in $(hdr "$m" Rules); do
			cocci_when "$TOP/scripts/coccinelle/$r.cocci" "$KSRC_DIR" ||
				die "${m##*/} names rule $r, whose When: line does not fit $(makefile_version "$KSRC_DIR")'s $drv: name the variant for this kernel"
			apply_rule "$r" "$work"
		done
		sgit add -A || die "git add failed in $work"
		sgit diff --cached --quiet && die "${m##*/} changes nothing in $drv: check its Rules: line"
		sw_commit_msg "$work" "$m" || die "cannot commit ${m##*/}"
	done
	sgit format-patch -q --cover-letter --no-signature ${prefix:+--subject-prefix="$prefix"} \
		-o "$out" pristine..HEAD || die "git format-patch failed for $drv"
	local -a dpatches
	mapfile -t dpatches < <(series_patches "$out")
	fix_cover "$out/0000-cover-letter.patch" "$MSGDIR/$drv/cover.txt" "${dpatches[@]}"
	fix_addresses "$out/0000-cover-letter.patch" "$prefix" "${dpatches[@]}"
	# each patch carries its own To: and Cc:, as the fixes' do: git
	# send-email takes a patch's addresses from its own headers
	for p in "${dpatches[@]}"; do
		fix_addresses "$p" "$prefix"
	done
	msg "patches: $drv, for its maintainers${prefix:+ and stable}: $(cd "$out" && ls -1 ./*.patch | sed 's|^\./||' | paste -sd' ') in ${out#"$TOP"/}/"
}

# --- fixes ---------------------------------------------------------------
#
# The fixes go to the maintainers apart from the features, one series
# per tree: svcrdma through the NFSD tree, xprtrdma through the NFS
# client tree. A fix is one rule of scripts/coccinelle/fixes/ (or a few)
# applied to the pristine tree; it uses only what the file already has,
# so each one stands alone. scripts/patches/<tree>/NN-*.msg describe
# them:
#
#   Rules: fixes/<rule>...        the rules that make the change
#   Fixes: <12 hex> ("<subject>") the commit that brought the bug in
#   Unverified: <text>            instead of Fixes: why no id is given
#   Stable: yes|no                Cc: stable, and a backport to each
#                                 line of STABLE
#   Checkpatch-Justified: <glob>  a checkpatch message the fix may
#                                 leave (e.g. an id checkpatch cannot
#                                 look up without mainline's history)
#   Cc: <address>                 a Cc: tag more, for a list or people
#                                 get_maintainer.pl does not name (the
#                                 owners of the code a Fixes: names)
#   Upstream: <40 hex>            the mainline commit, once there is one
#   Note: <text>                  a line for the maintainer, below "---"
#   ---
#   <commit message, without tags>
#
# The stable backports are the same rules against Debian's source of
# each LTS line, one series per line: build/patches/stable/<x.y>/.

FIX_TREES="nfsd nfs"
# kernels.tab names of the LTS lines the fixes are backported to
STABLE_KVERS="trixie bookworm"

# fix_msgs TREE...: the fix descriptions of the trees, in order
fix_msgs() {
	local t
	for t in "$@"; do
		ls "$MSGDIR/$t"/[0-9][0-9]-*.msg 2>/dev/null
	done
}

# fix_rules MSG: its rules, checked to exist
fix_rules() {
	local r
	for r in $(hdr "$1" Rules); do
		[ -e "$TOP/scripts/coccinelle/$r.cocci" ] ||
			die "${1#"$TOP"/} names rule $r, but there is no scripts/coccinelle/$r.cocci"
		echo "$r"
	done
}

# fix_tags MSG: the tags of MSG's commit, one per line
fix_tags() {
	local m=$1 f
	while IFS= read -r f; do
		[[ $f =~ ^[0-9a-f]{12}\ \(\".+\"\)$ ]] ||
			die "${m#"$TOP"/}: 'Fixes: $f' is not of the form <12 hex> (\"<subject>\")"
		echo "Fixes: $f"
	done < <(hdr "$m" Fixes)
	[ -n "$(hdr "$m" Fixes)$(hdr "$m" Unverified)" ] ||
		die "${m#"$TOP"/} has neither a Fixes: line nor an Unverified: line saying why not"
	hdr "$m" Cc | sed 's/^/Cc: /'
	if [ "$(hdr "$m" Stable)" = yes ]; then
		echo "Cc: stable@vger.kernel.org"
	fi
}

# fix_commit DIR MSG STABLE: commit what is staged in DIR with MSG's
# text and tags. In a stable backport (STABLE set) the body starts with
# "commit <id> upstream." once MSG names the mainline commit.
fix_commit() {
	local dir=$1 m=$2 stable=$3 up
	up=$(hdr "$m" Upstream)
	{
		sed '1,/^---$/d' "$m" | sed -n '1p'
		if [ -n "$stable" ] && [ -n "$up" ]; then
			printf '\ncommit %s upstream.\n' "$up"
		fi
		sed '1,/^---$/d' "$m" | sed '1d'
		printf '\n'
		fix_tags "$m"
		printf 'Signed-off-by: %s <%s>\n' "$name" "$email"
	} >"$dir/.msg" || return 1
	git_as "$dir" commit -q --cleanup=strip -F "$dir/.msg" || return 1
	rm -f "$dir/.msg"
}

# fix_apply RULES DIR: the rules on DIR, each checked (apply_rule)
fix_apply() {
	local r
	for r in $1; do
		cocci_when "$TOP/scripts/coccinelle/$r.cocci" "$KSRC_DIR" ||
			die "rule $r is not for Linux $(makefile_version "$KSRC_DIR") (its When: line): write the variant for this tree"
		apply_rule "$r" "$2"
	done
}

# fix_notes PATCH MSG: MSG's Note: and Unverified: lines below the "---"
# of PATCH, for the maintainer
fix_notes() {
	local patch=$1 m=$2 notes
	# one paragraph per line of the header
	notes=$( {
		hdr "$m" Unverified | sed 's/^/No Fixes: tag: /'
		hdr "$m" Note
	} | while IFS= read -r l; do
		printf '%s\n' "$l" | fold -s -w 72 | sed 's/ *$//'
		echo
	done | sed '$d')
	[ -n "$notes" ] || return 0
	NOTES=$notes awk '!done && $0 == "---" {print; print ENVIRON["NOTES"]; print ""; done = 1; next} {print}' \
		"$patch" >"$patch.new" && mv "$patch.new" "$patch"
}

# fix_addresses PATCH STABLE [FROM...]: To: and Cc: from the tree's
# get_maintainer.pl on FROM (default PATCH itself), in PATCH's own
# header; a stable backport goes to stable@vger.kernel.org with the
# maintainers copied
fix_addresses() {
	local patch=$1 stable=$2 to cc
	shift 2
	[ $# -gt 0 ] || set -- "$patch"
	to=$(cd "$KSRC_DIR" && perl scripts/get_maintainer.pl --no-git --no-rolestats \
		--no-r --no-l "$@" 2>/dev/null | paste -sd '\t' | sed 's/\t/,\n /g')
	cc=$(cd "$KSRC_DIR" && perl scripts/get_maintainer.pl --no-git --no-rolestats \
		--no-m "$@" 2>/dev/null | paste -sd '\t' | sed 's/\t/,\n /g')
	[ -n "$to" ] || die "scripts/get_maintainer.pl names no maintainer for ${patch##*/} (run in $KSRC_DIR)"
	if [ -n "$stable" ]; then
		cc="$to${cc:+, $cc}"
		to=stable@vger.kernel.org
	fi
	TO=$to CC=$cc awk '!done && /^Subject: / {print "To: " ENVIRON["TO"]; if (ENVIRON["CC"] != "") print "Cc: " ENVIRON["CC"]; done = 1} {print}' \
		"$patch" >"$patch.new" && mv "$patch.new" "$patch"
}

# fix_cover FILE TEMPLATE SERIES...: the cover letter from TEMPLATE
# (Subject: line, ---, text with @BASE@, @BASE_COMMIT@, @PATCHES@)
fix_cover() {
	local file=$1 tmpl=$2 subject blurb base bc tmp
	shift 2
	[ -e "$tmpl" ] || die "no ${tmpl#"$TOP"/}: the series needs a cover letter"
	subject=$(sed -n 's/^Subject: *//p' "$tmpl" | head -1)
	base="Linux $(makefile_version "$KSRC_DIR") ($KSRC_LABEL)"
	# a git tree given as KSRC names its own commit; Debian's source
	# has no history, so its release's tag is looked up
	bc=$(git -C "$KSRC_DIR" rev-parse --verify -q HEAD 2>/dev/null) ||
		bc=$(awk -v v="v$(makefile_version "$KSRC_DIR")" '$1 == v {print $2}' "$MSGDIR/bases.tab" 2>/dev/null)
	blurb=$(sed '1,/^---$/d' "$tmpl" | sed -e "s|@BASE@|$base|g")
	tmp=$(mktemp) || die "mktemp failed"
	fill_cover "$file" "$subject" "$blurb" @PATCHES@ \
		"$(for p in "$@"; do printf '  %s\n' "$(subject_of "$p")"; done)" >"$tmp"
	if [ -n "$bc" ]; then
		printf '\nbase-commit: %s\n' "$bc" >>"$tmp"
	else
		printf '\nbase: %s, which carries no git history; no base-commit: line\nuntil scripts/patches/bases.tab names the commit of tag v%s, or\nKSRC= is a git tree\n' \
			"$base" "$(makefile_version "$KSRC_DIR")" >>"$tmp"
	fi
	mv "$tmp" "$file"
}

# fix_series NAME OUT PREFIX COVER STABLE MSG...: one series of fixes
# against $KSRC_DIR into OUT, and each fix alone against the pristine
# tree into OUT/.alone/ (what make patches-check builds one by one)
fix_series() {
	local sname=$1 out=$2 prefix=$3 cover=$4 stable=$5 m r t p n=0 work
	shift 5
	local -a msgs=("$@") patches
	[ ${#msgs[@]} -gt 0 ] || return 0
	work=$OUT/.work-${sname//\//-}
	rm -rf "$out" "$work"
	mkdir -p "$out/.alone" "$work"
	for m in "${msgs[@]}"; do
		for r in $(fix_rules "$m"); do
			for t in $(sed -n 's|^// Target: *||p' "$TOP/scripts/coccinelle/$r.cocci"); do
				p=$(rule_path "$r" "$t")
				mkdir -p "$(dirname "$work/$p")"
				cp "$KSRC_DIR/$p" "$work/$p" || die "no $p in $KSRC_DIR"
			done
		done
	done
	fgit() { git_as "$work" "$@"; }
	{ fgit init -q -b "$sname" && fgit add -A && fgit commit -q -m "Linux $(makefile_version "$KSRC_DIR")" &&
		fgit tag pristine; } || die "cannot commit the base tree in $work"
	for m in "${msgs[@]}"; do
		n=$((n + 1))
		# alone: this fix on the pristine tree
		fgit checkout -q -f pristine 2>/dev/null || die "git checkout failed in $work"
		fix_apply "$(fix_rules "$m" | xargs)" "$work"
		fgit diff >"$out/.alone/$(printf %04d "$n").diff"
		[ -s "$out/.alone/$(printf %04d "$n").diff" ] ||
			die "${m#"$TOP"/} changes nothing in Linux $(makefile_version "$KSRC_DIR"): check its Rules: line"
		fgit checkout -q -f "$sname" || die "git checkout failed in $work"
		# in the series: on top of the fixes before it
		fix_apply "$(fix_rules "$m" | xargs)" "$work"
		fgit add -A || die "git add failed in $work"
		fgit diff --cached --quiet && die "${m#"$TOP"/} changes nothing on top of the fixes before it"
		fix_commit "$work" "$m" "$stable" || die "cannot commit ${m##*/}"
	done
	fgit format-patch -q --cover-letter --no-signature --subject-prefix="$prefix" \
		-o "$out" pristine.."$sname" || die "git format-patch failed for $sname"
	mapfile -t patches < <(series_patches "$out")
	n=0
	for p in "${patches[@]}"; do
		fix_notes "$p" "${msgs[$n]}"
		fix_addresses "$p" "$stable"
		n=$((n + 1))
	done
	fix_cover "$out/0000-cover-letter.patch" "$cover" "${patches[@]}"
	fix_addresses "$out/0000-cover-letter.patch" "$stable" "${patches[@]}"
	msg "patches: $sname: $(ls "$out"/0*.patch | wc -l) files in ${out#"$TOP"/}/"
}

# fix_generate: the mainline fixes series, one per tree, against this tree
fix_generate() {
	local t
	for t in $FIX_TREES; do
		mapfile -t FMSGS < <(fix_msgs "$t")
		fix_series "$t" "$OUT/$t" PATCH "$MSGDIR/$t/cover.txt" "" "${FMSGS[@]}"
	done
}

# stable_generate: the fixes of every tree marked Stable: yes, against
# this tree (an LTS line's source), into build/patches/stable/<x.y>/
stable_generate() {
	local xy m
	local -a msgs=()
	xy=$(makefile_version "$KSRC_DIR" | cut -d. -f1-2)
	for m in $(fix_msgs $FIX_TREES); do
		[ "$(hdr "$m" Stable)" = yes ] && msgs+=("$m")
	done
	fix_series "stable/$xy" "$OUT/stable/$xy" "PATCH $xy.y" "$MSGDIR/stable/cover.txt" "$xy" "${msgs[@]}"
}

# --- check ---------------------------------------------------------------

CK_LOG=$OUT/check

# reset_tree TREE: every file any series touched back to the pristine
# tree's (files the series added removed). rm before cp: the tree is
# hard links to the shared source cache, which must never be written.
reset_tree() {
	local tree=$1 p
	[ -e "$tree/.rpcrdma-touched" ] || return 0
	while IFS= read -r p; do
		[ -n "$p" ] || continue
		if [ -e "$KSRC_DIR/$p" ]; then
			cmp -s "$KSRC_DIR/$p" "$tree/$p" && continue
			rm -f "$tree/$p"
			cp "$KSRC_DIR/$p" "$tree/$p" || die "cannot restore $p in $tree"
		else
			rm -f "$tree/$p"
		fi
	done <"$tree/.rpcrdma-touched"
	rm -f "$tree/.rpcrdma-touched"
}

# kmake ARGS...: make in the patched tree, objects in $OBJ.
kmake() {
	# MAKEFLAGS cleared: `make -s patches-check` (make check) would make
	# Kbuild silent, and the per-patch report counts its CC lines
	MAKEFLAGS='' make -C "$TREE" O="$OBJ" LOCALVERSION="$LOCALV" -j"$JOBS" "$@"
}

# prepare_tree: $TREE (pristine, hard links) and $OBJ (configured from
# Debian's .config of $KVER + olddefconfig + modules_prepare), once.
prepare_tree() {
	local cfg=/lib/modules/$KVER/build/.config key
	[ -e "$cfg" ] || die "no $cfg: the headers of $KVER carry no .config"
	if [ ! -e "$TREE/.rpcrdma-origin" ] ||
	   [ "$(cat "$TREE/.rpcrdma-origin")" != "$KSRC_DIR $(stat -c %Y "$KSRC_DIR/Makefile")" ]; then
		msg "check: linking a pristine copy of $KSRC_DIR (hard links)"
		rm -rf "$TREE" "$TREE.tmp" "$OBJ" "$UML"
		cp -al "$KSRC_DIR" "$TREE.tmp" || die "cannot link $KSRC_DIR into $TREE.tmp"
		rm -f "$TREE.tmp/.extracted"
		[ ! -e "$TREE.tmp/.config" ] ||
			die "$KSRC_DIR is configured in place; kunit.py and O= builds need a clean source tree (make mrproper there, or pass another KSRC)"
		mv "$TREE.tmp" "$TREE"
		echo "$KSRC_DIR $(stat -c %Y "$KSRC_DIR/Makefile")" >"$TREE/.rpcrdma-origin"
	fi
	reset_tree "$TREE"
	key="$KVER $(sha256sum <"$cfg" | cut -d' ' -f1) $(gcc --version | head -1)"
	if [ "$(cat "$OBJ/.rpcrdma-config" 2>/dev/null)" != "$key" ]; then
		msg "check: configuring from $KVER's .config + olddefconfig, modules_prepare (once, a few minutes)"
		rm -rf "$OBJ"
		mkdir -p "$OBJ"
		cp "$cfg" "$OBJ/.config"
		# No debug info: faster, and nothing here needs it.
		"$TREE/scripts/config" --file "$OBJ/.config" -d DEBUG_INFO \
			-d DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT -d DEBUG_INFO_DWARF4 \
			-d DEBUG_INFO_DWARF5 -e DEBUG_INFO_NONE -d DEBUG_INFO_BTF \
			-d MODULE_SIG_ALL || die "scripts/config failed"
		kmake olddefconfig >"$CK_LOG/prepare.log" 2>&1 ||
			{ tail -20 "$CK_LOG/prepare.log" >&2; die "olddefconfig failed; see build/patches/check/prepare.log"; }
		kmake modules_prepare >>"$CK_LOG/prepare.log" 2>&1 ||
			{ tail -20 "$CK_LOG/prepare.log" >&2; die "modules_prepare failed; see build/patches/check/prepare.log"; }
		# symbol versions of the running kernel, for modpost
		cp "/lib/modules/$KVER/build/Module.symvers" "$OBJ/" ||
			die "no Module.symvers in /lib/modules/$KVER/build"
		echo "$key" >"$OBJ/.rpcrdma-config"
	fi
	[ "$(cat "$OBJ/include/config/kernel.release")" = "$KVER" ] ||
		die "the configured tree's release is $(cat "$OBJ/include/config/kernel.release"), not $KVER: its modules would not load; remove $OBJ and retry"
}

# run_kunit WHEN: the suite with the tree's kunit.py (ARCH=um).
run_kunit() {
	local when=$1 log=$CK_LOG/kunit-$1.log t0=$SECONDS summary
	msg "check: KUnit after the $when patch (kunit.py, ARCH=um, build dir in the cache)"
	(cd "$TREE" && PYTHONDONTWRITEBYTECODE=1 python3 tools/testing/kunit/kunit.py run \
		--arch=um --kunitconfig=net/sunrpc/xprtrdma --build_dir="$UML" \
		--jobs="$JOBS" </dev/null >"$log" 2>&1)
	local rc=$?
	summary=$(sed -E 's/\x1b\[[0-9;]*m//g' "$log" | grep -oE 'Ran [0-9]+ tests.*' | tail -1)
	if [ $rc -ne 0 ] || [ -z "$summary" ]; then
		tail -30 "$log" >&2
		RESULTS+=("kunit ($when patch): FAILED (see build/patches/check/kunit-$when.log)")
		FAILED=1
		return
	fi
	RESULTS+=("kunit ($when patch): $summary ($((SECONDS - t0)) s)")
	msg "check: kunit: $summary ($((SECONDS - t0)) s)"
}

# do_check: (in the build root when one is needed)
do_check() {
	local n patch t0 line cp_total rc p touched
	ensure_headers
	ensure_ksrc
	need_pkgs git python3 perl make gcc flex bison bc
	[ -e "$FEAT/0000-cover-letter.patch" ] || die "no series in build/patches/features/; run 'make patches' first"
	mapfile -t PATCHES < <(series_patches)
	[ ${#PATCHES[@]} -gt 0 ] || die "build/patches/ holds no patch besides the cover letter; run 'make patches'"
	local hv
	hv=$(headers_version)
	LOCALV=${KVER#"$hv"}
	PCACHE=$RPCRDMA_CM_CACHE/src/patches-check-$hv
	TREE=$PCACHE/linux
	OBJ=$PCACHE/obj
	UML=$PCACHE/uml
	mkdir -p "$CK_LOG" "$PCACHE"
	rm -f "$CK_LOG"/*.log "$CK_LOG/results.txt" "$FEAT/rpcrdma.ko"
	exec 8>"$PCACHE.lock"
	flock 8 || die "cannot lock $PCACHE.lock"
	prepare_tree

	mapfile -t SWPATCHES < <(series_patches "$OUT/siw"; series_patches "$OUT/rxe"; series_patches "$OUT/ibcm")
	touched=$(grep -h '^diff --git a/' "${PATCHES[@]}" "${SWPATCHES[@]}" | awk '{print substr($3, 3)}' | sort -u)
	printf '%s\n' "$touched" >"$TREE/.rpcrdma-touched"

	RESULTS=()
	FAILED=0
	local kunit=${PATCHES_KUNIT:-both}
	[[ $kunit =~ ^(first|last|both|none)$ ]] ||
		die "PATCHES_KUNIT=$kunit: say first, last, both or none"
	for ((n = 1; n <= ${#PATCHES[@]}; n++)); do
		patch=${PATCHES[$((n - 1))]}
		t0=$SECONDS
		msg "check: [$n/${#PATCHES[@]}] $(subject_of "$patch")"
		(cd "$TREE" && git apply --check "$patch" 2>"$CK_LOG/apply-$n.log" &&
			git apply "$patch" 2>>"$CK_LOG/apply-$n.log") ||
			{ cat "$CK_LOG/apply-$n.log" >&2; die "patch $n does not apply to the tree of the patches before it: ${patch##*/}"; }

		kmake net/sunrpc/xprtrdma/ >"$CK_LOG/build-$n.log" 2>&1
		rc=$?
		line="patch $n: build"
		if [ $rc -ne 0 ]; then
			grep -E 'error' "$CK_LOG/build-$n.log" | head -20 >&2
			line+=" FAILED"
			FAILED=1
		elif grep -q 'warning:' "$CK_LOG/build-$n.log"; then
			grep -A3 'warning:' "$CK_LOG/build-$n.log" >&2
			line+=" ok with $(grep -c 'warning:' "$CK_LOG/build-$n.log") warnings"
			FAILED=1
		else
			line+=" ok ($(grep -cE '^ +CC' "$CK_LOG/build-$n.log") objects compiled)"
		fi

		(cd "$TREE" && perl scripts/checkpatch.pl --strict --showfile "$patch") \
			>"$CK_LOG/checkpatch-$n.log" 2>&1
		cp_total=$(grep -E '^total: ' "$CK_LOG/checkpatch-$n.log" | tail -1)
		[ -n "$cp_total" ] || cp_total="checkpatch gave no total"
		line+=", checkpatch --strict: ${cp_total#total: }"
		if ! grep -qE '^total: 0 errors, 0 warnings, 0 checks' "$CK_LOG/checkpatch-$n.log"; then
			grep -E '(^|: )(ERROR|WARNING|CHECK):' "$CK_LOG/checkpatch-$n.log" >&2
			if ! checkpatch_justified "$n"; then
				FAILED=1
			else
				line+=" (justified in the cover letter)"
			fi
		fi
		line+=" ($((SECONDS - t0)) s)"
		RESULTS+=("$line")
		msg "check: $line"

		if { [ "$n" -eq 1 ] && [[ $kunit =~ ^(first|both)$ ]]; } ||
		   { [ "$n" -eq ${#PATCHES[@]} ] && [[ $kunit =~ ^(last|both)$ ]]; }; then
			if [ "$n" -eq 1 ]; then run_kunit first; else run_kunit last; fi
		fi
	done

	check_sw siw RDMA_SIW
	check_sw rxe RDMA_RXE
	check_sw ibcm INFINIBAND drivers/infiniband/core/cm.o

	# The module from the fully patched tree, for the VM scenarios.
	t0=$SECONDS
	# Built like the drop-in module: against Debian's headers of $KVER
	# (their configuration, compiler flags and symbol versions are the
	# running kernel's; a tree configured here differs where the build
	# root lacks Debian's toolchain, e.g. pahole: BTF changes struct
	# module, and the kernel refuses such a module). The patched tree's
	# include/ goes first, for the headers the series changes; objects
	# go to MO=, never into the tree.
	rm -rf "$PCACHE/mod"
	mkdir -p "$PCACHE/mod"
	if make -C "/lib/modules/$KVER/build" M="$TREE/net/sunrpc/xprtrdma" \
		MO="$PCACHE/mod" NOSTDINC_FLAGS="-nostdinc -I$TREE/include" \
		-j"$JOBS" modules >"$CK_LOG/module.log" 2>&1 &&
	   [ -e "$PCACHE/mod/rpcrdma.ko" ]; then
		cp "$PCACHE/mod/rpcrdma.ko" "$FEAT/rpcrdma.ko"
		p=$(modinfo -F vermagic "$FEAT/rpcrdma.ko" 2>/dev/null)
		if [ "${p%% *}" = "$KVER" ]; then
			RESULTS+=("module: build/patches/features/rpcrdma.ko, vermagic $p ($((SECONDS - t0)) s)")
		else
			RESULTS+=("module: vermagic '$p' is not $KVER's")
			FAILED=1
		fi
	else
		tail -20 "$CK_LOG/module.log" >&2
		RESULTS+=("module: FAILED (build/patches/check/module.log)")
		FAILED=1
	fi
	reset_tree "$TREE"
	printf '%s\n' "${RESULTS[@]}" >"$CK_LOG/results.txt"
	[ "$FAILED" -eq 0 ] || { printf '  %s\n' "${RESULTS[@]}" >&2; die "patches-check failed (logs in build/patches/check/)"; }
}

# check_sw DRV SYM [TARGET]: the series of build/patches/DRV/ (siw, rxe,
# ibcm) on the tree: each patch applies, the driver compiles (TARGET,
# drivers/infiniband/sw/DRV/ by default, with CONFIG_SYM=m on the
# command line: Debian's configs leave siw out), checkpatch --strict has
# nothing to say. Appends to RESULTS, sets FAILED.
check_sw() {
	local drv=$1 sym=$2 target=${3:-drivers/infiniband/sw/$1/} patch n=0 line t0=$SECONDS
	local -a patches
	mapfile -t patches < <(series_patches "$OUT/$drv")
	[ ${#patches[@]} -gt 0 ] || return 0
	for patch in "${patches[@]}"; do
		n=$((n + 1))
		msg "check: [$drv $n/${#patches[@]}] $(subject_of "$patch")"
		(cd "$TREE" && git apply --check "$patch" && git apply "$patch") \
			2>"$CK_LOG/apply-$drv-$n.log" ||
			{ cat "$CK_LOG/apply-$drv-$n.log" >&2; die "$drv patch $n does not apply: ${patch##*/}"; }
		(cd "$TREE" && perl scripts/checkpatch.pl --strict --showfile "$patch") \
			>"$CK_LOG/checkpatch-$drv-$n.log" 2>&1
		line="$drv patch $n: checkpatch --strict: $(grep -E '^total: ' "$CK_LOG/checkpatch-$drv-$n.log" | tail -1 | sed 's/^total: //')"
		if ! grep -qE '^total: 0 errors, 0 warnings, 0 checks' "$CK_LOG/checkpatch-$drv-$n.log"; then
			grep -E '(^|: )(ERROR|WARNING|CHECK):' "$CK_LOG/checkpatch-$drv-$n.log" >&2
			if checkpatch_justified "$n" "$MSGDIR/$drv/cover.txt" \
				"$CK_LOG/checkpatch-$drv-$n.log"; then
				line+=" (each justified in scripts/patches/$drv/cover.txt)"
			else
				line+=" FAILED"
				FAILED=1
			fi
		fi
		RESULTS+=("$line")
		msg "check: $line"
	done
	if kmake "CONFIG_$sym=m" "$target" >"$CK_LOG/build-$drv.log" 2>&1 &&
	   ! grep -q 'warning:' "$CK_LOG/build-$drv.log"; then
		line="$drv: build ok ($(grep -cE '^ +CC' "$CK_LOG/build-$drv.log") objects compiled, $((SECONDS - t0)) s)"
	else
		grep -E 'error|warning:' "$CK_LOG/build-$drv.log" | head -20 >&2
		line="$drv: build FAILED (build/patches/check/build-$drv.log)"
		FAILED=1
	fi
	RESULTS+=("$line")
	msg "check: $line"
}

# fix_build TREE LOG: rpcrdma.ko from TREE's net/sunrpc/xprtrdma as an
# external module against Debian's headers of $KVER, TREE's include/
# first; any warning fails
fix_build() {
	local tree=$1 log=$2
	make -C "/lib/modules/$KVER/build" M="$tree/net/sunrpc/xprtrdma" \
		NOSTDINC_FLAGS="-nostdinc -I$tree/include" -j"$JOBS" modules >"$log" 2>&1 &&
		[ -e "$tree/net/sunrpc/xprtrdma/rpcrdma.ko" ] && ! grep -q 'warning:' "$log"
}

# fix_tree TREE: TREE holds the pristine net/sunrpc/xprtrdma and the
# headers the fixes touch. The first call copies them; later calls put
# back only the files a diff applied since then touched (FIX_TOUCHED),
# with a new mtime, so that make rebuilds those and keeps the rest.
fix_tree() {
	local tree=$1 p
	if [ ! -e "$tree/.pristine" ]; then
		rm -rf "$tree"
		mkdir -p "$tree/net/sunrpc" "$tree/include/linux/sunrpc"
		cp -r "$KSRC_DIR/net/sunrpc/xprtrdma" "$tree/net/sunrpc/" &&
			cp "$KSRC_DIR/include/linux/sunrpc/svc_rdma.h" "$tree/include/linux/sunrpc/" ||
			die "cannot copy xprtrdma from $KSRC_DIR into $tree"
		: >"$tree/.pristine"
		FIX_TOUCHED=()
		return 0
	fi
	for p in "${FIX_TOUCHED[@]}"; do
		cp "$KSRC_DIR/$p" "$tree/$p" || die "cannot restore $p in $tree"
	done
	FIX_TOUCHED=()
}

# fix_apply_diff TREE DIFF: git apply DIFF in TREE, noting what it touches
fix_apply_diff() {
	local p
	(cd "$1" && git apply "$2") || return 1
	while IFS= read -r p; do
		FIX_TOUCHED+=("$p")
	done < <(sed -n 's|^+++ b/||p' "$2")
}

# fix_git_am DIR SERIES: git am of SERIES' patches in a repository of
# the pristine files they touch
fix_git_am() {
	local dir=$1 sdir=$2 p log
	local -a patches
	log=$CK_LOG/am-$(echo "${sdir#"$OUT"/}" | tr '/' '-').log
	rm -rf "$dir"
	mkdir -p "$dir"
	mapfile -t patches < <(series_patches "$sdir")
	while IFS= read -r p; do
		mkdir -p "$dir/$(dirname "$p")"
		cp "$KSRC_DIR/$p" "$dir/$p" || return 1
	done < <(sed -n 's|^+++ b/||p' "${patches[@]}" | sort -u)
	# a scratch repository: its commits are nobody's
	local name=patches-check email=patches-check@invalid
	{ git -C "$dir" init -q && git -C "$dir" add -A &&
		git_as "$dir" commit -q -m pristine &&
		git_as "$dir" am -q "${patches[@]}"; } >"$log" 2>&1
	local rc=$?
	rm -rf "$dir"
	return $rc
}

# fix_unjustified MSG: the checkpatch messages on stdin that none of
# MSG's "Checkpatch-Justified: <glob>" lines explains. A fix carries its
# own, so that they follow it into every series and stable backport.
fix_unjustified() {
	local m_line j found
	while IFS= read -r m_line; do
		found=0
		while IFS= read -r j; do
			# shellcheck disable=SC2053 # $j is a glob on purpose
			[ -n "$j" ] && [[ $m_line == *$j* ]] && found=1
		done < <(hdr "$1" Checkpatch-Justified)
		[ $found -eq 1 ] || printf '%s\n' "$m_line"
	done
}

# fix_check_patch PATCH MSG LABEL [N COVER]: checkpatch --strict on PATCH
# (only the missing Fixes: may remain, and only when MSG says why there is
# none; with COVER, also what its Checkpatch-Justified lines for patch N
# explain), and its To:/Cc: from get_maintainer.pl. Appends to RESULTS.
fix_check_patch() {
	local patch=$1 m=$2 label=$3 n=${4:-} cover=${5:-} log line left
	log=$CK_LOG/checkpatch-$(echo "$label" | tr '/ ' '--').log
	(cd "$KSRC_DIR" && perl scripts/checkpatch.pl --strict --showfile "$patch") >"$log" 2>&1
	line="$label: checkpatch --strict: $(grep -E '^total: ' "$log" | tail -1 | sed 's/^total: //')"
	left=$(grep -E '(^|: )(ERROR|WARNING|CHECK):' "$log" |
		grep -v "perhaps it also needs a 'Fixes:' tag" || true)
	if [ -n "$left" ] && [ -n "$cover" ] &&
	   checkpatch_justified "$n" "$cover" <(echo "$left"); then
		line+=" (justified in ${cover#"$TOP"/})"
		left=
	fi
	if [ -n "$left" ] && [ -n "$(hdr "$m" Checkpatch-Justified)" ]; then
		left=$(fix_unjustified "$m" <<<"$left")
		[ -n "$left" ] || line+=" (justified in ${m#"$TOP"/})"
	fi
	if [ -n "$left" ]; then
		echo "$left" >&2
		line+=" FAILED"
		FAILED=1
	elif grep -q "perhaps it also needs a 'Fixes:' tag" "$log"; then
		if [ -n "$(hdr "$m" Unverified)" ]; then
			line+=" (no Fixes: tag, said why below ---)"
		else
			line+=" FAILED (no Fixes: tag)"
			FAILED=1
		fi
	fi
	if grep -q '^To: ' "$patch" && grep -q '^Cc: ' "$patch"; then
		line+=", To:/Cc: from get_maintainer.pl"
	else
		line+=", no To:/Cc: FAILED"
		FAILED=1
	fi
	RESULTS+=("$line")
	msg "check: $line"
}

# check_git_am DIR SDIR: fix_git_am of build/patches/SDIR (in DIR), its
# outcome in RESULTS; sets FAILED when it does not apply
check_git_am() {
	if fix_git_am "$1" "$OUT/$2"; then
		RESULTS+=("$2: git am applies the series to the pristine files")
	else
		RESULTS+=("$2: git am FAILED (build/patches/check/am-${2//\//-}.log)")
		FAILED=1
	fi
	msg "check: ${RESULTS[-1]}"
}

# check_ibcore_series DIR SDIR: an LTS line's stable-only ib_core
# series (build/patches/SDIR, written by make patches beside the
# backports), as a reader gets it: git am on the pristine files (in
# DIR), then checkpatch --strict patch by patch, where only the missing
# Fixes: may remain and only when the patch's description says why.
# ib_core built with the same rules, its exports' CRCs checked, is make
# ibcore's test, not repeated here. Appends to RESULTS, sets FAILED.
check_ibcore_series() {
	local dir=$1 sdir=$2 n
	local -a patches msgs
	mapfile -t patches < <(series_patches "$OUT/$sdir")
	mapfile -t msgs < <(ls "$MSGDIR"/ibcore/[0-9][0-9]-*.msg 2>/dev/null)
	[ ${#msgs[@]} -gt 0 ] || return 0
	if [ ${#patches[@]} -ne ${#msgs[@]} ]; then
		RESULTS+=("$sdir: ${#patches[@]} patches for ${#msgs[@]} descriptions FAILED (run make patches)")
		FAILED=1
		msg "check: ${RESULTS[-1]}"
		return 0
	fi
	check_git_am "$dir" "$sdir"
	for ((n = 1; n <= ${#patches[@]}; n++)); do
		fix_check_patch "${patches[$((n - 1))]}" "${msgs[$((n - 1))]}" "$sdir patch $n" \
			"$n" "$MSGDIR/ibcore/cover.txt"
	done
}

# do_fix_check SERIES...: (in the build root when one is needed) each
# fix of the SERIES (build/patches/<dir>) built alone on the pristine
# tree and checked; then all of them in order, whose module is
# build/patches/fixes/<release>/rpcrdma.ko, for the VM scenarios
do_fix_check() {
	local tree out d n p m t0 line
	local -a msgs patches FIX_TOUCHED=()
	ensure_headers
	ensure_ksrc
	need_pkgs git python3 perl make gcc
	mkdir -p "$CK_LOG"
	tree=$RPCRDMA_CM_CACHE/src/patches-fixes-$(headers_version)
	out=$OUT/fixes/$KVER
	rm -rf "$out"
	mkdir -p "$out"
	exec 8>"$tree.lock"
	flock 8 || die "cannot lock $tree.lock"
	rm -rf "$tree"
	RESULTS=()
	FAILED=0
	# "stable": the backports to this tree's LTS line
	local -a series=()
	for d in "$@"; do
		[ "$d" = stable ] && d=stable/$(makefile_version "$KSRC_DIR" | cut -d. -f1-2)
		series+=("$d")
	done
	set -- "${series[@]}"
	for d in "$@"; do
		[ -e "$OUT/$d/0000-cover-letter.patch" ] ||
			die "no series in build/patches/$d/; run 'make patches' first"
		if [[ $d == stable/* ]]; then
			msgs=()
			for m in $(fix_msgs $FIX_TREES); do
				[ "$(hdr "$m" Stable)" = yes ] && msgs+=("$m")
			done
		else
			mapfile -t msgs < <(fix_msgs "$d")
		fi
		mapfile -t patches < <(series_patches "$OUT/$d")
		[ ${#patches[@]} -eq ${#msgs[@]} ] ||
			die "build/patches/$d/ holds ${#patches[@]} patches for ${#msgs[@]} descriptions; run 'make patches'"
		for ((n = 1; n <= ${#patches[@]}; n++)); do
			p=${patches[$((n - 1))]}
			t0=$SECONDS
			msg "check: [$d $n/${#patches[@]}] $(subject_of "$p")"
			fix_tree "$tree"
			fix_apply_diff "$tree" "$OUT/$d/.alone/$(printf %04d "$n").diff" \
				2>"$CK_LOG/apply-${d//\//-}-$n.log" ||
				{ cat "$CK_LOG/apply-${d//\//-}-$n.log" >&2; die "fix $n of $d does not apply alone to the pristine tree"; }
			if fix_build "$tree" "$CK_LOG/build-${d//\//-}-$n.log"; then
				line="$d patch $n: builds alone ($((SECONDS - t0)) s)"
			else
				grep -E 'error|warning:' "$CK_LOG/build-${d//\//-}-$n.log" | head -20 >&2
				line="$d patch $n: alone, build FAILED (build/patches/check/build-${d//\//-}-$n.log)"
				FAILED=1
			fi
			RESULTS+=("$line")
			msg "check: $line"
			fix_check_patch "$p" "${msgs[$((n - 1))]}" "$d patch $n"
		done
	done
	# every series with git am, as its readers will apply it
	for d in "$@"; do
		check_git_am "$tree.am" "$d"
		[[ $d == stable/* ]] && check_ibcore_series "$tree.am" "$d-ibcore"
	done
	# every series in order: the fixes-only module
	t0=$SECONDS
	fix_tree "$tree"
	for d in "$@"; do
		for p in $(series_patches "$OUT/$d"); do
			fix_apply_diff "$tree" "$p" 2>"$CK_LOG/apply-fixes.log" ||
				{ cat "$CK_LOG/apply-fixes.log" >&2; die "${p#"$OUT"/} does not apply on the fixes before it"; }
		done
	done
	if fix_build "$tree" "$CK_LOG/build-fixes-$KVER.log"; then
		cp "$tree/net/sunrpc/xprtrdma/rpcrdma.ko" "$out/rpcrdma.ko"
		p=$(modinfo -F vermagic "$out/rpcrdma.ko" 2>/dev/null)
		if [ "${p%% *}" = "$KVER" ]; then
			RESULTS+=("fixes-only module ($*): build/patches/fixes/$KVER/rpcrdma.ko ($((SECONDS - t0)) s)")
			msg "check: ${RESULTS[-1]}"
		else
			RESULTS+=("fixes-only module: vermagic '$p' is not $KVER's")
			FAILED=1
		fi
	else
		tail -20 "$CK_LOG/build-fixes-$KVER.log" >&2
		RESULTS+=("fixes-only module: build FAILED (build/patches/check/build-fixes-$KVER.log)")
		FAILED=1
	fi
	rm -rf "$tree"
	printf '%s\n' "${RESULTS[@]}" >"$CK_LOG/fixes-$KVER.txt"
	[ "$FAILED" -eq 0 ] || { printf '  %s\n' "${RESULTS[@]}" >&2; die "the fixes of $* failed their checks on $KVER (logs in build/patches/check/)"; }
}

# checkpatch_justified N [COVER LOG]: every remaining checkpatch message
# of patch N (in LOG) is one its series' cover letter (COVER, by default
# scripts/patches/features/cover.txt) explains: each
# "Checkpatch-Justified: N <pattern>" line of the cover's header names
# the patch and a glob the message contains ("*" for the line number
# of a file: checkpatch prefixes "<file>:<line>: ").
checkpatch_justified() {
	local n=$1 cover=${2:-$MSGDIR/features/cover.txt}
	local log=${3:-$CK_LOG/checkpatch-$1.log} m j ok=0 found
	while IFS= read -r m; do
		found=0
		while IFS= read -r j; do
			# shellcheck disable=SC2053 # $j is a glob on purpose
			[ -n "$j" ] && [[ $m == *$j* ]] && found=1
		done < <(sed -n "1,/^---\$/ s/^Checkpatch-Justified: $n //p" "$cover")
		if [ $found -eq 0 ]; then
			warn "patch $n: checkpatch says '$m', and ${cover#"$TOP"/} does not justify it"
			ok=1
		fi
	done < <(grep -E '(^|: )(ERROR|WARNING|CHECK):' "$log")
	return $ok
}

# --- main ----------------------------------------------------------------

# main ARGS...: the whole script is read before anything runs, so
# editing it during a long check cannot derail the running copy.
main() {
	case ${1:-} in
	generate)
		name=$(git -C "$TOP" config user.name) || name=
		email=$(git -C "$TOP" config user.email) || email=
		if [ -z "$name" ] || [ -z "$email" ]; then
			# make check in CI only needs a series to test, not one to send
			[ "${CI:-}" = true ] ||
				die "git config user.name/user.email is not set: the patches need a Signed-off-by (git config --global user.name 'Your Name'; git config --global user.email you@example.org)"
			warn "no git identity; CI=true: signing the series as 'rpcrdma-cm CI <ci@invalid>' (not for sending)"
			name="rpcrdma-cm CI"
			email=ci@invalid
		fi
		"$0" _generate "$name" "$email" || exit 1
		for k in $STABLE_KVERS; do
			KSRC='' PATCHES_KVER=$k "$0" _stable "$name" "$email" || exit 1
		done
		;;
	check)
		t0=$SECONDS
		rm -f "$CK_LOG"/fixes-*.txt
		# the build root clears the environment: settings go as arguments
		"$0" _check "${PATCHES_KUNIT:-both}" || exit 1
		case ${PATCHES_VM:-1} in
		0 | 1 | fixes) ;;
		*) die "PATCHES_VM=$PATCHES_VM: say 1 (every VM scenario), fixes (the fixes' only) or 0 (none)" ;;
		esac
		if [ "${PATCHES_VM:-1}" != 1 ]; then
			msg "patches-check: the features' VM scenarios skipped (PATCHES_VM=${PATCHES_VM})"
		else
			[ -e "$FEAT/rpcrdma.ko" ] || die "no build/patches/features/rpcrdma.ko after the check"
			sc=${PATCHES_VM_SCENARIOS:-15}
			msg "patches-check: VM scenarios $sc with the module built from the patched tree"
			# scenario 15 expects this module's sizes (8192 from
			# patches 10 and 11), not the fixes-only module's
			RPCRDMA_KO=$FEAT/rpcrdma.ko SC15_MODULE=features \
				make --no-print-directory -C "$TOP" vmtest \
				KVER="$KVER" VMTEST_ONLY="$sc" 2>&1 | tee "$CK_LOG/vmtest.log"
			rc=${PIPESTATUS[0]}
			summary=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$CK_LOG/vmtest.log" | tail -1)
			echo "vmtest ($sc) with build/patches/features/rpcrdma.ko: ${summary:-no summary} (exit $rc)" \
				>>"$CK_LOG/results.txt"
			[ "$rc" -eq 0 ] || die "VM scenarios $sc failed with the module from the patched tree; see build/patches/check/vmtest.log"
		fi
		# the fixes, on the newest kernel and on each LTS line
		PATCHES_KVER=${PATCHES_KVER:-trixie-backports} "$0" _fixcheck $FIX_TREES || exit 1
		for k in $STABLE_KVERS; do
			KSRC='' PATCHES_KVER=$k "$0" _fixcheck stable || exit 1
		done
		if [ "${PATCHES_VM:-1}" != 0 ]; then
			for k in "${PATCHES_KVER:-trixie-backports}" $STABLE_KVERS; do
				PATCHES_KVER=$k "$0" _fixvm || exit 1
			done
		fi
		cat "$CK_LOG"/fixes-*.txt >>"$CK_LOG/results.txt"
		msg "patches-check passed in $((SECONDS - t0)) s:"
		sed 's/^/  /' "$CK_LOG/results.txt" >&2
		;;
	_generate)
		shift
		kbuild_enter _generate "$@"
		do_generate "$@"
		;;
	_stable)
		shift
		kbuild_enter _stable "$@"
		do_stable "$@"
		;;
	_fixcheck)
		shift
		kbuild_enter _fixcheck "$@"
		do_fix_check "$@"
		;;
	_fixvm)
		# on the host: the VM rig boots Debian's kernel of $KVER with
		# the fixes-only module that _fixcheck built for it
		ko=$OUT/fixes/$KVER/rpcrdma.ko
		[ -e "$ko" ] || die "no ${ko#"$TOP"/}; make patches-check builds it first"
		sc=${PATCHES_FIXES_SCENARIOS:-15}
		msg "patches-check: VM scenarios $sc on $KVER with the fixes-only module"
		RPCRDMA_KO=$ko SC15_MODULE=fixes make --no-print-directory -C "$TOP" vmtest \
			KVER="$KVER" VMTEST_ONLY="$sc" 2>&1 | tee "$CK_LOG/vmtest-fixes-$KVER.log"
		rc=${PIPESTATUS[0]}
		summary=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$CK_LOG/vmtest-fixes-$KVER.log" | tail -1)
		echo "vmtest ($sc) on $KVER with build/patches/fixes/$KVER/rpcrdma.ko: ${summary:-no summary} (exit $rc)" \
			>>"$CK_LOG/fixes-$KVER.txt"
		[ "$rc" -eq 0 ] || die "VM scenarios $sc failed on $KVER with the fixes-only module; see build/patches/check/vmtest-fixes-$KVER.log"
		;;
	_check)
		kbuild_enter _check "${2:-both}"
		PATCHES_KUNIT=${2:-both} do_check
		;;
	*) die "usage: patches.sh generate|check (make patches, make patches-check)" ;;
	esac
}

main "$@"; exit $?
