// SPDX-License-Identifier: GPL-2.0
/// KUnit parameter generators: newer kernels pass the test to them,
/// generate_params(struct kunit *test, const void *prev, char *desc)
/// instead of generate_params(const void *prev, char *desc). The
/// project's suite is written for the kernels the drop-in module
/// builds for (6.1, 6.12); in a series for a newer tree, its two
/// hand-written generators take the new first argument.
//
// Target: net/sunrpc/xprtrdma/rpcrdma_pdata_test.c
// When: include/kunit/test.h generate_params\)\(struct kunit \*test,
// Expect: net/sunrpc/xprtrdma/rpcrdma_pdata_test.c _gen_params(struct kunit *test,

@@
identifier fn =~ "_gen_params$";
identifier prev, desc;
@@
 fn(
+	struct kunit *test,
 	const void *prev, char *desc)
 {
 ...
 }
