// SPDX-License-Identifier: GPL-2.0
/// The codec's KUnit suite is a module of its own in the features
/// series, not part of rpcrdma.ko: each function it calls is exported
/// to it, and only when KUnit is built (EXPORT_SYMBOL_IF_KUNIT, in the
/// EXPORTED_FOR_KUNIT_TESTING namespace). The drop-in module's suite
/// links the codec into its own object instead (kunit/Kbuild).
//
// Target: net/sunrpc/xprtrdma/rpcrdma_pdata.c
// When: include/kunit/visibility.h define EXPORT_SYMBOL_IF_KUNIT
// Expect: net/sunrpc/xprtrdma/rpcrdma_pdata.c #include <kunit/visibility.h>
// Expect: net/sunrpc/xprtrdma/rpcrdma_pdata.c EXPORT_SYMBOL_IF_KUNIT(rpcrdma_pdata_parse);
// Expect: net/sunrpc/xprtrdma/rpcrdma_pdata.c EXPORT_SYMBOL_IF_KUNIT(rpcrdma_pdata_status_name);

@@
@@
 #include <linux/sunrpc/rpcrdma_pdata.h>
+#include <kunit/visibility.h>

@@
identifier fn = {rpcrdma_pdata_clamp_size, rpcrdma_pdata_encode_size,
		 rpcrdma_pdata_decode_size, rpcrdma_pdata_build,
		 rpcrdma_pdata_parse, rpcrdma_pdata_negotiate,
		 rpcrdma_pdata_status_name};
@@
 fn(...) {...}
+EXPORT_SYMBOL_IF_KUNIT(fn);
