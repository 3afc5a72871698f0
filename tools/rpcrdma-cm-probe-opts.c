// SPDX-License-Identifier: GPL-2.0
/*
 * rpcrdma-cm-probe: the command line. Every option is checked here,
 * alone and against the others, before anything touches the RDMA
 * stack, so that a mistake costs exit status 2 and a message, never a
 * half-made connection. See rpcrdma-cm-probe(8) for what they mean.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdnoreturn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rpcrdma-cm-probe.h"

/*
 * The version is debian/changelog's, the one modinfo shows for the
 * module DKMS builds: scripts/tools.sh passes it (and debian/rules through
 * it), so that there is one place to change it.
 */
#ifndef PROBE_VERSION
#error "PROBE_VERSION is not defined: build the probe with scripts/tools.sh (make tools)"
#endif

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
		"  --no-reply-buffer  with --read: post no Receive for the Replies, so\n"
		"                     that the server's Sends stay posted (RNR retries)\n"
		"                     until the probe disconnects\n"
		"Passive side:\n"
		"  --listen [ADDR:]PORT  accept connections on PORT (all IPv4 addresses\n"
		"                     unless ADDR is given; [::] for IPv6)\n"
		"  --reject           reject every connection instead of accepting\n"
		"  --count N          stop after N connections\n"
		"  --wait S           give up after S seconds without any CM event\n"
		"Experimental RPC-over-RDMA Version Two (transport properties,\n"
		"draft-dnoveck-nfsv4-rpcrdma-xcharext-03; never in the kernel):\n"
		"  --v2               speak Version Two instead: no private data,\n"
		"                     ROPT_CONNPROP first; with SERVER or --listen\n"
		"  --base 01|2016-11-10  the Version Two text for headers and error\n"
		"                     codes: version-two-01 (default), or the later\n"
		"                     working copy of 2016-11-10\n"
		"  --no-props         a peer without the extension: send no property\n"
		"                     message, refuse each (RDMA2_ERR_INVAL_OPTION)\n"
		"  --rbsiz N          this side's Receive Buffer Size (default 4096)\n"
		"  --rbsiz-max N      the largest it may grow to (default %d)\n"
		"  --request rbsiz=N  ask the peer to change its Receive Buffer Size\n"
		"  --update rbsiz=N   raise this side's, then tell the peer (UPDPROP)\n"
		"  --null SIZE,...    client: NULL Calls of about SIZE octets each\n"
		"                     (inline, or by Position-Zero chunk if too large)\n"
		"Hostile peers at volume (either side):\n"
		"  --fuzz N           N connections, each with one generated private\n"
		"                     data blob (classes length, offset, version,\n"
		"                     trunc, random in turn); check and count what\n"
		"                     the peer did; exit 1 on any mismatch\n"
		"  --seed S           the generator's seed, --fuzz and --flood (default:\n"
		"                     from the clock, printed)\n"
		"  --corpus DIR       send DIR's files (raw private data) first\n"
		"  --fuzz-dry-run req|rep|mpa  print the N blobs, their class and the\n"
		"                     expected verdict for that field (IB/RoCE REQ %d,\n"
		"                     REP %d, iWARP MPA %d octets); no RDMA needed\n"
		"  --flood N          N connect/disconnect cycles against a server, in\n"
		"                     blocks of 10 (4 good, 3 --fuzz inputs, 1 left at\n"
		"                     the request, 1 left at the reply, 1 the server\n"
		"                     must refuse) shuffled by --seed; count each\n"
		"                     outcome; exit 1 if one is not what its kind asks\n"
		"Both:\n"
		"  --timeout MS       limit for each connection step (default %d)\n"
		"  --json             one JSON object per line, for scripts\n"
		"  -v, --verbose      show every CM event (and every --repeat cycle)\n"
		"  -h, --help         this text;  -V, --version  the version\n"
		"\n"
		"Exit: 0 ok, 1 error, 2 usage, 3 no RDMA device, 4 unreachable,\n"
		"5 rejected or refused, 6 timeout, 7 (--v2) the peer answered\n"
		"ERR_VERS. See rpcrdma-cm-probe(8).\n",
		prog, prog, PROBE_DEFAULT_PORT, PROBE_DEFAULT_SIZE,
		PROBE_DEFAULT_SIZE, PROBE_PDATA_MAX, PROBE_RANDOM_MAX,
		PROBE_READS_MAX, PROBE_V2_SLOT, PROBE_FUZZ_REQ_MAX,
		PROBE_FUZZ_REP_MAX, PROBE_FUZZ_MPA_MAX, PROBE_DEFAULT_TIMEOUT);
}

