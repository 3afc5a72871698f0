/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for the kernel's <linux/types.h>, just enough for
 * the RFC 8797 codec (net/sunrpc/xprtrdma/rpcrdma_pdata.c) to compile
 * unmodified in the fuzzer and in rpcrdma-cm-probe.
 *
 * The UAPI header of the same name (__u8, __be32, ...) is pulled in
 * first, because rdma-core's headers include <linux/types.h> too and
 * expect to find it through this file once this directory is on the
 * include path.
 */
#ifndef _RPCRDMA_COMPAT_LINUX_TYPES_H
#define _RPCRDMA_COMPAT_LINUX_TYPES_H

#include_next <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

#endif /* _RPCRDMA_COMPAT_LINUX_TYPES_H */
