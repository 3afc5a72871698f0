/* SPDX-License-Identifier: GPL-2.0-or-later */
/* packet-rpcrdma-cm.c
 * RPC-over-RDMA Version 1 connection private data (RFC 8797), and what
 * it negotiates, shown on the RPC-over-RDMA messages of the connection.
 *
 * RFC 8797 puts an 8-octet message in the RDMA-CM private data each end
 * sends when an NFS/RDMA connection is set up: Format Identifier
 * 0xf6ab0e18, Version 1, 7 reserved bits and R (the sender takes part
 * in remote invalidation), and the Send and Receive Sizes, encoded as
 * octets / 1024 - 1. This dissector finds it
 *   - in the consumer private data of the InfiniBand CM ConnectRequest
 *     and ConnectReply (InfiniBand, RoCE, RoCEv2), through the
 *     "infiniband.mad.cm.private" heuristic table;
 *   - in the private data of the iWARP MPA request and reply, after the
 *     IRD/ORD header of MPA revision 2 with the Enhanced flag (RFC 6581),
 *     through the "iwarp_mpa.private" heuristic table (the plugin, for
 *     Wireshark releases whose MPA dissector hands its private data to
 *     nobody, finds it as a postdissector from the iwarp_mpa fields).
 * It searches for the message the way RFC 8797 Section 5.2 asks, at any
 * offset, and judges it as the Linux codec (rpcrdma_pdata.c) does: the
 * first valid candidate wins, otherwise the first candidate's fault.
 *
 * Per connection it pairs the two messages and computes the inline
 * threshold of each direction (the sender's Send Size and the receiver's
 * Receive Size, whichever is smaller) and whether remote invalidation is
 * allowed (both set R); absent messages count as R clear and 1024
 * octets (Section 5.1). Every RDMA Send of the connection then shows
 * them, with an expert info when a Send exceeds its direction's
 * threshold or is a Send With Invalidate although one side cleared R
 * (Section 4.1).
 *
 * Part of rpcrdma-cm (Documentation/wireshark.md); the field names and
 * values are those of tools/wireshark/rpcrdma_cm.lua, under "rpcrdma".
 */

#ifndef RPCRDMA_CM_UPSTREAM
#include "rpcrdma-cm-compat.h"
#endif

#include <epan/packet.h>
#include <epan/expert.h>
#include <epan/proto_data.h>
#include <epan/to_str.h>
#include <epan/dissectors/packet-infiniband.h>
#include <epan/dissectors/packet-iwarp-ddp-rdmap.h>

#ifndef RPCRDMA_CM_UPSTREAM
void proto_register_rpcrdma_cm(void);
void proto_reg_handoff_rpcrdma_cm(void);
#endif

#define RPCRDMA_CM_FORMAT_ID    0xf6ab0e18
#define RPCRDMA_CM_MSG_LEN      8
#define RPCRDMA_CM_VERSION      1
#define RPCRDMA_CM_SIZE_UNIT    1024
#define RPCRDMA_CM_FLAG_R       0x01
#define RPCRDMA_CM_FLAGS_RSVD   0xfe

#ifndef RPCRDMA_CM_UPSTREAM
#define MPA_KEY_LEN             16
#define MPA_HDR_LEN             20      /* key, flags, revision, length */
#define MPA_FLAG_ENHANCED       0x10
#define MPA_V2_IRD_ORD_LEN      4       /* RFC 6581 */
#endif

/* What follows the BTH of an RC Send (its opcodes: packet-infiniband.h) */
#define IB_UDP_HDR_LEN          8
#define IB_BTH_LEN              12
#define IB_EXT_LEN              4       /* ImmDt or IETH */
#define IB_ICRC_LEN             4

/* The untagged DDP header (the RDMAP opcodes: packet-iwarp-ddp-rdmap.h) */
#define DDP_UNTAGGED_HDR_LEN    18      /* control 2, STag 4, QN, MSN, MO */

static const char *const defaults_text =
    "the peer gets the defaults: R clear, Send and Receive Size 1024";

#ifndef RPCRDMA_CM_UPSTREAM
static int proto_rpcrdma = -1;
#endif

static int hf_cm_carrier = -1;
static int hf_cm_status = -1;
#ifndef RPCRDMA_CM_UPSTREAM
static int hf_cm_mpa_ird_ord = -1;
static int hf_cm_mpa_ird = -1;
static int hf_cm_mpa_ord = -1;
static int hf_cm_mpa_p2p = -1;
static int hf_cm_mpa_zero_rtr = -1;
static int hf_cm_mpa_write_rtr = -1;
static int hf_cm_mpa_read_rtr = -1;
#endif
static int hf_cm_length = -1;
static int hf_cm_offset = -1;
static int hf_cm_format_id = -1;
static int hf_cm_version = -1;
static int hf_cm_flags = -1;
static int hf_cm_flags_reserved = -1;
static int hf_cm_flags_r = -1;
static int hf_cm_send_size = -1;
static int hf_cm_send_size_enc = -1;
static int hf_cm_recv_size = -1;
static int hf_cm_recv_size_enc = -1;

static int hf_conn = -1;
static int hf_conn_req_frame = -1;
static int hf_conn_rep_frame = -1;
static int hf_conn_direction = -1;
static int hf_conn_threshold = -1;
static int hf_conn_threshold_c2s = -1;
static int hf_conn_threshold_s2c = -1;
static int hf_conn_client_r = -1;
static int hf_conn_server_r = -1;
static int hf_conn_remote_inv = -1;
static int hf_conn_send_len = -1;
static int hf_conn_send_inv = -1;

static int ett_rpcrdma_cm = -1;
static int ett_rpcrdma_cm_flags = -1;
static int ett_rpcrdma_cm_size = -1;
#ifndef RPCRDMA_CM_UPSTREAM
static int ett_rpcrdma_cm_mpa = -1;
#endif
static int ett_rpcrdma_conn = -1;

static expert_field ei_cm_truncated;
static expert_field ei_cm_bad_version;
static expert_field ei_cm_reserved;
static expert_field ei_cm_offset;
#ifndef RPCRDMA_CM_UPSTREAM
static expert_field ei_cm_mpa_short;
#endif
static expert_field ei_conn_over_threshold;
static expert_field ei_conn_inv_without_r;

