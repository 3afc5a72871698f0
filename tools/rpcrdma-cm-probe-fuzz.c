// SPDX-License-Identifier: GPL-2.0
/*
 * rpcrdma-cm-probe --fuzz: the generator and the oracle, and
 * --fuzz-dry-run, which prints what a run would send without any RDMA
 * device. Nothing here touches the RDMA stack, so a host test can hold
 * the generator to exact counts and a hash.
 *
 * Inputs are numbered from 0: the --corpus files first, in name order,
 * then generated ones. Generated input g belongs to class g mod 5
 * (length, offset, version, trunc, random) and is step k = g div 5 of
 * that class's sweep, so that N = 5 * S inputs cover a sweep of S steps
 * exactly. Each input's random octets come from the seed and its number
 * alone: input 123 of seed 1 is the same whatever came before it.
 *
 * The oracle is the project's codec, the very file rpcrdma.ko is built
 * from (rpcrdma_pdata_parse() and rpcrdma_pdata_negotiate()), applied
 * to what the receiver's CM delivers: on IB/RoCE the field zero-padded
 * to its full size, on iWARP the exact octets.
 */

#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/minmax.h>

#include "rpcrdma-cm-probe.h"

/* The Format Identifier as the message carries it */
static const u8 probe_fuzz_ident[4] = {
	(RPCRDMA_PDATA_FORMAT_ID >> 24) & 0xff,
	(RPCRDMA_PDATA_FORMAT_ID >> 16) & 0xff,
	(RPCRDMA_PDATA_FORMAT_ID >> 8) & 0xff,
	RPCRDMA_PDATA_FORMAT_ID & 0xff,
};

#define PROBE_FUZZ_NFIELDS	3
static const struct probe_fuzz_field probe_fuzz_fields[PROBE_FUZZ_NFIELDS] = {
	{ .name = "req", .max = PROBE_FUZZ_REQ_MAX, .padded = true },
	{ .name = "rep", .max = PROBE_FUZZ_REP_MAX, .padded = true },
	{ .name = "mpa", .max = PROBE_FUZZ_MPA_MAX, .padded = false },
};

static const char * const probe_fuzz_class_names[] = {
	[PROBE_FUZZ_LENGTH] = "length",
	[PROBE_FUZZ_OFFSET] = "offset",
	[PROBE_FUZZ_VERSION] = "version",
	[PROBE_FUZZ_TRUNC] = "trunc",
	[PROBE_FUZZ_RANDOM] = "random",
	[PROBE_FUZZ_CORPUS] = "corpus",
};

/* The corpus: file contents and names, read once */
struct probe_fuzz_file {
	char name[NAME_MAX + 1];
	u8 blob[PROBE_PDATA_MAX];
	size_t len;
};

static struct probe_fuzz_file *probe_corpus;
static unsigned long probe_corpus_len;

/* A trunc sweep: the message cut after 0..8 octets at the start of
 * the field, then its first 0..8 octets as the field's last ones
 */
#define PROBE_TRUNC_STEPS	(2 * (RPCRDMA_PDATA_V1_LEN + 1))

/**
 * probe_fuzz_field_get - A field by the name --fuzz-dry-run takes
 * @name: req, rep or mpa
 *
 * Return: the field, or NULL for another name.
 */
const struct probe_fuzz_field *probe_fuzz_field_get(const char *name)
{
	const struct probe_fuzz_field *f;

	for (f = probe_fuzz_fields; f < probe_fuzz_fields + PROBE_FUZZ_NFIELDS; f++)
		if (!strcmp(name, f->name))
			return f;
	return NULL;
}

/**
 * probe_fuzz_field_of - The field a live run's blobs go into
 * @iwarp: the connection's device is iWARP
 * @rep: the blob is an accept's (the listener), not a request's
 *
 * Return: the field; MPA has one size both ways.
 */
const struct probe_fuzz_field *probe_fuzz_field_of(bool iwarp, bool rep)
{
	return probe_fuzz_field_get(iwarp ? "mpa" : rep ? "rep" : "req");
}

/**
 * probe_fuzz_class_name - Name a class for output
 * @cls: the class
 *
 * Return: a short lower-case token.
 */
const char *probe_fuzz_class_name(enum probe_fuzz_class cls)
{
	return probe_fuzz_class_names[cls];
}

static int probe_fuzz_name_cmp(const void *a, const void *b)
{
	const struct probe_fuzz_file *fa = a, *fb = b;

	return strcmp(fa->name, fb->name);
}

