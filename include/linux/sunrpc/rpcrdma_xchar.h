/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RPC-over-RDMA Version Two transport properties
 * (draft-dnoveck-nfsv4-rpcrdma-xcharext-03), framed by RDMA2_OPTIONAL
 * of draft-cel-nfsv4-rpcrdma-version-two-01, the revision xcharext-03
 * cites. The authors' later working copy (XML of 2016-11-10) differs in
 * its error codes and its RDMA2_MSG header; it is available as a named
 * base (struct rpcrdma_xchar_base), never by default.
 *
 * A pure XDR codec: property values (propval, propvalset,
 * propvalsubset), the three basic properties, the four optional
 * messages ROPT_CONNPROP, ROPT_REQPROP, ROPT_RESPROP and ROPT_UPDPROP,
 * and the Version Two headers around them. Like the RFC 8797 codec it
 * depends on nothing but kernel types, so it compiles into a KUnit
 * kernel, a userspace fuzzer and the experimental Version Two endpoint
 * of rpcrdma-cm-probe. It is not part of rpcrdma.ko: no kernel speaks
 * Version Two (Documentation/transport-properties.md).
 */
#ifndef _LINUX_SUNRPC_RPCRDMA_XCHAR_H
#define _LINUX_SUNRPC_RPCRDMA_XCHAR_H

#include <linux/types.h>

/* rdma_vers and rpcrdma2_proc: the same in -01 and the working copy */
#define RPCRDMA_XCHAR_VERSION		2
#define RPCRDMA_XCHAR_PROC_MSG		0
#define RPCRDMA_XCHAR_PROC_NOMSG	1
#define RPCRDMA_XCHAR_PROC_ERROR	4
#define RPCRDMA_XCHAR_PROC_OPTIONAL	5

/* enum msg_type of rdma_optdir and rdma_direction (RFC 5531) */
#define RPCRDMA_XCHAR_CALL		0
#define RPCRDMA_XCHAR_REPLY		1

/* rpcrdma2_errcode of version-two-01 */
#define RPCRDMA_XCHAR_ERR_VERS		1
#define RPCRDMA_XCHAR_ERR_BAD_HEADER	2
#define RPCRDMA_XCHAR_ERR_INVAL_OPTION	3

/* rpcrdma2_errcode of the working copy of 2016-11-10 */
#define RPCRDMA_XCHAR_WC_ERR_VERS	1
#define RPCRDMA_XCHAR_WC_ERR_BAD_XDR	2
#define RPCRDMA_XCHAR_WC_ERR_REPLY_RESOURCE	3
#define RPCRDMA_XCHAR_WC_ERR_INVAL_PROC	4
#define RPCRDMA_XCHAR_WC_ERR_INVAL_OPTION	5
#define RPCRDMA_XCHAR_WC_ERR_SYSTEM	6

/**
 * enum rpcrdma_xchar_base_id - which Version Two text frames the messages
 * @RPCRDMA_XCHAR_BASE_01: draft-cel-nfsv4-rpcrdma-version-two-01, the
 *	revision xcharext-03 cites; the default
 * @RPCRDMA_XCHAR_BASE_WC: the authors' working copy of 2016-11-10
 */
enum rpcrdma_xchar_base_id {
	RPCRDMA_XCHAR_BASE_01 = 0,
	RPCRDMA_XCHAR_BASE_WC,
};

/**
 * struct rpcrdma_xchar_base - what differs between the two Version Two texts
 * @id: which one
 * @name: "01" or "2016-11-10"
 * @inv_handle: rpcrdma2_chunk_lists carries rdma_inv_handle
 * @msg_hdrlen: octets of an RDMA2_MSG header with three empty chunk lists
 * @err_vers: rdma_err for a version not supported
 * @err_bad_xdr: for a transport header that does not parse
 * @err_inval_option: for an rdma_opttype not supported
 * @err_inval_proc: for an rdma_proc not known (-01 has no code of its
 *	own: Version One calls that an XDR error)
 * @err_reply_resource: for Write or Reply chunks too small for the
 *	Reply (-01: an XDR error, as in Version One)
 *
 * Code that frames messages takes one of these and nothing else, so
 * constants of the two texts cannot be mixed.
 */