/* Fields of Wireshark's own dissectors this one reads */
static int fid_ib_req_private = -1;
static int fid_ib_req_ipcm_private = -1;
static int fid_ib_rep_private = -1;
static int fid_ib_req_commid = -1;
static int fid_ib_req_qpn = -1;
static int fid_ib_rep_remote_commid = -1;
static int fid_ib_rep_qpn = -1;
static int fid_ib_opcode = -1;
static int fid_ib_destqp = -1;
static int fid_ib_psn = -1;
static int fid_ib_padcnt = -1;
static int fid_udp_length = -1;
static int fid_ip_src = -1;
static int fid_ip_dst = -1;
static int fid_ipv6_src = -1;
static int fid_ipv6_dst = -1;
static int fid_tcp_srcport = -1;
static int fid_tcp_dstport = -1;
#ifndef RPCRDMA_CM_UPSTREAM
static int fid_mpa_key_req = -1;
static int fid_mpa_key_rep = -1;
#endif
static int fid_mpa_ulpdu_len = -1;
static int fid_ddp_qn = -1;
static int fid_ddp_msn = -1;
static int fid_ddp_mo = -1;
static int fid_ddp_last = -1;
static int fid_rdma_opcode = -1;

static dissector_handle_t rpcrdma_cm_post_handle;

/* What rpcrdma_pdata_parse() calls its verdicts */
typedef enum {
    CM_NO_DATA,
    CM_NO_IDENT,
    CM_TRUNCATED,
    CM_BAD_VERSION,
    CM_PRESENT
} cm_status_t;

static const char *const cm_status_names[] = {
    [CM_NO_DATA]     = "no_data",
    [CM_NO_IDENT]    = "no_ident",
    [CM_TRUNCATED]   = "truncated",
    [CM_BAD_VERSION] = "bad_version",
    [CM_PRESENT]     = "present",
};

/* One end's message, as the connection uses it */
typedef struct {
    bool     r;
    uint32_t send_size;
    uint32_t recv_size;
} cm_values_t;

/* A connection: the two messages, once seen */
typedef struct {
    uint32_t    req_frame;
    uint32_t    rep_frame;
    cm_values_t client;
    cm_values_t server;
} cm_conn_t;

/* Where packets to one end of a connection go: which way they flow */
typedef struct {
    cm_conn_t *conn;
    bool       c2s;
} cm_path_t;

/* A Send of this frame, found on the first pass */
typedef struct {
    cm_path_t path;
    uint32_t  length;           /* octets so far; all of them once done */
    bool      done;             /* this frame ends the Send */
    bool      inv;              /* Send With Invalidate */
} cm_send_t;

/* Sends being put together: IB by path, iWARP by path and MSN */
typedef struct {
    uint32_t length;
    uint32_t last_psn;
} cm_partial_t;

/* File-scoped state, emptied with the file */
static wmem_map_t *ib_pending;  /* "client/commid" -> cm_conn_t */
static wmem_map_t *paths;       /* "dst/qpn" or "src>dst" -> cm_path_t */
static wmem_map_t *partials;    /* path key [+ "/msn"] -> cm_partial_t */

static uint32_t
cm_decode_size(uint8_t encoded)
{
    return ((uint32_t)encoded + 1) * RPCRDMA_CM_SIZE_UNIT;
}

static cm_status_t
cm_judge(tvbuff_t *tvb, int off)
{
    if (tvb_reported_length_remaining(tvb, off) < RPCRDMA_CM_MSG_LEN)
        return CM_TRUNCATED;
    if (tvb_get_uint8(tvb, off + 4) != RPCRDMA_CM_VERSION)
        return CM_BAD_VERSION;
    return CM_PRESENT;
}

/*
 * RFC 8797 Section 5.2: the Format Identifier may be at any offset. The
 * first valid message wins; without one, the first candidate's fault is
 * the verdict, and *offp where that candidate starts (-1 without any).
 */
static cm_status_t
cm_find(tvbuff_t *tvb, int *offp)
{
    int len = tvb_captured_length(tvb);
    cm_status_t first = CM_NO_IDENT;
    int off;

    *offp = -1;
    if (len == 0)
        return CM_NO_DATA;
    for (off = 0; off + 4 <= len; off++) {
        cm_status_t status;

        if (tvb_get_ntohl(tvb, off) != RPCRDMA_CM_FORMAT_ID)
            continue;
        status = cm_judge(tvb, off);
        if (status == CM_PRESENT) {
            *offp = off;
            return status;
        }
        if (*offp < 0) {
            first = status;
            *offp = off;
        }
    }
    return first;
}

/* The values a connection uses from one end's private data (Section 5.1) */
static cm_values_t
cm_values(tvbuff_t *tvb)
{
    cm_values_t v = { false, RPCRDMA_CM_SIZE_UNIT, RPCRDMA_CM_SIZE_UNIT };
    int off;

    if (tvb && cm_find(tvb, &off) == CM_PRESENT) {
        v.r = tvb_get_uint8(tvb, off + 5) & RPCRDMA_CM_FLAG_R;
        v.send_size = cm_decode_size(tvb_get_uint8(tvb, off + 6));
        v.recv_size = cm_decode_size(tvb_get_uint8(tvb, off + 7));
    }
    return v;
}

static void
cm_add_size(proto_tree *tree, int hf, int hf_enc, tvbuff_t *tvb, int off)
{
    uint8_t enc = tvb_get_uint8(tvb, off);
    proto_item *ti;

    ti = proto_tree_add_uint(tree, hf, tvb, off, 1, cm_decode_size(enc));
    proto_tree_add_item(proto_item_add_subtree(ti, ett_rpcrdma_cm_size),
                        hf_enc, tvb, off, 1, ENC_BIG_ENDIAN);
}

/* A valid message at @off; returns the Info column's summary */
static const char *
cm_add_message(proto_tree *tree, packet_info *pinfo, tvbuff_t *tvb, int off)
{
    static int *const flags[] = {
        &hf_cm_flags_reserved,
        &hf_cm_flags_r,
        NULL
    };
    uint8_t fl = tvb_get_uint8(tvb, off + 5);
    proto_item *ti;

    proto_tree_add_item(tree, hf_cm_version, tvb, off + 4, 1, ENC_BIG_ENDIAN);
    ti = proto_tree_add_bitmask(tree, tvb, off + 5, hf_cm_flags,
                                ett_rpcrdma_cm_flags, flags, ENC_BIG_ENDIAN);
    if (fl & RPCRDMA_CM_FLAGS_RSVD)
        expert_add_info_format(pinfo, ti, &ei_cm_reserved,
                               "Reserved bits set (flags 0x%02x): senders must send zero, receivers ignore them",
                               fl);
    cm_add_size(tree, hf_cm_send_size, hf_cm_send_size_enc, tvb, off + 6);
    cm_add_size(tree, hf_cm_recv_size, hf_cm_recv_size_enc, tvb, off + 7);
    return wmem_strdup_printf(pinfo->pool, "R=%d send %u recv %u",
                              fl & RPCRDMA_CM_FLAG_R,
                              cm_decode_size(tvb_get_uint8(tvb, off + 6)),
                              cm_decode_size(tvb_get_uint8(tvb, off + 7)));
}