/* Read @path into @file; a file too long for @f is left out, said so */
static int probe_fuzz_read_file(const char *dir, const char *name,
				const struct probe_fuzz_field *f,
				struct probe_fuzz_file *file)
{
	char path[PATH_MAX];
	u8 buf[PROBE_PDATA_MAX + 1];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		probe_err("--corpus: %s: %s", path, strerror(errno));
		return -1;
	}
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n < 0) {
		probe_err("--corpus: %s: %s", path, strerror(errno));
		return -1;
	}
	if ((size_t)n > f->max) {
		probe_err("--corpus: %s: left out, %s%zd octets where a %s carries %zu",
			  path, (size_t)n > PROBE_PDATA_MAX ? "more than " : "",
			  (size_t)n > PROBE_PDATA_MAX ? (ssize_t)PROBE_PDATA_MAX : n,
			  f->name, f->max);
		return 1;
	}
	snprintf(file->name, sizeof(file->name), "%s", name);
	memcpy(file->blob, buf, n);
	file->len = n;
	return 0;
}

/**
 * probe_fuzz_load_corpus - Read --corpus DIR, if given, for field @f
 * @f: where the blobs go: a file longer than it carries is left out
 *
 * Regular files only, sorted by name so that every host replays them in
 * the same order; at most %PROBE_FUZZ_CORPUS_MAX.
 *
 * Return: the number of files left out, or -1 after a message.
 */
int probe_fuzz_load_corpus(const struct probe_fuzz_field *f)
{
	struct dirent *de;
	struct stat st;
	char path[PATH_MAX];
	int skipped = 0, ret;
	DIR *d;

	if (!opts.fuzz_corpus)
		return 0;
	d = opendir(opts.fuzz_corpus);
	if (!d) {
		probe_err("--corpus: %s: %s", opts.fuzz_corpus, strerror(errno));
		return -1;
	}
	free(probe_corpus);
	probe_corpus = calloc(PROBE_FUZZ_CORPUS_MAX, sizeof(*probe_corpus));
	probe_corpus_len = 0;
	if (!probe_corpus) {
		closedir(d);
		probe_err("out of memory");
		return -1;
	}
	while ((de = readdir(d))) {
		snprintf(path, sizeof(path), "%s/%s", opts.fuzz_corpus, de->d_name);
		if (stat(path, &st) || !S_ISREG(st.st_mode))
			continue;
		if (probe_corpus_len == PROBE_FUZZ_CORPUS_MAX) {
			probe_err("--corpus: %s: more than %d files", opts.fuzz_corpus,
				  PROBE_FUZZ_CORPUS_MAX);
			closedir(d);
			return -1;
		}
		ret = probe_fuzz_read_file(opts.fuzz_corpus, de->d_name, f,
					   &probe_corpus[probe_corpus_len]);
		if (ret < 0) {
			closedir(d);
			return -1;
		}
		if (ret)
			skipped++;
		else
			probe_corpus_len++;
	}
	closedir(d);
	qsort(probe_corpus, probe_corpus_len, sizeof(*probe_corpus),
	      probe_fuzz_name_cmp);
	return skipped;
}

/* A generator for input @index alone: the seed and the index, mixed */
static u64 probe_fuzz_state(unsigned long index)
{
	u64 st = (u64)index * 0xd1342543de82ef95ULL + 1;

	return opts.fuzz_seed ^ probe_rand(&st);
}

static void probe_fuzz_fill(u64 *st, u8 *p, size_t len)
{
	while (len--)
		*p++ = probe_rand(st);
}

/* An 8-octet Version 1 message with random flags and sizes: every bit
 * of the flags octet, the 7 reserved ones too
 */
static void probe_fuzz_message(u64 *st, u8 *m)
{
	memcpy(m, probe_fuzz_ident, sizeof(probe_fuzz_ident));
	m[4] = RPCRDMA_PDATA_VERSION;
	probe_fuzz_fill(st, m + 5, 3);
}

/* offset: random octets filling the field, the identifier at k mod
 * (max - 3), followed by Version 1 where it fits; past max - 8 the
 * message no longer fits and the field ends inside it
 */
static void probe_fuzz_offset(const struct probe_fuzz_field *f, u64 *st,
			      struct probe_fuzz_input *in)
{
	size_t at = in->k % (f->max - 3);
	u8 m[RPCRDMA_PDATA_V1_LEN];