struct rpcrdma_xchar_base {
	enum rpcrdma_xchar_base_id	id;
	const char			*name;
	bool				inv_handle;
	u32				msg_hdrlen;
	u32				err_vers;
	u32				err_bad_xdr;
	u32				err_inval_option;
	u32				err_inval_proc;
	u32				err_reply_resource;
};

/* xcharext-03 Section 4, Table 2: rdma_opttype values */
#define RPCRDMA_XCHAR_ROPT_CONNPROP	1
#define RPCRDMA_XCHAR_ROPT_REQPROP	2
#define RPCRDMA_XCHAR_ROPT_RESPROP	3
#define RPCRDMA_XCHAR_ROPT_UPDPROP	4

/* xcharext-03 Section 3, Table 1: propid values */
#define RPCRDMA_XCHAR_PROP_RBSIZ	1
#define RPCRDMA_XCHAR_PROP_REQREMINV	2
#define RPCRDMA_XCHAR_PROP_BRS		3
#define RPCRDMA_XCHAR_PROP_MAX		RPCRDMA_XCHAR_PROP_BRS

/* Section 6.2: propids reserved for experimental use */
#define RPCRDMA_XCHAR_PROP_EXPERIMENTAL	0xffffff00U

/**
 * enum rpcrdma_xchar_bkreqsup - Backward Request Support (Section 3.3)
 * @RPCRDMA_XCHAR_BKREQSUP_NONE: backward-direction messages not supported
 * @RPCRDMA_XCHAR_BKREQSUP_INLINE: supported inline only
 * @RPCRDMA_XCHAR_BKREQSUP_GENL: supported as forward-direction ones are
 */
enum rpcrdma_xchar_bkreqsup {
	RPCRDMA_XCHAR_BKREQSUP_NONE = 0,
	RPCRDMA_XCHAR_BKREQSUP_INLINE = 1,
	RPCRDMA_XCHAR_BKREQSUP_GENL = 2,
};

/* Table 1 defaults, assumed until a peer says otherwise */
#define RPCRDMA_XCHAR_DEFAULT_RBSIZ	4096U
#define RPCRDMA_XCHAR_DEFAULT_REQREMINV	false
#define RPCRDMA_XCHAR_DEFAULT_BRS	RPCRDMA_XCHAR_BKREQSUP_INLINE

/* Every basic property's XDR type (uint32, bool, enum) is one word */
#define RPCRDMA_XCHAR_PROP_LEN		4

/* Octets of the fixed part of an RDMA2_OPTIONAL header: rdma_xid,
 * rdma_vers, rdma_credit, rdma_proc, rdma_optdir, rdma_opttype and
 * the length of rdma_optinfo.
 */
#define RPCRDMA_XCHAR_OPTHDR_LEN	28

/* Positions a propvalsubset built by this code can name: 8 words */
#define RPCRDMA_XCHAR_MASK_WORDS	8
#define RPCRDMA_XCHAR_SET_MAX		(RPCRDMA_XCHAR_MASK_WORDS * 32U)

/**
 * enum rpcrdma_xchar_status - outcome of decoding
 * @RPCRDMA_XCHAR_OK: decoded
 * @RPCRDMA_XCHAR_UNKNOWN: a propval whose propid this code does not
 *	know; it is skipped, not an error (Section 2.1)
 * @RPCRDMA_XCHAR_BAD_XDR: the XDR runs past the end of the message or
 *	of the enclosing opaque, or a discriminant is out of range: an
 *	XDR error (RDMA2_ERR_BAD_XDR)
 * @RPCRDMA_XCHAR_BAD_PROPVAL: the pv_data of a known property is too
 *	short for its type or not a valid value of it: an XDR error too
 * @RPCRDMA_XCHAR_NOT_V2: not a Version Two header
 * @RPCRDMA_XCHAR_NOT_OPTIONAL: a Version Two header that is not RDMA2_OPTIONAL
 * @RPCRDMA_XCHAR_OTHER_PROC: a Version Two header of another rdma_proc
 *	than the decoder's (RDMA2_MSG/NOMSG, RDMA2_ERROR)
 */