/*
 * Decode the private data @tvb (NULL: none) a @carrier brought; @anchor
 * is the item the protocol's tree hangs from without any. Returns the
 * protocol's tree.
 */
static proto_tree *
cm_dissect_pdata(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
                 const char *carrier, tvbuff_t *anchor, int anchor_len)
{
    int len = tvb ? (int)tvb_captured_length(tvb) : 0;
    cm_status_t status = CM_NO_DATA;
    proto_tree *cm_tree;
    proto_item *ti, *root;
    const char *summary;
    int off = -1;

    if (tvb)
        status = cm_find(tvb, &off);
    if (tvb)
        root = proto_tree_add_item(tree, proto_rpcrdma, tvb, 0, -1, ENC_NA);
    else
        root = proto_tree_add_item(tree, proto_rpcrdma, anchor, 0, anchor_len, ENC_NA);
    cm_tree = proto_item_add_subtree(root, ett_rpcrdma_cm);

    ti = proto_tree_add_string(cm_tree, hf_cm_carrier, tvb ? tvb : anchor, 0, 0, carrier);
    proto_item_set_generated(ti);
    ti = proto_tree_add_string(cm_tree, hf_cm_status, tvb ? tvb : anchor, 0, 0,
                               cm_status_names[status]);
    proto_item_set_generated(ti);
    ti = proto_tree_add_uint(cm_tree, hf_cm_length, tvb ? tvb : anchor, 0, 0, len);
    proto_item_set_generated(ti);
    if (off >= 0) {
        int at = MIN(RPCRDMA_CM_MSG_LEN, len - off);

        ti = proto_tree_add_uint(cm_tree, hf_cm_offset, tvb, off, at, off);
        proto_item_set_generated(ti);
        proto_tree_add_item(cm_tree, hf_cm_format_id, tvb, off, 4, ENC_BIG_ENDIAN);
    }

    switch (status) {
    case CM_PRESENT:
        if (off != 0)
            expert_add_info_format(pinfo, root, &ei_cm_offset,
                                   "Format Identifier at offset %d, not at the start of the private data",
                                   off);
        summary = cm_add_message(cm_tree, pinfo, tvb, off);
        break;
    case CM_TRUNCATED:
        expert_add_info_format(pinfo, root, &ei_cm_truncated,
                               "Truncated: the private data ends %d octets into the %d-octet message at offset %d; %s",
                               len - off, RPCRDMA_CM_MSG_LEN, off, defaults_text);
        summary = "truncated";
        break;
    case CM_BAD_VERSION:
        proto_tree_add_item(cm_tree, hf_cm_version, tvb, off + 4, 1, ENC_BIG_ENDIAN);
        expert_add_info_format(pinfo, root, &ei_cm_bad_version,
                               "Unknown Version %u: a Version 1 receiver ignores the message; %s",
                               tvb_get_uint8(tvb, off + 4), defaults_text);
        summary = wmem_strdup_printf(pinfo->pool, "unknown version %u",
                                     tvb_get_uint8(tvb, off + 4));
        break;
    default:
        summary = "absent";
        break;
    }
    proto_item_append_text(root, ", %s: %s", carrier, summary);
    col_append_fstr(pinfo->cinfo, COL_INFO, " [RFC 8797 %s]", summary);
    return cm_tree;
}

/*
 * The "infiniband.mad.cm.private" heuristic: the consumer private data
 * of a CM REQ (after rdma_cm's IP CM header, when the Service ID names
 * one) or REP. Claims it only when it holds a Format Identifier: other
 * consumers (iSER, NVMe-RDMA, SDP, LNet) have their own formats.
 */
static heur_ret_t
dissect_rpcrdma_cm_ib_heur(tvbuff_t *tvb, packet_info *pinfo,
                           proto_tree *tree, void *data)
{
    struct infinibandinfo *info = (struct infinibandinfo *)data;
    const char *carrier;
    int off;

    if (!info)
        return false;
    if (info->cm_attribute_id == ATTR_CM_REQ)
        carrier = "IB CM REQ";
    else if (info->cm_attribute_id == ATTR_CM_REP)
        carrier = "IB CM REP";
    else
        return false;
    if (cm_find(tvb, &off) < CM_TRUNCATED)
        return false;
    cm_dissect_pdata(tvb, pinfo, tree, carrier, tvb, 0);
    return true;
}

/* The first field_info of @hf in @tree, NULL without one */
static field_info *
first_finfo(proto_tree *tree, int hf)
{
    GPtrArray *a;

    if (hf < 0)
        return NULL;
    a = proto_get_finfo_ptr_array(tree, hf);
    if (!a || a->len == 0)
        return NULL;
    return (field_info *)g_ptr_array_index(a, 0);
}

static bool
first_uint(proto_tree *tree, int hf, uint32_t *v)
{
    field_info *fi = first_finfo(tree, hf);

    if (!fi)
        return false;
    *v = (uint32_t)fvalue_get_uinteger(FI_VALUE(fi));
    return true;
}

/* The octets a field covers, as a tvb */
static tvbuff_t *
finfo_tvb(field_info *fi)
{
    if (!fi || !fi->ds_tvb || fi->length <= 0)
        return NULL;
    return tvb_new_subset_length(fi->ds_tvb, fi->start, fi->length);
}

static cm_path_t *
path_add(const char *key, cm_conn_t *conn, bool c2s)
{
    cm_path_t *p = wmem_new(wmem_file_scope(), cm_path_t);

    p->conn = conn;
    p->c2s = c2s;
    wmem_map_insert(paths, wmem_strdup(wmem_file_scope(), key), p);
    return p;
}

static const char *
addr_key(packet_info *pinfo, const address *a, uint32_t id)
{
    return wmem_strdup_printf(pinfo->pool, "%s/%u",
                              address_to_str(pinfo->pool, a), id);
}

static const char *
tcp_key(packet_info *pinfo, const address *src, uint32_t sport,
        const address *dst, uint32_t dport)
{
    return wmem_strdup_printf(pinfo->pool, "%s:%u>%s:%u",
                              address_to_str(pinfo->pool, src), sport,
                              address_to_str(pinfo->pool, dst), dport);
}

/*
 * The key of one end of an IB connection, from the frame's source or
 * destination: the (outermost) IP address on RoCEv2, where the CM
 * messages' pinfo->src may be a LID; pinfo's address on native IB.
 */
static const char *
ib_key(proto_tree *tree, packet_info *pinfo, bool src, uint32_t id)
{
    field_info *fi = first_finfo(tree, src ? fid_ip_src : fid_ip_dst);

    if (!fi)
        fi = first_finfo(tree, src ? fid_ipv6_src : fid_ipv6_dst);
    if (fi && fi->ds_tvb && fi->length > 0)
        return wmem_strdup_printf(pinfo->pool, "%s/%u",
                                  tvb_bytes_to_str(pinfo->pool, fi->ds_tvb,
                                                   fi->start, fi->length),
                                  id);
    return addr_key(pinfo, src ? &pinfo->src : &pinfo->dst, id);
}

