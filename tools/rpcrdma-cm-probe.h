/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rpcrdma-cm-probe: the parts shared by the probe's source files.
 *
 *   rpcrdma-cm-probe.c         main(): parse, find a device, run a side
 *   rpcrdma-cm-probe-opts.c    the command line and the usage text
 *   rpcrdma-cm-probe-cm.c      RDMA-CM plumbing both sides use
 *   rpcrdma-cm-probe-client.c  the active side: connect, --repeat, --hold
 *   rpcrdma-cm-probe-listen.c  the passive side: --listen
 *   rpcrdma-cm-probe-output.c  everything printed on stdout and stderr
 *   rpcrdma-cm-probe-read.c    --read: one NFSv4 READ Call inline
 *   rpcrdma-cm-probe-v2.c      --v2: the experimental Version Two
 *                              endpoint (transport properties)
 *   rpcrdma-cm-probe-v2io.c    --v2: its verbs and RDMA-CM side
 *   rpcrdma-cm-probe-fuzz.c    --fuzz: the generator, the oracle and
 *                              --fuzz-dry-run (no RDMA at all)
 *   rpcrdma-cm-probe-fuzzrun.c --fuzz: the connections, both sides
 *   rpcrdma-cm-probe-flood.c   --flood: connection cycles at volume,
 *                              good, hostile, abandoned and refused
 */
#ifndef RPCRDMA_CM_PROBE_H
#define RPCRDMA_CM_PROBE_H

#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>
#include <linux/types.h>
#include <linux/sunrpc/rpcrdma_pdata.h>
#include <linux/sunrpc/rpcrdma_xchar.h>
#include <linux/sunrpc/rpcrdma_xchar_sm.h>

#define PROBE_DEFAULT_PORT	"20049"
#define PROBE_DEFAULT_SIZE	4096
#define PROBE_DEFAULT_TIMEOUT	5000
/* rdma_conn_param.private_data_len is one octet */
#define PROBE_PDATA_MAX		255
/* what an IB/RoCE CM REQ carries for the consumer: the churn maximum */
#define PROBE_RANDOM_MAX	56

/* --read: at most this many per connection */
#define PROBE_READS_MAX		4

/* --v2: receives posted, largest message or chunk, NULL Calls at most */
#define PROBE_V2_RECVS		4
#define PROBE_V2_SLOT		65536
#define PROBE_V2_NULLS		8
/* --v2 --listen: rdma_listen() backlog, and requests held meanwhile */
#define PROBE_V2_BACKLOG	4
/* the largest rdma_opttype counted (ROPT_UPDPROP) */
#define PROBE_V2_ROPT_MAX	RPCRDMA_XCHAR_ROPT_UPDPROP

/* --fuzz: what a CM field holds for the consumer, in octets. IB/RoCE:
 * a REQ carries 92, of which rdma_cm's own header takes 36; a REP 196.
 * iWARP (siw): MPA allows 256 (RDMA_MAX_PRIVATE_DATA), less the 4 of
 * MPA v2's IRD/ORD, which siw puts first (siw_cm.c, siw_accept() and
 * siw_recv_mpa_rr(), which counts them in its 256).
 */
#define PROBE_FUZZ_REQ_MAX	56
#define PROBE_FUZZ_REP_MAX	196
#define PROBE_FUZZ_MPA_MAX	252

/* The generator's classes, taken in turn: rpcrdma-cm-probe(8) */
enum probe_fuzz_class {
	PROBE_FUZZ_LENGTH,	/* random octets, every length 0..max */
	PROBE_FUZZ_OFFSET,	/* the identifier at every offset 0..max-4 */
	PROBE_FUZZ_VERSION,	/* every Version value 0..255 */
	PROBE_FUZZ_TRUNC,	/* a message cut at each octet, twice */
	PROBE_FUZZ_RANDOM,	/* random flags, sizes, offset and length */
	PROBE_FUZZ_NCLASSES,
	PROBE_FUZZ_CORPUS = PROBE_FUZZ_NCLASSES,	/* --corpus file */
};

/* Where the blobs go, and how the receiver sees them */
struct probe_fuzz_field {
	const char *name;	/* req, rep, mpa */
	size_t max;		/* octets the CM lets a consumer send */
	bool padded;		/* IB/RoCE: the receiver gets all max */
};

/* One generated (or replayed) input */
struct probe_fuzz_input {
	unsigned long index;	/* from 0, corpus files first */
	enum probe_fuzz_class cls;
	unsigned long k;	/* its place in the class's sweep */
	u8 blob[PROBE_PDATA_MAX];
	size_t len;
	long at;		/* where the identifier was put, or -1 */
	const char *file;	/* corpus: the file's name */
};