enum rpcrdma_xchar_status {
	RPCRDMA_XCHAR_OK = 0,
	RPCRDMA_XCHAR_UNKNOWN,
	RPCRDMA_XCHAR_BAD_XDR,
	RPCRDMA_XCHAR_BAD_PROPVAL,
	RPCRDMA_XCHAR_NOT_V2,
	RPCRDMA_XCHAR_NOT_OPTIONAL,
	RPCRDMA_XCHAR_OTHER_PROC,
};

/**
 * struct rpcrdma_xchar_xdr - a read cursor over received XDR
 * @p: next octet to decode
 * @left: octets between @p and the end of the message
 */
struct rpcrdma_xchar_xdr {
	const u8	*p;
	size_t		left;
};

/**
 * struct rpcrdma_xchar_propval - one propval as it is on the wire
 * @which: pv_which
 * @len: length of pv_data in octets, without XDR padding
 * @data: pv_data, pointing into the received message
 */
struct rpcrdma_xchar_propval {
	u32		which;
	u32		len;
	const u8	*data;
};

/**
 * struct rpcrdma_xchar_props - values of the basic properties
 * @rbsiz: Receive Buffer Size, octets (prop_rbsiz)
 * @reqreminv: Requester Remote Invalidation (prop_reqreminv)
 * @brs: Backward Request Support (prop_brs)
 */
struct rpcrdma_xchar_props {
	u32				rbsiz;
	bool				reqreminv;
	enum rpcrdma_xchar_bkreqsup	brs;
};

/**
 * struct rpcrdma_xchar_propset - a decoded propvalset
 * @count: number of propvals in the set, known or not
 * @present: BIT(propid) of each basic property the set holds
 * @dflt: BIT(propid) of those sent with zero-length pv_data (default)
 * @dup: BIT(propid) of those named again later in the set; the first
 *	propval counts, the later ones are skipped
 * @pos: position in the set of each property of @present
 * @val: values of the properties of @present; defaults elsewhere
 * @err_pos: when decoding failed, the position of the offending propval
 *	(@count when the set's length word itself was the problem)
 */
struct rpcrdma_xchar_propset {
	u32				count;
	u32				present;
	u32				dflt;
	u32				dup;
	u32				pos[RPCRDMA_XCHAR_PROP_MAX + 1];
	struct rpcrdma_xchar_props	val;
	u32				err_pos;
};

/**
 * struct rpcrdma_xchar_subset - a decoded propvalsubset
 * @wire: its words as received (network order, in the message)
 * @nwords: how many words were sent; later words count as zero
 */
struct rpcrdma_xchar_subset {
	const u8	*wire;
	u32		nwords;
};

/**
 * struct rpcrdma_xchar_mask - a propvalsubset to send
 * @w: word N holds positions 32N..32N+31, bit N mod 32 for position N
 */
struct rpcrdma_xchar_mask {
	u32	w[RPCRDMA_XCHAR_MASK_WORDS];
};

/**
 * struct rpcrdma_xchar_prop - one propval to send
 * @which: pv_which
 * @dflt: send zero-length pv_data, meaning the default value
 * @value: the value, for any propid an XDR word (uint32, bool or enum)
 */
struct rpcrdma_xchar_prop {
	u32	which;
	bool	dflt;
	u32	value;
};

/**
 * struct rpcrdma_xchar_opthdr - a decoded RDMA2_OPTIONAL header
 * @xid: rdma_xid
 * @credit: rdma_credit
 * @optdir: rdma_optdir, %RPCRDMA_XCHAR_CALL or %RPCRDMA_XCHAR_REPLY
 * @opttype: rdma_opttype
 * @info: rdma_optinfo, pointing into the message
 * @infolen: its length in octets
 * @hdrlen: octets of the transport header, rdma_optinfo's padding
 *	included; an RPC payload, if any, starts there
 */
