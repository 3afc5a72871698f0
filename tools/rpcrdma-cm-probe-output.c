// SPDX-License-Identifier: GPL-2.0
/*
 * rpcrdma-cm-probe: everything the probe prints. Scripts parse both
 * forms, the text for people and the JSON lines of --json (one object
 * a line, flushed at once so that a reader sees each event as it
 * happens), and rpcrdma-cm-probe(8) documents them: a change here is a
 * change of interface. Errors go to stderr, prefixed with the program
 * name.
 */

#define _GNU_SOURCE
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "rpcrdma-cm-probe.h"

/**
 * probe_verr - Print "rpcrdma-cm-probe: " and a message on stderr
 * @fmt: printf format of the message
 * @ap: its arguments
 *
 * No newline: probe_err() ends the line, a usage error adds a hint.
 */
void probe_verr(const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", prog);
	vfprintf(stderr, fmt, ap);
}

/**
 * probe_err - Print an error message, a line on stderr
 * @fmt: printf format of the message, without the newline
 */
void probe_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	probe_verr(fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

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

/* @len octets of @s as a JSON string */
static void probe_json_strn(const char *s, size_t len)
{
	putchar('"');
	for (; len--; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

static void probe_json_str(const char *s)
{
	probe_json_strn(s, strlen(s));
}

/* A value of a text line as JSON: decimal and 0x numbers as numbers */
static void probe_json_value(const char *v, size_t len)
{
	bool hex = len > 2 && v[0] == '0' && v[1] == 'x';
	size_t skip = hex ? 2 : 0;

	if (len > skip && len - skip <= (hex ? 8 : 10) &&
	    strspn(v + skip, hex ? "0123456789abcdef" : "0123456789") >=
	    len - skip) {
		printf("%llu", strtoull(v, NULL, hex ? 16 : 10));
		return;
	}
	probe_json_strn(v, len);
}

/**
 * probe_print_kv_json - Print a "WORD KEY=VALUE ..." line as one JSON object
 * @line: the text form, without a newline
 *
 * The first word becomes "event" (and, with a value, a member of its
 * own name); every KEY=VALUE a member, '-' in keys turned into '_',
 * decimal values (up to 10 digits) and 0x hex ones (up to 8) as
 * numbers, but "hex=" (--fuzz's octets) always a string; a word
 * without a value is true. "why=" is last and takes the rest of the line, so
 * that the text and JSON forms of --v2 can never say different things.
 */
void probe_print_kv_json(const char *line)
{
	const char *p = line, *end, *eq;
	bool first = true;
	size_t i, klen;

	putchar('{');
	for (;;) {
		p += strspn(p, " ");
		if (!*p)
			break;
		end = strncmp(p, "why=", 4) ? p + strcspn(p, " ") :
					     p + strlen(p);
		eq = memchr(p, '=', end - p);
		klen = (eq ? eq : end) - p;
		if (first) {
			printf("\"event\":");
			probe_json_strn(p, klen);
		}
		if (eq || !first) {
			printf(",\"");
			for (i = 0; i < klen; i++)
				putchar(p[i] == '-' ? '_' : p[i]);
			printf("\":");
			/* hex digits are octets, never a number */
			if (eq && klen == 3 && !strncmp(p, "hex", 3))
				probe_json_strn(eq + 1, end - eq - 1);
			else if (eq)
				probe_json_value(eq + 1, end - eq - 1);
			else
				printf("true");
		}
		first = false;
		p = end;
	}
	printf("}\n");
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

/**
 * probe_limits_of - The limits a sender of @buf advertised
 * @buf: private data as sent
 * @len: its length
 * @lim: OUT: the limits as the peer must take them
 *
 * RFC 8797 Section 5.1: no message, or one not recognised, means R
 * clear and 1024 octets each way.
 */
void probe_limits_of(const u8 *buf, size_t len,
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

/**
 * probe_addr_str - "ADDR:PORT", or "[ADDR]:PORT" for IPv6
 * @sa: the address; NULL or another family prints "?"
 * @buf: OUT: the text
 * @len: size of @buf
 */
void probe_addr_str(const struct sockaddr *sa, char *buf, size_t len)
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

/**
 * probe_device_str - "DEVICE port N" of the device @id is bound to
 * @id: the CM id; not yet bound (or NULL) prints "?"
 * @buf: OUT: the text
 * @len: size of @buf
 */
void probe_device_str(struct rdma_cm_id *id, char *buf, size_t len)
{
	if (id && id->verbs)
		snprintf(buf, len, "%s port %u",
			 ibv_get_device_name(id->verbs->device), id->port_num);
	else
		snprintf(buf, len, "?");
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

static void probe_print_outcome_json(const struct probe_outcome *o,
				     const struct rpcrdma_pdata_limits *local,
				     const u8 *pd, size_t pd_len, long cycle)
{
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
		probe_show_pdata("server", o->reply.pdata, o->reply.pdata_len,
				 true);
	}
	if (o->code == PROBE_OK) {
		printf(",\"negotiated\":");
		probe_show_negotiated("client", "server", local,
				      o->reply.pdata, o->reply.pdata_len,
				      true);
		printf(",\"clean_disconnect\":%s",
		       o->clean_disconnect ? "true" : "false");
	}
	probe_print_reads(o);
	printf("}\n");
}

static void probe_print_outcome_text(const struct probe_outcome *o,
				     const struct rpcrdma_pdata_limits *local,
				     const u8 *pd, size_t pd_len, long cycle)
{
	bool reply = o->have_reply && o->reply.has_pdata;

	/* --repeat prints a summary; each cycle only when asked */
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
		probe_show_negotiated("client", "server", local,
				      o->reply.pdata, o->reply.pdata_len,
				      false);
		probe_print_reads(o);
		printf("  %s\n", o->clean_disconnect ? "disconnected" :
		       o->why);
	}
	/* a single attempt's failure is the run's error; a cycle's is not */
	if (o->code != PROBE_OK && cycle < 0)
		probe_err("%s", o->why);
	else if (o->code != PROBE_OK)
		printf("  %s\n", o->why);
}

/**
 * probe_print_outcome - Report how one active connection attempt ended
 * @o: the outcome
 * @pd: the private data this host sent
 * @pd_len: its length
 * @cycle: the --repeat cycle, or -1 without --repeat
 */
void probe_print_outcome(const struct probe_outcome *o, const u8 *pd,
			 size_t pd_len, long cycle)
{
	struct rpcrdma_pdata_limits local;

	probe_limits_of(pd, pd_len, &local);
	if (opts.json)
		probe_print_outcome_json(o, &local, pd, pd_len, cycle);
	else
		probe_print_outcome_text(o, &local, pd, pd_len, cycle);
}

/**
 * probe_print_tally - The summary line of a --repeat run
 * @t: what the cycles counted
 */
void probe_print_tally(const struct probe_tally *t)
{
	if (opts.json) {
		printf("{\"event\":\"summary\",\"cycles\":%lu", t->cycles);
		printf(",\"established\":%lu,\"rejected\":%lu", t->established,
		       t->rejected);
		printf(",\"refused\":%lu", t->refused);
		printf(",\"timeouts\":%lu,\"errors\":%lu", t->timeouts,
		       t->errors);
		printf(",\"unclean_disconnects\":%lu,\"seconds\":%.1f",
		       t->unclean, t->secs);
		if (opts.random)
			printf(",\"seed\":%llu", opts.seed);
		printf("}\n");
	} else {
		printf("%lu cycles to %s in %.1f s: ", t->cycles, opts.target,
		       t->secs);
		printf("%lu established, %lu rejected, %lu refused, ",
		       t->established, t->rejected, t->refused);
		printf("%lu timeouts, ", t->timeouts);
		printf("%lu errors, %lu unclean disconnects", t->errors,
		       t->unclean);
		if (opts.random)
			printf(" (random private data, seed %llu)", opts.seed);
		printf("\n");
	}
}

/**
 * probe_print_listening - The listener is ready for connections
 * @where: the address and port it listens on
 */
void probe_print_listening(const char *where)
{
	if (opts.json)
		printf("{\"event\":\"listening\",\"address\":\"%s\"}\n", where);
	else
		printf("listening on %s%s\n", where,
		       opts.reject ? ", rejecting every connection" : "");
	fflush(stdout);
}

/**
 * probe_print_request - A connect request, and the listener's answer
 * @num: the connection's number, from 1
 * @peer: the client's address and port
 * @dev: the device and port the request came in on
 * @ev: the CONNECT_REQUEST event, with the client's private data
 * @pd: the private data the listener accepts with (unless --reject)
 * @pd_len: its length
 */
void probe_print_request(unsigned long num, const char *peer,
			 const char *dev, const struct probe_event *ev,
			 const u8 *pd, size_t pd_len)
{
	struct rpcrdma_pdata_limits local;

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
}

/**
 * probe_print_conn - One step in the life of a listener's connection
 * @num: the connection's number, from 1
 * @event: established, disconnected, rejected or error
 * @why: what went wrong, or "" when there is nothing to add
 */
void probe_print_conn(unsigned long num, const char *event, const char *why)
{
	if (opts.json) {
		printf("{\"event\":\"%s\",\"conn\":%lu", event, num);
		if (*why) {
			printf(",\"message\":");
			probe_json_str(why);
		}
		printf("}\n");
	} else {
		printf("connection %lu: %s%s%s\n", num, event,
		       *why ? ": " : "", why);
	}
	fflush(stdout);
}

/**
 * probe_print_listen_tally - The summary line of a listener's run
 * @requests: connect requests received
 * @done: connections that ended (disconnected, rejected or failed)
 */
void probe_print_listen_tally(unsigned long requests, unsigned long done)
{
	if (opts.json)
		printf("{\"event\":\"summary\",\"connections\":%lu,\"completed\":%lu}\n",
		       requests, done);
	else
		printf("%lu connection requests, %lu completed\n", requests,
		       done);
}