/* A mistake on the command line: say what, point at --help, exit 2 */
static noreturn void probe_bad_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	probe_verr(fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s --help'.\n", prog);
	exit(PROBE_USAGE);
}

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
	OPT_TIMEOUT, OPT_HOLD, OPT_WAIT, OPT_READ, OPT_NO_REPLY_BUFFER,
	OPT_V2, OPT_RBSIZ, OPT_RBSIZ_MAX, OPT_REQUEST, OPT_UPDATE, OPT_NULL,
	OPT_BASE, OPT_NO_PROPS, OPT_FUZZ, OPT_FUZZ_SEED, OPT_CORPUS,
	OPT_FUZZ_DRY_RUN, OPT_FLOOD,
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
	{ "no-reply-buffer", no_argument,   NULL, OPT_NO_REPLY_BUFFER },
	{ "v2",          no_argument,       NULL, OPT_V2 },
	{ "rbsiz",       required_argument, NULL, OPT_RBSIZ },
	{ "rbsiz-max",   required_argument, NULL, OPT_RBSIZ_MAX },
	{ "request",     required_argument, NULL, OPT_REQUEST },
	{ "update",      required_argument, NULL, OPT_UPDATE },
	{ "null",        required_argument, NULL, OPT_NULL },
	{ "base",        required_argument, NULL, OPT_BASE },
	{ "no-props",    no_argument,       NULL, OPT_NO_PROPS },
	{ "fuzz",        required_argument, NULL, OPT_FUZZ },
	{ "seed",        required_argument, NULL, OPT_FUZZ_SEED },
	{ "corpus",      required_argument, NULL, OPT_CORPUS },
	{ "fuzz-dry-run", required_argument, NULL, OPT_FUZZ_DRY_RUN },
	{ "flood",       required_argument, NULL, OPT_FLOOD },
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

/* --request rbsiz=N, --update rbsiz=N: the one property that changes */
static u32 probe_parse_prop(const char *opt, const char *arg)
{
	if (strncmp(arg, "rbsiz=", 6))
		probe_bad_usage("%s wants rbsiz=N, not '%s' (the other properties are fixed)",
				opt, arg);
	return probe_number(opt, arg + 6, PROBE_V2_SLOT);
}