	in->len = f->max;
	in->at = at;
	probe_fuzz_fill(st, in->blob, in->len);
	probe_fuzz_message(st, m);
	memcpy(in->blob + at, m, f->max - at < sizeof(m) ? f->max - at :
							   sizeof(m));
}

/* trunc: a valid message cut after j octets (j < 9), then with only
 * its first t = j - 9 octets as the last ones of a field of random
 * octets; on IB/RoCE the former is completed with the CM's zeros
 */
static void probe_fuzz_trunc(const struct probe_fuzz_field *f, u64 *st,
			     struct probe_fuzz_input *in)
{
	size_t j = in->k % PROBE_TRUNC_STEPS, t;
	u8 m[RPCRDMA_PDATA_V1_LEN];

	probe_fuzz_message(st, m);
	if (j <= RPCRDMA_PDATA_V1_LEN) {
		in->len = j;
		in->at = j >= sizeof(probe_fuzz_ident) ? 0 : -1;
		memcpy(in->blob, m, j);
		return;
	}
	t = j - RPCRDMA_PDATA_V1_LEN - 1;
	in->len = f->max;
	in->at = t >= sizeof(probe_fuzz_ident) ? (long)(f->max - t) : -1;
	probe_fuzz_fill(st, in->blob, in->len);
	memcpy(in->blob + f->max - t, m, t);
}

/* random: a message at a random offset, with random flags and sizes
 * and, one time in eight, a random version, in a field of random
 * length from its end to max
 */
static void probe_fuzz_random(const struct probe_fuzz_field *f, u64 *st,
			      struct probe_fuzz_input *in)
{
	size_t at = probe_rand(st) % (f->max - RPCRDMA_PDATA_V1_LEN + 1);
	size_t room = f->max - at - RPCRDMA_PDATA_V1_LEN;
	u8 m[RPCRDMA_PDATA_V1_LEN];

	in->len = at + RPCRDMA_PDATA_V1_LEN + probe_rand(st) % (room + 1);
	in->at = at;
	probe_fuzz_fill(st, in->blob, in->len);
	probe_fuzz_message(st, m);
	if (!(probe_rand(st) % 8))
		m[4] = probe_rand(st);
	memcpy(in->blob + at, m, sizeof(m));
}

/**
 * probe_fuzz_make - Input @index of this run, for field @f
 * @f: where it goes (its size bounds every class)
 * @index: from 0; the corpus files come first
 * @in: OUT: the input
 */
void probe_fuzz_make(const struct probe_fuzz_field *f, unsigned long index,
		     struct probe_fuzz_input *in)
{
	unsigned long g = index - probe_corpus_len;
	u64 st = probe_fuzz_state(index);

	memset(in, 0, sizeof(*in));
	in->index = index;
	in->at = -1;
	if (index < probe_corpus_len) {
		in->cls = PROBE_FUZZ_CORPUS;
		in->k = index;
		in->file = probe_corpus[index].name;
		in->len = probe_corpus[index].len;
		memcpy(in->blob, probe_corpus[index].blob, in->len);
		return;
	}
	in->cls = g % PROBE_FUZZ_NCLASSES;
	in->k = g / PROBE_FUZZ_NCLASSES;
	switch (in->cls) {
	case PROBE_FUZZ_LENGTH:
		in->len = in->k % (f->max + 1);
		probe_fuzz_fill(&st, in->blob, in->len);
		break;
	case PROBE_FUZZ_OFFSET:
		probe_fuzz_offset(f, &st, in);
		break;
	case PROBE_FUZZ_VERSION:
		probe_fuzz_message(&st, in->blob);
		in->blob[4] = in->k % 256;
		in->len = RPCRDMA_PDATA_V1_LEN;
		in->at = 0;
		break;
	case PROBE_FUZZ_TRUNC:
		probe_fuzz_trunc(f, &st, in);
		break;
	default:
		probe_fuzz_random(f, &st, in);
		break;
	}
}

/* What the receiver's CM delivers of @blob, as the codec parses it.
 * Over IB/RoCE the receiver's CM delivers the whole field, zero-padded.
 */
static void probe_fuzz_parse(const struct probe_fuzz_field *f, const u8 *blob,
			     size_t len, struct probe_fuzz_verdict *v)
{
	u8 seen[PROBE_PDATA_MAX] = { };
	size_t n = f->padded ? f->max : len;

	memcpy(seen, blob, len);
	memset(v, 0, sizeof(*v));
	v->status = rpcrdma_pdata_parse(n ? seen : NULL, n, &v->msg);
}