/* First pass: learn IB connections from their CM REQ and REP */
static void
track_ib_cm(proto_tree *tree, packet_info *pinfo)
{
    uint32_t commid, qpn;
    field_info *fi;
    cm_conn_t *conn;

    fi = first_finfo(tree, fid_ib_req_ipcm_private);
    if (!fi)
        fi = first_finfo(tree, fid_ib_req_private);
    if (fi && first_uint(tree, fid_ib_req_commid, &commid) &&
        first_uint(tree, fid_ib_req_qpn, &qpn)) {
        conn = wmem_new0(wmem_file_scope(), cm_conn_t);
        conn->req_frame = pinfo->num;
        conn->client = cm_values(finfo_tvb(fi));
        conn->server = cm_values(NULL);
        wmem_map_insert(ib_pending,
                        wmem_strdup(wmem_file_scope(),
                                    ib_key(tree, pinfo, true, commid)),
                        conn);
        /* what the server sends goes to the client's QP */
        path_add(ib_key(tree, pinfo, true, qpn), conn, false);
        return;
    }
    fi = first_finfo(tree, fid_ib_rep_private);
    if (fi && first_uint(tree, fid_ib_rep_remote_commid, &commid) &&
        first_uint(tree, fid_ib_rep_qpn, &qpn)) {
        conn = (cm_conn_t *)wmem_map_lookup(ib_pending,
                                            ib_key(tree, pinfo, false, commid));
        if (!conn || conn->rep_frame)
            return;
        conn->rep_frame = pinfo->num;
        conn->server = cm_values(finfo_tvb(fi));
        path_add(ib_key(tree, pinfo, true, qpn), conn, true);
    }
}

/* First pass: an RC Send packet of a known connection */
static void
track_ib_send(proto_tree *tree, packet_info *pinfo, wmem_array_t *sends)
{
    uint32_t op, qpn, psn = 0, pad = 0, udp_len;
    const char *key;
    cm_path_t *path;
    cm_partial_t *part;
    cm_send_t s;
    int len;

    if (!first_uint(tree, fid_ib_opcode, &op) ||
        !first_uint(tree, fid_ib_destqp, &qpn))
        return;
    switch (op) {
    case RC_SEND_FIRST: case RC_SEND_MIDDLE: case RC_SEND_LAST:
    case RC_SEND_LAST_IMM: case RC_SEND_ONLY: case RC_SEND_ONLY_IMM:
    case RC_SEND_LAST_INVAL: case RC_SEND_ONLY_INVAL:
        break;
    default:
        return;
    }
    key = ib_key(tree, pinfo, false, qpn);
    path = (cm_path_t *)wmem_map_lookup(paths, key);
    if (!path || !path->conn->rep_frame)
        return;
    /* the payload's length: RoCEv2 only, where UDP gives it */
    if (!first_uint(tree, fid_udp_length, &udp_len))
        return;
    first_uint(tree, fid_ib_psn, &psn);
    first_uint(tree, fid_ib_padcnt, &pad);
    len = (int)udp_len - IB_UDP_HDR_LEN - IB_BTH_LEN - (int)pad - IB_ICRC_LEN;
    if (op == RC_SEND_LAST_IMM || op == RC_SEND_ONLY_IMM ||
        op == RC_SEND_LAST_INVAL || op == RC_SEND_ONLY_INVAL)
        len -= IB_EXT_LEN;
    if (len < 0)
        return;

    part = (cm_partial_t *)wmem_map_lookup(partials, key);
    if (op == RC_SEND_FIRST || op == RC_SEND_ONLY ||
        op == RC_SEND_ONLY_IMM || op == RC_SEND_ONLY_INVAL) {
        if (!part) {
            part = wmem_new0(wmem_file_scope(), cm_partial_t);
            wmem_map_insert(partials, wmem_strdup(wmem_file_scope(), key), part);
        }
        part->length = 0;
    } else if (!part || part->last_psn == psn) {
        return;         /* began before the capture, or a retransmission */
    }
    part->length += len;
    part->last_psn = psn;

    s.path = *path;
    s.length = part->length;
    s.done = op != RC_SEND_FIRST && op != RC_SEND_MIDDLE;
    s.inv = op == RC_SEND_LAST_INVAL || op == RC_SEND_ONLY_INVAL;
    wmem_array_append_one(sends, s);
}

/* The field_info of @a nearest @fi in its tvb: the last one before it
 * (@before) or the first one after it */
static field_info *
near_finfo(GPtrArray *a, field_info *fi, bool before)
{
    field_info *best = NULL;
    unsigned i;

    for (i = 0; a && i < a->len; i++) {
        field_info *f = (field_info *)g_ptr_array_index(a, i);

        if (f->ds_tvb != fi->ds_tvb)
            continue;
        if (before && f->start <= fi->start &&
            (!best || f->start > best->start))
            best = f;
        if (!before && f->start >= fi->start &&
            (!best || f->start < best->start))
            best = f;
    }
    return best;
}

/* First pass: the untagged Sends (DDP queue 0) of an iWARP frame */
static void
track_iwarp_sends(proto_tree *tree, packet_info *pinfo, const char *key,
                  cm_path_t *path, wmem_array_t *sends)
{
    GPtrArray *qns = proto_get_finfo_ptr_array(tree, fid_ddp_qn);
    GPtrArray *ops = proto_get_finfo_ptr_array(tree, fid_rdma_opcode);
    GPtrArray *ulens = proto_get_finfo_ptr_array(tree, fid_mpa_ulpdu_len);
    GPtrArray *msns = proto_get_finfo_ptr_array(tree, fid_ddp_msn);
    GPtrArray *mos = proto_get_finfo_ptr_array(tree, fid_ddp_mo);
    GPtrArray *lasts = proto_get_finfo_ptr_array(tree, fid_ddp_last);
    unsigned i;

    for (i = 0; qns && i < qns->len; i++) {
        field_info *qn = (field_info *)g_ptr_array_index(qns, i);
        field_info *op, *ulen, *msn, *mo, *last;
        const char *pkey;
        cm_partial_t *part;
        uint32_t opcode, end;
        cm_send_t s;

        if (fvalue_get_uinteger(FI_VALUE(qn)) != 0)
            continue;
        op = near_finfo(ops, qn, true);
        ulen = near_finfo(ulens, qn, true);
        msn = near_finfo(msns, qn, false);
        mo = near_finfo(mos, qn, false);
        last = near_finfo(lasts, qn, true);
        if (!op || !ulen || !msn || !mo || !last)
            continue;
        opcode = (uint32_t)fvalue_get_uinteger(FI_VALUE(op));
        if (opcode < RDMA_SEND || opcode > RDMA_SEND_SE_INVALIDATE)
            continue;
        end = (uint32_t)fvalue_get_uinteger(FI_VALUE(mo)) +
              (uint32_t)fvalue_get_uinteger(FI_VALUE(ulen)) - DDP_UNTAGGED_HDR_LEN;
        pkey = wmem_strdup_printf(pinfo->pool, "%s/%u", key,
                                  (uint32_t)fvalue_get_uinteger(FI_VALUE(msn)));
        part = (cm_partial_t *)wmem_map_lookup(partials, pkey);
        if (!part) {
            part = wmem_new0(wmem_file_scope(), cm_partial_t);
            wmem_map_insert(partials, wmem_strdup(wmem_file_scope(), pkey), part);
        }
        part->length = MAX(part->length, end);

        s.path = *path;
        s.length = part->length;
        s.done = fvalue_get_uinteger64(FI_VALUE(last)) != 0;
        s.inv = opcode == RDMA_SEND_INVALIDATE || opcode == RDMA_SEND_SE_INVALIDATE;
        wmem_array_append_one(sends, s);
    }
}

