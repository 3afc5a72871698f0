#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make debugtest (client guest): the codec KUnit suites inside a kernel
# that carries NFS/RDMA. Loading the module runs its suites; their KTAP
# (from the kernel log, which the host enlarges with log_buf_len) goes to
# the console as RPCRDMA-KTAP lines, and the host parses it with kunit.py.
# shellcheck source=scripts/vm/guest/lib.sh
. /vm/lib.sh
KO=/vm/rpcrdma_pdata_kunit.ko
if [ ! -d /sys/kernel/debug/kunit ]; then
	status kunit FAIL "kernel $KVER has no KUnit (CONFIG_KUNIT)"
else
	# only the module's suites in the log (not the boot's empty KTAP plan)
	dmesg -c >/dev/null
	if ! insmod "$KO"; then
		status kunit FAIL "insmod $KO failed"
		finish
		exit 0
	fi
	step "KUnit suites ran; copying their KTAP from the kernel log"
	dmesg | sed 's/^/RPCRDMA-KTAP: /'
	echo "RPCRDMA-KTAP-END"
	status kunit INFO "$(dmesg | grep -c '^ *ok ') ok, $(dmesg | grep -c '^ *not ok ') not ok lines"
fi
finish