/* The receiver's thresholds, from its limits @v->rcv and what it parsed */
static void probe_fuzz_negotiate(struct probe_fuzz_verdict *v)
{
	rpcrdma_pdata_negotiate(&v->rcv, v->status == RPCRDMA_PDATA_PRESENT ?
				&v->msg : NULL, &v->res);
}

/**
 * probe_fuzz_expect - The oracle: what RFC 8797 makes a receiver do
 * @f: the field the blob travels in
 * @blob: the octets sent
 * @len: how many
 * @rcv: the receiver's own limits, as it advertises them
 * @v: OUT: what the receiver finds, and the thresholds it must use
 *
 * The codec decides, as it does in the module: the message found at
 * any offset (Section 5.2), or no message and then R clear and 1024
 * each way (Section 5.1), and min() of each pair (Section 4.2).
 */
void probe_fuzz_expect(const struct probe_fuzz_field *f, const u8 *blob,
		       size_t len, const struct rpcrdma_pdata_limits *rcv,
		       struct probe_fuzz_verdict *v)
{
	probe_fuzz_parse(f, blob, len, v);
	v->rcv = *rcv;
	probe_fuzz_negotiate(v);
}

/* The Send Size server @m offers a client whose message @v says it
 * Receives R: max(floor, min(ceil, R)). A client without a valid
 * message counts as Receiving 1024 (Section 5.1), which gets the
 * floor. rpcrdma.ko offers max(max_req_size, min(server_send_size,
 * 65536, R)) (svc_rdma_cm_offer_send()), whose floor and ceiling the
 * two controls show; with server_send_size at most max_req_size the
 * two are equal, and so is every offer. A server that advertises one
 * size whatever the client sent, as a stock one does, showed it to
 * both.
 */
static u32 probe_fuzz_model_send(const struct probe_fuzz_model *m,
				 const struct probe_fuzz_verdict *v)
{
	u32 recv = RPCRDMA_PDATA_SIZE_MIN;

	if (v->status == RPCRDMA_PDATA_PRESENT)
		recv = v->msg.recv_size;
	return max(m->floor, min(m->ref.send_size, recv));
}

/**
 * probe_fuzz_expect_server - The oracle for a server the controls showed
 * @f: the field the blob travels in
 * @blob: the octets sent
 * @len: how many
 * @m: the server, from its answers to the control connections
 * @v: OUT: what the server finds, the limits it must advertise to this
 *	client (@v->rcv) and the thresholds it must use
 *
 * As probe_fuzz_expect(), for a receiver whose Send Size depends on
 * the client's Receive Size: each input gets its own.
 */
void probe_fuzz_expect_server(const struct probe_fuzz_field *f,
			      const u8 *blob, size_t len,
			      const struct probe_fuzz_model *m,
			      struct probe_fuzz_verdict *v)
{
	probe_fuzz_parse(f, blob, len, v);
	v->rcv.max_send = probe_fuzz_model_send(m, v);
	v->rcv.max_recv = m->ref.recv_size;
	v->rcv.remote_inv = m->ref.remote_inv;
	probe_fuzz_negotiate(v);
}

/**
 * probe_fuzz_kv - A verdict as the receiver's debugfs line shows it
 * @buf: OUT: "peer_pdata=... peer_send=... ... reminv=N"
 * @size: size of @buf
 * @v: the verdict
 *
 * The same keys and values as <debugfs>/rpcrdma_cm/connections and the
 * rpcrdma_cm_negotiate event, so that a script compares them as text.
 *
 * Return: what snprintf() returned.
 */
int probe_fuzz_kv(char *buf, size_t size, const struct probe_fuzz_verdict *v)
{
	bool present = v->status == RPCRDMA_PDATA_PRESENT;

	return snprintf(buf, size,
			"peer_pdata=%s%s peer_send=%u peer_recv=%u peer_r=%u send=%u recv=%u reminv=%u",
			present ? "present" : "absent:",
			present ? "" : rpcrdma_pdata_status_name(v->status),
			present ? v->msg.send_size : RPCRDMA_PDATA_SIZE_MIN,
			present ? v->msg.recv_size : RPCRDMA_PDATA_SIZE_MIN,
			present && v->msg.remote_inv, v->res.send_thresh,
			v->res.recv_thresh, v->res.remote_inv);
}