/* First pass: an MPA request opens an iWARP connection, its reply
 * completes it; @pdata is the consumer's private data (NULL: none) */
static void
track_mpa(packet_info *pinfo, tvbuff_t *pdata, bool request,
          uint32_t sport, uint32_t dport)
{
    if (PINFO_FD_VISITED(pinfo))
        return;
    if (request) {
        cm_conn_t *conn = wmem_new0(wmem_file_scope(), cm_conn_t);

        conn->req_frame = pinfo->num;
        conn->client = cm_values(pdata);
        conn->server = cm_values(NULL);
        path_add(tcp_key(pinfo, &pinfo->src, sport, &pinfo->dst, dport), conn, true);
        path_add(tcp_key(pinfo, &pinfo->dst, dport, &pinfo->src, sport), conn, false);
    } else {
        cm_path_t *p = (cm_path_t *)wmem_map_lookup(paths,
            tcp_key(pinfo, &pinfo->src, sport, &pinfo->dst, dport));

        if (p && !p->c2s && !p->conn->rep_frame) {
            p->conn->rep_frame = pinfo->num;
            p->conn->server = cm_values(pdata);
        }
    }
}

#ifdef RPCRDMA_CM_UPSTREAM
/*
 * The "iwarp_mpa.private" heuristic: the consumer private data of an
 * MPA request or reply, after the MPA v2 IRD/ORD header; @data points
 * to the MPA message type (1 request, 2 reply). Claims it only when it
 * holds a Format Identifier, but learns the connection in any case: an
 * NFS/RDMA peer without the message gets the defaults (Section 5.1).
 */
static heur_ret_t
dissect_rpcrdma_cm_mpa_heur(tvbuff_t *tvb, packet_info *pinfo,
                            proto_tree *tree, void *data)
{
    bool request = data && *(const int *)data == 1;
    int off;

    if (!data)
        return false;
    track_mpa(pinfo, tvb_captured_length(tvb) ? tvb : NULL, request,
              pinfo->srcport, pinfo->destport);
    if (cm_find(tvb, &off) < CM_TRUNCATED)
        return false;
    cm_dissect_pdata(tvb, pinfo, tree, request ? "MPA request" : "MPA reply",
                     tvb, 0);
    return true;
}
#else
/* The MPA v2 IRD/ORD header (RFC 6581) the plugin skipped: the MPA
 * dissector of Wireshark 4.4 and older shows it as private data */
static void
cm_add_ird_ord(proto_tree *cm_tree, tvbuff_t *ird_ord)
{
    proto_tree *mpa_tree;
    proto_item *ti;

    ti = proto_tree_add_item(cm_tree, hf_cm_mpa_ird_ord, ird_ord, 0,
                             MPA_V2_IRD_ORD_LEN, ENC_NA);
    mpa_tree = proto_item_add_subtree(ti, ett_rpcrdma_cm_mpa);
    proto_tree_add_item(mpa_tree, hf_cm_mpa_p2p, ird_ord, 0, 2, ENC_BIG_ENDIAN);
    proto_tree_add_item(mpa_tree, hf_cm_mpa_zero_rtr, ird_ord, 0, 2, ENC_BIG_ENDIAN);
    proto_tree_add_item(mpa_tree, hf_cm_mpa_ird, ird_ord, 0, 2, ENC_BIG_ENDIAN);
    proto_tree_add_item(mpa_tree, hf_cm_mpa_write_rtr, ird_ord, 2, 2, ENC_BIG_ENDIAN);
    proto_tree_add_item(mpa_tree, hf_cm_mpa_read_rtr, ird_ord, 2, 2, ENC_BIG_ENDIAN);
    proto_tree_add_item(mpa_tree, hf_cm_mpa_ord, ird_ord, 2, 2, ENC_BIG_ENDIAN);
}

/* An MPA request or reply, found by the key field the MPA dissector
 * adds: skip (and show) the IRD/ORD header, decode what follows, and
 * on the first pass learn or complete its connection */
static void
dissect_mpa_frame(proto_tree *tree, packet_info *pinfo, field_info *key,
                  bool request, uint32_t sport, uint32_t dport)
{
    tvbuff_t *tvb = key->ds_tvb, *pdata = NULL, *ird_ord = NULL;
    const char *carrier = request ? "MPA request" : "MPA reply";
    int hdr = key->start + MPA_KEY_LEN, start, len, off;
    uint8_t flags, rev;

    if (tvb_captured_length_remaining(tvb, key->start) < MPA_HDR_LEN)
        return;
    flags = tvb_get_uint8(tvb, hdr);
    rev = tvb_get_uint8(tvb, hdr + 1);
    start = key->start + MPA_HDR_LEN;
    len = MIN((int)tvb_get_ntohs(tvb, hdr + 2),
              (int)tvb_captured_length_remaining(tvb, start));

    /* RFC 6581: Enhanced MPA puts IRD/ORD ahead of the consumer's data */
    if (rev == 2 && (flags & MPA_FLAG_ENHANCED)) {
        if (len < MPA_V2_IRD_ORD_LEN) {
            proto_item *root, *ti;
            proto_tree *cm_tree;

            root = proto_tree_add_item(tree, proto_rpcrdma, tvb, key->start,
                                       MPA_HDR_LEN, ENC_NA);
            cm_tree = proto_item_add_subtree(root, ett_rpcrdma_cm);
            ti = proto_tree_add_string(cm_tree, hf_cm_carrier, tvb, key->start, 0, carrier);
            proto_item_set_generated(ti);
            expert_add_info_format(pinfo, root, &ei_cm_mpa_short,
                                   "MPA v2 private data is %d octets, shorter than its %d-octet IRD/ORD header",
                                   len, MPA_V2_IRD_ORD_LEN);
            return;
        }
        ird_ord = tvb_new_subset_length(tvb, start, MPA_V2_IRD_ORD_LEN);
        start += MPA_V2_IRD_ORD_LEN;
        len -= MPA_V2_IRD_ORD_LEN;
    }
    if (len > 0)
        pdata = tvb_new_subset_length(tvb, start, len);
    if (pdata && cm_find(pdata, &off) >= CM_TRUNCATED) {
        proto_tree *cm_tree = cm_dissect_pdata(pdata, pinfo, tree, carrier, tvb, 0);

        if (ird_ord)
            cm_add_ird_ord(cm_tree, ird_ord);
    }
    track_mpa(pinfo, pdata, request, sport, dport);
}
#endif