/* What RFC 8797 makes the receiver of an input do: the oracle */
struct probe_fuzz_verdict {
	enum rpcrdma_pdata_status status;
	struct rpcrdma_pdata msg;		/* when present */
	struct rpcrdma_pdata_limits rcv;	/* the receiver's, for it */
	struct rpcrdma_pdata_result res;	/* the receiver's thresholds */
};

/* A server as its answers to the two control connections show it: a
 * Send Size that follows the client's Receive Size R, as
 * max(floor, min(ceil, R)); the rest of its message fixed
 */
struct probe_fuzz_model {
	struct rpcrdma_pdata ref;	/* the answer to a Receive Size of
					 * the codec's largest: ceil is its
					 * Send Size
					 */
	u32 floor;			/* the Send Size to one of 1024 */
};

/* The corpus, read before the first connection */
#define PROBE_FUZZ_CORPUS_MAX	1024

/* --fuzz and --flood, active side: connections in a row that got no
 * answer before the run stops. A server that died would otherwise cost
 * --timeout per input left: 5 s each, days for a run of 100000.
 */
#define PROBE_FUZZ_GIVE_UP	10

/* How probe_connect_as() makes and ends one attempt (--flood's kinds) */
enum probe_connect_how {
	PROBE_CONNECT_FULL,	/* established, --read, --hold, disconnect */
	PROBE_CONNECT_NO_READS,	/* no responder resources: to be refused */
	PROBE_CONNECT_DROP_REQ,	/* CM ID destroyed soon after the request */
	PROBE_CONNECT_DROP_REP,	/* ... once an answer is pending, unread */
};

/* Exit codes, documented in rpcrdma-cm-probe(8) */
enum probe_exit {
	PROBE_OK = 0,
	PROBE_ERROR = 1,
	PROBE_USAGE = 2,
	PROBE_NODEV = 3,
	PROBE_UNREACHABLE = 4,
	PROBE_REJECTED = 5,
	PROBE_TIMEOUT = 6,
	PROBE_NOT_V2 = 7,	/* --v2: the peer answered ERR_VERS */
};

/* One --read PATH:COUNT: an NFSv4.0 READ sent inline, without chunks */
struct probe_read {
	char path[256];		/* from the server's NFSv4 root, '/' separated */
	unsigned int count;
};

/* What came back for one --read */
struct probe_read_result {
	const char *reply;	/* rdma_msg, rdma_error, rdma_nomsg, none */
	unsigned int received;	/* octets the Receive completed with */
	unsigned int buffer;	/* octets posted for the Receive */
	int rdma_err;		/* RDMA_ERROR: ERR_VERS 1, ERR_CHUNK 2 */
	int nfs_status;		/* COMPOUND status, -1 without one */
	unsigned int failed_op;	/* op that set a non-zero status */
	unsigned int data;	/* octets READ returned */
	bool eof;
	char why[256];		/* reply "none" or malformed: what happened */
};

/* The command line, checked: see probe_parse_args() */
struct probe_opts {
	const char *target;		/* SERVER[:PORT] or [ADDR:]PORT */
	char host[256];
	char port[16];
	bool listen;
	bool json;
	bool verbose;
	bool reject;
	bool raw;			/* --pdata or --no-pdata */
	u8 pdata[PROBE_PDATA_MAX];
	size_t pdata_len;
	struct rpcrdma_pdata_limits lim;
	unsigned long count;		/* --listen: stop after N */
	unsigned long repeat;		/* active: N cycles */
	bool random;
	unsigned long long seed;
	int timeout_ms;
	long hold_ms;
	long wait_s;
	struct probe_read reads[PROBE_READS_MAX];
	unsigned int nreads;
	bool no_reply_buffer;		/* --read: post no Receive */
	bool v2;			/* --v2: the Version Two endpoint */
	struct rpcrdma_xchar_limits v2_lim;	/* --rbsiz, --rbsiz-max */
	u32 v2_request_rbsiz;		/* --request rbsiz=N, 0: none */
	u32 v2_update_rbsiz;		/* --update rbsiz=N, 0: none */
	u32 v2_null[PROBE_V2_NULLS];	/* --null SIZE,...: Call sizes */
	unsigned int v2_nnull;
	enum rpcrdma_xchar_base_id v2_base;	/* --base, default -01 */
	bool v2_no_props;		/* --no-props: without the extension */
	unsigned long fuzz;		/* --fuzz N, 0: not fuzzing */
	bool fuzz_seeded;		/* --seed given */
	unsigned long long fuzz_seed;
	const char *fuzz_corpus;	/* --corpus DIR */
	const struct probe_fuzz_field *fuzz_dry;	/* --fuzz-dry-run */
	unsigned long flood;		/* --flood N, 0: no flood */
};