struct rpcrdma_xchar_opthdr {
	u32		xid;
	u32		credit;
	u32		optdir;
	u32		opttype;
	const u8	*info;
	u32		infolen;
	u32		hdrlen;
};

/**
 * struct rpcrdma_xchar_segment - one rpcrdma2_segment
 * @handle: rdma_handle
 * @length: rdma_length
 * @offset: rdma_offset
 */
struct rpcrdma_xchar_segment {
	u32	handle;
	u32	length;
	u64	offset;
};

/**
 * struct rpcrdma_xchar_msghdr - an RDMA2_MSG or RDMA2_NOMSG header
 * @xid: rdma_xid
 * @credit: rdma_credit
 * @proc: %RPCRDMA_XCHAR_PROC_MSG or %RPCRDMA_XCHAR_PROC_NOMSG
 * @dir: rdma_direction, %RPCRDMA_XCHAR_CALL or %RPCRDMA_XCHAR_REPLY
 * @inv_handle: rdma_inv_handle; the working copy only, 0 under -01
 * @nreads: Read segments in the Read list
 * @pos0: the Read list has a segment at position zero; @read is the
 *	first of them
 * @read: that segment
 * @nwrites: Write chunks in the Write list
 * @reply: a Reply chunk is present
 * @nreply: its segments
 * @reply_seg: the first of them
 * @hdrlen: octets of the transport header; an RPC payload starts there
 */
struct rpcrdma_xchar_msghdr {
	u32				xid;
	u32				credit;
	u32				proc;
	u32				dir;
	u32				inv_handle;
	u32				nreads;
	bool				pos0;
	struct rpcrdma_xchar_segment	read;
	u32				nwrites;
	bool				reply;
	u32				nreply;
	struct rpcrdma_xchar_segment	reply_seg;
	u32				hdrlen;
};

/**
 * struct rpcrdma_xchar_errhdr - an RDMA2_ERROR header
 * @xid: rdma_xid, copied from the message in error
 * @vers: rdma_vers, likewise
 * @credit: rdma_credit
 * @err: rdma_err, a code of the base in use
 * @arg: what follows it: rdma_vers_low and rdma_vers_high for ERR_VERS,
 *	rdma_segment_index and rdma_length_needed for the working copy's
 *	REPLY_RESOURCE; 0 for every other code
 */
struct rpcrdma_xchar_errhdr {
	u32	xid;
	u32	vers;
	u32	credit;
	u32	err;
	u32	arg[2];
};

/* Section 4.1 */
struct rpcrdma_xchar_connprop {
	struct rpcrdma_xchar_propset	start;
	struct rpcrdma_xchar_subset	nochg;
};

/* Section 4.2 */
struct rpcrdma_xchar_reqprop {
	struct rpcrdma_xchar_propset	want;
};

/* Section 4.3 */
struct rpcrdma_xchar_resprop {
	struct rpcrdma_xchar_subset	done;
	struct rpcrdma_xchar_subset	rej;
	struct rpcrdma_xchar_propset	other;
};

/* Section 4.4 */
struct rpcrdma_xchar_updprop {
	struct rpcrdma_xchar_propset	now;
};

const struct rpcrdma_xchar_base *
rpcrdma_xchar_base_get(enum rpcrdma_xchar_base_id id);
void rpcrdma_xchar_defaults(struct rpcrdma_xchar_props *val);
void rpcrdma_xchar_xdr_init(struct rpcrdma_xchar_xdr *xdr, const void *buf,
			    size_t len);
enum rpcrdma_xchar_status
rpcrdma_xchar_decode_propval(struct rpcrdma_xchar_xdr *xdr,
			     struct rpcrdma_xchar_propval *pv);