/* The connection's negotiated values on one of its Sends */
static void
show_send(proto_tree *tree, packet_info *pinfo, tvbuff_t *tvb, const cm_send_t *s)
{
    const cm_conn_t *c = s->path.conn;
    uint32_t c2s = MIN(c->client.send_size, c->server.recv_size);
    uint32_t s2c = MIN(c->server.send_size, c->client.recv_size);
    uint32_t thresh = s->path.c2s ? c2s : s2c;
    bool both_r = c->client.r && c->server.r;
    proto_tree *conn_tree;
    proto_item *root, *ti;

    root = proto_tree_add_item(tree, hf_conn, tvb, 0, 0, ENC_NA);
    proto_item_append_text(root, ": %s, threshold %u, remote invalidation %s",
                           s->path.c2s ? "client to server" : "server to client",
                           thresh, both_r ? "allowed" : "not allowed");
    proto_item_set_generated(root);
    conn_tree = proto_item_add_subtree(root, ett_rpcrdma_conn);
    ti = proto_tree_add_uint(conn_tree, hf_conn_req_frame, tvb, 0, 0, c->req_frame);
    proto_item_set_generated(ti);
    ti = proto_tree_add_uint(conn_tree, hf_conn_rep_frame, tvb, 0, 0, c->rep_frame);
    proto_item_set_generated(ti);
    ti = proto_tree_add_string(conn_tree, hf_conn_direction, tvb, 0, 0,
                               s->path.c2s ? "client to server" : "server to client");
    proto_item_set_generated(ti);
    ti = proto_tree_add_uint(conn_tree, hf_conn_threshold_c2s, tvb, 0, 0, c2s);
    proto_item_set_generated(ti);
    ti = proto_tree_add_uint(conn_tree, hf_conn_threshold_s2c, tvb, 0, 0, s2c);
    proto_item_set_generated(ti);
    ti = proto_tree_add_boolean(conn_tree, hf_conn_client_r, tvb, 0, 0, c->client.r);
    proto_item_set_generated(ti);
    ti = proto_tree_add_boolean(conn_tree, hf_conn_server_r, tvb, 0, 0, c->server.r);
    proto_item_set_generated(ti);
    ti = proto_tree_add_boolean(conn_tree, hf_conn_remote_inv, tvb, 0, 0, both_r);
    proto_item_set_generated(ti);
    ti = proto_tree_add_uint(conn_tree, hf_conn_threshold, tvb, 0, 0, thresh);
    proto_item_set_generated(ti);
    if (!s->done)
        return;
    ti = proto_tree_add_uint(conn_tree, hf_conn_send_len, tvb, 0, 0, s->length);
    proto_item_set_generated(ti);
    if (s->length > thresh)
        expert_add_info_format(pinfo, ti, &ei_conn_over_threshold,
                               "A %s Send of %u octets exceeds the %u-octet threshold (%s Send Size %u, %s Receive Size %u)",
                               s->path.c2s ? "client to server" : "server to client",
                               s->length, thresh,
                               s->path.c2s ? "client's" : "server's",
                               s->path.c2s ? c->client.send_size : c->server.send_size,
                               s->path.c2s ? "server's" : "client's",
                               s->path.c2s ? c->server.recv_size : c->client.recv_size);
    ti = proto_tree_add_boolean(conn_tree, hf_conn_send_inv, tvb, 0, 0, s->inv);
    proto_item_set_generated(ti);
    if (s->inv && !both_r)
        expert_add_info_format(pinfo, ti, &ei_conn_inv_without_r,
                               "Send With Invalidate although the %s cleared R: only a plain Send is allowed (RFC 8797 Section 4.1)",
                               !c->client.r && !c->server.r ? "client and the server" :
                               !c->client.r ? "client" : "server");
}

/*
 * The postdissector: MPA requests and replies, the first pass's
 * bookkeeping of IB connections, and every Send of a known connection.
 */
static int
dissect_rpcrdma_cm_post(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
                        void *data _U_)
{
    wmem_array_t *sends;
    uint32_t sport = 0, dport = 0;
    bool have_ports;
    unsigned i;

    have_ports = first_uint(tree, fid_tcp_srcport, &sport) &&
                 first_uint(tree, fid_tcp_dstport, &dport);
#ifndef RPCRDMA_CM_UPSTREAM
    if (have_ports) {
        field_info *fi;

        if ((fi = first_finfo(tree, fid_mpa_key_req)))
            dissect_mpa_frame(tree, pinfo, fi, true, sport, dport);
        else if ((fi = first_finfo(tree, fid_mpa_key_rep)))
            dissect_mpa_frame(tree, pinfo, fi, false, sport, dport);
    }
#endif

    sends = (wmem_array_t *)p_get_proto_data(wmem_file_scope(), pinfo, proto_rpcrdma, 0);
    if (!PINFO_FD_VISITED(pinfo)) {
        cm_path_t *p;

        sends = wmem_array_new(wmem_file_scope(), sizeof(cm_send_t));
        track_ib_cm(tree, pinfo);
        track_ib_send(tree, pinfo, sends);
        if (have_ports) {
            const char *key = tcp_key(pinfo, &pinfo->src, sport, &pinfo->dst, dport);

            p = (cm_path_t *)wmem_map_lookup(paths, key);
            if (p && p->conn->rep_frame)
                track_iwarp_sends(tree, pinfo, key, p, sends);
        }
        p_add_proto_data(wmem_file_scope(), pinfo, proto_rpcrdma, 0, sends);
    }
    for (i = 0; sends && i < wmem_array_get_count(sends); i++)
        show_send(tree, pinfo, tvb, (cm_send_t *)wmem_array_index(sends, i));
    return 0;
}

#ifdef RPCRDMA_CM_UPSTREAM
/* Called from proto_register_rpcordma(): the fields of the RFC 8797
 * message and of the connection, in the rpcordma namespace */
