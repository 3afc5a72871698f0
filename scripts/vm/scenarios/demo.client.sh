#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make demo, client side: mount NFSv4.2 over RDMA, write a file and read
# it back with caches dropped, show what both sides negotiated.
# shellcheck source=scripts/vm/guest/lib.sh
. /vm/lib.sh
trace_on xprtrdma_inline_thresh
mount_nfs 4.2 || { finish; exit 1; }
step "writing 1 MiB + 1 byte to /mnt/demo.bin"
head -c 1048577 /dev/urandom >/tmp/demo.bin
cp /tmp/demo.bin "$MNT/demo.bin"
drop_caches
want=$(sha256sum </tmp/demo.bin | cut -d' ' -f1)
got=$(dd if="$MNT/demo.bin" iflag=direct bs=2M 2>/dev/null | sha256sum | cut -d' ' -f1)
srv_sum=$(srv sums demo.bin | cut -d' ' -f1)
check demo-io "sha256 $want (client wrote, read back, server has ${srv_sum:-?})" \
	[ "$want" = "$got" ] && [ "$want" = "$srv_sum" ]
show_conns
status thresh INFO "$(client_thresh)"
umount_nfs
finish
