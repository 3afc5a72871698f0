/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rpcrdma-cm-compat.h
 * What differs between the Wireshark releases the plugin builds for:
 * 4.0 (Debian 12) and 4.4 (Debian 13). Only the plugin uses this file;
 * the upstream patch (scripts/wireshark-upstream.sh) is written for the
 * tree it goes into.
 */

#ifndef RPCRDMA_CM_COMPAT_H
#define RPCRDMA_CM_COMPAT_H

#include <stdbool.h>
#include <stdint.h>

#include <wireshark.h>
#include <ws_version.h>

#define RPCRDMA_CM_WS_VERSION(major, minor) ((major) * 100 + (minor))
#define RPCRDMA_CM_WS_THIS \
    RPCRDMA_CM_WS_VERSION(WIRESHARK_VERSION_MAJOR, WIRESHARK_VERSION_MINOR)

#if RPCRDMA_CM_WS_THIS >= RPCRDMA_CM_WS_VERSION(4, 2)
/* heur_dissector_t returns bool; field_info holds a pointer to its value */
typedef bool heur_ret_t;
#define FI_VALUE(fi) ((fi)->value)
#else
typedef gboolean heur_ret_t;
#define FI_VALUE(fi) (&(fi)->value)
#define tvb_get_uint8 tvb_get_guint8
#endif

#endif /* RPCRDMA_CM_COMPAT_H */
