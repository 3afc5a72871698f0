/* SPDX-License-Identifier: GPL-2.0-or-later */
/* plugin.c
 * Registers packet-rpcrdma-cm.c and packet-rpcrdma-v2.c with Wireshark's
 * plugin loader, for the
 * Wireshark release whose headers it is built against.
 */

#define WS_BUILD_DLL
#include "rpcrdma-cm-compat.h"

#include <epan/proto.h>
#if RPCRDMA_CM_WS_THIS >= RPCRDMA_CM_WS_VERSION(4, 2)
#include <wsutil/plugins.h>
#endif
#include <ws_symbol_export.h>

#ifndef PLUGIN_VERSION
#define PLUGIN_VERSION "0.0.0"
#endif

#include "packet-rpcrdma-v2.h"

void proto_register_rpcrdma_cm(void);
void proto_reg_handoff_rpcrdma_cm(void);

WS_DLL_PUBLIC_DEF const char plugin_version[] = PLUGIN_VERSION;
WS_DLL_PUBLIC_DEF const int plugin_want_major = WIRESHARK_VERSION_MAJOR;
WS_DLL_PUBLIC_DEF const int plugin_want_minor = WIRESHARK_VERSION_MINOR;

WS_DLL_PUBLIC void plugin_register(void);

void
plugin_register(void)
{
    static proto_plugin plug, plug_v2;

    plug.register_protoinfo = proto_register_rpcrdma_cm;
    plug.register_handoff = proto_reg_handoff_rpcrdma_cm;
    proto_register_plugin(&plug);
    /* the experimental Version Two messages (rpcrdma_v2.lua's) */
    plug_v2.register_protoinfo = rpcrdma_v2_register;
    plug_v2.register_handoff = rpcrdma_v2_handoff;
    proto_register_plugin(&plug_v2);
}

#if RPCRDMA_CM_WS_THIS >= RPCRDMA_CM_WS_VERSION(4, 2)
WS_DLL_PUBLIC uint32_t plugin_describe(void);

uint32_t
plugin_describe(void)
{
    return WS_PLUGIN_DESC_DISSECTOR;
}
#endif
