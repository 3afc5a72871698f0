/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for the kernel's <linux/minmax.h>: min(), max()
 * and clamp(), evaluating each argument once. Like the kernel's, they
 * insist that both operands have the same type: comparing pointers to
 * the two temporaries makes the compiler warn about distinct types, so
 * a mixed-type comparison in the codec shows up here as it would in a
 * kernel build.
 */
#ifndef _RPCRDMA_COMPAT_LINUX_MINMAX_H
#define _RPCRDMA_COMPAT_LINUX_MINMAX_H

#define min(x, y) ({				\
	__typeof__(x) __min_x = (x);		\
	__typeof__(y) __min_y = (y);		\
	(void)(&__min_x == &__min_y);		\
	__min_x < __min_y ? __min_x : __min_y; })

#define max(x, y) ({				\
	__typeof__(x) __max_x = (x);		\
	__typeof__(y) __max_y = (y);		\
	(void)(&__max_x == &__max_y);		\
	__max_x > __max_y ? __max_x : __max_y; })

#define clamp(val, lo, hi) min(max(val, lo), hi)

#endif /* _RPCRDMA_COMPAT_LINUX_MINMAX_H */
