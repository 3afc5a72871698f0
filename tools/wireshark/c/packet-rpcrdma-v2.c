/* SPDX-License-Identifier: GPL-2.0-or-later */
/* packet-rpcrdma-v2.c
 * Experimental RPC-over-RDMA Version Two messages with transport
 * properties, as tools/wireshark/rpcrdma_v2.lua decodes them: the
 * Version Two headers of draft-cel-nfsv4-rpcrdma-version-two-01 (or, by
 * the preference rpcrdma.v2.base, of the authors' working copy of
 * 2016-11-10: rdma_inv_handle in the chunk lists, other error codes),
 * RDMA2_MSG/NOMSG chunk lists, RDMA2_ERROR, RDMA2_OPTIONAL, and the four
 * messages of draft-dnoveck-nfsv4-rpcrdma-xcharext-03 (ROPT_CONNPROP,
 * ROPT_REQPROP, ROPT_RESPROP, ROPT_UPDPROP) with every propval and
 * propvalsubset. A heuristic dissector of RDMA Send payloads (RoCE and
 * InfiniBand, iWARP) that claims rdma_vers 2 only, so Wireshark's own
 * RPC-over-RDMA dissector keeps every Version One message.
 *
 * Part of rpcrdma-cm's plugin only: the drafts are not RFCs, so the
 * upstream patch (scripts/wireshark-upstream.sh) leaves this file out.
 * The fields are those of rpcrdma_v2.lua under "rpcrdma.v2".
 */

#include "rpcrdma-cm-compat.h"

#include <epan/packet.h>
#include <epan/expert.h>
#include <epan/prefs.h>

#include "packet-rpcrdma-v2.h"

#define V2_VERSION          2
#define V2_HDR_LEN          16
#define V2_PROC_MSG         0
#define V2_PROC_NOMSG       1
#define V2_PROC_ERROR       4
#define V2_PROC_OPTIONAL    5
#define V2_ERR_VERS         1
#define V2_WC_ERR_REPLY_RESOURCE 3
#define V2_PROP_RBSIZ       1
#define V2_PROP_REQREMINV   2
#define V2_PROP_BRS         3
#define V2_EXPERIMENTAL     0xffffff00
#define V2_READ_SEG_LEN     20      /* rdma_position and a segment */
#define V2_SEGMENT_LEN      16

enum { BASE_01, BASE_WC };

static int proto_rpcrdma_v2 = -1;
static int v2_base = BASE_01;

static int hf_status = -1;
static int hf_xid = -1;
static int hf_vers = -1;
static int hf_credit = -1;
static int hf_proc = -1;
static int hf_optdir = -1;
static int hf_opttype = -1;
static int hf_infolen = -1;
static int hf_err = -1;
static int hf_err_name = -1;
static int hf_vers_low = -1;
static int hf_vers_high = -1;
static int hf_seg_index = -1;
static int hf_len_needed = -1;
static int hf_direction = -1;
static int hf_inv_handle = -1;
static int hf_reads = -1;
static int hf_writes = -1;
static int hf_reply = -1;
static int hf_hdrlen = -1;
static int hf_set = -1;
static int hf_count = -1;
static int hf_which = -1;
static int hf_pos = -1;
static int hf_dlen = -1;
static int hf_rbsiz = -1;
static int hf_reqreminv = -1;
static int hf_brs = -1;
static int hf_dflt = -1;
static int hf_data = -1;
static int hf_subset = -1;
static int hf_words = -1;
static int hf_members = -1;

static int ett_v2 = -1;
static int ett_v2_prop = -1;
static int ett_v2_set = -1;
static int ett_v2_subset = -1;

static expert_field ei_overrun;
static expert_field ei_propval;
static expert_field ei_dup;
static expert_field ei_unknown;
static expert_field ei_opttype;

static const value_string v2_procs[] = {
    { V2_PROC_MSG, "RDMA2_MSG" },
    { V2_PROC_NOMSG, "RDMA2_NOMSG" },
    { V2_PROC_ERROR, "RDMA2_ERROR" },
    { V2_PROC_OPTIONAL, "RDMA2_OPTIONAL" },
    { 0, NULL }
};

static const value_string v2_opts[] = {
    { 1, "ROPT_CONNPROP" },
    { 2, "ROPT_REQPROP" },
    { 3, "ROPT_RESPROP" },
    { 4, "ROPT_UPDPROP" },
    { 0, NULL }
};

