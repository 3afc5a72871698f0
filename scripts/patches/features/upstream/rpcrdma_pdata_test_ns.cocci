// SPDX-License-Identifier: GPL-2.0
/// The codec's KUnit suite, a module of its own in the features series,
/// imports the symbols rpcrdma_pdata.c exports to it
/// (rpcrdma_pdata_kunit.cocci).
//
// Target: net/sunrpc/xprtrdma/rpcrdma_pdata_test.c
// When: include/kunit/visibility.h define EXPORT_SYMBOL_IF_KUNIT
// Expect: net/sunrpc/xprtrdma/rpcrdma_pdata_test.c MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");

@@
declarer name MODULE_LICENSE, MODULE_IMPORT_NS;
@@
 MODULE_LICENSE(...);
+MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");
