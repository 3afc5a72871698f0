// SPDX-License-Identifier: GPL-2.0
/*
 * rpcrdma-cm-probe - see what RFC 8797 private data an NFS/RDMA peer
 * exchanges when an RPC-over-RDMA connection is set up.
 *
 * Active side: connect to SERVER[:PORT] (20049 by default) the way an
 * NFS/RDMA client does, send this host's RFC 8797 message (or any
 * bytes, or none), print what the server sent back in its CM reply,
 * and disconnect. Passive side (--listen): print what each client
 * sends, then accept with chosen private data or reject.
 *
 * The message is built, found and decoded by the project's own codec,
 * net/sunrpc/xprtrdma/rpcrdma_pdata.c, compiled in userspace against
 * tools/fuzz/include: the probe judges private data exactly as the
 * kernel module does. See rpcrdma-cm-probe(8).
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdnoreturn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>
#include <linux/types.h>
#include <linux/sunrpc/rpcrdma_pdata.h>

#include "rpcrdma-cm-probe.h"

#define PROBE_VERSION		"1.0"
#define PROBE_DEFAULT_PORT	"20049"
#define PROBE_DEFAULT_SIZE	4096
#define PROBE_DEFAULT_TIMEOUT	5000
/* extra wait for the CM to report its own resolution timeout, ms */
#define PROBE_GRACE		1000
/* rdma_conn_param.private_data_len is one octet */
#define PROBE_PDATA_MAX		255
/* what an IB/RoCE CM REQ carries for the consumer: the churn maximum */
#define PROBE_RANDOM_MAX	56

#define PROBE_HINT_STACK \
	"is the kernel RDMA stack loaded (ib_uverbs, rdma_ucm; /dev/infiniband)?"
#define PROBE_HINT_DEVICE \
	"load a driver and add a link, e.g. 'modprobe rdma_rxe; " \
	"rdma link add rxe0 type rxe netdev eth0' (soft-RoCE), or siw"

/* Exit codes, documented in rpcrdma-cm-probe(8) */
enum probe_exit {
	PROBE_OK = 0,
	PROBE_ERROR = 1,
	PROBE_USAGE = 2,
	PROBE_NODEV = 3,
	PROBE_UNREACHABLE = 4,
	PROBE_REJECTED = 5,
	PROBE_TIMEOUT = 6,
};

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

static const char *prog = "rpcrdma-cm-probe";
static struct probe_opts opts;
static struct rdma_event_channel *channel;