static void
rpcordma_cm_register(void)
#else
void
proto_register_rpcrdma_cm(void)
#endif
{
    static hf_register_info hf[] = {
        { &hf_cm_carrier,
          { "Carrier", "rpcrdma.cm.carrier", FT_STRING, BASE_NONE,
            NULL, 0, "The connection setup message that brought the private data", HFILL }},
        { &hf_cm_status,
          { "Status", "rpcrdma.cm.status", FT_STRING, BASE_NONE,
            NULL, 0, "As rpcrdma_pdata_parse() names it", HFILL }},
#ifndef RPCRDMA_CM_UPSTREAM
        { &hf_cm_mpa_ird_ord,
          { "MPA v2 IRD/ORD header", "rpcrdma.cm.mpa_ird_ord", FT_BYTES, BASE_NONE,
            NULL, 0, "RFC 6581 header ahead of the consumer's private data", HFILL }},
        { &hf_cm_mpa_p2p,
          { "Peer-to-Peer", "rpcrdma.cm.mpa_ird_ord.p2p", FT_BOOLEAN, 16,
            NULL, 0x8000, NULL, HFILL }},
        { &hf_cm_mpa_zero_rtr,
          { "Zero-length RTR", "rpcrdma.cm.mpa_ird_ord.zero_rtr", FT_BOOLEAN, 16,
            NULL, 0x4000, NULL, HFILL }},
        { &hf_cm_mpa_ird,
          { "IRD", "rpcrdma.cm.mpa_ird_ord.ird", FT_UINT16, BASE_DEC,
            NULL, 0x3fff, "Inbound RDMA Read Queue Depth", HFILL }},
        { &hf_cm_mpa_write_rtr,
          { "RDMA Write RTR", "rpcrdma.cm.mpa_ird_ord.write_rtr", FT_BOOLEAN, 16,
            NULL, 0x8000, NULL, HFILL }},
        { &hf_cm_mpa_read_rtr,
          { "RDMA Read RTR", "rpcrdma.cm.mpa_ird_ord.read_rtr", FT_BOOLEAN, 16,
            NULL, 0x4000, NULL, HFILL }},
        { &hf_cm_mpa_ord,
          { "ORD", "rpcrdma.cm.mpa_ird_ord.ord", FT_UINT16, BASE_DEC,
            NULL, 0x3fff, "Outbound RDMA Read Queue Depth", HFILL }},
#endif
        { &hf_cm_length,
          { "Private data searched (octets)", "rpcrdma.cm.length", FT_UINT32, BASE_DEC,
            NULL, 0, NULL, HFILL }},
        { &hf_cm_offset,
          { "Offset of the Format Identifier", "rpcrdma.cm.offset", FT_UINT32, BASE_DEC,
            NULL, 0, NULL, HFILL }},
        { &hf_cm_format_id,
          { "Format Identifier", "rpcrdma.cm.format_id", FT_UINT32, BASE_HEX,
            NULL, 0, NULL, HFILL }},
        { &hf_cm_version,
          { "Version", "rpcrdma.cm.version", FT_UINT8, BASE_DEC,
            NULL, 0, NULL, HFILL }},
        { &hf_cm_flags,
          { "Flags", "rpcrdma.cm.flags", FT_UINT8, BASE_HEX,
            NULL, 0, NULL, HFILL }},
        { &hf_cm_flags_reserved,
          { "Reserved", "rpcrdma.cm.flags.reserved", FT_UINT8, BASE_HEX,
            NULL, RPCRDMA_CM_FLAGS_RSVD, NULL, HFILL }},
        { &hf_cm_flags_r,
          { "Remote Invalidation (R)", "rpcrdma.cm.flags.r", FT_BOOLEAN, 8,
            NULL, RPCRDMA_CM_FLAG_R, NULL, HFILL }},
        { &hf_cm_send_size,
          { "Send Size (octets)", "rpcrdma.cm.send_size", FT_UINT32, BASE_DEC,
            NULL, 0, NULL, HFILL }},
        { &hf_cm_send_size_enc,
          { "Send Size (encoded)", "rpcrdma.cm.send_size.encoded", FT_UINT8, BASE_DEC,
            NULL, 0, NULL, HFILL }},
        { &hf_cm_recv_size,
          { "Receive Size (octets)", "rpcrdma.cm.recv_size", FT_UINT32, BASE_DEC,
            NULL, 0, NULL, HFILL }},
        { &hf_cm_recv_size_enc,
          { "Receive Size (encoded)", "rpcrdma.cm.recv_size.encoded", FT_UINT8, BASE_DEC,
            NULL, 0, NULL, HFILL }},
        { &hf_conn,
          { "RPC-over-RDMA connection (RFC 8797)", "rpcrdma.conn", FT_NONE, BASE_NONE,
            NULL, 0, NULL, HFILL }},
        { &hf_conn_req_frame,
          { "Connection request in", "rpcrdma.conn.req_frame", FT_FRAMENUM, BASE_NONE,
            NULL, 0, "The CM REQ or MPA request of this connection", HFILL }},
        { &hf_conn_rep_frame,
          { "Connection reply in", "rpcrdma.conn.rep_frame", FT_FRAMENUM, BASE_NONE,
            NULL, 0, "The CM REP or MPA reply of this connection", HFILL }},
        { &hf_conn_direction,
          { "Direction", "rpcrdma.conn.direction", FT_STRING, BASE_NONE,
            NULL, 0, NULL, HFILL }},
        { &hf_conn_threshold_c2s,
          { "Client to server threshold (octets)", "rpcrdma.conn.threshold.c2s", FT_UINT32, BASE_DEC,
            NULL, 0, "The client's Send Size or the server's Receive Size, whichever is smaller", HFILL }},
        { &hf_conn_threshold_s2c,
          { "Server to client threshold (octets)", "rpcrdma.conn.threshold.s2c", FT_UINT32, BASE_DEC,
            NULL, 0, "The server's Send Size or the client's Receive Size, whichever is smaller", HFILL }},
        { &hf_conn_client_r,
          { "Client set R", "rpcrdma.conn.client_r", FT_BOOLEAN, BASE_NONE,
            NULL, 0, NULL, HFILL }},
        { &hf_conn_server_r,
          { "Server set R", "rpcrdma.conn.server_r", FT_BOOLEAN, BASE_NONE,
            NULL, 0, NULL, HFILL }},
        { &hf_conn_remote_inv,
          { "Remote invalidation allowed", "rpcrdma.conn.remote_inv", FT_BOOLEAN, BASE_NONE,
            NULL, 0, "Both ends set R", HFILL }},
        { &hf_conn_threshold,
          { "Threshold of this direction (octets)", "rpcrdma.conn.threshold", FT_UINT32, BASE_DEC,
            NULL, 0, NULL, HFILL }},
        { &hf_conn_send_len,
          { "Send length (octets)", "rpcrdma.conn.send_len", FT_UINT32, BASE_DEC,
            NULL, 0, "The whole message this frame ends", HFILL }},
        { &hf_conn_send_inv,
          { "Send With Invalidate", "rpcrdma.conn.send_inv", FT_BOOLEAN, BASE_NONE,
            NULL, 0, NULL, HFILL }},
    };

    static int *ett[] = {
        &ett_rpcrdma_cm,
        &ett_rpcrdma_cm_flags,
        &ett_rpcrdma_cm_size,
#ifndef RPCRDMA_CM_UPSTREAM
        &ett_rpcrdma_cm_mpa,
#endif
        &ett_rpcrdma_conn,
    };

    static ei_register_info ei[] = {
        { &ei_cm_truncated,
          { "rpcrdma.cm.expert.truncated", PI_MALFORMED, PI_ERROR,
            "RFC 8797 message truncated", EXPFILL }},
        { &ei_cm_bad_version,
          { "rpcrdma.cm.expert.bad_version", PI_PROTOCOL, PI_WARN,
            "RFC 8797 unknown version", EXPFILL }},
        { &ei_cm_reserved,
          { "rpcrdma.cm.expert.reserved", PI_PROTOCOL, PI_WARN,
            "RFC 8797 reserved bits set", EXPFILL }},
        { &ei_cm_offset,
          { "rpcrdma.cm.expert.offset", PI_PROTOCOL, PI_NOTE,
            "RFC 8797 message not at offset 0", EXPFILL }},
#ifndef RPCRDMA_CM_UPSTREAM
        { &ei_cm_mpa_short,
          { "rpcrdma.cm.expert.mpa_short", PI_MALFORMED, PI_ERROR,
            "MPA v2 private data shorter than its IRD/ORD header", EXPFILL }},
#endif
        { &ei_conn_over_threshold,
          { "rpcrdma.conn.expert.over_threshold", PI_PROTOCOL, PI_WARN,
            "Send exceeds the receiver's inline threshold", EXPFILL }},
        { &ei_conn_inv_without_r,
          { "rpcrdma.conn.expert.inv_without_r", PI_PROTOCOL, PI_WARN,
            "Send With Invalidate on a connection where R is clear", EXPFILL }},
    };

    expert_module_t *expert_rpcrdma;

#ifndef RPCRDMA_CM_UPSTREAM
    proto_rpcrdma = proto_register_protocol(
        "RPC-over-RDMA Version 1 CM Private Data (RFC 8797)",
        "RPCoRDMA-CM", "rpcrdma");
#endif
    proto_register_field_array(proto_rpcrdma, hf, array_length(hf));
    proto_register_subtree_array(ett, array_length(ett));
    expert_rpcrdma = expert_register_protocol(proto_rpcrdma);
    expert_register_field_array(expert_rpcrdma, ei, array_length(ei));

    ib_pending = wmem_map_new_autoreset(wmem_epan_scope(), wmem_file_scope(),
                                        g_str_hash, g_str_equal);
    paths = wmem_map_new_autoreset(wmem_epan_scope(), wmem_file_scope(),
                                   g_str_hash, g_str_equal);
    partials = wmem_map_new_autoreset(wmem_epan_scope(), wmem_file_scope(),
                                      g_str_hash, g_str_equal);
    rpcrdma_cm_post_handle = register_dissector("rpcrdma.cm",
                                                dissect_rpcrdma_cm_post,
                                                proto_rpcrdma);
}