enum rpcrdma_xchar_status
rpcrdma_xchar_prop_value(const struct rpcrdma_xchar_propval *pv, u32 *value);
enum rpcrdma_xchar_status
rpcrdma_xchar_decode_propset(struct rpcrdma_xchar_xdr *xdr,
			     struct rpcrdma_xchar_propset *set);
enum rpcrdma_xchar_status
rpcrdma_xchar_decode_subset(struct rpcrdma_xchar_xdr *xdr,
			    struct rpcrdma_xchar_subset *sub);
bool rpcrdma_xchar_subset_test(const struct rpcrdma_xchar_subset *sub,
			       u32 pos);
bool rpcrdma_xchar_propset_has(const struct rpcrdma_xchar_propset *set,
			       u32 which);
enum rpcrdma_xchar_status
rpcrdma_xchar_decode_connprop(const void *info, size_t len,
			      struct rpcrdma_xchar_connprop *msg);
enum rpcrdma_xchar_status
rpcrdma_xchar_decode_reqprop(const void *info, size_t len,
			     struct rpcrdma_xchar_reqprop *msg);
enum rpcrdma_xchar_status
rpcrdma_xchar_decode_resprop(const void *info, size_t len,
			     struct rpcrdma_xchar_resprop *msg);
enum rpcrdma_xchar_status
rpcrdma_xchar_decode_updprop(const void *info, size_t len,
			     struct rpcrdma_xchar_updprop *msg);
enum rpcrdma_xchar_status
rpcrdma_xchar_decode_opthdr(const void *buf, size_t len,
			    struct rpcrdma_xchar_opthdr *hdr);

void rpcrdma_xchar_mask_set(struct rpcrdma_xchar_mask *mask, u32 pos);
bool rpcrdma_xchar_mask_test(const struct rpcrdma_xchar_mask *mask, u32 pos);
int rpcrdma_xchar_encode_connprop(void *buf, size_t len,
				  const struct rpcrdma_xchar_prop *start,
				  u32 n, const struct rpcrdma_xchar_mask *nochg);
int rpcrdma_xchar_encode_reqprop(void *buf, size_t len,
				 const struct rpcrdma_xchar_prop *want, u32 n);
int rpcrdma_xchar_encode_resprop(void *buf, size_t len,
				 const struct rpcrdma_xchar_mask *done,
				 const struct rpcrdma_xchar_mask *rej,
				 const struct rpcrdma_xchar_prop *other, u32 n);
int rpcrdma_xchar_encode_updprop(void *buf, size_t len,
				 const struct rpcrdma_xchar_prop *now, u32 n);
int rpcrdma_xchar_encode_opthdr(void *buf, size_t len, u32 xid, u32 credit,
				u32 optdir, u32 opttype, const void *info,
				u32 infolen);

enum rpcrdma_xchar_status
rpcrdma_xchar_decode_msghdr(const struct rpcrdma_xchar_base *base,
			    const void *buf, size_t len,
			    struct rpcrdma_xchar_msghdr *hdr);
int rpcrdma_xchar_encode_msghdr(const struct rpcrdma_xchar_base *base,
				void *buf, size_t len,
				const struct rpcrdma_xchar_msghdr *hdr);
enum rpcrdma_xchar_status
rpcrdma_xchar_decode_error(const struct rpcrdma_xchar_base *base,
			   const void *buf, size_t len,
			   struct rpcrdma_xchar_errhdr *err);
int rpcrdma_xchar_encode_error(const struct rpcrdma_xchar_base *base,
			       void *buf, size_t len,
			       const struct rpcrdma_xchar_errhdr *err);

const char *rpcrdma_xchar_status_name(enum rpcrdma_xchar_status status);
const char *rpcrdma_xchar_prop_name(u32 which);
const char *rpcrdma_xchar_opt_name(u32 opttype);
const char *rpcrdma_xchar_err_name(const struct rpcrdma_xchar_base *base,
				   u32 err);

#endif /* _LINUX_SUNRPC_RPCRDMA_XCHAR_H */