static void probe_err(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void probe_usage(FILE *f)
{
	fprintf(f,
		"usage: %s [options] SERVER[:PORT]\n"
		"       %s [options] --listen [ADDR:]PORT\n"
		"\n"
		"Connect with RDMA-CM the way an NFS/RDMA client does (port %s\n"
		"by default), send RFC 8797 private data and show what the peer sends.\n"
		"\n"
		"Private data sent (connect request or accept):\n"
		"  --send-size N      advertised Send Size in octets (default %d)\n"
		"  --recv-size N      advertised Receive Size in octets (default %d)\n"
		"  --no-r             clear the R (remote invalidation) bit\n"
		"  --pdata HEX        send these raw octets instead (at most %d)\n"
		"  --no-pdata         send no private data at all\n"
		"Active side:\n"
		"  --repeat N         connect and disconnect N times, then summarise\n"
		"  --random-seed S    with --repeat: random private data of random\n"
		"                     length 0..%d in every cycle, from seed S\n"
		"  --hold MS          stay connected MS milliseconds before disconnecting\n"
		"                     (SIGUSR1 ends the wait early)\n"
		"  --read PATH:COUNT  once connected, READ COUNT octets of PATH (NFSv4.0,\n"
		"                     from the server's root) in a Call without chunks:\n"
		"                     the Reply must fit the advertised Receive Size\n"
		"                     (up to %d times, in order, on one connection)\n"
		"Passive side:\n"
		"  --listen [ADDR:]PORT  accept connections on PORT (all IPv4 addresses\n"
		"                     unless ADDR is given; [::] for IPv6)\n"
		"  --reject           reject every connection instead of accepting\n"
		"  --count N          stop after N connections\n"
		"  --wait S           give up after S seconds without any CM event\n"
		"Both:\n"
		"  --timeout MS       limit for each connection step (default %d)\n"
		"  --json             one JSON object per line, for scripts\n"
		"  -v, --verbose      show every CM event (and every --repeat cycle)\n"
		"  -h, --help         this text;  -V, --version  the version\n"
		"\n"
		"Exit: 0 ok, 1 error, 2 usage, 3 no RDMA device, 4 unreachable,\n"
		"5 rejected or refused, 6 timeout. See rpcrdma-cm-probe(8).\n",
		prog, prog, PROBE_DEFAULT_PORT, PROBE_DEFAULT_SIZE,
		PROBE_DEFAULT_SIZE, PROBE_PDATA_MAX, PROBE_RANDOM_MAX,
		PROBE_READS_MAX, PROBE_DEFAULT_TIMEOUT);
}

static noreturn void probe_bad_usage(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s --help'.\n", prog);
	exit(PROBE_USAGE);
}

/* ---- argument parsing ---- */

static unsigned long long probe_number(const char *opt, const char *s,
				       unsigned long long max)
{
	unsigned long long v;
	char *end;

	errno = 0;
	if (!*s || *s == '-')
		probe_bad_usage("%s: '%s' is not a number", opt, s);
	v = strtoull(s, &end, 0);
	if (*end == 'k' || *end == 'K') {
		if (v > ULLONG_MAX / 1024)
			errno = ERANGE;
		v *= 1024;
		end++;
	}
	if (errno || *end)
		probe_bad_usage("%s: '%s' is not a number", opt, s);
	if (v > max)
		probe_bad_usage("%s: %s is larger than %llu", opt, s, max);
	return v;
}

static int probe_hexdigit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* HEX: pairs of hex digits, optionally "0x"-prefixed and separated by
 * ':', '-', '.' or blanks between octets.
 */
static void probe_parse_hex(const char *s)
{
	int hi, lo;

	opts.pdata_len = 0;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	while (*s) {
		if (strchr(":-. \t", *s)) {
			s++;
			continue;
		}
		hi = probe_hexdigit(s[0]);
		lo = hi < 0 ? -1 : probe_hexdigit(s[1]);
		if (hi < 0 || lo < 0)
			probe_bad_usage("--pdata: expected pairs of hex digits at '%s'",
					s);
		if (opts.pdata_len == PROBE_PDATA_MAX)
			probe_bad_usage("--pdata: more than %d octets",
					PROBE_PDATA_MAX);
		opts.pdata[opts.pdata_len++] = hi << 4 | lo;
		s += 2;
	}
}

/* "host", "host:port", "[v6]", "[v6]:port"; a bare IPv6 address too */
static void probe_split_target(const char *t, bool port_only_ok)
{
	const char *colon = strrchr(t, ':');
	const char *p = NULL;
	size_t hlen;

	if (t[0] == '[') {
		const char *close = strchr(t, ']');

		if (!close || (close[1] && close[1] != ':'))
			probe_bad_usage("bad address '%s'", t);
		hlen = close - t - 1;
		t++;
		if (close[1] == ':')
			p = close + 2;
	} else if (colon && strchr(t, ':') == colon) {
		hlen = colon - t;
		p = colon + 1;
	} else {
		hlen = strlen(t);
	}

	/* --listen 20049: a port alone */
	if (port_only_ok && !p && hlen && strspn(t, "0123456789") == hlen) {
		p = t;
		hlen = 0;
	}
	if (hlen >= sizeof(opts.host))
		probe_bad_usage("address too long");
	memcpy(opts.host, t, hlen);
	opts.host[hlen] = '\0';
	if (p) {
		if (!*p || strlen(p) >= sizeof(opts.port))
			probe_bad_usage("bad port in '%s'", opts.target);
		snprintf(opts.port, sizeof(opts.port), "%s", p);
	}
	if (!port_only_ok && !*opts.host)
		probe_bad_usage("no server given in '%s'", opts.target);
}

enum {
	OPT_SEND_SIZE = 256, OPT_RECV_SIZE, OPT_NO_R, OPT_PDATA, OPT_NO_PDATA,
	OPT_JSON, OPT_LISTEN, OPT_REJECT, OPT_COUNT, OPT_REPEAT, OPT_SEED,
	OPT_TIMEOUT, OPT_HOLD, OPT_WAIT, OPT_READ,
};

static const struct option probe_longopts[] = {
	{ "send-size",   required_argument, NULL, OPT_SEND_SIZE },
	{ "recv-size",   required_argument, NULL, OPT_RECV_SIZE },
	{ "no-r",        no_argument,       NULL, OPT_NO_R },
	{ "pdata",       required_argument, NULL, OPT_PDATA },
	{ "no-pdata",    no_argument,       NULL, OPT_NO_PDATA },
	{ "json",        no_argument,       NULL, OPT_JSON },
	{ "listen",      required_argument, NULL, OPT_LISTEN },
	{ "reject",      no_argument,       NULL, OPT_REJECT },
	{ "count",       required_argument, NULL, OPT_COUNT },
	{ "repeat",      required_argument, NULL, OPT_REPEAT },
	{ "random-seed", required_argument, NULL, OPT_SEED },
	{ "timeout",     required_argument, NULL, OPT_TIMEOUT },
	{ "hold",        required_argument, NULL, OPT_HOLD },
	{ "wait",        required_argument, NULL, OPT_WAIT },
	{ "read",        required_argument, NULL, OPT_READ },
	{ "verbose",     no_argument,       NULL, 'v' },
	{ "help",        no_argument,       NULL, 'h' },
	{ "version",     no_argument,       NULL, 'V' },
	{ }
};

/* --read PATH:COUNT */
static void probe_parse_read(const char *arg)
{
	struct probe_read *rd = &opts.reads[opts.nreads];
	const char *colon = strrchr(arg, ':');
	size_t len;

	if (opts.nreads == PROBE_READS_MAX)
		probe_bad_usage("at most %d --read options", PROBE_READS_MAX);
	if (!colon || colon == arg)
		probe_bad_usage("--read wants PATH:COUNT, not '%s'", arg);
	len = colon - arg;
	if (len >= sizeof(rd->path))
		probe_bad_usage("--read: path longer than %zu octets",
				sizeof(rd->path) - 1);
	memcpy(rd->path, arg, len);
	rd->path[len] = '\0';
	rd->count = probe_number("--read COUNT", colon + 1, 1U << 20);
	if (!rd->count)
		probe_bad_usage("--read COUNT must be at least 1");
	opts.nreads++;
}

static void probe_parse_args(int argc, char **argv)
{
	bool sizes = false, pdata = false, no_pdata = false;
	bool count = false, seed = false;
	int c;

	opts.lim.max_send = PROBE_DEFAULT_SIZE;
	opts.lim.max_recv = PROBE_DEFAULT_SIZE;
	opts.lim.remote_inv = true;
	opts.timeout_ms = PROBE_DEFAULT_TIMEOUT;
	snprintf(opts.port, sizeof(opts.port), "%s", PROBE_DEFAULT_PORT);

	while ((c = getopt_long(argc, argv, "vhV", probe_longopts,
				NULL)) != -1) {
		switch (c) {
		case OPT_SEND_SIZE:
			opts.lim.max_send = probe_number("--send-size", optarg,
							 UINT_MAX);
			sizes = true;
			break;
		case OPT_RECV_SIZE:
			opts.lim.max_recv = probe_number("--recv-size", optarg,
							 UINT_MAX);
			sizes = true;
			break;
		case OPT_NO_R:
			opts.lim.remote_inv = false;
			sizes = true;
			break;
		case OPT_PDATA:
			probe_parse_hex(optarg);
			pdata = true;
			break;
		case OPT_NO_PDATA:
			no_pdata = true;
			break;
		case OPT_JSON:
			opts.json = true;
			break;
		case OPT_LISTEN:
			opts.listen = true;
			opts.target = optarg;
			break;
		case OPT_REJECT:
			opts.reject = true;
			break;
		case OPT_COUNT:
			opts.count = probe_number("--count", optarg, ULONG_MAX);
			count = true;
			break;
		case OPT_REPEAT:
			opts.repeat = probe_number("--repeat", optarg,
						   ULONG_MAX);
			if (!opts.repeat)
				probe_bad_usage("--repeat must be at least 1");
			break;
		case OPT_SEED:
			opts.seed = probe_number("--random-seed", optarg,
						 ULLONG_MAX);
			seed = true;
			break;
		case OPT_TIMEOUT:
			opts.timeout_ms = probe_number("--timeout", optarg,
						       INT_MAX);
			break;
		case OPT_HOLD:
			opts.hold_ms = probe_number("--hold", optarg, INT_MAX);
			break;
		case OPT_WAIT:
			opts.wait_s = probe_number("--wait", optarg,
						   INT_MAX / 1000);
			break;
		case OPT_READ:
			probe_parse_read(optarg);
			break;
		case 'v':
			opts.verbose = true;
			break;
		case 'h':
			probe_usage(stdout);
			exit(PROBE_OK);
		case 'V':
			printf("%s %s\n", prog, PROBE_VERSION);
			exit(PROBE_OK);
		default:
			fprintf(stderr, "Try '%s --help'.\n", prog);
			exit(PROBE_USAGE);
		}
	}

	if (pdata + no_pdata + sizes > 1)
		probe_bad_usage("--pdata, --no-pdata and the size/R options exclude each other");
	opts.raw = pdata || no_pdata;
	if (no_pdata)
		opts.pdata_len = 0;
	if (opts.timeout_ms <= 0)
		probe_bad_usage("--timeout must be at least 1 ms");

	if (opts.listen) {
		if (optind != argc)
			probe_bad_usage("--listen takes no SERVER argument");
		if (opts.repeat || seed || opts.hold_ms || opts.nreads)
			probe_bad_usage("%s: active side only",
					"--repeat, --random-seed, --hold, --read");
		if (count && !opts.count)
			probe_bad_usage("--count must be at least 1");
		probe_split_target(opts.target, true);
		if (opts.reject && (pdata || no_pdata || sizes))
			probe_bad_usage("--reject sends no private data; drop those options");
	} else {
		if (optind == argc)
			probe_bad_usage("no SERVER given");
		if (optind + 1 != argc)
			probe_bad_usage("one SERVER only (got '%s' too)",
					argv[optind + 1]);
		if (opts.reject || count || opts.wait_s)
			probe_bad_usage("--reject, --count and --wait are for --listen");
		if (seed && !opts.repeat)
			probe_bad_usage("--random-seed needs --repeat");
		if (opts.nreads && opts.repeat)
			probe_bad_usage("--read works on one connection; drop --repeat");
		if (seed && (pdata || no_pdata || sizes))
			probe_bad_usage("--random-seed chooses the private data itself");
		opts.target = argv[optind];
		probe_split_target(opts.target, false);
	}
	opts.random = seed;
	if (!*opts.port || strspn(opts.port, "0123456789") != strlen(opts.port) ||
	    atol(opts.port) < 1 || atol(opts.port) > 65535)
		probe_bad_usage("bad port '%s' (1..65535)", opts.port);
}

/* ---- output ---- */

static void probe_hex(FILE *f, const u8 *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		fprintf(f, "%02x", p[i]);
}

/* Several lines, 16 octets each with their offset, for people */
static void probe_dump(const char *indent, const u8 *p, size_t len)
{
	size_t i, end = len;

	/* a CM pads with zeros: show a run of them up to the end briefly */
	while (end && !p[end - 1])
		end--;
	end = (end + 15) / 16 * 16;
	if (end > len || len - end < 32)
		end = len;

	for (i = 0; i < end; i++) {
		if (i % 16 == 0)
			printf("%s%s%04zx ", i ? "\n" : "", indent, i);
		printf("%s%02x", i % 4 ? "" : " ", p[i]);
	}
	if (end)
		printf("\n");
	if (end < len)
		printf("%s%04zx  %zu zero octets to the end\n", indent, end,
		       len - end);
}

static void probe_json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

static const char *probe_status_text(enum rpcrdma_pdata_status status)
{
	switch (status) {
	case RPCRDMA_PDATA_NO_DATA:
		return "no private data at all";
	case RPCRDMA_PDATA_NO_IDENT:
		return "no Format Identifier anywhere in the private data";
	case RPCRDMA_PDATA_TRUNCATED:
		return "Format Identifier too close to the end for a whole message";
	case RPCRDMA_PDATA_BAD_VERSION:
		return "Format Identifier followed by an unknown version";
	default:
		return rpcrdma_pdata_status_name(status);
	}
}

/* The limits a sender of @buf advertised, as the peer must take them
 * (RFC 8797 Section 5.1: none or unrecognised means R clear, 1024).
 */
static void probe_limits_of(const u8 *buf, size_t len,
			    struct rpcrdma_pdata_limits *lim)
{
	struct rpcrdma_pdata msg;

	lim->max_send = RPCRDMA_PDATA_SIZE_MIN;
	lim->max_recv = RPCRDMA_PDATA_SIZE_MIN;
	lim->remote_inv = false;
	if (rpcrdma_pdata_parse(buf, len, &msg) == RPCRDMA_PDATA_PRESENT) {
		lim->max_send = msg.send_size;
		lim->max_recv = msg.recv_size;
		lim->remote_inv = msg.remote_inv;
	}
}

/* Describe private data: raw octets and what the codec makes of them */
static void probe_show_pdata(const char *who, const u8 *buf, size_t len,
			     bool as_json)
{
	enum rpcrdma_pdata_status st;
	struct rpcrdma_pdata msg;

	st = rpcrdma_pdata_parse(buf, len, &msg);
	if (as_json) {
		printf("{\"len\":%zu,\"hex\":\"", len);
		probe_hex(stdout, buf, len);
		printf("\",\"rfc8797\":{\"status\":\"%s\"",
		       rpcrdma_pdata_status_name(st));
		if (st == RPCRDMA_PDATA_PRESENT) {
			printf(",\"offset\":%u,\"version\":%u", msg.offset,
			       msg.version);
			printf(",\"remote_inv\":%s,\"send_size\":%u",
			       msg.remote_inv ? "true" : "false", msg.send_size);
			printf(",\"recv_size\":%u", msg.recv_size);
		}
		printf("}}");
		return;
	}
	printf("%s private data (%zu octets)%s\n", who, len, len ? ":" : "");
	probe_dump("    ", buf, len);
	if (st == RPCRDMA_PDATA_PRESENT) {
		printf("  %s RFC 8797: version %u at offset %u: R=%d,", who,
		       msg.version, msg.offset, msg.remote_inv);
		printf(" send size %u, receive size %u\n", msg.send_size,
		       msg.recv_size);
	} else {
		printf("  %s RFC 8797: no RFC 8797 data (%s: %s)\n", who,
		       rpcrdma_pdata_status_name(st), probe_status_text(st));
	}
}

/* RFC 8797 Section 4.2 thresholds as @local would compute them */
static void probe_show_negotiated(const char *local_name,
				  const char *peer_name,
				  const struct rpcrdma_pdata_limits *local,
				  const u8 *peer_buf, size_t peer_len,
				  bool as_json)
{
	struct rpcrdma_pdata_result res;
	struct rpcrdma_pdata msg;
	bool present;

	present = rpcrdma_pdata_parse(peer_buf, peer_len, &msg) ==
		  RPCRDMA_PDATA_PRESENT;
	rpcrdma_pdata_negotiate(local, present ? &msg : NULL, &res);
	if (as_json) {
		printf("{\"%s_to_%s\":%u,\"%s_to_%s\":%u,\"remote_inv\":%s}",
		       local_name, peer_name, res.send_thresh,
		       peer_name, local_name, res.recv_thresh,
		       res.remote_inv ? "true" : "false");
		return;
	}
	printf("  negotiated (RFC 8797): %s->%s %u, %s->%s %u, remote invalidation %s\n",
	       local_name, peer_name, res.send_thresh, peer_name, local_name,
	       res.recv_thresh, res.remote_inv ? "yes" : "no");
}

static void probe_addr_str(const struct sockaddr *sa, char *buf, size_t len)
{
	char a[INET6_ADDRSTRLEN];

	if (sa && sa->sa_family == AF_INET) {
		const struct sockaddr_in *in = (const void *)sa;

		inet_ntop(AF_INET, &in->sin_addr, a, sizeof(a));
		snprintf(buf, len, "%s:%u", a, ntohs(in->sin_port));
	} else if (sa && sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const void *)sa;

		inet_ntop(AF_INET6, &in6->sin6_addr, a, sizeof(a));
		snprintf(buf, len, "[%s]:%u", a, ntohs(in6->sin6_port));
	} else {
		snprintf(buf, len, "?");
	}
}