#ifdef RPCRDMA_CM_UPSTREAM
/* Called from proto_reg_handoff_rpcordma() */
static void
rpcordma_cm_handoff(void)
#else
void
proto_reg_handoff_rpcrdma_cm(void)
#endif
{
    static const struct {
        int *hf;
        const char *name;
    } wanted[] = {
        { &fid_ib_req_private, "infiniband.cm.req.private" },
        { &fid_ib_req_ipcm_private, "infiniband.cm.req.ip_cm.private" },
        { &fid_ib_rep_private, "infiniband.cm.rep.private" },
        { &fid_ib_req_commid, "infiniband.cm.req" },
        { &fid_ib_req_qpn, "infiniband.cm.req.localqpn" },
        { &fid_ib_rep_remote_commid, "infiniband.cm.rep.remotecommid" },
        { &fid_ib_rep_qpn, "infiniband.cm.rep.localqpn" },
        { &fid_ib_opcode, "infiniband.bth.opcode" },
        { &fid_ib_destqp, "infiniband.bth.destqp" },
        { &fid_ib_psn, "infiniband.bth.psn" },
        { &fid_ib_padcnt, "infiniband.bth.padcnt" },
        { &fid_udp_length, "udp.length" },
        { &fid_ip_src, "ip.src" },
        { &fid_ip_dst, "ip.dst" },
        { &fid_ipv6_src, "ipv6.src" },
        { &fid_ipv6_dst, "ipv6.dst" },
        { &fid_tcp_srcport, "tcp.srcport" },
        { &fid_tcp_dstport, "tcp.dstport" },
#ifndef RPCRDMA_CM_UPSTREAM
        { &fid_mpa_key_req, "iwarp_mpa.key.req" },
        { &fid_mpa_key_rep, "iwarp_mpa.key.rep" },
#endif
        { &fid_mpa_ulpdu_len, "iwarp_mpa.ulpdulength" },
        { &fid_ddp_qn, "iwarp_ddp.qn" },
        { &fid_ddp_msn, "iwarp_ddp.msn" },
        { &fid_ddp_mo, "iwarp_ddp.mo" },
        { &fid_ddp_last, "iwarp_ddp.last_flag" },
        { &fid_rdma_opcode, "iwarp_rdma.opcode" },
    };
    GArray *hfids = g_array_new(FALSE, FALSE, (unsigned)sizeof(int));
    unsigned i;

    for (i = 0; i < array_length(wanted); i++) {
        *wanted[i].hf = proto_registrar_get_id_byname(wanted[i].name);
        if (*wanted[i].hf >= 0)
            g_array_append_val(hfids, *wanted[i].hf);
    }
    register_postdissector(rpcrdma_cm_post_handle);
    set_postdissector_wanted_hfids(rpcrdma_cm_post_handle, hfids);

    heur_dissector_add("infiniband.mad.cm.private", dissect_rpcrdma_cm_ib_heur,
                       "RPC-over-RDMA CM private data (RFC 8797)",
                       "rpcrdma_cm_infiniband", proto_rpcrdma, HEURISTIC_ENABLE);
#ifdef RPCRDMA_CM_UPSTREAM
    heur_dissector_add("iwarp_mpa.private", dissect_rpcrdma_cm_mpa_heur,
                       "RPC-over-RDMA CM private data (RFC 8797)",
                       "rpcrdma_cm_iwarp", proto_rpcrdma, HEURISTIC_ENABLE);
#endif
}