static const value_string v2_props[] = {
    { V2_PROP_RBSIZ, "PROP_RBSIZ" },
    { V2_PROP_REQREMINV, "PROP_REQREMINV" },
    { V2_PROP_BRS, "PROP_BRS" },
    { 0, NULL }
};

static const value_string v2_bkreqsup[] = {
    { 0, "BKREQSUP_NONE" },
    { 1, "BKREQSUP_INLINE" },
    { 2, "BKREQSUP_GENL" },
    { 0, NULL }
};

static const value_string v2_dirs[] = {
    { 0, "CALL" },
    { 1, "REPLY" },
    { 0, NULL }
};

static const value_string v2_bools[] = {
    { 0, "FALSE" },
    { 1, "TRUE" },
    { 0, NULL }
};

/* rpcrdma2_errcode of each base: -01 has three codes, the working copy six */
static const value_string v2_errs_01[] = {
    { 1, "RDMA2_ERR_VERS" },
    { 2, "RDMA2_ERR_BAD_HEADER" },
    { 3, "RDMA2_ERR_INVAL_OPTION" },
    { 0, NULL }
};

static const value_string v2_errs_wc[] = {
    { 1, "RDMA2_ERR_VERS" },
    { 2, "RDMA2_ERR_BAD_XDR" },
    { 3, "RDMA2_ERR_REPLY_RESOURCE" },
    { 4, "RDMA2_ERR_INVAL_PROC" },
    { 5, "RDMA2_ERR_INVAL_OPTION" },
    { 6, "RDMA2_ERR_SYSTEM" },
    { 0, NULL }
};

static const enum_val_t v2_bases[] = {
    { "01", "draft-cel-nfsv4-rpcrdma-version-two-01", BASE_01 },
    { "2016-11-10", "the working copy of 2016-11-10", BASE_WC },
    { NULL, NULL, 0 }
};

/* Table 1's defaults, what a zero-length pv_data stands for, and limits */
static const uint32_t v2_defaults[] = { 0, 4096, 0, 1 };
static const uint32_t v2_limits[] = { 0, 0xffffffff, 1, 2 };

/* A bounds-checked XDR reader from off to stop */
typedef struct {
    tvbuff_t *tvb;
    packet_info *pinfo;
    int off;
    int stop;
    bool bad;
} v2_reader_t;

static bool
rd_u32(v2_reader_t *r, uint32_t *v)
{
    if (r->bad || r->stop - r->off < 4) {
        r->bad = true;
        return false;
    }
    *v = tvb_get_ntohl(r->tvb, r->off);
    r->off += 4;
    return true;
}