static void probe_device_str(struct rdma_cm_id *id, char *buf, size_t len)
{
	if (id && id->verbs)
		snprintf(buf, len, "%s port %u",
			 ibv_get_device_name(id->verbs->device), id->port_num);
	else
		snprintf(buf, len, "?");
}

/* ---- RDMA-CM plumbing ---- */

/* Fail early, and clearly, on a host without any RDMA device */
static enum probe_exit probe_check_devices(void)
{
	struct ibv_device **list;
	int n = 0;

	list = ibv_get_device_list(&n);
	if (!list) {
		probe_err("no RDMA device: cannot list devices (%s); %s",
			  strerror(errno), PROBE_HINT_STACK);
		return PROBE_NODEV;
	}
	if (!n) {
		probe_err("no RDMA device found; %s", PROBE_HINT_DEVICE);
		ibv_free_device_list(list);
		return PROBE_NODEV;
	}
	ibv_free_device_list(list);

	channel = rdma_create_event_channel();
	if (!channel) {
		int err = errno;

		probe_err("cannot open the RDMA-CM event channel: %s; %s",
			  strerror(err), PROBE_HINT_STACK);
		return err == ENODEV || err == ENOENT ? PROBE_NODEV :
							PROBE_ERROR;
	}
	if (fcntl(channel->fd, F_SETFL,
		  fcntl(channel->fd, F_GETFL) | O_NONBLOCK) < 0) {
		probe_err("fcntl: %s", strerror(errno));
		return PROBE_ERROR;
	}
	return PROBE_OK;
}

