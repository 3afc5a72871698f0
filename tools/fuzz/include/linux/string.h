/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for the kernel's <linux/string.h>: the C library
 * provides memcpy(), memcmp() and friends with the same contracts.
 */
#ifndef _RPCRDMA_COMPAT_LINUX_STRING_H
#define _RPCRDMA_COMPAT_LINUX_STRING_H

#include <string.h>

#endif /* _RPCRDMA_COMPAT_LINUX_STRING_H */
