// SPDX-License-Identifier: GPL-2.0
/*
 * RPC-over-RDMA Version Two transport properties
 * (draft-dnoveck-nfsv4-rpcrdma-xcharext-03): XDR codec, and the
 * Version Two headers of draft-cel-nfsv4-rpcrdma-version-two-01 or, by
 * name only, of the authors' working copy of 2016-11-10.
 *
 * Received data is read octet by octet, so a message may start at any
 * address. Every length is checked against what is left of the message
 * before anything is read, with the arithmetic done in size_t so that
 * a length word near 2^32 cannot wrap. Decoders fill their output only
 * as far as they got; callers act on a message only when the whole of
 * it decoded (RDMA2_ERR_BAD_XDR otherwise), so nothing half-applied
 * ever reaches a connection's state.
 */

#include <linux/types.h>
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/string.h>
#include <linux/sunrpc/rpcrdma_xchar.h>

#define XCHAR_WORD	4
/* rpcrdma2_segment: handle, length, 64-bit offset */
#define XCHAR_SEGMENT	(4 * XCHAR_WORD)

static u32 xchar_get32(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

static void xchar_put32(u8 *p, u32 v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

/* XDR pads opaque data to a multiple of four octets (RFC 4506 4.10) */
static size_t xchar_pad(size_t len)
{
	return (len + 3) & ~(size_t)3;
}

static bool xchar_get_u32(struct rpcrdma_xchar_xdr *xdr, u32 *v)
{
	if (xdr->left < XCHAR_WORD)
		return false;
	*v = xchar_get32(xdr->p);
	xdr->p += XCHAR_WORD;
	xdr->left -= XCHAR_WORD;
	return true;
}

/* A variable-length opaque: length word, data, padding, all inside */
static bool xchar_get_opaque(struct rpcrdma_xchar_xdr *xdr, const u8 **data,
			     u32 *len)
{
	size_t room;

	if (!xchar_get_u32(xdr, len))
		return false;
	room = xchar_pad(*len);
	if (room < *len || room > xdr->left)
		return false;
	*data = xdr->p;
	xdr->p += room;
	xdr->left -= room;
	return true;
}

static const struct rpcrdma_xchar_base xchar_bases[] = {
	[RPCRDMA_XCHAR_BASE_01] = {
		.id			= RPCRDMA_XCHAR_BASE_01,
		.name			= "01",
		.inv_handle		= false,
		/* xid, vers, credit, proc, direction, three list ends */
		.msg_hdrlen		= 8 * XCHAR_WORD,
		.err_vers		= RPCRDMA_XCHAR_ERR_VERS,
		.err_bad_xdr		= RPCRDMA_XCHAR_ERR_BAD_HEADER,
		.err_inval_option	= RPCRDMA_XCHAR_ERR_INVAL_OPTION,
		/* RFC 8166 4.5.2 and 4.5.3: ERR_CHUNK, -01's BAD_HEADER */
		.err_inval_proc		= RPCRDMA_XCHAR_ERR_BAD_HEADER,
		.err_reply_resource	= RPCRDMA_XCHAR_ERR_BAD_HEADER,
	},
	[RPCRDMA_XCHAR_BASE_WC] = {
		.id			= RPCRDMA_XCHAR_BASE_WC,
		.name			= "2016-11-10",
		.inv_handle		= true,
		/* and rdma_inv_handle after the direction */
		.msg_hdrlen		= 9 * XCHAR_WORD,
		.err_vers		= RPCRDMA_XCHAR_WC_ERR_VERS,
		.err_bad_xdr		= RPCRDMA_XCHAR_WC_ERR_BAD_XDR,
		.err_inval_option	= RPCRDMA_XCHAR_WC_ERR_INVAL_OPTION,
		.err_inval_proc		= RPCRDMA_XCHAR_WC_ERR_INVAL_PROC,
		.err_reply_resource	= RPCRDMA_XCHAR_WC_ERR_REPLY_RESOURCE,
	},
};

/**
 * rpcrdma_xchar_base_get - The constants of one Version Two text
 * @id: %RPCRDMA_XCHAR_BASE_01 or %RPCRDMA_XCHAR_BASE_WC
 *
 * Return: the base, or NULL for an unknown @id.
 */
const struct rpcrdma_xchar_base *
rpcrdma_xchar_base_get(enum rpcrdma_xchar_base_id id)
{
	if ((unsigned int)id > RPCRDMA_XCHAR_BASE_WC)
		return NULL;
	return &xchar_bases[id];
}

/**
 * rpcrdma_xchar_defaults - Fill in the default value of every property
 * @val: output
 *
 * xcharext-03 Table 1: what a peer is assumed to have until it says
 * otherwise, and what a zero-length pv_data stands for.
 */
void rpcrdma_xchar_defaults(struct rpcrdma_xchar_props *val)
{
	val->rbsiz = RPCRDMA_XCHAR_DEFAULT_RBSIZ;
	val->reqreminv = RPCRDMA_XCHAR_DEFAULT_REQREMINV;
	val->brs = RPCRDMA_XCHAR_DEFAULT_BRS;
}

/**
 * rpcrdma_xchar_xdr_init - Start decoding a received buffer
 * @xdr: cursor to set up
 * @buf: first octet of the XDR data; any alignment
 * @len: octets of @buf that belong to the message
 */
void rpcrdma_xchar_xdr_init(struct rpcrdma_xchar_xdr *xdr, const void *buf,
			    size_t len)
{
	xdr->p = buf;
	xdr->left = buf ? len : 0;
}

/**
 * rpcrdma_xchar_decode_propval - Decode one propval
 * @xdr: cursor, advanced past the propval on success
 * @pv: output; @pv->data points into the message
 *
 * Section 2.1: a pv_data that extends beyond the bounds of the message
 * is an XDR error, whatever the propid.
 *
 * Return: %RPCRDMA_XCHAR_OK or %RPCRDMA_XCHAR_BAD_XDR.
 */
enum rpcrdma_xchar_status
rpcrdma_xchar_decode_propval(struct rpcrdma_xchar_xdr *xdr,
			     struct rpcrdma_xchar_propval *pv)
{
	if (!xchar_get_u32(xdr, &pv->which) ||
	    !xchar_get_opaque(xdr, &pv->data, &pv->len))
		return RPCRDMA_XCHAR_BAD_XDR;
	return RPCRDMA_XCHAR_OK;
}

/* The largest valid value of each basic property's XDR type */
static u32 xchar_prop_limit(u32 which)
{
	switch (which) {
	case RPCRDMA_XCHAR_PROP_RBSIZ:
		return U32_MAX;
	case RPCRDMA_XCHAR_PROP_REQREMINV:
		return 1;			/* XDR bool: FALSE or TRUE */
	case RPCRDMA_XCHAR_PROP_BRS:
		return RPCRDMA_XCHAR_BKREQSUP_GENL;
	}
	return 0;
}

static bool xchar_prop_known(u32 which)
{
	return which >= RPCRDMA_XCHAR_PROP_RBSIZ &&
	       which <= RPCRDMA_XCHAR_PROP_MAX;
}

static u32 xchar_prop_default(u32 which)
{
	struct rpcrdma_xchar_props val;

	rpcrdma_xchar_defaults(&val);
	switch (which) {
	case RPCRDMA_XCHAR_PROP_RBSIZ:
		return val.rbsiz;
	case RPCRDMA_XCHAR_PROP_REQREMINV:
		return val.reqreminv;
	}
	return val.brs;
}

/**
 * rpcrdma_xchar_prop_value - Interpret the pv_data of a propval
 * @pv: a propval from rpcrdma_xchar_decode_propval()
 * @value: output: the value as an XDR word (uint32, bool or enum)
 *
 * Section 2.1: zero-length data is the property's default. For a known
 * property, data too short for its type, or a value its type does not
 * have (a bool other than 0 or 1, a bkreqsup other than 0..2), is an
 * XDR error. Octets after the value are not an error in this draft
 * and are ignored. An unknown propid is no error: it is skipped.
 *
 * Return: %RPCRDMA_XCHAR_OK with @value set, %RPCRDMA_XCHAR_UNKNOWN, or
 * %RPCRDMA_XCHAR_BAD_PROPVAL.
 */
enum rpcrdma_xchar_status
rpcrdma_xchar_prop_value(const struct rpcrdma_xchar_propval *pv, u32 *value)
{
	u32 v;

	if (!xchar_prop_known(pv->which))
		return RPCRDMA_XCHAR_UNKNOWN;
	if (!pv->len) {
		*value = xchar_prop_default(pv->which);
		return RPCRDMA_XCHAR_OK;
	}
	if (pv->len < RPCRDMA_XCHAR_PROP_LEN)
		return RPCRDMA_XCHAR_BAD_PROPVAL;
	v = xchar_get32(pv->data);
	if (v > xchar_prop_limit(pv->which))
		return RPCRDMA_XCHAR_BAD_PROPVAL;
	*value = v;
	return RPCRDMA_XCHAR_OK;
}

static void xchar_set_value(struct rpcrdma_xchar_props *val, u32 which,
			    u32 value)
{
	switch (which) {
	case RPCRDMA_XCHAR_PROP_RBSIZ:
		val->rbsiz = value;
		break;
	case RPCRDMA_XCHAR_PROP_REQREMINV:
		val->reqreminv = value;
		break;
	case RPCRDMA_XCHAR_PROP_BRS:
		val->brs = value;
		break;
	}
}

/* Record propval number @pos of @set. A basic property named again is
 * well-formed XDR and Section 2.1 lists no error for it: the first
 * value stands, as later ones would contradict it, and each later one
 * is still judged like any other propval.
 */
static enum rpcrdma_xchar_status
xchar_take_propval(struct rpcrdma_xchar_propset *set, u32 pos,
		   const struct rpcrdma_xchar_propval *pv)
{
	enum rpcrdma_xchar_status status;
	u32 value;

	status = rpcrdma_xchar_prop_value(pv, &value);
	if (status == RPCRDMA_XCHAR_UNKNOWN)
		return RPCRDMA_XCHAR_OK;
	if (status != RPCRDMA_XCHAR_OK)
		return status;
	if (set->present & BIT(pv->which)) {
		set->dup |= BIT(pv->which);
		return RPCRDMA_XCHAR_OK;
	}
	set->present |= BIT(pv->which);
	if (!pv->len)
		set->dflt |= BIT(pv->which);
	set->pos[pv->which] = pos;
	xchar_set_value(&set->val, pv->which, value);
	return RPCRDMA_XCHAR_OK;
}

/**
 * rpcrdma_xchar_decode_propset - Decode a propvalset
 * @xdr: cursor, advanced past the set on success
 * @set: output: count, the basic properties found, where, and values
 *
 * Each propval is judged in turn (rpcrdma_xchar_prop_value()); unknown
 * ones are counted, since propvalsubsets name positions in the set,
 * and otherwise skipped. A basic property named more than once keeps
 * its first value; @set->dup says which were.
 *
 * Return: %RPCRDMA_XCHAR_OK, or the error of the first propval that
 * failed, at @set->err_pos.
 */
enum rpcrdma_xchar_status
rpcrdma_xchar_decode_propset(struct rpcrdma_xchar_xdr *xdr,
			     struct rpcrdma_xchar_propset *set)
{
	enum rpcrdma_xchar_status status;
	struct rpcrdma_xchar_propval pv;
	u32 n, i;

	memset(set, 0, sizeof(*set));
	rpcrdma_xchar_defaults(&set->val);
	if (!xchar_get_u32(xdr, &n))
		return RPCRDMA_XCHAR_BAD_XDR;
	set->count = n;
	set->err_pos = n;
	/* Each propval takes two words at least, so a count larger than
	 * the message fails at its end; propvals are still judged in
	 * order, so the error reported is that of the first bad one.
	 */
	for (i = 0; i < n; i++) {
		status = rpcrdma_xchar_decode_propval(xdr, &pv);
		if (status == RPCRDMA_XCHAR_OK)
			status = xchar_take_propval(set, i, &pv);
		if (status != RPCRDMA_XCHAR_OK) {
			set->err_pos = i;
			return status;
		}
	}
	return RPCRDMA_XCHAR_OK;
}

/**
 * rpcrdma_xchar_propset_has - Does a decoded set hold a basic property
 * @set: from rpcrdma_xchar_decode_propset()
 * @which: a propid
 *
 * Return: true when @which is a basic property that @set names.
 */
bool rpcrdma_xchar_propset_has(const struct rpcrdma_xchar_propset *set,
			       u32 which)
{
	return xchar_prop_known(which) && (set->present & BIT(which));
}

/**
 * rpcrdma_xchar_decode_subset - Decode a propvalsubset
 * @xdr: cursor, advanced past the subset on success
 * @sub: output; @sub->wire points into the message
 *
 * Return: %RPCRDMA_XCHAR_OK or %RPCRDMA_XCHAR_BAD_XDR.
 */
enum rpcrdma_xchar_status
rpcrdma_xchar_decode_subset(struct rpcrdma_xchar_xdr *xdr,
			    struct rpcrdma_xchar_subset *sub)
{
	u32 n;

	if (!xchar_get_u32(xdr, &n) || n > xdr->left / XCHAR_WORD)
		return RPCRDMA_XCHAR_BAD_XDR;
	sub->wire = xdr->p;
	sub->nwords = n;
	xdr->p += (size_t)n * XCHAR_WORD;
	xdr->left -= (size_t)n * XCHAR_WORD;
	return RPCRDMA_XCHAR_OK;
}

/**
 * rpcrdma_xchar_subset_test - Is a position in a decoded subset
 * @sub: from rpcrdma_xchar_decode_subset()
 * @pos: a position in the propvalset the subset refers to
 *
 * Section 2.1: bit @pos mod 32 of word @pos div 32; words beyond the
 * last one sent are zero.
 *
 * Return: true when the bit is set.
 */
bool rpcrdma_xchar_subset_test(const struct rpcrdma_xchar_subset *sub,
			       u32 pos)
{
	u32 word = pos / 32;

	if (word >= sub->nwords)
		return false;
	return xchar_get32(sub->wire + (size_t)word * XCHAR_WORD) &
	       BIT(pos % 32);
}

/**
 * rpcrdma_xchar_decode_connprop - Decode optinfo_connprop
 * @info: rdma_optinfo of an ROPT_CONNPROP message
 * @len: its length
 * @msg: output
 *
 * Octets of @info after the structure are ignored.
 *
 * Return: %RPCRDMA_XCHAR_OK or the first error found.
 */
enum rpcrdma_xchar_status
rpcrdma_xchar_decode_connprop(const void *info, size_t len,
			      struct rpcrdma_xchar_connprop *msg)
{
	enum rpcrdma_xchar_status status;
	struct rpcrdma_xchar_xdr xdr;

	memset(&msg->nochg, 0, sizeof(msg->nochg));
	rpcrdma_xchar_xdr_init(&xdr, info, len);
	status = rpcrdma_xchar_decode_propset(&xdr, &msg->start);
	if (status != RPCRDMA_XCHAR_OK)
		return status;
	return rpcrdma_xchar_decode_subset(&xdr, &msg->nochg);
}

/**
 * rpcrdma_xchar_decode_reqprop - Decode optinfo_reqprop
 * @info: rdma_optinfo of an ROPT_REQPROP message
 * @len: its length
 * @msg: output
 *
 * Return: %RPCRDMA_XCHAR_OK or the first error found.
 */
enum rpcrdma_xchar_status
rpcrdma_xchar_decode_reqprop(const void *info, size_t len,
			     struct rpcrdma_xchar_reqprop *msg)
{
	struct rpcrdma_xchar_xdr xdr;

	rpcrdma_xchar_xdr_init(&xdr, info, len);
	return rpcrdma_xchar_decode_propset(&xdr, &msg->want);
}

/**
 * rpcrdma_xchar_decode_resprop - Decode optinfo_resprop
 * @info: rdma_optinfo of an ROPT_RESPROP message
 * @len: its length
 * @msg: output
 *
 * The two subsets refer to positions in the ROPT_REQPROP being
 * answered, not to @msg->other; matching them is the caller's job.
 *
 * Return: %RPCRDMA_XCHAR_OK or the first error found.
 */
enum rpcrdma_xchar_status
rpcrdma_xchar_decode_resprop(const void *info, size_t len,
			     struct rpcrdma_xchar_resprop *msg)
{
	enum rpcrdma_xchar_status status;
	struct rpcrdma_xchar_xdr xdr;

	memset(&msg->rej, 0, sizeof(msg->rej));
	memset(&msg->other, 0, sizeof(msg->other));
	rpcrdma_xchar_xdr_init(&xdr, info, len);
	status = rpcrdma_xchar_decode_subset(&xdr, &msg->done);
	if (status != RPCRDMA_XCHAR_OK)
		return status;
	status = rpcrdma_xchar_decode_subset(&xdr, &msg->rej);
	if (status != RPCRDMA_XCHAR_OK)
		return status;
	return rpcrdma_xchar_decode_propset(&xdr, &msg->other);
}

/**
 * rpcrdma_xchar_decode_updprop - Decode optinfo_updprop
 * @info: rdma_optinfo of an ROPT_UPDPROP message
 * @len: its length
 * @msg: output
 *
 * Return: %RPCRDMA_XCHAR_OK or the first error found.
 */
enum rpcrdma_xchar_status
rpcrdma_xchar_decode_updprop(const void *info, size_t len,
			     struct rpcrdma_xchar_updprop *msg)
{
	struct rpcrdma_xchar_xdr xdr;

	rpcrdma_xchar_xdr_init(&xdr, info, len);
	return rpcrdma_xchar_decode_propset(&xdr, &msg->now);
}

/**
 * rpcrdma_xchar_decode_opthdr - Decode an RDMA2_OPTIONAL transport header
 * @buf: a received message; any alignment
 * @len: octets received
 * @hdr: output; @hdr->info points into @buf
 *
 * struct rpcrdma2_xprt_hdr with rdma_proc RDMA2_OPTIONAL, the same in
 * version-two-01 and the working copy. A message whose rdma_vers is not 2 is reported
 * before anything else (the receiver answers ERR_VERS), then one whose
 * rdma_proc is not RDMA2_OPTIONAL. An rdma_optdir that is neither CALL
 * nor REPLY, or an rdma_optinfo that runs past @len, is an XDR error.
 * rdma_opttype is not judged: an unknown one is the caller's
 * RDMA2_ERR_INVAL_OPTION.
 *
 * Return: %RPCRDMA_XCHAR_OK, %RPCRDMA_XCHAR_NOT_V2,
 * %RPCRDMA_XCHAR_NOT_OPTIONAL or %RPCRDMA_XCHAR_BAD_XDR.
 */
enum rpcrdma_xchar_status
rpcrdma_xchar_decode_opthdr(const void *buf, size_t len,
			    struct rpcrdma_xchar_opthdr *hdr)
{
	struct rpcrdma_xchar_xdr xdr;
	u32 vers, proc;

	rpcrdma_xchar_xdr_init(&xdr, buf, len);
	if (!xchar_get_u32(&xdr, &hdr->xid) || !xchar_get_u32(&xdr, &vers))
		return RPCRDMA_XCHAR_BAD_XDR;
	if (vers != RPCRDMA_XCHAR_VERSION)
		return RPCRDMA_XCHAR_NOT_V2;
	if (!xchar_get_u32(&xdr, &hdr->credit) ||
	    !xchar_get_u32(&xdr, &proc))
		return RPCRDMA_XCHAR_BAD_XDR;
	if (proc != RPCRDMA_XCHAR_PROC_OPTIONAL)
		return RPCRDMA_XCHAR_NOT_OPTIONAL;
	if (!xchar_get_u32(&xdr, &hdr->optdir) ||
	    hdr->optdir > RPCRDMA_XCHAR_REPLY ||
	    !xchar_get_u32(&xdr, &hdr->opttype) ||
	    !xchar_get_opaque(&xdr, &hdr->info, &hdr->infolen))
		return RPCRDMA_XCHAR_BAD_XDR;
	hdr->hdrlen = len - xdr.left;
	return RPCRDMA_XCHAR_OK;
}

/* XDR optional-data: a bool, anything but 0 or 1 is an XDR error */
static bool xchar_get_present(struct rpcrdma_xchar_xdr *xdr, bool *present)
{
	u32 v;

	if (!xchar_get_u32(xdr, &v) || v > 1)
		return false;
	*present = v;
	return true;
}

static bool xchar_get_segment(struct rpcrdma_xchar_xdr *xdr,
			      struct rpcrdma_xchar_segment *seg)
{
	u32 hi, lo;

	if (!xchar_get_u32(xdr, &seg->handle) ||
	    !xchar_get_u32(xdr, &seg->length) ||
	    !xchar_get_u32(xdr, &hi) || !xchar_get_u32(xdr, &lo))
		return false;
	seg->offset = (u64)hi << 32 | lo;
	return true;
}

/* rpcrdma2_read_list: counted, the first position-zero segment kept */
static bool xchar_get_reads(struct rpcrdma_xchar_xdr *xdr,
			    struct rpcrdma_xchar_msghdr *hdr)
{
	struct rpcrdma_xchar_segment seg;
	bool more;
	u32 pos;

	for (;;) {
		if (!xchar_get_present(xdr, &more))
			return false;
		if (!more)
			return true;
		if (!xchar_get_u32(xdr, &pos) || !xchar_get_segment(xdr, &seg))
			return false;
		hdr->nreads++;
		if (!pos && !hdr->pos0) {
			hdr->pos0 = true;
			hdr->read = seg;
		}
	}
}

/* rpcrdma2_write_chunk: its segment count, and its first segment */
static bool xchar_get_chunk(struct rpcrdma_xchar_xdr *xdr, u32 *nsegs,
			    struct rpcrdma_xchar_segment *first)
{
	struct rpcrdma_xchar_segment seg;
	u32 i;

	if (!xchar_get_u32(xdr, nsegs) || *nsegs > xdr->left / XCHAR_SEGMENT)
		return false;
	for (i = 0; i < *nsegs; i++)
		if (!xchar_get_segment(xdr, i ? &seg : first))
			return false;
	return true;
}

static bool xchar_get_writes(struct rpcrdma_xchar_xdr *xdr,
			     struct rpcrdma_xchar_msghdr *hdr)
{
	struct rpcrdma_xchar_segment seg;
	bool more;
	u32 n;

	for (;;) {
		if (!xchar_get_present(xdr, &more))
			return false;
		if (!more)
			return true;
		if (!xchar_get_chunk(xdr, &n, &seg))
			return false;
		hdr->nwrites++;
	}
}

static bool xchar_get_reply(struct rpcrdma_xchar_xdr *xdr,
			    struct rpcrdma_xchar_msghdr *hdr)
{
	if (!xchar_get_present(xdr, &hdr->reply))
		return false;
	return !hdr->reply ||
	       xchar_get_chunk(xdr, &hdr->nreply, &hdr->reply_seg);
}

/**
 * rpcrdma_xchar_decode_msghdr - Decode an RDMA2_MSG or RDMA2_NOMSG header
 * @base: the Version Two text the peer follows
 * @buf: a received message; any alignment
 * @len: octets received
 * @hdr: output
 *
 * rpcrdma2_chunk_lists as @base lays it out: -01 has no rdma_inv_handle,
 * the working copy has one after rdma_direction, so the two are not
 * interchangeable. An optional-data discriminant other than 0 or 1, or
 * a list that runs past @len, is an XDR error.
 *
 * Return: %RPCRDMA_XCHAR_OK, %RPCRDMA_XCHAR_NOT_V2,
 * %RPCRDMA_XCHAR_OTHER_PROC or %RPCRDMA_XCHAR_BAD_XDR.
 */
enum rpcrdma_xchar_status
rpcrdma_xchar_decode_msghdr(const struct rpcrdma_xchar_base *base,
			    const void *buf, size_t len,
			    struct rpcrdma_xchar_msghdr *hdr)
{
	struct rpcrdma_xchar_xdr xdr;
	u32 vers;

	memset(hdr, 0, sizeof(*hdr));
	rpcrdma_xchar_xdr_init(&xdr, buf, len);
	if (!xchar_get_u32(&xdr, &hdr->xid) || !xchar_get_u32(&xdr, &vers))
		return RPCRDMA_XCHAR_BAD_XDR;
	if (vers != RPCRDMA_XCHAR_VERSION)
		return RPCRDMA_XCHAR_NOT_V2;
	if (!xchar_get_u32(&xdr, &hdr->credit) ||
	    !xchar_get_u32(&xdr, &hdr->proc))
		return RPCRDMA_XCHAR_BAD_XDR;
	if (hdr->proc != RPCRDMA_XCHAR_PROC_MSG &&
	    hdr->proc != RPCRDMA_XCHAR_PROC_NOMSG)
		return RPCRDMA_XCHAR_OTHER_PROC;
	if (!xchar_get_u32(&xdr, &hdr->dir) || hdr->dir > RPCRDMA_XCHAR_REPLY ||
	    (base->inv_handle && !xchar_get_u32(&xdr, &hdr->inv_handle)) ||
	    !xchar_get_reads(&xdr, hdr) || !xchar_get_writes(&xdr, hdr) ||
	    !xchar_get_reply(&xdr, hdr))
		return RPCRDMA_XCHAR_BAD_XDR;
	hdr->hdrlen = len - xdr.left;
	return RPCRDMA_XCHAR_OK;
}

/* The rdma_err values @base defines: -01 1..3, the working copy 1..6 */
static bool xchar_err_known(const struct rpcrdma_xchar_base *base, u32 err)
{
	u32 last = base->id == RPCRDMA_XCHAR_BASE_WC ?
		   RPCRDMA_XCHAR_WC_ERR_SYSTEM : RPCRDMA_XCHAR_ERR_INVAL_OPTION;

	return err >= 1 && err <= last;
}

/* Those followed by two words; Version One has only ERR_VERS's */
static bool xchar_err_args(const struct rpcrdma_xchar_base *base, u32 vers,
			   u32 err)
{
	if (err == base->err_vers)
		return true;
	return vers == RPCRDMA_XCHAR_VERSION &&
	       base->id == RPCRDMA_XCHAR_BASE_WC &&
	       err == RPCRDMA_XCHAR_WC_ERR_REPLY_RESOURCE;
}

/**
 * rpcrdma_xchar_decode_error - Decode an RDMA2_ERROR header
 * @base: the Version Two text the peer follows
 * @buf: a received message; any alignment
 * @len: octets received
 * @err: output
 *
 * rdma_vers is not judged: a Version One peer answers a Version Two
 * message with RDMA_ERROR/ERR_VERS, laid out alike (RFC 8166 4.5). An
 * rdma_err @base does not define is returned as it is, without
 * arguments; rpcrdma_xchar_err_name() calls it "unknown".
 *
 * Return: %RPCRDMA_XCHAR_OK, %RPCRDMA_XCHAR_OTHER_PROC or
 * %RPCRDMA_XCHAR_BAD_XDR.
 */
enum rpcrdma_xchar_status
rpcrdma_xchar_decode_error(const struct rpcrdma_xchar_base *base,
			   const void *buf, size_t len,
			   struct rpcrdma_xchar_errhdr *err)
{
	struct rpcrdma_xchar_xdr xdr;
	u32 proc;

	memset(err, 0, sizeof(*err));
	rpcrdma_xchar_xdr_init(&xdr, buf, len);
	if (!xchar_get_u32(&xdr, &err->xid) || !xchar_get_u32(&xdr, &err->vers) ||
	    !xchar_get_u32(&xdr, &err->credit) || !xchar_get_u32(&xdr, &proc))
		return RPCRDMA_XCHAR_BAD_XDR;
	if (proc != RPCRDMA_XCHAR_PROC_ERROR)
		return RPCRDMA_XCHAR_OTHER_PROC;
	if (!xchar_get_u32(&xdr, &err->err))
		return RPCRDMA_XCHAR_BAD_XDR;
	if (xchar_err_args(base, err->vers, err->err) &&
	    (!xchar_get_u32(&xdr, &err->arg[0]) ||
	     !xchar_get_u32(&xdr, &err->arg[1])))
		return RPCRDMA_XCHAR_BAD_XDR;
	return RPCRDMA_XCHAR_OK;
}

/* Encoding. Each encoder returns the octets it wrote, or a negative
 * errno: -EINVAL for something the draft does not allow to be sent,
 * -EMSGSIZE when @buf is too small. On error @buf holds garbage.
 */

struct xchar_wbuf {
	u8	*p;
	size_t	len;
	size_t	used;
	int	err;
};

static void xchar_wbuf_init(struct xchar_wbuf *w, void *buf, size_t len)
{
	w->p = buf;
	w->len = buf ? len : 0;
	w->used = 0;
	w->err = 0;
}

static void xchar_put_u32(struct xchar_wbuf *w, u32 v)
{
	if (w->err)
		return;
	if (w->len - w->used < XCHAR_WORD) {
		w->err = -EMSGSIZE;
		return;
	}
	xchar_put32(w->p + w->used, v);
	w->used += XCHAR_WORD;
}

static int xchar_wbuf_done(const struct xchar_wbuf *w)
{
	return w->err ? w->err : (int)w->used;
}

/* A value this code would refuse to receive is never sent, nor a
 * basic property twice
 */
static int xchar_check_props(const struct rpcrdma_xchar_prop *props, u32 n)
{
	u32 seen = 0, i, which;

	if (n > RPCRDMA_XCHAR_SET_MAX || (n && !props))
		return -EINVAL;
	for (i = 0; i < n; i++) {
		which = props[i].which;
		if (!xchar_prop_known(which))
			continue;
		if (seen & BIT(which))
			return -EINVAL;
		seen |= BIT(which);
		if (!props[i].dflt && props[i].value > xchar_prop_limit(which))
			return -EINVAL;
	}
	return 0;
}

static void xchar_put_propset(struct xchar_wbuf *w,
			      const struct rpcrdma_xchar_prop *props, u32 n)
{
	u32 i;

	if (!w->err)
		w->err = xchar_check_props(props, n);
	/* A refused set is not read: @n may be larger than @props, which
	 * may be NULL
	 */
	if (w->err)
		return;
	xchar_put_u32(w, n);
	for (i = 0; i < n; i++) {
		xchar_put_u32(w, props[i].which);
		if (props[i].dflt) {
			xchar_put_u32(w, 0);
			continue;
		}
		xchar_put_u32(w, RPCRDMA_XCHAR_PROP_LEN);
		xchar_put_u32(w, props[i].value);
	}
}

/* The shortest form: trailing zero words are left out (Section 2.1) */
static void xchar_put_mask(struct xchar_wbuf *w,
			   const struct rpcrdma_xchar_mask *mask)
{
	u32 n = 0, i;

	for (i = 0; mask && i < RPCRDMA_XCHAR_MASK_WORDS; i++)
		if (mask->w[i])
			n = i + 1;
	xchar_put_u32(w, n);
	for (i = 0; i < n; i++)
		xchar_put_u32(w, mask->w[i]);
}

/**
 * rpcrdma_xchar_mask_set - Add a position to a subset being built
 * @mask: the subset
 * @pos: a position below %RPCRDMA_XCHAR_SET_MAX; others are ignored
 */
void rpcrdma_xchar_mask_set(struct rpcrdma_xchar_mask *mask, u32 pos)
{
	if (pos < RPCRDMA_XCHAR_SET_MAX)
		mask->w[pos / 32] |= BIT(pos % 32);
}

/**
 * rpcrdma_xchar_mask_test - Is a position in a subset being built
 * @mask: the subset
 * @pos: a position
 *
 * Return: true when @pos was added.
 */
bool rpcrdma_xchar_mask_test(const struct rpcrdma_xchar_mask *mask, u32 pos)
{
	return pos < RPCRDMA_XCHAR_SET_MAX &&
	       (mask->w[pos / 32] & BIT(pos % 32));
}

/**
 * rpcrdma_xchar_encode_connprop - Encode optinfo_connprop
 * @buf: output
 * @len: room in @buf
 * @start: opticonnpr_start, in order
 * @n: number of entries in @start
 * @nochg: opticonnpr_nochg, or NULL for the empty subset
 *
 * Return: octets written, or -EINVAL (a basic property twice, a value
 * its type does not have, more than %RPCRDMA_XCHAR_SET_MAX entries),
 * or -EMSGSIZE.
 */
int rpcrdma_xchar_encode_connprop(void *buf, size_t len,
				  const struct rpcrdma_xchar_prop *start,
				  u32 n, const struct rpcrdma_xchar_mask *nochg)
{
	struct xchar_wbuf w;

	xchar_wbuf_init(&w, buf, len);
	xchar_put_propset(&w, start, n);
	xchar_put_mask(&w, nochg);
	return xchar_wbuf_done(&w);
}

/**
 * rpcrdma_xchar_encode_reqprop - Encode optinfo_reqprop
 * @buf: output
 * @len: room in @buf
 * @want: optreqpr_want, in order
 * @n: number of entries in @want
 *
 * Return: octets written, -EINVAL or -EMSGSIZE.
 */
int rpcrdma_xchar_encode_reqprop(void *buf, size_t len,
				 const struct rpcrdma_xchar_prop *want, u32 n)
{
	struct xchar_wbuf w;

	xchar_wbuf_init(&w, buf, len);
	xchar_put_propset(&w, want, n);
	return xchar_wbuf_done(&w);
}

/**
 * rpcrdma_xchar_encode_resprop - Encode optinfo_resprop
 * @buf: output
 * @len: room in @buf
 * @done: optrespr_done, positions in the request answered, or NULL
 * @rej: optrespr_rej, likewise, or NULL
 * @other: optrespr_other, in order
 * @n: number of entries in @other
 *
 * Section 4.3: the subsets must not overlap.
 *
 * Return: octets written, -EINVAL (overlap, or as for a propvalset),
 * or -EMSGSIZE.
 */
int rpcrdma_xchar_encode_resprop(void *buf, size_t len,
				 const struct rpcrdma_xchar_mask *done,
				 const struct rpcrdma_xchar_mask *rej,
				 const struct rpcrdma_xchar_prop *other, u32 n)
{
	struct xchar_wbuf w;
	u32 i;

	for (i = 0; done && rej && i < RPCRDMA_XCHAR_MASK_WORDS; i++)
		if (done->w[i] & rej->w[i])
			return -EINVAL;
	xchar_wbuf_init(&w, buf, len);
	xchar_put_mask(&w, done);
	xchar_put_mask(&w, rej);
	xchar_put_propset(&w, other, n);
	return xchar_wbuf_done(&w);
}

/**
 * rpcrdma_xchar_encode_updprop - Encode optinfo_updprop
 * @buf: output
 * @len: room in @buf
 * @now: optupdpr_now, in order
 * @n: number of entries in @now
 *
 * Return: octets written, -EINVAL or -EMSGSIZE.
 */
int rpcrdma_xchar_encode_updprop(void *buf, size_t len,
				 const struct rpcrdma_xchar_prop *now, u32 n)
{
	struct xchar_wbuf w;

	xchar_wbuf_init(&w, buf, len);
	xchar_put_propset(&w, now, n);
	return xchar_wbuf_done(&w);
}

/**
 * rpcrdma_xchar_encode_opthdr - Encode an RDMA2_OPTIONAL transport header
 * @buf: output
 * @len: room in @buf
 * @xid: rdma_xid
 * @credit: rdma_credit
 * @optdir: %RPCRDMA_XCHAR_CALL or %RPCRDMA_XCHAR_REPLY
 * @opttype: rdma_opttype
 * @info: rdma_optinfo, as an encoder above produced it; may be NULL
 *	when @infolen is 0
 * @infolen: its length
 *
 * rdma_optinfo is padded with zeros to a word boundary.
 *
 * Return: octets written, -EINVAL (a bad @optdir) or -EMSGSIZE.
 */
int rpcrdma_xchar_encode_opthdr(void *buf, size_t len, u32 xid, u32 credit,
				u32 optdir, u32 opttype, const void *info,
				u32 infolen)
{
	struct xchar_wbuf w;
	size_t room = xchar_pad(infolen);

	if (optdir > RPCRDMA_XCHAR_REPLY || (infolen && !info))
		return -EINVAL;
	xchar_wbuf_init(&w, buf, len);
	xchar_put_u32(&w, xid);
	xchar_put_u32(&w, RPCRDMA_XCHAR_VERSION);
	xchar_put_u32(&w, credit);
	xchar_put_u32(&w, RPCRDMA_XCHAR_PROC_OPTIONAL);
	xchar_put_u32(&w, optdir);
	xchar_put_u32(&w, opttype);
	xchar_put_u32(&w, infolen);
	if (!w.err && w.len - w.used < room)
		w.err = -EMSGSIZE;
	if (w.err)
		return w.err;
	memset(w.p + w.used, 0, room);
	if (infolen)
		memcpy(w.p + w.used, info, infolen);
	w.used += room;
	return xchar_wbuf_done(&w);
}

static void xchar_put_segment(struct xchar_wbuf *w,
			      const struct rpcrdma_xchar_segment *seg)
{
	xchar_put_u32(w, seg->handle);
	xchar_put_u32(w, seg->length);
	xchar_put_u32(w, seg->offset >> 32);
	xchar_put_u32(w, (u32)seg->offset);
}

/**
 * rpcrdma_xchar_encode_msghdr - Encode an RDMA2_MSG or RDMA2_NOMSG header
 * @base: the Version Two text the peer follows
 * @buf: output
 * @len: room in @buf
 * @hdr: the header; @hdr->hdrlen is not read
 *
 * Encodes what @hdr describes or nothing: a Read list of at most the
 * one segment @hdr->read, at position zero; no Write list; a Reply
 * chunk of at most the one segment @hdr->reply_seg. rdma_inv_handle
 * goes out only under a @base that has it.
 *
 * Return: octets written; -EINVAL for a header this cannot express (a
 * @hdr->proc other than MSG or NOMSG, a bad direction, Write chunks,
 * more segments, an rdma_inv_handle under -01); or -EMSGSIZE.
 */
int rpcrdma_xchar_encode_msghdr(const struct rpcrdma_xchar_base *base,
				void *buf, size_t len,
				const struct rpcrdma_xchar_msghdr *hdr)
{
	struct xchar_wbuf w;

	if ((hdr->proc != RPCRDMA_XCHAR_PROC_MSG &&
	     hdr->proc != RPCRDMA_XCHAR_PROC_NOMSG) ||
	    hdr->dir > RPCRDMA_XCHAR_REPLY ||
	    (hdr->inv_handle && !base->inv_handle) ||
	    hdr->nreads != hdr->pos0 || hdr->nwrites ||
	    hdr->nreply > hdr->reply)
		return -EINVAL;
	xchar_wbuf_init(&w, buf, len);
	xchar_put_u32(&w, hdr->xid);
	xchar_put_u32(&w, RPCRDMA_XCHAR_VERSION);
	xchar_put_u32(&w, hdr->credit);
	xchar_put_u32(&w, hdr->proc);
	xchar_put_u32(&w, hdr->dir);
	if (base->inv_handle)
		xchar_put_u32(&w, hdr->inv_handle);
	if (hdr->pos0) {
		xchar_put_u32(&w, 1);
		xchar_put_u32(&w, 0);
		xchar_put_segment(&w, &hdr->read);
	}
	xchar_put_u32(&w, 0);		/* end of the Read list */
	xchar_put_u32(&w, 0);		/* no Write list */
	xchar_put_u32(&w, hdr->reply);
	if (hdr->reply)
		xchar_put_u32(&w, hdr->nreply);
	if (hdr->nreply)
		xchar_put_segment(&w, &hdr->reply_seg);
	return xchar_wbuf_done(&w);
}

/**
 * rpcrdma_xchar_encode_error - Encode an RDMA2_ERROR header
 * @base: the Version Two text the peer follows
 * @buf: output
 * @len: room in @buf
 * @err: the header: rdma_xid and rdma_vers copied from the message in
 *	error, a code of @base, and its arguments when it has any
 *
 * Return: octets written, -EINVAL for a code @base does not define, or
 * -EMSGSIZE.
 */
int rpcrdma_xchar_encode_error(const struct rpcrdma_xchar_base *base,
			       void *buf, size_t len,
			       const struct rpcrdma_xchar_errhdr *err)
{
	struct xchar_wbuf w;

	if (!xchar_err_known(base, err->err))
		return -EINVAL;
	xchar_wbuf_init(&w, buf, len);
	xchar_put_u32(&w, err->xid);
	xchar_put_u32(&w, err->vers);
	xchar_put_u32(&w, err->credit);
	xchar_put_u32(&w, RPCRDMA_XCHAR_PROC_ERROR);
	xchar_put_u32(&w, err->err);
	if (xchar_err_args(base, err->vers, err->err)) {
		xchar_put_u32(&w, err->arg[0]);
		xchar_put_u32(&w, err->arg[1]);
	}
	return xchar_wbuf_done(&w);
}

/**
 * rpcrdma_xchar_status_name - Name a decoding outcome
 * @status: a value of enum rpcrdma_xchar_status
 *
 * Return: a short, stable, lower-case token.
 */
const char *rpcrdma_xchar_status_name(enum rpcrdma_xchar_status status)
{
	switch (status) {
	case RPCRDMA_XCHAR_OK:
		return "ok";
	case RPCRDMA_XCHAR_UNKNOWN:
		return "unknown_prop";
	case RPCRDMA_XCHAR_BAD_XDR:
		return "xdr_overrun";
	case RPCRDMA_XCHAR_BAD_PROPVAL:
		return "bad_propval";
	case RPCRDMA_XCHAR_NOT_V2:
		return "not_version_2";
	case RPCRDMA_XCHAR_NOT_OPTIONAL:
		return "not_optional";
	case RPCRDMA_XCHAR_OTHER_PROC:
		return "other_proc";
	}
	return "unknown";
}

/**
 * rpcrdma_xchar_prop_name - Name a propid
 * @which: a propid
 *
 * Return: the draft's name of a basic property, "experimental" for the
 * range of Section 6.2, or "unknown".
 */
const char *rpcrdma_xchar_prop_name(u32 which)
{
	switch (which) {
	case RPCRDMA_XCHAR_PROP_RBSIZ:
		return "PROP_RBSIZ";
	case RPCRDMA_XCHAR_PROP_REQREMINV:
		return "PROP_REQREMINV";
	case RPCRDMA_XCHAR_PROP_BRS:
		return "PROP_BRS";
	}
	return which >= RPCRDMA_XCHAR_PROP_EXPERIMENTAL ? "experimental" :
							   "unknown";
}

/**
 * rpcrdma_xchar_opt_name - Name an rdma_opttype
 * @opttype: an rdma_opttype
 *
 * Return: the draft's name of the message type, or "unknown".
 */
const char *rpcrdma_xchar_opt_name(u32 opttype)
{
	switch (opttype) {
	case RPCRDMA_XCHAR_ROPT_CONNPROP:
		return "ROPT_CONNPROP";
	case RPCRDMA_XCHAR_ROPT_REQPROP:
		return "ROPT_REQPROP";
	case RPCRDMA_XCHAR_ROPT_RESPROP:
		return "ROPT_RESPROP";
	case RPCRDMA_XCHAR_ROPT_UPDPROP:
		return "ROPT_UPDPROP";
	}
	return "unknown";
}

static const char *const xchar_err_names_01[] = {
	[RPCRDMA_XCHAR_ERR_VERS]		= "RDMA2_ERR_VERS",
	[RPCRDMA_XCHAR_ERR_BAD_HEADER]		= "RDMA2_ERR_BAD_HEADER",
	[RPCRDMA_XCHAR_ERR_INVAL_OPTION]	= "RDMA2_ERR_INVAL_OPTION",
};

static const char *const xchar_err_names_wc[] = {
	[RPCRDMA_XCHAR_WC_ERR_VERS]		= "RDMA2_ERR_VERS",
	[RPCRDMA_XCHAR_WC_ERR_BAD_XDR]		= "RDMA2_ERR_BAD_XDR",
	[RPCRDMA_XCHAR_WC_ERR_REPLY_RESOURCE]	= "RDMA2_ERR_REPLY_RESOURCE",
	[RPCRDMA_XCHAR_WC_ERR_INVAL_PROC]	= "RDMA2_ERR_INVAL_PROC",
	[RPCRDMA_XCHAR_WC_ERR_INVAL_OPTION]	= "RDMA2_ERR_INVAL_OPTION",
	[RPCRDMA_XCHAR_WC_ERR_SYSTEM]		= "RDMA2_ERR_SYSTEM",
};

/**
 * rpcrdma_xchar_err_name - Name an rdma_err value
 * @base: the Version Two text that defines it
 * @err: an rdma_err
 *
 * Return: the name @base gives @err, or "unknown".
 */
const char *rpcrdma_xchar_err_name(const struct rpcrdma_xchar_base *base,
				   u32 err)
{
	if (!xchar_err_known(base, err))
		return "unknown";
	if (base->id == RPCRDMA_XCHAR_BASE_WC)
		return xchar_err_names_wc[err];
	return xchar_err_names_01[err];
}