static long long probe_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* Next CM event, copied and acknowledged. @timeout_ms < 0 waits for
 * ever. Return: 0, -ETIMEDOUT, or another -errno.
 */
static int probe_next_event(int timeout_ms, struct probe_event *out)
{
	long long deadline = probe_now_ms() + timeout_ms;
	struct pollfd pfd = { .fd = channel->fd, .events = POLLIN };
	struct rdma_cm_event *ev;
	int n, wait;

	for (;;) {
		if (!rdma_get_cm_event(channel, &ev))
			break;
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			return -errno;
		wait = -1;
		if (timeout_ms >= 0) {
			long long left = deadline - probe_now_ms();

			if (left <= 0)
				return -ETIMEDOUT;
			wait = left;
		}
		n = poll(&pfd, 1, wait);
		if (n < 0 && errno != EINTR)
			return -errno;
	}

	memset(out, 0, sizeof(*out));
	out->type = ev->event;
	out->status = ev->status;
	out->id = ev->id;
	if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST ||
	    ev->event == RDMA_CM_EVENT_CONNECT_RESPONSE ||
	    ev->event == RDMA_CM_EVENT_ESTABLISHED ||
	    ev->event == RDMA_CM_EVENT_REJECTED) {
		out->has_pdata = ev->param.conn.private_data;
		out->pdata_len = ev->param.conn.private_data_len;
		if (!out->has_pdata)
			out->pdata_len = 0;
		if (out->pdata_len)
			memcpy(out->pdata, ev->param.conn.private_data,
			       out->pdata_len);
	}
	rdma_ack_cm_event(ev);

	if (opts.verbose && !opts.json)
		fprintf(stderr, "%s: event %s, status %d, %zu octets of private data\n",
			prog, rdma_event_str(out->type), out->status,
			out->pdata_len);
	return 0;
}

static int probe_make_qp(struct probe_conn *c)
{
	struct ibv_qp_init_attr attr;

	c->pd = ibv_alloc_pd(c->id->verbs);
	if (!c->pd)
		return -errno;
	c->cq = ibv_create_cq(c->id->verbs, 2, NULL, NULL, 0);
	if (!c->cq)
		return -errno;
	memset(&attr, 0, sizeof(attr));
	attr.qp_type = IBV_QPT_RC;
	attr.send_cq = c->cq;
	attr.recv_cq = c->cq;
	attr.cap.max_send_wr = 1;
	attr.cap.max_recv_wr = 1;
	attr.cap.max_send_sge = 1;
	attr.cap.max_recv_sge = 1;
	if (rdma_create_qp(c->id, c->pd, &attr))
		return -errno;
	c->qp = true;
	return 0;
}

/* Release everything; the id's events must all have been acknowledged */
static void probe_drop_conn(struct probe_conn *c)
{
	if (c->qp)
		rdma_destroy_qp(c->id);
	if (c->cq)
		ibv_destroy_cq(c->cq);
	if (c->pd)
		ibv_dealloc_pd(c->pd);
	if (c->id)
		rdma_destroy_id(c->id);
	memset(c, 0, sizeof(*c));
}

/* Wait for an event on @id, skipping events for other ids */
static int probe_wait_on(struct rdma_cm_id *id, int timeout_ms,
			 struct probe_event *ev)
{
	long long deadline = probe_now_ms() + timeout_ms;
	long long left;
	int ret;

	do {
		left = deadline - probe_now_ms();
		if (left <= 0)
			return -ETIMEDOUT;
		ret = probe_next_event(left, ev);
	} while (!ret && ev->id != id);
	return ret;
}

static bool probe_is_loopback(const char *addr)
{
	return !strncmp(addr, "127.", 4) || !strncmp(addr, "[::1]", 5);
}

static void probe_fail(struct probe_outcome *o, enum probe_exit code,
		       const char *result, const char *fmt, ...)
{
	va_list ap;

	o->code = code;
	o->result = result;
	va_start(ap, fmt);
	vsnprintf(o->why, sizeof(o->why), fmt, ap);
	va_end(ap);
}

/* An IB CM reject reason, or -errno from iWARP */
static void probe_rejected(struct probe_outcome *o, int status)
{
	if (status == 8 || status == -ECONNREFUSED)
		probe_fail(o, PROBE_REJECTED, "refused",
			   "connection refused: nothing listening on port %s (reject status %d)",
			   opts.port, status);
	else
		probe_fail(o, PROBE_REJECTED, "rejected",
			   "connection rejected by the server (reject status %d)",
			   status);
}

