/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for the kernel's <linux/limits.h>: the UAPI header
 * of the same name (which the C library's <limits.h> includes too)
 * plus the kernel's fixed-width maxima the codecs use.
 */
#ifndef _RPCRDMA_COMPAT_LINUX_LIMITS_H
#define _RPCRDMA_COMPAT_LINUX_LIMITS_H

#include_next <linux/limits.h>
#include <stdint.h>

#define U8_MAX		UINT8_MAX
#define U16_MAX		UINT16_MAX
#define U32_MAX		UINT32_MAX

#endif /* _RPCRDMA_COMPAT_LINUX_LIMITS_H */
