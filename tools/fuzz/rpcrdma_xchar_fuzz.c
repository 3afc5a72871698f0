// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the transport property codec and state machine
 * of draft-dnoveck-nfsv4-rpcrdma-xcharext-03
 * (net/sunrpc/xprtrdma/rpcrdma_xchar.c and rpcrdma_xchar_sm.c, compiled
 * unmodified against tools/fuzz/include).
 *
 * Each input is taken three ways: as a whole RDMA2_OPTIONAL message, as
 * the rdma_optinfo of each of the four ROPT messages, and as a
 * propvalset on its own. It is copied into a heap buffer of exactly
 * its length, so AddressSanitizer reports any read past the end. Then:
 *
 *  - rpcrdma_xchar_decode_propset() agrees with a reference decoder
 *    written here from the draft's XDR (Section 2.1): same outcome for
 *    pv_data past the message, a known property too short or invalid;
 *    same count, positions and values; a known property named again
 *    keeping its first value; unknown propids skipped; zero-length
 *    data the default;
 *  - rpcrdma_xchar_subset_test() agrees with bit N mod 32 of word N
 *    div 32, zero past the last word;
 *  - a decoded set encodes back (known properties, in order) and
 *    decodes to the same values;
 *  - the header decoder never reports an rdma_optinfo outside the
 *    message;
 *  - under each Version Two base (version-two-01, the working copy),
 *    an RDMA2_MSG/NOMSG or RDMA2_ERROR header that decodes lies within
 *    the message, and one the encoder can express encodes back to the
 *    very octets it came from;
 *  - an endpoint fed every message that decodes keeps its invariants:
 *    the send limit never exceeds the peer's Receive Buffer Size, its
 *    own stays within its limits, every answer it produces encodes;
 *    once the peer refuses its CONNPROP (RDMA2_ERR_INVAL_OPTION) it
 *    has nothing pending and produces no property message.
 *
 * A failed check prints what went wrong and aborts: libFuzzer records
 * the input as a crash.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <linux/types.h>
#include <linux/string.h>
#include <linux/sunrpc/rpcrdma_xchar.h>
#include <linux/sunrpc/rpcrdma_xchar_sm.h>

#define FUZZ_CHECK(cond)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: check failed: %s\n",	\
				__FILE__, __LINE__, #cond);		\
			abort();					\
		}							\
	} while (0)