/* Address or route resolution ended in -@err: reported by the CM, or
 * -ETIMEDOUT from the probe's own wait when @waited is set
 */
static void probe_resolve_failed(struct probe_outcome *o, const char *what,
				 int err, bool waited)
{
	if (waited && err == -ETIMEDOUT)
		probe_fail(o, PROBE_TIMEOUT, "timeout",
			   "%s resolution for %s did not finish in %d ms",
			   what, o->peer, opts.timeout_ms + PROBE_GRACE);
	else if (err == -ENODEV || err == -EADDRNOTAVAIL)
		probe_fail(o, PROBE_NODEV, "nodev",
			   "no RDMA device on the route to %s (%s resolution: %s)%s",
			   o->peer, what, strerror(-err),
			   probe_is_loopback(o->peer) ?
			   "; use the address of an interface with an RDMA link" :
			   "");
	else
		probe_fail(o, PROBE_UNREACHABLE, "unreachable",
			   "%s is unreachable (%s resolution: %s)", o->peer,
			   what, strerror(-err));
}

/* Finish a resolution step: @ret is what rdma_resolve_addr() or
 * rdma_resolve_route() just returned (errno still set). Wait for @want
 * and report a failure of the @what resolution in @o.
 * Return: 0 when @want arrived, else a negative errno.
 */
static int probe_resolved(struct rdma_cm_id *id, int ret,
			  enum rdma_cm_event_type want, const char *what,
			  struct probe_outcome *o)
{
	struct probe_event ev;
	bool waited = false;

	if (ret) {
		ret = -errno;
	} else {
		ret = probe_wait_on(id, opts.timeout_ms + PROBE_GRACE, &ev);
		waited = ret == -ETIMEDOUT;
		if (!ret && ev.type != want)
			ret = ev.status < 0 ? ev.status : -EHOSTUNREACH;
	}
	if (ret)
		probe_resolve_failed(o, what, ret, waited);
	return ret;
}

/* Set by a signal handler: a lock-free atomic is safe there (C11
 * 7.14.1.1) and, unlike a plain int, is re-read on every loop test.
 */
static atomic_bool probe_released;

static void probe_release(int sig)
{
	(void)sig;
	atomic_store(&probe_released, true);
}

/* SIGUSR1 ends a --hold early: a script that has seen what it wanted
 * need not wait out the whole hold. Installed at start, so that a
 * signal sent before the hold begins is remembered, not fatal.
 */
static void probe_catch_release(void)
{
	struct sigaction sa = { .sa_handler = probe_release };

	/* no SA_RESTART: the signal interrupts nanosleep() */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
}