/* --null SIZE[,SIZE...] */
static void probe_parse_null(const char *arg)
{
	char buf[256], *s, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", arg);
	for (s = strtok_r(buf, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
		if (opts.v2_nnull == PROBE_V2_NULLS)
			probe_bad_usage("--null: at most %d sizes",
					PROBE_V2_NULLS);
		opts.v2_null[opts.v2_nnull++] =
			probe_number("--null", s, PROBE_V2_SLOT - 128);
	}
	if (!opts.v2_nnull)
		probe_bad_usage("--null wants SIZE[,SIZE...]");
}

/* --base: one of the two Version Two texts, by the name the codec uses */
static void probe_parse_base(const char *arg)
{
	const struct rpcrdma_xchar_base *base;
	enum rpcrdma_xchar_base_id id;

	for (id = RPCRDMA_XCHAR_BASE_01; id <= RPCRDMA_XCHAR_BASE_WC; id++) {
		base = rpcrdma_xchar_base_get(id);
		if (!strcmp(arg, base->name)) {
			opts.v2_base = id;
			return;
		}
	}
	probe_bad_usage("--base wants 01 or 2016-11-10, not '%s'", arg);
}

/* The --v2 options */
static bool probe_v2_option(int c, bool *seen)
{
	switch (c) {
	case OPT_V2:
		opts.v2 = true;
		return true;
	case OPT_RBSIZ:
		opts.v2_lim.rbsiz = probe_number("--rbsiz", optarg,
						 PROBE_V2_SLOT);
		break;
	case OPT_RBSIZ_MAX:
		opts.v2_lim.rbsiz_max = probe_number("--rbsiz-max", optarg,
						     PROBE_V2_SLOT);
		break;
	case OPT_REQUEST:
		opts.v2_request_rbsiz = probe_parse_prop("--request", optarg);
		break;
	case OPT_UPDATE:
		opts.v2_update_rbsiz = probe_parse_prop("--update", optarg);
		break;
	case OPT_NULL:
		probe_parse_null(optarg);
		break;
	case OPT_BASE:
		probe_parse_base(optarg);
		break;
	case OPT_NO_PROPS:
		opts.v2_no_props = true;
		break;
	default:
		return false;
	}
	*seen = true;
	return true;
}

/* The --fuzz options */
static bool probe_fuzz_option(int c)
{
	switch (c) {
	case OPT_FUZZ:
		opts.fuzz = probe_number("--fuzz", optarg, ULONG_MAX);
		if (!opts.fuzz)
			probe_bad_usage("--fuzz must be at least 1");
		return true;
	case OPT_FUZZ_SEED:
		opts.fuzz_seed = probe_number("--seed", optarg, ULLONG_MAX);
		opts.fuzz_seeded = true;
		return true;
	case OPT_CORPUS:
		opts.fuzz_corpus = optarg;
		return true;
	case OPT_FUZZ_DRY_RUN:
		opts.fuzz_dry = probe_fuzz_field_get(optarg);
		if (!opts.fuzz_dry)
			probe_bad_usage("--fuzz-dry-run wants req, rep or mpa, not '%s'",
					optarg);
		return true;
	case OPT_FLOOD:
		opts.flood = probe_number("--flood", optarg, ULONG_MAX);
		if (!opts.flood)
			probe_bad_usage("--flood must be at least 1");
		return true;
	default:
		return false;
	}
}

/* Options given, where their value alone cannot tell (0 is valid) */
struct probe_seen {
	bool sizes;		/* --send-size, --recv-size or --no-r */
	bool pdata;
	bool no_pdata;
	bool count;
	bool seed;
	bool v2;		/* an option only --v2 takes */
};

/* The private data options: what goes into the connect request/accept */
static bool probe_pdata_option(int c, struct probe_seen *seen)
{
	switch (c) {
	case OPT_SEND_SIZE:
		opts.lim.max_send = probe_number("--send-size", optarg,
						 UINT_MAX);
		seen->sizes = true;
		break;
	case OPT_RECV_SIZE:
		opts.lim.max_recv = probe_number("--recv-size", optarg,
						 UINT_MAX);
		seen->sizes = true;
		break;
	case OPT_NO_R:
		opts.lim.remote_inv = false;
		seen->sizes = true;
		break;
	case OPT_PDATA:
		probe_parse_hex(optarg);
		seen->pdata = true;
		break;
	case OPT_NO_PDATA:
		seen->no_pdata = true;
		break;
	default:
		return false;
	}
	return true;
}

/* The options that say which side runs, how long and how often */
static bool probe_run_option(int c, struct probe_seen *seen)
{
	switch (c) {
	case OPT_LISTEN:
		opts.listen = true;
		opts.target = optarg;
		break;
	case OPT_REJECT:
		opts.reject = true;
		break;
	case OPT_COUNT:
		opts.count = probe_number("--count", optarg, ULONG_MAX);
		seen->count = true;
		break;
	case OPT_REPEAT:
		opts.repeat = probe_number("--repeat", optarg, ULONG_MAX);
		if (!opts.repeat)
			probe_bad_usage("--repeat must be at least 1");
		break;
	case OPT_SEED:
		opts.seed = probe_number("--random-seed", optarg, ULLONG_MAX);
		seen->seed = true;
		break;
	case OPT_TIMEOUT:
		opts.timeout_ms = probe_number("--timeout", optarg, INT_MAX);
		break;
	case OPT_HOLD:
		opts.hold_ms = probe_number("--hold", optarg, INT_MAX);
		break;
	case OPT_WAIT:
		opts.wait_s = probe_number("--wait", optarg, INT_MAX / 1000);
		break;
	case OPT_READ:
		probe_parse_read(optarg);
		break;
	case OPT_NO_REPLY_BUFFER:
		opts.no_reply_buffer = true;
		break;
	default:
		return false;
	}
	return true;
}

/* Everything else: output, --help, --version, and getopt's complaints */
static void probe_other_option(int c)
{
	switch (c) {
	case OPT_JSON:
		opts.json = true;
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
		/* getopt_long() has already said what is wrong */
		fprintf(stderr, "Try '%s --help'.\n", prog);
		exit(PROBE_USAGE);
	}
}

/* --listen [ADDR:]PORT: no SERVER, none of the active side's options */
static void probe_check_listen(const struct probe_seen *seen, int argc)
{
	if (optind != argc)
		probe_bad_usage("--listen takes no SERVER argument");
	if (opts.repeat || seen->seed || opts.hold_ms || opts.nreads ||
	    opts.no_reply_buffer)
		probe_bad_usage("%s: active side only",
				"--repeat, --random-seed, --hold, --read, --no-reply-buffer");
	if (seen->count && !opts.count)
		probe_bad_usage("--count must be at least 1");
	probe_split_target(opts.target, true);
	if (opts.reject && (seen->pdata || seen->no_pdata || seen->sizes))
		probe_bad_usage("--reject sends no private data; drop those options");
}

/* SERVER[:PORT]: exactly one, and none of the listener's options */
static void probe_check_active(const struct probe_seen *seen, int argc,
			       char **argv)
{
	if (optind == argc)
		probe_bad_usage("no SERVER given");
	if (optind + 1 != argc)
		probe_bad_usage("one SERVER only (got '%s' too)",
				argv[optind + 1]);
	if (opts.reject || seen->count || opts.wait_s)
		probe_bad_usage("--reject, --count and --wait are for --listen");
	if (seen->seed && !opts.repeat)
		probe_bad_usage("--random-seed needs --repeat");
	if (opts.nreads && opts.repeat)
		probe_bad_usage("--read works on one connection; drop --repeat");
	if (opts.no_reply_buffer && !opts.nreads)
		probe_bad_usage("--no-reply-buffer needs --read");
	if (seen->seed && (seen->pdata || seen->no_pdata || seen->sizes))
		probe_bad_usage("--random-seed chooses the private data itself");
	opts.target = argv[optind];
	probe_split_target(opts.target, false);
}

/* --v2 is its own protocol: none of Version One's options, and its own
 * only with it, so that the two can never be confused
 */
static void probe_check_v2(const struct probe_seen *seen)
{
	if (!opts.v2) {
		if (seen->v2)
			probe_bad_usage("%s need --v2",
					"--rbsiz, --rbsiz-max, --request, --update, --null, --base, --no-props");
		return;
	}
	if (seen->sizes || seen->pdata || seen->no_pdata || opts.repeat ||
	    seen->seed || opts.hold_ms || opts.nreads || opts.no_reply_buffer ||
	    opts.reject)
		probe_bad_usage("--v2 takes none of %s%s",
				"--send-size, --recv-size, --no-r, --pdata, --no-pdata, ",
				"--repeat, --random-seed, --hold, --read, --no-reply-buffer, --reject");
	if (opts.v2_lim.rbsiz < RPCRDMA_XCHAR_DEFAULT_RBSIZ ||
	    opts.v2_lim.rbsiz > opts.v2_lim.rbsiz_max)
		probe_bad_usage("--rbsiz: %u..--rbsiz-max (%u); a peer assumes %u until told",
				RPCRDMA_XCHAR_DEFAULT_RBSIZ,
				opts.v2_lim.rbsiz_max,
				RPCRDMA_XCHAR_DEFAULT_RBSIZ);
	if (opts.v2_request_rbsiz &&
	    opts.v2_request_rbsiz < RPCRDMA_XCHAR_RBSIZ_MIN)
		probe_bad_usage("--request rbsiz: at least %u",
				RPCRDMA_XCHAR_RBSIZ_MIN);
	if (opts.v2_update_rbsiz &&
	    (opts.v2_update_rbsiz <= opts.v2_lim.rbsiz ||
	     opts.v2_update_rbsiz > opts.v2_lim.rbsiz_max))
		probe_bad_usage("--update rbsiz: a raise only, above --rbsiz, up to --rbsiz-max");
	if (opts.listen && opts.v2_nnull)
		probe_bad_usage("--null: client only");
	if (opts.v2_no_props &&
	    (opts.v2_request_rbsiz || opts.v2_update_rbsiz ||
	     opts.v2_lim.rbsiz != RPCRDMA_XCHAR_DEFAULT_RBSIZ ||
	     opts.v2_lim.rbsiz_max != PROBE_V2_SLOT))
		probe_bad_usage("--no-props takes none of %s: they are properties",
				"--request, --update, --rbsiz, --rbsiz-max");
}

/* --fuzz chooses every connection's private data and count itself;
 * --fuzz-dry-run runs nothing, so it takes no address either.
 * Return: true for a dry run, whose options are then complete.
 */
static bool probe_check_fuzz(const struct probe_seen *seen, int argc)
{
	if (!opts.fuzz) {
		if (opts.fuzz_corpus || opts.fuzz_dry)
			probe_bad_usage("--corpus and --fuzz-dry-run need --fuzz");
		if (opts.fuzz_seeded && !opts.flood)
			probe_bad_usage("--seed needs --fuzz or --flood");
		return false;
	}
	if (seen->sizes || seen->pdata || seen->no_pdata || opts.repeat ||
	    seen->seed || opts.hold_ms || opts.nreads || opts.no_reply_buffer ||
	    opts.reject || seen->count || opts.v2 || opts.flood)
		probe_bad_usage("--fuzz takes none of %s%s",
				"--send-size, --recv-size, --no-r, --pdata, --no-pdata, --repeat, ",
				"--random-seed, --hold, --read, --no-reply-buffer, --reject, --count, --v2, --flood");
	if (!opts.fuzz_seeded)
		opts.fuzz_seed = (unsigned long long)time(NULL) << 16 ^ getpid();
	if (!opts.fuzz_dry)
		return false;
	if (opts.listen || optind != argc)
		probe_bad_usage("--fuzz-dry-run connects nowhere: drop --listen and SERVER");
	return true;
}

/* --flood: against a server, with the probe's own message and the
 * --fuzz generator, so none of the private data or run options; the
 * rest of the command line is the active side's as usual.
 */
static void probe_check_flood(const struct probe_seen *seen)
{
	if (!opts.flood)
		return;
	if (opts.listen)
		probe_bad_usage("--flood connects to a server: drop --listen");
	if (seen->sizes || seen->pdata || seen->no_pdata || opts.repeat ||
	    seen->seed || opts.hold_ms || opts.nreads || opts.no_reply_buffer ||
	    opts.v2)
		probe_bad_usage("--flood takes none of %s%s",
				"--send-size, --recv-size, --no-r, --pdata, --no-pdata, --repeat, ",
				"--random-seed, --hold, --read, --no-reply-buffer, --v2");
	if (!opts.fuzz_seeded)
		opts.fuzz_seed = (unsigned long long)time(NULL) << 16 ^ getpid();
}

/**
 * probe_parse_args - Fill in opts from the command line
 * @argc: from main()
 * @argv: from main()
 *
 * Exits with PROBE_USAGE, after a message on stderr, on anything it
 * does not accept; --help and --version print and exit with PROBE_OK.
 * Each option is taken as it comes; how they combine is checked once
 * all are in, so that the message names the conflict, not the order.
 */
void probe_parse_args(int argc, char **argv)
{
	struct probe_seen seen = { };
	int c;

	opts.lim.max_send = PROBE_DEFAULT_SIZE;
	opts.lim.max_recv = PROBE_DEFAULT_SIZE;
	opts.lim.remote_inv = true;
	opts.timeout_ms = PROBE_DEFAULT_TIMEOUT;
	snprintf(opts.port, sizeof(opts.port), "%s", PROBE_DEFAULT_PORT);

	opts.v2_lim.rbsiz = RPCRDMA_XCHAR_DEFAULT_RBSIZ;
	opts.v2_lim.rbsiz_max = PROBE_V2_SLOT;
	/* no handle userspace can register survives remote invalidation
	 * on both rxe and siw (Documentation/transport-properties.md)
	 */
	opts.v2_lim.reqreminv = false;
	opts.v2_lim.brs = RPCRDMA_XCHAR_BKREQSUP_INLINE;
	opts.v2_lim.fixed = 1U << RPCRDMA_XCHAR_PROP_REQREMINV |
			    1U << RPCRDMA_XCHAR_PROP_BRS;

	while ((c = getopt_long(argc, argv, "vhV", probe_longopts,
				NULL)) != -1) {
		if (!probe_pdata_option(c, &seen) &&
		    !probe_run_option(c, &seen) &&
		    !probe_v2_option(c, &seen.v2) && !probe_fuzz_option(c))
			probe_other_option(c);
	}
	probe_check_v2(&seen);
	if (probe_check_fuzz(&seen, argc))
		return;
	probe_check_flood(&seen);

	if (seen.pdata + seen.no_pdata + seen.sizes > 1)
		probe_bad_usage("--pdata, --no-pdata and the size/R options exclude each other");
	opts.raw = seen.pdata || seen.no_pdata;
	if (seen.no_pdata)
		opts.pdata_len = 0;
	if (opts.timeout_ms <= 0)
		probe_bad_usage("--timeout must be at least 1 ms");

	if (opts.listen)
		probe_check_listen(&seen, argc);
	else
		probe_check_active(&seen, argc, argv);
	opts.random = seen.seed;
	if (!*opts.port || strspn(opts.port, "0123456789") != strlen(opts.port) ||
	    atol(opts.port) < 1 || atol(opts.port) > 65535)
		probe_bad_usage("bad port '%s' (1..65535)", opts.port);
}

/**
 * probe_local_pdata - The private data this host sends
 * @pd: OUT: at least PROBE_PDATA_MAX octets
 *
 * The RFC 8797 message the size and R options describe, or the raw
 * octets of --pdata (none for --no-pdata), as a connect request or as
 * an accept: both sides send what the same options ask for.
 *
 * Return: the number of octets in @pd.
 */
size_t probe_local_pdata(u8 *pd)
{
	if (!opts.raw) {
		rpcrdma_pdata_build(pd, &opts.lim);
		return RPCRDMA_PDATA_V1_LEN;
	}
	memcpy(pd, opts.pdata, opts.pdata_len);
	return opts.pdata_len;
}
