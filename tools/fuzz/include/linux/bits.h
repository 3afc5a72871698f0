/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for the kernel's <linux/bits.h>: BIT(), as the
 * transport property codec (rpcrdma_xchar.c) uses it.
 */
#ifndef _RPCRDMA_COMPAT_LINUX_BITS_H
#define _RPCRDMA_COMPAT_LINUX_BITS_H

#define BIT(nr)		(1UL << (nr))

#endif /* _RPCRDMA_COMPAT_LINUX_BITS_H */