/**
 * probe_fuzz_hex - Octets as hex digits, "-" for none
 * @buf: OUT: at least 2 * @len + 2 octets
 * @size: size of @buf
 * @p: the octets
 * @len: how many
 */
void probe_fuzz_hex(char *buf, size_t size, const u8 *p, size_t len)
{
	size_t i;

	snprintf(buf, size, "-");
	for (i = 0; i < len && 2 * i + 2 < size; i++)
		snprintf(buf + 2 * i, size - 2 * i, "%02x", p[i]);
}

/**
 * probe_fuzz_line - Print a --fuzz "WORD KEY=VALUE ..." line
 * @line: the text form, without a newline
 *
 * As it is, or with --json as one JSON object (probe_print_kv_json()),
 * so that the two forms can never say different things.
 */
void probe_fuzz_line(const char *line)
{
	if (opts.json)
		probe_print_kv_json(line);
	else
		printf("%s\n", line);
}

static void probe_fuzz_print_one(const struct probe_fuzz_input *in,
				 const struct probe_fuzz_verdict *v)
{
	char line[1024], kv[256], hex[2 * PROBE_PDATA_MAX + 2];
	size_t n;

	probe_fuzz_kv(kv, sizeof(kv), v);
	probe_fuzz_hex(hex, sizeof(hex), in->blob, in->len);
	n = snprintf(line, sizeof(line), "fuzz input=%lu class=%s k=%lu len=%zu",
		     in->index, probe_fuzz_class_name(in->cls), in->k, in->len);
	if (in->at >= 0 && n < sizeof(line))
		n += snprintf(line + n, sizeof(line) - n, " at=%ld", in->at);
	if (v->status == RPCRDMA_PDATA_PRESENT && n < sizeof(line))
		n += snprintf(line + n, sizeof(line) - n, " found=%u",
			      v->msg.offset);
	if (n < sizeof(line))
		snprintf(line + n, sizeof(line) - n, " %s hex=%s", kv, hex);
	probe_fuzz_line(line);
}

/**
 * probe_fuzz_dry_run - --fuzz-dry-run: print the inputs and the verdicts
 *
 * One line per input and a summary, for the field --fuzz-dry-run names
 * and a receiver advertising this probe's own limits (4096/4096, R set,
 * as a stock server does; a live run learns the Send Sizes this
 * project's server offers). No RDMA device is needed: this is what the
 * host test holds to exact counts.
 *
 * Return: PROBE_OK, or PROBE_USAGE when the corpus cannot be read.
 */
enum probe_exit probe_fuzz_dry_run(void)
{
	unsigned long cls[PROBE_FUZZ_NCLASSES + 1] = { };
	unsigned long st[RPCRDMA_PDATA_DISABLED + 1] = { };
	const struct probe_fuzz_field *f = opts.fuzz_dry;
	struct probe_fuzz_verdict v;
	struct probe_fuzz_input in;
	char line[512];
	unsigned long i;
	int skipped;
	size_t n;

	skipped = probe_fuzz_load_corpus(f);
	if (skipped < 0)
		return PROBE_USAGE;
	for (i = 0; i < opts.fuzz; i++) {
		probe_fuzz_make(f, i, &in);
		probe_fuzz_expect(f, in.blob, in.len, &opts.lim, &v);
		probe_fuzz_print_one(&in, &v);
		cls[in.cls]++;
		st[v.status]++;
	}
	n = snprintf(line, sizeof(line),
		     "fuzz-dry-run inputs=%lu seed=%llu field=%s max=%zu padded=%s corpus=%lu corpus_left_out=%d",
		     opts.fuzz, opts.fuzz_seed, f->name, f->max,
		     f->padded ? "yes" : "no", cls[PROBE_FUZZ_CORPUS], skipped);
	for (i = 0; i < PROBE_FUZZ_NCLASSES && n < sizeof(line); i++)
		n += snprintf(line + n, sizeof(line) - n, " %s=%lu",
			      probe_fuzz_class_name(i), cls[i]);
	for (i = RPCRDMA_PDATA_PRESENT; i < RPCRDMA_PDATA_DISABLED &&
	     n < sizeof(line); i++)
		n += snprintf(line + n, sizeof(line) - n, " expect_%s=%lu",
			      rpcrdma_pdata_status_name(i), st[i]);
	probe_fuzz_line(line);
	return PROBE_OK;
}