/* --hold: stay connected MS milliseconds unless released */
static void probe_hold(void)
{
	struct timespec ts = {
		.tv_sec = opts.hold_ms / 1000,
		.tv_nsec = (opts.hold_ms % 1000) * 1000000,
	};

	while (!atomic_load(&probe_released) && nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* --read: the Calls, in order, on the connection @c. The Receive for
 * each Reply is exactly the Receive Size this host advertised in @pd
 * (1024 when it advertised none), as the RFC lets a client size it.
 */
static void probe_do_reads(struct probe_conn *c, const u8 *pd, size_t pd_len,
			   struct probe_outcome *o)
{
	struct rpcrdma_pdata_limits local;
	unsigned int i;

	probe_limits_of(pd, pd_len, &local);
	for (i = 0; i < opts.nreads; i++) {
		o->nreads++;
		if (probe_read_run(c->pd, c->cq, c->id->qp, local.max_recv,
				   &opts.reads[i], 0x52840000 + i,
				   opts.timeout_ms, &o->reads[i])) {
			o->read_failed = true;
			break;	/* the QP is in error: nothing more gets through */
		}
	}
}

/* One active connection: resolve, connect with @pd, read the reply's
 * private data, run the --read Calls, disconnect.
 */
static void probe_connect_once(const struct addrinfo *ai, const u8 *pd,
			       size_t pd_len, struct probe_outcome *o)
{
	struct rdma_conn_param param;
	struct probe_conn c = { };
	struct probe_event ev;
	int ret;

	memset(o, 0, sizeof(*o));
	o->code = PROBE_OK;
	o->result = "established";
	probe_addr_str(ai->ai_addr, o->peer, sizeof(o->peer));

	if (rdma_create_id(channel, &c.id, NULL, RDMA_PS_TCP)) {
		probe_fail(o, PROBE_ERROR, "error", "rdma_create_id: %s",
			   strerror(errno));
		return;
	}

	/* The CM gets --timeout for resolution and reports its own error;
	 * the probe waits a little longer so that the CM's reason wins.
	 */
	ret = rdma_resolve_addr(c.id, NULL, ai->ai_addr, opts.timeout_ms);
	if (probe_resolved(c.id, ret, RDMA_CM_EVENT_ADDR_RESOLVED, "address",
			   o))
		goto out;
	probe_device_str(c.id, o->device, sizeof(o->device));

	ret = rdma_resolve_route(c.id, opts.timeout_ms);
	if (probe_resolved(c.id, ret, RDMA_CM_EVENT_ROUTE_RESOLVED, "route", o))
		goto out;

	ret = probe_make_qp(&c);
	if (ret) {
		probe_fail(o, PROBE_ERROR, "error",
			   "cannot create a QP on %s: %s", o->device,
			   strerror(-ret));
		goto out;
	}

	memset(&param, 0, sizeof(param));
	param.private_data = pd_len ? pd : NULL;
	param.private_data_len = pd_len;
	param.responder_resources = 1;
	param.initiator_depth = 1;
	param.retry_count = 7;
	param.rnr_retry_count = 7;
	if (rdma_connect(c.id, &param)) {
		ret = errno;
		probe_fail(o, PROBE_ERROR, "error",
			   "rdma_connect to %s with %zu octets of private data: %s%s",
			   o->peer, pd_len, strerror(ret),
			   ret == EINVAL && pd_len > PROBE_RANDOM_MAX ?
			   " (an IB/RoCE connect request carries at most 56)" :
			   "");
		goto out;
	}
	ret = probe_wait_on(c.id, opts.timeout_ms, &ev);
	if (ret == -ETIMEDOUT) {
		probe_fail(o, PROBE_TIMEOUT, "timeout",
			   "no answer from %s within %d ms", o->peer,
			   opts.timeout_ms);
		goto out;
	}
	if (ret) {
		probe_fail(o, PROBE_ERROR, "error", "CM event: %s",
			   strerror(-ret));
		goto out;
	}
	o->reply = ev;
	switch (ev.type) {
	case RDMA_CM_EVENT_ESTABLISHED:
		o->have_reply = true;
		break;
	case RDMA_CM_EVENT_REJECTED:
		o->have_reply = true;
		probe_rejected(o, ev.status);
		goto out;
	case RDMA_CM_EVENT_UNREACHABLE:
		probe_fail(o, PROBE_UNREACHABLE, "unreachable",
			   "%s is unreachable (status %d%s%s)", o->peer,
			   ev.status, ev.status < 0 ? ": " : "",
			   ev.status < 0 ? strerror(-ev.status) : "");
		goto out;
	default:
		probe_fail(o, PROBE_ERROR, "error",
			   "connecting to %s: unexpected %s (status %d)",
			   o->peer, rdma_event_str(ev.type), ev.status);
		goto out;
	}

	probe_do_reads(&c, pd, pd_len, o);

	probe_hold();

	if (rdma_disconnect(c.id)) {
		snprintf(o->why, sizeof(o->why), "rdma_disconnect: %s",
			 strerror(errno));
		goto out;
	}
	ret = probe_wait_on(c.id, opts.timeout_ms, &ev);
	if (!ret && ev.type == RDMA_CM_EVENT_DISCONNECTED)
		o->clean_disconnect = true;
	else
		snprintf(o->why, sizeof(o->why),
			 "no DISCONNECTED event after rdma_disconnect (%s)",
			 ret ? strerror(-ret) : rdma_event_str(ev.type));
out:
	probe_drop_conn(&c);
}

static void probe_print_read_json(const struct probe_read *rd,
				  const struct probe_read_result *r)
{
	printf("{\"path\":");
	probe_json_str(rd->path);
	printf(",\"count\":%u,\"buffer\":%u,\"reply\":\"%s\"", rd->count,
	       r->buffer, r->reply);
	if (strcmp(r->reply, "none"))
		printf(",\"received\":%u", r->received);
	if (!strcmp(r->reply, "rdma_error"))
		printf(",\"error\":\"%s\"",
		       probe_read_error_name(r->rdma_err));
	if (r->nfs_status >= 0)
		printf(",\"nfs_status\":%d,\"failed_op\":%u,\"data\":%u",
		       r->nfs_status, r->failed_op, r->data);
	if (r->why[0]) {
		printf(",\"message\":");
		probe_json_str(r->why);
	}
	printf("}");
}

static void probe_print_read_text(const struct probe_read *rd,
				  const struct probe_read_result *r)
{
	printf("  read %s:%u (Receive of %u octets): ", rd->path, rd->count,
	       r->buffer);
	if (!strcmp(r->reply, "rdma_error"))
		printf("RDMA_ERROR %s", probe_read_error_name(r->rdma_err));
	else if (!strcmp(r->reply, "none"))
		printf("no reply");
	else
		printf("%s reply of %u octets", r->reply, r->received);
	if (r->nfs_status > 0)
		printf(", NFS status %d from op %u", r->nfs_status,
		       r->failed_op);
	else if (!r->nfs_status)
		printf(", NFS4_OK, %u octets of data%s", r->data,
		       r->eof ? " (eof)" : "");
	printf("%s%s\n", r->why[0] ? ": " : "", r->why);
}

/* What each --read Call got back */
static void probe_print_reads(const struct probe_outcome *o)
{
	unsigned int i;

	if (!o->nreads)
		return;
	if (opts.json)
		printf(",\"reads\":[");
	for (i = 0; i < o->nreads; i++) {
		if (opts.json) {
			printf("%s", i ? "," : "");
			probe_print_read_json(&opts.reads[i], &o->reads[i]);
		} else {
			probe_print_read_text(&opts.reads[i], &o->reads[i]);
		}
	}
	if (opts.json)
		printf("]");
}

static void probe_print_outcome(const struct probe_outcome *o,
				const u8 *pd, size_t pd_len, long cycle)
{
	struct rpcrdma_pdata_limits local;
	bool reply = o->have_reply && o->reply.has_pdata;

	probe_limits_of(pd, pd_len, &local);
	if (opts.json) {
		printf("{\"event\":\"connect\"");
		if (cycle >= 0)
			printf(",\"cycle\":%ld", cycle);
		printf(",\"peer\":");
		probe_json_str(o->peer);
		printf(",\"device\":");
		probe_json_str(o->device[0] ? o->device : "?");
		printf(",\"result\":\"%s\",\"exit\":%d", o->result, o->code);
		if (o->why[0]) {
			printf(",\"message\":");
			probe_json_str(o->why);
		}
		if (o->have_reply && o->reply.type == RDMA_CM_EVENT_REJECTED)
			printf(",\"reject_status\":%d", o->reply.status);
		printf(",\"sent\":");
		probe_show_pdata("client", pd, pd_len, true);
		if (o->have_reply) {
			printf(",\"received\":");
			probe_show_pdata("server", o->reply.pdata,
					 o->reply.pdata_len, true);
		}
		if (o->code == PROBE_OK) {
			printf(",\"negotiated\":");
			probe_show_negotiated("client", "server", &local,
					      o->reply.pdata,
					      o->reply.pdata_len, true);
			printf(",\"clean_disconnect\":%s",
			       o->clean_disconnect ? "true" : "false");
		}
		probe_print_reads(o);
		printf("}\n");
		return;
	}

	if (cycle >= 0 && !opts.verbose)
		return;
	if (cycle >= 0)
		printf("cycle %ld: ", cycle);
	printf("%s via %s: %s\n", o->peer, o->device[0] ? o->device : "?",
	       o->result);
	if (o->code == PROBE_OK || o->have_reply || opts.verbose)
		probe_show_pdata("client", pd, pd_len, false);
	if (o->have_reply && (reply || o->code == PROBE_OK))
		probe_show_pdata("server", o->reply.pdata, o->reply.pdata_len,
				 false);
	if (o->code == PROBE_OK) {
		probe_show_negotiated("client", "server", &local,
				      o->reply.pdata, o->reply.pdata_len,
				      false);
		probe_print_reads(o);
		printf("  %s\n", o->clean_disconnect ? "disconnected" :
		       o->why);
	}
	if (o->code != PROBE_OK && cycle < 0)
		probe_err("%s", o->why);
	else if (o->code != PROBE_OK)
		printf("  %s\n", o->why);
}

static int probe_resolve(struct addrinfo **res)
{
	struct addrinfo hints = {
		.ai_family = AF_UNSPEC,
		.ai_socktype = SOCK_STREAM,
	};
	int ret;

	ret = getaddrinfo(opts.host, opts.port, &hints, res);
	if (ret) {
		probe_err("cannot resolve '%s': %s", opts.host,
			  gai_strerror(ret));
		return ret == EAI_SYSTEM || ret == EAI_MEMORY ? PROBE_ERROR :
								PROBE_UNREACHABLE;
	}
	return PROBE_OK;
}

/* splitmix64: a small generator whose output depends on the seed only */
static u64 probe_rand(u64 *state)
{
	u64 z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Random private data; half the time it carries the Format Identifier
 * somewhere (maybe truncated, usually version 1) so that the peer's
 * search and checks are exercised, not only its "no identifier" path.
 */
static size_t probe_random_pdata(u64 *state, u8 *buf)
{
	static const u8 ident[4] = { 0xf6, 0xab, 0x0e, 0x18 };
	size_t len = probe_rand(state) % (PROBE_RANDOM_MAX + 1);
	size_t i, off;

	for (i = 0; i < len; i++)
		buf[i] = probe_rand(state);
	if (len >= 4 && probe_rand(state) % 2) {
		off = probe_rand(state) % (len - 3);
		memcpy(buf + off, ident, 4);
		if (off + 4 < len && probe_rand(state) % 4)
			buf[off + 4] = RPCRDMA_PDATA_VERSION;
	}
	return len;
}

static enum probe_exit probe_active(struct addrinfo *ai)
{
	unsigned long established = 0, rejected = 0, refused = 0, errors = 0;
	unsigned long timeouts = 0, unclean = 0, i, cycles;
	enum probe_exit worst = PROBE_OK;
	struct probe_outcome o;
	u64 state = opts.seed;
	u8 pd[PROBE_PDATA_MAX];
	size_t pd_len;
	long long t0;
	double secs;

	if (!opts.raw) {
		rpcrdma_pdata_build(pd, &opts.lim);
		pd_len = RPCRDMA_PDATA_V1_LEN;
	} else {
		memcpy(pd, opts.pdata, opts.pdata_len);
		pd_len = opts.pdata_len;
	}

	cycles = opts.repeat ? opts.repeat : 1;
	t0 = probe_now_ms();
	for (i = 0; i < cycles; i++) {
		if (opts.random)
			pd_len = probe_random_pdata(&state, pd);
		probe_connect_once(ai, pd, pd_len, &o);
		probe_print_outcome(&o, pd, pd_len, opts.repeat ? (long)i : -1);
		fflush(stdout);
		if (o.code == PROBE_OK) {
			established++;
			unclean += !o.clean_disconnect;
		} else if (!strcmp(o.result, "rejected")) {
			rejected++;
		} else if (!strcmp(o.result, "refused")) {
			refused++;
		} else if (o.code == PROBE_TIMEOUT) {
			timeouts++;
		} else {
			errors++;
		}
		/* a listener's reject is an answer; nobody listening is not */
		if (o.code != PROBE_OK && strcmp(o.result, "rejected"))
			worst = o.code;
		/* no device or no route will not get better: stop there */
		if (o.code == PROBE_NODEV ||
		    (o.code == PROBE_UNREACHABLE && !established))
			break;
	}
	if (!opts.repeat)
		return o.code == PROBE_OK && o.read_failed ? PROBE_ERROR :
							     o.code;

	secs = (probe_now_ms() - t0) / 1000.0;
	if (i < cycles)
		i++;	/* the loop stopped early, after cycle i */
	if (opts.json) {
		printf("{\"event\":\"summary\",\"cycles\":%lu", i);
		printf(",\"established\":%lu,\"rejected\":%lu", established,
		       rejected);
		printf(",\"refused\":%lu", refused);
		printf(",\"timeouts\":%lu,\"errors\":%lu", timeouts, errors);
		printf(",\"unclean_disconnects\":%lu,\"seconds\":%.1f",
		       unclean, secs);
		if (opts.random)
			printf(",\"seed\":%llu", opts.seed);
		printf("}\n");
	} else {
		printf("%lu cycles to %s in %.1f s: ", i, opts.target, secs);
		printf("%lu established, %lu rejected, %lu refused, ",
		       established, rejected, refused);
		printf("%lu timeouts, ", timeouts);
		printf("%lu errors, %lu unclean disconnects", errors, unclean);
		if (opts.random)
			printf(" (random private data, seed %llu)", opts.seed);
		printf("\n");
	}
	/* established or rejected are both answers; anything else fails */
	return worst;
}

/* ---- passive side ---- */

static unsigned long probe_done;

static void probe_conn_done(struct probe_conn *c, const char *event,
			    const char *fmt, ...)
{
	char why[256] = "";
	va_list ap;

	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(why, sizeof(why), fmt, ap);
		va_end(ap);
	}
	if (opts.json) {
		printf("{\"event\":\"%s\",\"conn\":%lu", event, c->num);
		if (*why) {
			printf(",\"message\":");
			probe_json_str(why);
		}
		printf("}\n");
	} else {
		printf("connection %lu: %s%s%s\n", c->num, event,
		       *why ? ": " : "", why);
	}
	fflush(stdout);
	probe_drop_conn(c);
	free(c);
	probe_done++;
}

static void probe_on_request(const struct probe_event *ev,
			     unsigned long num, const u8 *pd, size_t pd_len)
{
	struct rpcrdma_pdata_limits local;
	struct rdma_conn_param param;
	struct probe_conn *c;
	char peer[INET6_ADDRSTRLEN + 8], dev[IBV_SYSFS_NAME_MAX + 16];
	int ret;

	c = calloc(1, sizeof(*c));
	if (!c) {
		rdma_reject(ev->id, NULL, 0);
		rdma_destroy_id(ev->id);
		probe_err("out of memory");
		return;
	}
	c->id = ev->id;
	c->num = num;
	c->id->context = c;

	probe_addr_str(rdma_get_peer_addr(c->id), peer, sizeof(peer));
	probe_device_str(c->id, dev, sizeof(dev));
	probe_limits_of(pd, pd_len, &local);

	if (opts.json) {
		printf("{\"event\":\"request\",\"conn\":%lu,\"peer\":", num);
		probe_json_str(peer);
		printf(",\"device\":");
		probe_json_str(dev);
		printf(",\"received\":");
		probe_show_pdata("client", ev->pdata, ev->pdata_len, true);
		printf(",\"action\":\"%s\"", opts.reject ? "reject" : "accept");
		if (!opts.reject) {
			printf(",\"sent\":");
			probe_show_pdata("server", pd, pd_len, true);
			printf(",\"negotiated\":");
			probe_show_negotiated("server", "client", &local,
					      ev->pdata, ev->pdata_len, true);
		}
		printf("}\n");
	} else {
		printf("connection %lu from %s via %s\n", num, peer, dev);
		probe_show_pdata("client", ev->pdata, ev->pdata_len, false);
		if (!opts.reject) {
			probe_show_negotiated("server", "client", &local,
					      ev->pdata, ev->pdata_len, false);
			printf("  accepting with ");
			probe_show_pdata("server", pd, pd_len, false);
		}
	}
	fflush(stdout);

	if (opts.reject) {
		if (rdma_reject(c->id, NULL, 0))
			probe_conn_done(c, "error", "rdma_reject: %s",
					strerror(errno));
		else
			probe_conn_done(c, "rejected", NULL);
		return;
	}

	ret = probe_make_qp(c);
	if (ret) {
		rdma_reject(c->id, NULL, 0);
		probe_conn_done(c, "error", "cannot create a QP on %s: %s",
				dev, strerror(-ret));
		return;
	}
	memset(&param, 0, sizeof(param));
	param.private_data = pd_len ? pd : NULL;
	param.private_data_len = pd_len;
	param.responder_resources = 1;
	param.initiator_depth = 1;
	param.rnr_retry_count = 7;
	if (rdma_accept(c->id, &param)) {
		ret = errno;
		rdma_reject(c->id, NULL, 0);
		probe_conn_done(c, "error", "rdma_accept with %zu octets: %s",
				pd_len, strerror(ret));
	}
}

/* rdma_bind_addr() says EADDRNOTAVAIL both when the port is taken and
 * when no RDMA device has the address: try port 0 to tell which.
 */
static enum probe_exit probe_bind_failed(const struct sockaddr *sa,
					 const char *where, int err)
{
	struct sockaddr_storage any;
	struct rdma_cm_id *id;
	bool addr_ok = false;

	if (err == EADDRNOTAVAIL &&
	    !rdma_create_id(channel, &id, NULL, RDMA_PS_TCP)) {
		memcpy(&any, sa, sa->sa_family == AF_INET6 ?
		       sizeof(struct sockaddr_in6) :
		       sizeof(struct sockaddr_in));
		if (any.ss_family == AF_INET6)
			((struct sockaddr_in6 *)&any)->sin6_port = 0;
		else
			((struct sockaddr_in *)&any)->sin_port = 0;
		addr_ok = !rdma_bind_addr(id, (struct sockaddr *)&any);
		rdma_destroy_id(id);
	}
	if (err == EADDRINUSE || (err == EADDRNOTAVAIL && addr_ok)) {
		probe_err("cannot listen on %s: the port is in use (by nfsd? see /proc/fs/nfsd/portlist)",
			  where);
		return PROBE_ERROR;
	}
	if (err == EADDRNOTAVAIL || err == ENODEV) {
		probe_err("cannot listen on %s: no RDMA device has that address (%s)",
			  where, strerror(err));
		return PROBE_NODEV;
	}
	probe_err("cannot listen on %s: %s", where, strerror(err));
	return PROBE_ERROR;
}

static enum probe_exit probe_listen(struct addrinfo *ai)
{
	struct rdma_cm_id *listen_id;
	unsigned long requests = 0;
	struct probe_event ev;
	struct probe_conn *c;
	char where[INET6_ADDRSTRLEN + 8];
	u8 pd[PROBE_PDATA_MAX];
	size_t pd_len;
	int ret;

	if (rdma_create_id(channel, &listen_id, NULL, RDMA_PS_TCP)) {
		probe_err("rdma_create_id: %s", strerror(errno));
		return PROBE_ERROR;
	}
	probe_addr_str(ai->ai_addr, where, sizeof(where));
	if (rdma_bind_addr(listen_id, ai->ai_addr)) {
		ret = probe_bind_failed(ai->ai_addr, where, errno);
		rdma_destroy_id(listen_id);
		return ret;
	}
	if (rdma_listen(listen_id, 16)) {
		probe_err("rdma_listen on %s: %s", where, strerror(errno));
		rdma_destroy_id(listen_id);
		return PROBE_ERROR;
	}

	if (!opts.raw) {
		rpcrdma_pdata_build(pd, &opts.lim);
		pd_len = RPCRDMA_PDATA_V1_LEN;
	} else {
		memcpy(pd, opts.pdata, opts.pdata_len);
		pd_len = opts.pdata_len;
	}
	if (opts.json)
		printf("{\"event\":\"listening\",\"address\":\"%s\"}\n", where);
	else
		printf("listening on %s%s\n", where,
		       opts.reject ? ", rejecting every connection" : "");
	fflush(stdout);

	ret = PROBE_OK;
	while (!opts.count || probe_done < opts.count) {
		int err = probe_next_event(opts.wait_s ? opts.wait_s * 1000 :
					   -1, &ev);

		if (err == -ETIMEDOUT) {
			probe_err("no CM event for %ld s; giving up",
				  opts.wait_s);
			ret = PROBE_TIMEOUT;
			break;
		}
		if (err) {
			probe_err("CM event channel: %s", strerror(-err));
			ret = PROBE_ERROR;
			break;
		}
		c = ev.id != listen_id && ev.id ? ev.id->context : NULL;
		switch (ev.type) {
		case RDMA_CM_EVENT_CONNECT_REQUEST:
			probe_on_request(&ev, ++requests, pd, pd_len);
			break;
		case RDMA_CM_EVENT_ESTABLISHED:
			if (!c)
				break;
			c->established = true;
			if (opts.json)
				printf("{\"event\":\"established\",\"conn\":%lu}\n",
				       c->num);
			else
				printf("connection %lu: established\n", c->num);
			fflush(stdout);
			break;
		case RDMA_CM_EVENT_DISCONNECTED:
			if (!c)
				break;
			rdma_disconnect(c->id);
			probe_conn_done(c, "disconnected", NULL);
			break;
		case RDMA_CM_EVENT_CONNECT_ERROR:
		case RDMA_CM_EVENT_UNREACHABLE:
		case RDMA_CM_EVENT_REJECTED:
			if (c)
				probe_conn_done(c, "error", "%s (status %d)",
						rdma_event_str(ev.type),
						ev.status);
			break;
		case RDMA_CM_EVENT_DEVICE_REMOVAL:
			probe_err("the RDMA device went away");
			ret = PROBE_NODEV;
			goto out;
		default:
			break;
		}
	}
out:
	if (opts.json)
		printf("{\"event\":\"summary\",\"connections\":%lu,\"completed\":%lu}\n",
		       requests, probe_done);
	else
		printf("%lu connection requests, %lu completed\n", requests,
		       probe_done);
	rdma_destroy_id(listen_id);
	return ret;
}

int main(int argc, char **argv)
{
	struct addrinfo *ai;
	enum probe_exit ret;

	setvbuf(stdout, NULL, _IOLBF, 0);
	probe_parse_args(argc, argv);
	probe_catch_release();
	if (opts.listen && !*opts.host)
		snprintf(opts.host, sizeof(opts.host), "%s", "0.0.0.0");

	ret = probe_resolve(&ai);
	if (ret)
		return ret;
	ret = probe_check_devices();
	if (ret == PROBE_OK)
		ret = opts.listen ? probe_listen(ai) : probe_active(ai);
	freeaddrinfo(ai);
	if (channel)
		rdma_destroy_event_channel(channel);
	return ret;
}