static u32 fuzz_be32(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

/* The reference: what Section 2.1 and Table 1 ask for, spelled out */
struct fuzz_ref {
	enum rpcrdma_xchar_status status;
	u32 count;
	u32 present;
	u32 dup;
	u32 pos[4];
	u32 val[4];
	size_t used;
};

static u32 fuzz_ref_default(u32 which)
{
	return which == 1 ? 4096 : which == 2 ? 0 : 1;
}

static u32 fuzz_ref_max(u32 which)
{
	return which == 1 ? 0xffffffffu : which == 2 ? 1 : 2;
}

static void fuzz_ref_propset(const u8 *p, size_t len, struct fuzz_ref *ref)
{
	size_t off = 4, room;
	u32 i, which, dlen;

	memset(ref, 0, sizeof(*ref));
	for (i = 1; i <= 3; i++)
		ref->val[i] = fuzz_ref_default(i);
	if (len < 4) {
		ref->status = RPCRDMA_XCHAR_BAD_XDR;
		return;
	}
	ref->count = fuzz_be32(p);
	for (i = 0; i < ref->count; i++) {
		if (len - off < 8) {
			ref->status = RPCRDMA_XCHAR_BAD_XDR;
			return;
		}
		which = fuzz_be32(p + off);
		dlen = fuzz_be32(p + off + 4);
		off += 8;
		room = ((size_t)dlen + 3) / 4 * 4;
		if (room > len - off) {
			ref->status = RPCRDMA_XCHAR_BAD_XDR;
			return;
		}
		if (which >= 1 && which <= 3) {
			u32 v = fuzz_ref_default(which);

			if (dlen && dlen < 4) {
				ref->status = RPCRDMA_XCHAR_BAD_PROPVAL;
				return;
			}
			if (dlen)
				v = fuzz_be32(p + off);
			if (v > fuzz_ref_max(which)) {
				ref->status = RPCRDMA_XCHAR_BAD_PROPVAL;
				return;
			}
			if (ref->present & (1u << which)) {
				ref->dup |= 1u << which;
			} else {
				ref->present |= 1u << which;
				ref->pos[which] = i;
				ref->val[which] = v;
			}
		}
		off += room;
	}
	ref->used = off;
	ref->status = RPCRDMA_XCHAR_OK;
}

static u32 fuzz_val(const struct rpcrdma_xchar_props *v, u32 which)
{
	return which == 1 ? v->rbsiz : which == 2 ? v->reqreminv : v->brs;
}

/* A propvalset at the start of @buf, against the reference */
static void fuzz_check_propset(const u8 *buf, size_t len)
{
	struct rpcrdma_xchar_propset set, back;
	struct rpcrdma_xchar_prop props[3];
	struct rpcrdma_xchar_xdr xdr;
	enum rpcrdma_xchar_status st;
	struct fuzz_ref ref;
	u8 out[64];
	u32 which, n = 0;
	int ret;

	fuzz_ref_propset(buf, len, &ref);
	rpcrdma_xchar_xdr_init(&xdr, buf, len);
	st = rpcrdma_xchar_decode_propset(&xdr, &set);
	FUZZ_CHECK(st == ref.status);
	if (st != RPCRDMA_XCHAR_OK)
		return;
	FUZZ_CHECK(set.count == ref.count);
	FUZZ_CHECK(set.present == ref.present);
	FUZZ_CHECK(set.dup == ref.dup);
	FUZZ_CHECK(len - xdr.left == ref.used);
	for (which = 1; which <= 3; which++) {
		FUZZ_CHECK(fuzz_val(&set.val, which) == ref.val[which]);
		if (!(ref.present & (1u << which)))
			continue;
		FUZZ_CHECK(set.pos[which] == ref.pos[which]);
		props[n].which = which;
		props[n].dflt = false;
		props[n].value = ref.val[which];
		n++;
	}

	/* What was understood encodes, and decodes to the same */
	ret = rpcrdma_xchar_encode_updprop(out, sizeof(out), props, n);
	FUZZ_CHECK(ret == (int)(4 + 12 * n));
	rpcrdma_xchar_xdr_init(&xdr, out, ret);
	FUZZ_CHECK(rpcrdma_xchar_decode_propset(&xdr, &back) ==
		   RPCRDMA_XCHAR_OK);
	FUZZ_CHECK(back.present == set.present);
	FUZZ_CHECK(back.val.rbsiz == set.val.rbsiz);
	FUZZ_CHECK(back.val.reqreminv == set.val.reqreminv);
	FUZZ_CHECK(back.val.brs == set.val.brs);
}

static void fuzz_check_subset(const u8 *buf, size_t len)
{
	struct rpcrdma_xchar_subset sub;
	struct rpcrdma_xchar_xdr xdr;
	u32 n, pos;
	bool want;

	rpcrdma_xchar_xdr_init(&xdr, buf, len);
	if (rpcrdma_xchar_decode_subset(&xdr, &sub) != RPCRDMA_XCHAR_OK) {
		FUZZ_CHECK(len < 4 || (size_t)fuzz_be32(buf) * 4 > len - 4);
		return;
	}
	n = fuzz_be32(buf);
	FUZZ_CHECK(sub.nwords == n);
	for (pos = 0; pos < n * 32 + 40 && pos < 4096; pos++) {
		want = pos / 32 < n &&
		       (fuzz_be32(buf + 4 + pos / 32 * 4) >> (pos % 32)) & 1;
		FUZZ_CHECK(rpcrdma_xchar_subset_test(&sub, pos) == want);
	}
}

static const struct rpcrdma_xchar_limits fuzz_lim = {
	.rbsiz = 4096, .rbsiz_max = 65536, .reqreminv = true,
	.brs = RPCRDMA_XCHAR_BKREQSUP_INLINE,
	.fixed = 1u << RPCRDMA_XCHAR_PROP_BRS,
};

static void fuzz_check_ep(const struct rpcrdma_xchar_ep *ep)
{
	u32 limit = rpcrdma_xchar_ep_send_limit(ep);

	FUZZ_CHECK(limit <= ep->peer.rbsiz);
	FUZZ_CHECK(!ep->req_pending || !ep->req_rbsiz ||
		   limit == ep->req_rbsiz);
	FUZZ_CHECK(ep->local.rbsiz >= RPCRDMA_XCHAR_RBSIZ_MIN);
	FUZZ_CHECK(ep->local.rbsiz <= ep->lim.rbsiz_max);
	FUZZ_CHECK(rpcrdma_xchar_ep_post_size(ep) <= ep->lim.rbsiz_max);
	FUZZ_CHECK(rpcrdma_xchar_ep_post_size(ep) >= ep->local.rbsiz ||
		   !ep->raise_to);
	FUZZ_CHECK(ep->local.brs <= ep->lim.brs);
	FUZZ_CHECK(!ep->local.reqreminv || ep->lim.reqreminv);
}

static void fuzz_send_answer(const struct rpcrdma_xchar_answer *ans)
{
	u8 out[256];
	u32 i;

	for (i = 0; i < RPCRDMA_XCHAR_MASK_WORDS; i++)
		FUZZ_CHECK(!(ans->done.w[i] & ans->rej.w[i]));
	FUZZ_CHECK(rpcrdma_xchar_encode_resprop(out, sizeof(out), &ans->done,
						&ans->rej, ans->other,
						ans->nother) > 0);
}

/* The peer answers the CONNPROP with RDMA2_ERR_INVAL_OPTION */
static void fuzz_refuse(struct rpcrdma_xchar_ep *ep)
{
	static const struct rpcrdma_xchar_prop lower[] = {
		{ RPCRDMA_XCHAR_PROP_RBSIZ, false, 2048 },
	};
	u8 out[64];

	FUZZ_CHECK(rpcrdma_xchar_ep_recv_inval_option(ep, 9) == 0);
	FUZZ_CHECK(ep->peer_lacks && !ep->req_pending && !ep->raise_to);
	FUZZ_CHECK(rpcrdma_xchar_ep_send_limit(ep) == ep->peer.rbsiz);
	FUZZ_CHECK(rpcrdma_xchar_ep_post_size(ep) == ep->local.rbsiz);
	FUZZ_CHECK(rpcrdma_xchar_ep_connprop(ep, 10, out, sizeof(out)) ==
		   -EOPNOTSUPP);
	FUZZ_CHECK(rpcrdma_xchar_ep_request(ep, 11, lower, 1) == -EOPNOTSUPP);
	FUZZ_CHECK(rpcrdma_xchar_ep_raise_rbsiz(ep, 8192) == -EOPNOTSUPP);
	fuzz_check_ep(ep);
}

/* Feed the input to an endpoint as each message type in turn */
static void fuzz_drive_ep(const u8 *buf, size_t len)
{
	static const struct rpcrdma_xchar_prop lower[] = {
		{ RPCRDMA_XCHAR_PROP_RBSIZ, false, 2048 },
	};
	struct rpcrdma_xchar_connprop cp;
	struct rpcrdma_xchar_reqprop rq;
	struct rpcrdma_xchar_resprop rs;
	struct rpcrdma_xchar_updprop up;
	struct rpcrdma_xchar_answer ans;
	struct rpcrdma_xchar_ep ep;
	u8 out[64];
	u32 accepted;
	int ret;

	FUZZ_CHECK(rpcrdma_xchar_ep_init(&ep, &fuzz_lim) == 0);
	FUZZ_CHECK(rpcrdma_xchar_ep_connprop(&ep, 9, out, 0) ==
		   -EMSGSIZE);
	FUZZ_CHECK(rpcrdma_xchar_ep_connprop(&ep, 9, out, sizeof(out)) > 0);
	if (rpcrdma_xchar_decode_connprop(buf, len, &cp) == RPCRDMA_XCHAR_OK) {
		FUZZ_CHECK(rpcrdma_xchar_ep_recv_connprop(&ep, &cp) == 0);
		FUZZ_CHECK(ep.peer.rbsiz == cp.start.val.rbsiz);
	}
	fuzz_check_ep(&ep);
	if (ep.peer.rbsiz > 2048 &&
	    rpcrdma_xchar_ep_request(&ep, 1, lower, 1) == 0)
		FUZZ_CHECK(rpcrdma_xchar_ep_send_limit(&ep) == 2048);
	fuzz_check_ep(&ep);
	if (rpcrdma_xchar_decode_updprop(buf, len, &up) == RPCRDMA_XCHAR_OK)
		rpcrdma_xchar_ep_recv_updprop(&ep, &up);
	fuzz_check_ep(&ep);
	if (rpcrdma_xchar_decode_resprop(buf, len, &rs) == RPCRDMA_XCHAR_OK &&
	    rpcrdma_xchar_ep_recv_resprop(&ep, 1, &rs, &accepted) == 0)
		FUZZ_CHECK(!ep.req_pending);
	fuzz_check_ep(&ep);
	if (rpcrdma_xchar_decode_reqprop(buf, len, &rq) == RPCRDMA_XCHAR_OK) {
		ret = rpcrdma_xchar_ep_recv_reqprop(&ep, 2, &rq, &ans);
		FUZZ_CHECK(ret == 0 || ret == 1);
		if (ret == 0)
			fuzz_send_answer(&ans);
		fuzz_check_ep(&ep);
		ret = rpcrdma_xchar_ep_receives_posted(&ep, 65536, &ans);
		if (ret == RPCRDMA_XCHAR_ROPT_RESPROP)
			fuzz_send_answer(&ans);
		FUZZ_CHECK(!ep.raise_to);
	}
	fuzz_check_ep(&ep);
	if (len && buf[0] & 1)
		fuzz_refuse(&ep);
}

static void fuzz_check_opthdr(const u8 *buf, size_t len)
{
	struct rpcrdma_xchar_opthdr hdr;

	if (rpcrdma_xchar_decode_opthdr(buf, len, &hdr) != RPCRDMA_XCHAR_OK)
		return;
	FUZZ_CHECK(fuzz_be32(buf + 4) == RPCRDMA_XCHAR_VERSION);
	FUZZ_CHECK(hdr.optdir <= RPCRDMA_XCHAR_REPLY);
	FUZZ_CHECK(hdr.info == buf + RPCRDMA_XCHAR_OPTHDR_LEN);
	FUZZ_CHECK(hdr.hdrlen <= len);
	FUZZ_CHECK(hdr.hdrlen == RPCRDMA_XCHAR_OPTHDR_LEN +
				 (hdr.infolen + 3) / 4 * 4);
	fuzz_drive_ep(hdr.info, hdr.infolen);
}

static void fuzz_check_msghdr(const struct rpcrdma_xchar_base *base,
			      const u8 *buf, size_t len)
{
	struct rpcrdma_xchar_msghdr hdr;
	u8 out[512];
	int ret;

	if (rpcrdma_xchar_decode_msghdr(base, buf, len, &hdr) !=
	    RPCRDMA_XCHAR_OK)
		return;
	FUZZ_CHECK(hdr.hdrlen <= len);
	FUZZ_CHECK(hdr.hdrlen >= base->msg_hdrlen);
	FUZZ_CHECK(hdr.pos0 <= hdr.nreads && (hdr.reply || !hdr.nreply));
	FUZZ_CHECK(base->inv_handle || !hdr.inv_handle);
	ret = rpcrdma_xchar_encode_msghdr(base, out, sizeof(out), &hdr);
	if (hdr.nreads != hdr.pos0 || hdr.nwrites || hdr.nreply > 1) {
		FUZZ_CHECK(ret == -EINVAL);
		return;
	}
	FUZZ_CHECK(ret == (int)hdr.hdrlen);
	FUZZ_CHECK(!memcmp(out, buf, ret));
}

static void fuzz_check_error(const struct rpcrdma_xchar_base *base,
			     const u8 *buf, size_t len)
{
	struct rpcrdma_xchar_errhdr err;
	u8 out[64];
	int ret;

	if (rpcrdma_xchar_decode_error(base, buf, len, &err) !=
	    RPCRDMA_XCHAR_OK)
		return;
	FUZZ_CHECK(len >= 20);
	ret = rpcrdma_xchar_encode_error(base, out, sizeof(out), &err);
	if (!strcmp(rpcrdma_xchar_err_name(base, err.err), "unknown")) {
		FUZZ_CHECK(ret == -EINVAL);
		return;
	}
	FUZZ_CHECK(ret == 20 || ret == 28);
	FUZZ_CHECK((size_t)ret <= len && !memcmp(out, buf, ret));
}

static void fuzz_check_headers(const u8 *buf, size_t len)
{
	enum rpcrdma_xchar_base_id id;

	for (id = RPCRDMA_XCHAR_BASE_01; id <= RPCRDMA_XCHAR_BASE_WC; id++) {
		fuzz_check_msghdr(rpcrdma_xchar_base_get(id), buf, len);
		fuzz_check_error(rpcrdma_xchar_base_get(id), buf, len);
	}
}

/* libFuzzer's entry point, named through an asm label so that the
 * C identifier can follow kernel naming.
 */
int rpcrdma_xchar_fuzz_one(const u8 *data, size_t size)
	__asm__("LLVMFuzzerTestOneInput");

int rpcrdma_xchar_fuzz_one(const u8 *data, size_t size)
{
	u8 *buf = malloc(size ? size : 1);

	FUZZ_CHECK(buf);
	if (size)
		memcpy(buf, data, size);
	fuzz_check_propset(buf, size);
	fuzz_check_subset(buf, size);
	fuzz_check_opthdr(buf, size);
	fuzz_check_headers(buf, size);
	fuzz_drive_ep(buf, size);
	FUZZ_CHECK(!size || !memcmp(buf, data, size));
	free(buf);
	return 0;
}