/* The parts of a CM event the probe keeps after acknowledging it */
struct probe_event {
	enum rdma_cm_event_type type;
	int status;
	struct rdma_cm_id *id;
	bool has_pdata;
	u8 pdata[PROBE_PDATA_MAX];
	size_t pdata_len;
};

/* Verbs resources behind one connection's minimal RC QP */
struct probe_conn {
	struct rdma_cm_id *id;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	bool qp;
	unsigned long num;
	bool established;
};

/* How one active connection attempt ended */
struct probe_outcome {
	enum probe_exit code;
	unsigned int local_port;	/* this side's, once bound */
	bool iwarp;			/* the device's transport */
	const char *result;	/* established, rejected, timeout, ... */
	char why[256];
	char peer[INET6_ADDRSTRLEN + 8];
	char device[IBV_SYSFS_NAME_MAX + 16];
	struct probe_event reply;
	bool have_reply;
	bool clean_disconnect;
	struct probe_read_result reads[PROBE_READS_MAX];
	unsigned int nreads;	/* --read Calls that were sent */
	bool read_failed;	/* one of them got no Reply */
};

/* What a --repeat run counted, for its summary line */
struct probe_tally {
	unsigned long cycles;
	unsigned long established;
	unsigned long rejected;
	unsigned long refused;
	unsigned long timeouts;
	unsigned long errors;
	unsigned long unclean;
	double secs;
};

/* One received message of the --v2 endpoint */
struct probe_v2_rx {
	u64 slot;
	u32 len;
	bool inv;		/* it came by Send With Invalidate */
};

/* The --v2 endpoint of one connection */
struct probe_v2 {
	struct probe_conn c;
	bool client;
	const struct rpcrdma_xchar_base *base;	/* headers, error codes */
	struct rpcrdma_xchar_ep ep;
	struct ibv_mr *mr;		/* receive and send buffers */
	struct ibv_mr *chunk_mr;	/* chunk buffers, open to the peer */
	u8 *mem;
	u8 *recv_buf[PROBE_V2_RECVS];
	u32 recv_size[PROBE_V2_RECVS];	/* posted length, 0: not posted */
	u8 *send_buf;
	u8 *chunk;			/* [0]: Calls, [SLOT]: Replies */
	struct probe_v2_rx rx[PROBE_V2_RECVS];
	unsigned int rx_head, rx_count;
	bool send_busy, rdma_busy, broken;
	bool peer_gone;			/* its DISCONNECTED came */
	u32 xid;
	bool peer_v2;			/* a Version Two message came */
	bool connprop_sent;
	bool request_sent;
	bool update_sent;
	u32 err_low, err_high;		/* ERR_VERS, when it came */
	bool err_vers;
	unsigned long sends, recvs, violations;
	/* for the counts line: ROPT messages by rdma_opttype; NULL Calls
	 * sent (client) or answered (listener), those by Position-Zero
	 * chunk, Replies by Reply chunk, and the client's echo checks
	 */
	u32 opt_sent[PROBE_V2_ROPT_MAX + 1], opt_recv[PROBE_V2_ROPT_MAX + 1];
	u32 inval_sent, inval_recv;	/* RDMA2_ERR_INVAL_OPTION */
	u32 nulls, pos0, reply_chunks, echo_ok, echo_bad;
	char why[256];
};

/* The program's name in messages; the options, set by probe_parse_args() */
extern const char *prog;
extern struct probe_opts opts;
/* Opened by probe_check_devices(): every CM id of the run uses it */
extern struct rdma_event_channel *channel;

/* rpcrdma-cm-probe-opts.c */
void probe_parse_args(int argc, char **argv);
size_t probe_local_pdata(u8 *pd);

/* rpcrdma-cm-probe-cm.c */
enum probe_exit probe_check_devices(void);
long long probe_now_ms(void);
int probe_next_event(int timeout_ms, struct probe_event *out);
int probe_wait_on(struct rdma_cm_id *id, int timeout_ms,
		  struct probe_event *ev);
int probe_make_qp(struct probe_conn *c);
void probe_drop_conn(struct probe_conn *c);
void probe_conn_param(struct rdma_conn_param *param, const u8 *pd,
		      size_t pd_len);

/* rpcrdma-cm-probe-client.c */
void probe_catch_release(void);
u64 probe_rand(u64 *state);
void probe_connect_as(const struct addrinfo *ai, const u8 *pd, size_t pd_len,
		      enum probe_connect_how how, int drop_ms,
		      struct probe_outcome *o);
void probe_connect_once(const struct addrinfo *ai, const u8 *pd,
			size_t pd_len, struct probe_outcome *o);
enum probe_exit probe_active(const struct addrinfo *ai);