static void
overrun(v2_reader_t *r, proto_item *ti, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

static void
overrun(v2_reader_t *r, proto_item *ti, const char *fmt, ...)
{
    va_list ap;
    char *msg;

    va_start(ap, fmt);
    msg = wmem_strdup_vprintf(r->pinfo->pool, fmt, ap);
    va_end(ap);
    expert_add_info_format(r->pinfo, ti, &ei_overrun, "%s", msg);
}

/* pv_data's XDR room: its length rounded up to 4 */
static uint64_t
room_of(uint32_t len)
{
    return ((uint64_t)len + 3) / 4 * 4;
}

/* One propval at position @i; returns an error status or NULL */
static const char *
propval(v2_reader_t *r, proto_tree *tree, uint32_t i, uint32_t *seen)
{
    int at = r->off;
    uint32_t which = 0, len = 0, v;
    const char *name;
    proto_item *t;
    proto_tree *pt;
    uint64_t room;
    int hf;

    if (!rd_u32(r, &which) || !rd_u32(r, &len)) {
        overrun(r, tree, "propval %u: header past the message", i);
        return "xdr_overrun";
    }
    room = room_of(len);
    if (room > (uint64_t)(r->stop - r->off)) {
        t = proto_tree_add_uint(tree, hf_which, r->tvb, at, 4, which);
        overrun(r, t, "propval %u: pv_data of %u octets past the message", i, len);
        return "xdr_overrun";
    }
    t = proto_tree_add_uint(tree, hf_which, r->tvb, at, 8 + (int)room, which);
    pt = proto_item_add_subtree(t, ett_v2_prop);
    proto_item_set_generated(proto_tree_add_uint(pt, hf_pos, r->tvb, 0, 0, i));
    proto_tree_add_item(pt, hf_dlen, r->tvb, at + 4, 4, ENC_BIG_ENDIAN);
    at = r->off;                /* pv_data */
    r->off += (int)room;
    if (which < V2_PROP_RBSIZ || which > V2_PROP_BRS) {
        if (len)
            proto_tree_add_item(pt, hf_data, r->tvb, at, len, ENC_NA);
        expert_add_info_format(r->pinfo, t, &ei_unknown, "%s propid %u, skipped",
                               which >= V2_EXPERIMENTAL ? "experimental" : "unknown",
                               which);
        return NULL;
    }
    name = val_to_str_const(which, v2_props, "?");
    v = v2_defaults[which];
    if (len == 0) {
        proto_item_set_generated(proto_tree_add_boolean(pt, hf_dflt, r->tvb, 0, 0, true));
    } else if (len < 4) {
        expert_add_info_format(r->pinfo, t, &ei_propval,
                               "%s: %u octets, shorter than its type", name, len);
        return "bad_propval";
    } else {
        v = tvb_get_ntohl(r->tvb, at);
        if (v > v2_limits[which]) {
            expert_add_info_format(r->pinfo, t, &ei_propval,
                                   "%s: %u is no value of its type", name, v);
            return "bad_propval";
        }
    }
    /* named again: its value is shown as data, the first one counts */
    if (seen[which] != UINT32_MAX) {
        if (len)
            proto_tree_add_item(pt, hf_data, r->tvb, at, len, ENC_NA);
        expert_add_info_format(r->pinfo, t, &ei_dup,
                               "%s again, skipped: position %u counts", name,
                               seen[which]);
        return NULL;
    }
    seen[which] = i;
    hf = which == V2_PROP_RBSIZ ? hf_rbsiz :
         which == V2_PROP_REQREMINV ? hf_reqreminv : hf_brs;
    if (len)
        proto_tree_add_item(pt, hf, r->tvb, at, 4, ENC_BIG_ENDIAN);
    else
        proto_item_set_generated(proto_tree_add_uint(pt, hf, r->tvb, 0, 0, v));
    return NULL;
}

static const char *
propset(v2_reader_t *r, proto_tree *tree, const char *name)
{
    uint32_t seen[V2_PROP_BRS + 1] = { UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX };
    proto_item *t;
    proto_tree *st;
    uint32_t n, i;

    t = proto_tree_add_string(tree, hf_set, r->tvb, r->off,
                              MAX(0, r->stop - r->off), name);
    st = proto_item_add_subtree(t, ett_v2_set);
    if (!rd_u32(r, &n)) {
        overrun(r, t, "%s: no count", name);
        return "xdr_overrun";
    }
    proto_tree_add_item(st, hf_count, r->tvb, r->off - 4, 4, ENC_BIG_ENDIAN);
    for (i = 0; i < n; i++) {
        const char *status = propval(r, st, i, seen);

        if (status)
            return status;
    }
    return NULL;
}

static const char *
subset(v2_reader_t *r, proto_tree *tree, const char *name)
{
    wmem_strbuf_t *list = wmem_strbuf_new(r->pinfo->pool, "");
    proto_item *t;
    proto_tree *st;
    uint32_t n, w, b, v = 0;

    if (!rd_u32(r, &n) || (uint64_t)n * 4 > (uint64_t)(r->stop - r->off)) {
        overrun(r, tree, "%s: words past the message", name);
        r->bad = true;
        return "xdr_overrun";
    }
    t = proto_tree_add_string(tree, hf_subset, r->tvb, r->off - 4, 4 + 4 * (int)n, name);
    st = proto_item_add_subtree(t, ett_v2_subset);
    proto_tree_add_item(st, hf_words, r->tvb, r->off - 4, 4, ENC_BIG_ENDIAN);
    for (w = 0; w < n; w++) {
        rd_u32(r, &v);
        for (b = 0; b < 32; b++)
            if (v & (1U << b))
                wmem_strbuf_append_printf(list, "%s%u",
                                          wmem_strbuf_get_len(list) ? "," : "",
                                          32 * w + b);
    }
    proto_item_set_generated(proto_tree_add_string(st, hf_members, r->tvb, 0, 0,
                                                   wmem_strbuf_get_str(list)));
    return NULL;
}

static const char *
optinfo(v2_reader_t *r, proto_tree *tree, uint32_t opttype)
{
    const char *status;

    switch (opttype) {
    case 1:
        status = propset(r, tree, "opticonnpr_start");
        return status ? status : subset(r, tree, "opticonnpr_nochg");
    case 2:
        return propset(r, tree, "optreqpr_want");
    case 3:
        status = subset(r, tree, "optrespr_done");
        if (!status)
            status = subset(r, tree, "optrespr_rej");
        return status ? status : propset(r, tree, "optrespr_other");
    case 4:
        return propset(r, tree, "optupdpr_now");
    }
    expert_add_info_format(r->pinfo, tree, &ei_opttype, "rdma_opttype %u", opttype);
    return "unknown_opttype";
}

static const char *
optional(v2_reader_t *r, proto_tree *tree)
{
    uint32_t dir = 0, opttype = 0, len = 0;
    v2_reader_t sub;

    if (!rd_u32(r, &dir) || !rd_u32(r, &opttype) || !rd_u32(r, &len) || dir > 1) {
        overrun(r, tree, "RDMA2_OPTIONAL header");
        return "xdr_overrun";
    }
    proto_tree_add_item(tree, hf_optdir, r->tvb, r->off - 12, 4, ENC_BIG_ENDIAN);
    proto_tree_add_item(tree, hf_opttype, r->tvb, r->off - 8, 4, ENC_BIG_ENDIAN);
    proto_tree_add_item(tree, hf_infolen, r->tvb, r->off - 4, 4, ENC_BIG_ENDIAN);
    if (try_val_to_str(opttype, v2_opts))
        col_append_fstr(r->pinfo->cinfo, COL_INFO, " %s", val_to_str_const(opttype, v2_opts, ""));
    else
        col_append_fstr(r->pinfo->cinfo, COL_INFO, " opttype %u", opttype);
    if (room_of(len) > (uint64_t)(r->stop - r->off)) {
        overrun(r, tree, "rdma_optinfo of %u octets past the message", len);
        return "xdr_overrun";
    }
    sub = *r;
    sub.stop = r->off + (int)len;
    return optinfo(&sub, tree, opttype);
}

/* XDR optional-data: a bool; anything but 0 or 1 is an XDR error.
 * Returns 1, 0, or -1 for an error. */
static int
present(v2_reader_t *r)
{
    uint32_t v;

    if (!rd_u32(r, &v) || v > 1) {
        r->bad = true;
        return -1;
    }
    return (int)v;
}

/* A rpcrdma2_write_chunk: its segment count; false past the message */
static bool
chunk(v2_reader_t *r, uint32_t *n)
{
    if (!rd_u32(r, n) || (uint64_t)*n * V2_SEGMENT_LEN > (uint64_t)(r->stop - r->off)) {
        r->bad = true;
        return false;
    }
    r->off += V2_SEGMENT_LEN * (int)*n;
    return true;
}

/* rpcrdma2_read_list, _write_list and the Reply chunk: their counts */
static bool
lists(v2_reader_t *r, uint32_t *reads, uint32_t *writes, uint32_t *nreply,
      bool *has_reply)
{
    uint32_t n;
    int more;

    *reads = *writes = 0;
    *has_reply = false;
    for (more = present(r); more == 1; more = present(r)) {
        if (r->stop - r->off < V2_READ_SEG_LEN)
            return false;
        r->off += V2_READ_SEG_LEN;
        (*reads)++;
    }
    if (more < 0)
        return false;
    for (more = present(r); more == 1; more = present(r)) {
        if (!chunk(r, &n))
            return false;
        (*writes)++;
    }
    if (more < 0)
        return false;
    more = present(r);
    if (more < 0)
        return false;
    if (more == 0)
        return true;
    if (!chunk(r, nreply))
        return false;
    *has_reply = true;
    return true;
}

/* RDMA2_MSG and RDMA2_NOMSG: rpcrdma2_chunk_lists as the base lays it
 * out (the working copy adds rdma_inv_handle after the direction) */
static const char *
msghdr(v2_reader_t *r, proto_tree *tree, int base)
{
    uint32_t dir, handle, reads, writes, nreply = 0;
    bool has_reply;

    if (!rd_u32(r, &dir) || dir > 1) {
        overrun(r, tree, "rdma_direction");
        return "xdr_overrun";
    }
    proto_tree_add_item(tree, hf_direction, r->tvb, r->off - 4, 4, ENC_BIG_ENDIAN);
    if (base == BASE_WC) {
        if (!rd_u32(r, &handle)) {
            overrun(r, tree, "rdma_inv_handle");
            return "xdr_overrun";
        }
        proto_tree_add_item(tree, hf_inv_handle, r->tvb, r->off - 4, 4, ENC_BIG_ENDIAN);
    }
    if (!lists(r, &reads, &writes, &nreply, &has_reply)) {
        overrun(r, tree, "chunk lists past the message or malformed");
        return "xdr_overrun";
    }
    proto_item_set_generated(proto_tree_add_uint(tree, hf_reads, r->tvb, 0, 0, reads));
    proto_item_set_generated(proto_tree_add_uint(tree, hf_writes, r->tvb, 0, 0, writes));
    if (has_reply)
        proto_item_set_generated(proto_tree_add_uint(tree, hf_reply, r->tvb, 0, 0, nreply));
    proto_item_set_generated(proto_tree_add_uint(tree, hf_hdrlen, r->tvb, 0, 0, r->off));
    return NULL;
}

/* RDMA2_ERROR: rdma_err, named by the base, and its arguments */
static const char *
errhdr(v2_reader_t *r, proto_tree *tree, int base)
{
    const char *name;
    proto_item *ti;
    uint32_t err;
    int hf1, hf2;

    if (!rd_u32(r, &err)) {
        overrun(r, tree, "no rdma_err");
        return "xdr_overrun";
    }
    name = val_to_str_const(err, base == BASE_WC ? v2_errs_wc : v2_errs_01, "unknown");
    ti = proto_tree_add_item(tree, hf_err, r->tvb, r->off - 4, 4, ENC_BIG_ENDIAN);
    proto_item_append_text(ti, " (%s)", name);
    proto_item_set_generated(proto_tree_add_string(tree, hf_err_name, r->tvb, 0, 0, name));
    col_append_fstr(r->pinfo->cinfo, COL_INFO, " %s", name);
    if (err == V2_ERR_VERS) {
        hf1 = hf_vers_low;
        hf2 = hf_vers_high;
    } else if (base == BASE_WC && err == V2_WC_ERR_REPLY_RESOURCE) {
        hf1 = hf_seg_index;
        hf2 = hf_len_needed;
    } else {
        return NULL;
    }
    if (r->stop - r->off < 8) {
        overrun(r, tree, "%s: arguments", name);
        return "xdr_overrun";
    }
    proto_tree_add_item(tree, hf1, r->tvb, r->off, 4, ENC_BIG_ENDIAN);
    proto_tree_add_item(tree, hf2, r->tvb, r->off + 4, 4, ENC_BIG_ENDIAN);
    r->off += 8;
    return NULL;
}

static heur_ret_t
dissect_rpcrdma_v2_heur(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
                        void *data _U_)
{
    v2_reader_t r = { tvb, pinfo, V2_HDR_LEN, 0, false };
    const char *status;
    proto_tree *v2_tree;
    proto_item *root, *ti;
    uint32_t proc;

    if (tvb_captured_length(tvb) < V2_HDR_LEN ||
        tvb_get_ntohl(tvb, 4) != V2_VERSION)
        return false;
    proc = tvb_get_ntohl(tvb, 12);
    if (!try_val_to_str(proc, v2_procs))
        return false;
    col_set_str(pinfo->cinfo, COL_PROTOCOL, "RPCoRDMAv2");
    col_add_fstr(pinfo->cinfo, COL_INFO, "%s XID 0x%08x",
                 val_to_str_const(proc, v2_procs, ""), tvb_get_ntohl(tvb, 0));
    root = proto_tree_add_item(tree, proto_rpcrdma_v2, tvb, 0, -1, ENC_NA);
    v2_tree = proto_item_add_subtree(root, ett_v2);
    proto_tree_add_item(v2_tree, hf_xid, tvb, 0, 4, ENC_BIG_ENDIAN);
    proto_tree_add_item(v2_tree, hf_vers, tvb, 4, 4, ENC_BIG_ENDIAN);
    proto_tree_add_item(v2_tree, hf_credit, tvb, 8, 4, ENC_BIG_ENDIAN);
    proto_tree_add_item(v2_tree, hf_proc, tvb, 12, 4, ENC_BIG_ENDIAN);
    r.stop = (int)tvb_captured_length(tvb);
    if (proc == V2_PROC_OPTIONAL)
        status = optional(&r, v2_tree);
    else if (proc == V2_PROC_ERROR)
        status = errhdr(&r, v2_tree, v2_base);
    else
        status = msghdr(&r, v2_tree, v2_base);
    ti = proto_tree_add_string(v2_tree, hf_status, tvb, 0, 0, status ? status : "ok");
    proto_item_set_generated(ti);
    if (status)
        col_append_fstr(pinfo->cinfo, COL_INFO, " [%s]", status);
    return true;
}

void
rpcrdma_v2_register(void)
{
    static hf_register_info hf[] = {
        { &hf_status, { "Status", "rpcrdma.v2.status", FT_STRING, BASE_NONE, NULL, 0, NULL, HFILL }},
        { &hf_xid, { "XID", "rpcrdma.v2.xid", FT_UINT32, BASE_HEX, NULL, 0, NULL, HFILL }},
        { &hf_vers, { "Version", "rpcrdma.v2.vers", FT_UINT32, BASE_DEC, NULL, 0, NULL, HFILL }},
        { &hf_credit, { "Credits", "rpcrdma.v2.credit", FT_UINT32, BASE_DEC, NULL, 0, NULL, HFILL }},
        { &hf_proc, { "Procedure", "rpcrdma.v2.proc", FT_UINT32, BASE_DEC, VALS(v2_procs), 0, NULL, HFILL }},
        { &hf_optdir, { "Direction", "rpcrdma.v2.optdir", FT_UINT32, BASE_DEC, VALS(v2_dirs), 0, NULL, HFILL }},
        { &hf_opttype, { "Optional type", "rpcrdma.v2.opttype", FT_UINT32, BASE_DEC, VALS(v2_opts), 0, NULL, HFILL }},
        { &hf_infolen, { "rdma_optinfo length", "rpcrdma.v2.optinfo_len", FT_UINT32, BASE_DEC, NULL, 0, NULL, HFILL }},
        { &hf_err, { "Error", "rpcrdma.v2.err", FT_UINT32, BASE_DEC, NULL, 0, NULL, HFILL }},
        { &hf_err_name, { "Error name", "rpcrdma.v2.err_name", FT_STRING, BASE_NONE, NULL, 0, NULL, HFILL }},
        { &hf_vers_low, { "Lowest version", "rpcrdma.v2.vers_low", FT_UINT32, BASE_DEC, NULL, 0, NULL, HFILL }},
        { &hf_vers_high, { "Highest version", "rpcrdma.v2.vers_high", FT_UINT32, BASE_DEC, NULL, 0, NULL, HFILL }},
        { &hf_seg_index, { "Segment index", "rpcrdma.v2.segment_index", FT_UINT32, BASE_DEC, NULL, 0, NULL, HFILL }},
        { &hf_len_needed, { "Length needed", "rpcrdma.v2.length_needed", FT_UINT32, BASE_DEC, NULL, 0, NULL, HFILL }},
        { &hf_direction, { "Direction", "rpcrdma.v2.direction", FT_UINT32, BASE_DEC, VALS(v2_dirs), 0, NULL, HFILL }},
        { &hf_inv_handle, { "rdma_inv_handle", "rpcrdma.v2.inv_handle", FT_UINT32, BASE_HEX, NULL, 0, NULL, HFILL }},
        { &hf_reads, { "Read segments", "rpcrdma.v2.reads", FT_UINT32, BASE_DEC, NULL, 0, NULL, HFILL }},
        { &hf_writes, { "Write chunks", "rpcrdma.v2.writes", FT_UINT32, BASE_DEC, NULL, 0, NULL, HFILL }},
        { &hf_reply, { "Reply chunk segments", "rpcrdma.v2.reply_segments", FT_UINT32, BASE_DEC, NULL, 0, NULL, HFILL }},
        { &hf_hdrlen, { "Transport header length", "rpcrdma.v2.hdrlen", FT_UINT32, BASE_DEC, NULL, 0, NULL, HFILL }},
        { &hf_set, { "propvalset", "rpcrdma.v2.propset", FT_STRING, BASE_NONE, NULL, 0, NULL, HFILL }},
        { &hf_count, { "propvals", "rpcrdma.v2.propset.count", FT_UINT32, BASE_DEC, NULL, 0, NULL, HFILL }},
        { &hf_which, { "pv_which", "rpcrdma.v2.prop.which", FT_UINT32, BASE_DEC, VALS(v2_props), 0, NULL, HFILL }},
        { &hf_pos, { "Position", "rpcrdma.v2.prop.position", FT_UINT32, BASE_DEC, NULL, 0, NULL, HFILL }},
        { &hf_dlen, { "pv_data length", "rpcrdma.v2.prop.len", FT_UINT32, BASE_DEC, NULL, 0, NULL, HFILL }},
        { &hf_rbsiz, { "Receive Buffer Size", "rpcrdma.v2.prop.rbsiz", FT_UINT32, BASE_DEC, NULL, 0, NULL, HFILL }},
        { &hf_reqreminv, { "Requester Remote Invalidation", "rpcrdma.v2.prop.reqreminv", FT_UINT32, BASE_DEC, VALS(v2_bools), 0, NULL, HFILL }},
        { &hf_brs, { "Backward Request Support", "rpcrdma.v2.prop.brs", FT_UINT32, BASE_DEC, VALS(v2_bkreqsup), 0, NULL, HFILL }},
        { &hf_dflt, { "Default (zero-length pv_data)", "rpcrdma.v2.prop.default", FT_BOOLEAN, BASE_NONE, NULL, 0, NULL, HFILL }},
        { &hf_data, { "pv_data", "rpcrdma.v2.prop.data", FT_BYTES, BASE_NONE, NULL, 0, NULL, HFILL }},
        { &hf_subset, { "propvalsubset", "rpcrdma.v2.subset", FT_STRING, BASE_NONE, NULL, 0, NULL, HFILL }},
        { &hf_words, { "Words", "rpcrdma.v2.subset.words", FT_UINT32, BASE_DEC, NULL, 0, NULL, HFILL }},
        { &hf_members, { "Positions", "rpcrdma.v2.subset.positions", FT_STRING, BASE_NONE, NULL, 0, NULL, HFILL }},
    };
    static int *ett[] = { &ett_v2, &ett_v2_prop, &ett_v2_set, &ett_v2_subset };
    static ei_register_info ei[] = {
        { &ei_overrun, { "rpcrdma.v2.expert.xdr_overrun", PI_MALFORMED, PI_ERROR,
            "XDR error: runs past the end of the message", EXPFILL }},
        { &ei_propval, { "rpcrdma.v2.expert.bad_propval", PI_MALFORMED, PI_ERROR,
            "XDR error: known property too short or invalid", EXPFILL }},
        { &ei_dup, { "rpcrdma.v2.expert.duplicate_prop", PI_PROTOCOL, PI_WARN,
            "Property named again in one propvalset, skipped", EXPFILL }},
        { &ei_unknown, { "rpcrdma.v2.expert.unknown_prop", PI_PROTOCOL, PI_NOTE,
            "Unknown property, skipped", EXPFILL }},
        { &ei_opttype, { "rpcrdma.v2.expert.unknown_opttype", PI_PROTOCOL, PI_WARN,
            "Unknown rdma_opttype (RDMA2_ERR_INVAL_OPTION)", EXPFILL }},
    };
    module_t *prefs;

    proto_rpcrdma_v2 = proto_register_protocol(
        "RPC-over-RDMA Version Two, transport properties (experimental)",
        "RPCoRDMAv2", "rpcrdma.v2");
    proto_register_field_array(proto_rpcrdma_v2, hf, array_length(hf));
    proto_register_subtree_array(ett, array_length(ett));
    expert_register_field_array(expert_register_protocol(proto_rpcrdma_v2),
                                ei, array_length(ei));
    prefs = prefs_register_protocol(proto_rpcrdma_v2, NULL);
    prefs_register_enum_preference(prefs, "base", "Version Two text",
        "The Version Two text headers and error codes follow: version-two-01, "
        "which xcharext-03 cites, or the authors' working copy of 2016-11-10",
        &v2_base, v2_bases, false);
}

void
rpcrdma_v2_handoff(void)
{
    heur_dissector_add("infiniband.payload", dissect_rpcrdma_v2_heur,
                       "RPC-over-RDMA Version Two (experimental)",
                       "rpcrdma_v2_infiniband", proto_rpcrdma_v2, HEURISTIC_ENABLE);
    heur_dissector_add("iwarp_ddp_rdmap", dissect_rpcrdma_v2_heur,
                       "RPC-over-RDMA Version Two (experimental)",
                       "rpcrdma_v2_iwarp", proto_rpcrdma_v2, HEURISTIC_ENABLE);
}