/* rpcrdma-cm-probe-listen.c */
enum probe_exit probe_listen_on(const struct addrinfo *ai,
				struct rdma_cm_id **listen_id,
				char *where, size_t where_len);
enum probe_exit probe_listen(const struct addrinfo *ai);

/* rpcrdma-cm-probe-output.c */
void probe_err(const char *fmt, ...);
void probe_verr(const char *fmt, va_list ap);
void probe_limits_of(const u8 *buf, size_t len,
		     struct rpcrdma_pdata_limits *lim);
void probe_addr_str(const struct sockaddr *sa, char *buf, size_t len);
void probe_device_str(struct rdma_cm_id *id, char *buf, size_t len);
void probe_print_outcome(const struct probe_outcome *o, const u8 *pd,
			 size_t pd_len, long cycle);
void probe_print_tally(const struct probe_tally *t);
void probe_print_listening(const char *where);
void probe_print_request(unsigned long num, const char *peer,
			 const char *dev, const struct probe_event *ev,
			 const u8 *pd, size_t pd_len);
void probe_print_conn(unsigned long num, const char *event,
		      const char *why);
void probe_print_listen_tally(unsigned long requests, unsigned long done);
void probe_print_kv_json(const char *line);

/* rpcrdma-cm-probe-read.c */
int probe_read_run(struct ibv_pd *pd, struct ibv_cq *cq, struct ibv_qp *qp,
		   unsigned int recv_size, const struct probe_read *rd,
		   __u32 xid, int timeout_ms, struct probe_read_result *res);
const char *probe_read_error_name(int rdma_err);

/* rpcrdma-cm-probe-v2io.c */
u32 probe_v2_smallest_recv(const struct probe_v2 *v);
void probe_v2_repost(struct probe_v2 *v, unsigned int slot);
int probe_v2_setup(struct probe_v2 *v);
void probe_v2_teardown(struct probe_v2 *v);
int probe_v2_send(struct probe_v2 *v, u32 len, u32 inv_rkey);
int probe_v2_rdma(struct probe_v2 *v, bool write, u8 *local, u32 len,
		  u32 rkey, u64 raddr);
int probe_v2_next(struct probe_v2 *v, int timeout_ms, struct probe_v2_rx *rx);
enum probe_exit probe_v2_connect(struct probe_v2 *v,
				 const struct addrinfo *ai);
bool probe_v2_disconnect(struct probe_v2 *v);
enum probe_exit probe_v2_accept(struct probe_v2 *v, int timeout_ms);

/* rpcrdma-cm-probe-v2.c */
enum probe_exit probe_v2_active(const struct addrinfo *ai);
enum probe_exit probe_v2_listen(const struct addrinfo *ai);

/* rpcrdma-cm-probe-fuzz.c */
const struct probe_fuzz_field *probe_fuzz_field_get(const char *name);
const struct probe_fuzz_field *probe_fuzz_field_of(bool iwarp, bool rep);
const char *probe_fuzz_class_name(enum probe_fuzz_class cls);
int probe_fuzz_load_corpus(const struct probe_fuzz_field *f);
void probe_fuzz_make(const struct probe_fuzz_field *f, unsigned long index,
		     struct probe_fuzz_input *in);
void probe_fuzz_expect(const struct probe_fuzz_field *f, const u8 *blob,
		       size_t len, const struct rpcrdma_pdata_limits *rcv,
		       struct probe_fuzz_verdict *v);
void probe_fuzz_expect_server(const struct probe_fuzz_field *f,
			      const u8 *blob, size_t len,
			      const struct probe_fuzz_model *m,
			      struct probe_fuzz_verdict *v);
int probe_fuzz_kv(char *buf, size_t size, const struct probe_fuzz_verdict *v);
void probe_fuzz_hex(char *buf, size_t size, const u8 *p, size_t len);
void probe_fuzz_line(const char *line);
enum probe_exit probe_fuzz_dry_run(void);

/* rpcrdma-cm-probe-fuzzrun.c */
enum probe_exit probe_fuzz_control(const struct addrinfo *ai,
				   struct probe_fuzz_model *m,
				   const struct probe_fuzz_field **f);
bool probe_fuzz_reply_ok(const struct probe_outcome *o,
			 const struct probe_fuzz_model *m,
			 const struct probe_fuzz_verdict *v, char *why,
			 size_t why_len);
enum probe_exit probe_fuzz_active(const struct addrinfo *ai);
enum probe_exit probe_fuzz_listen(const struct addrinfo *ai);

/* rpcrdma-cm-probe-flood.c */
enum probe_exit probe_flood_active(const struct addrinfo *ai);

#endif /* RPCRDMA_CM_PROBE_H */
