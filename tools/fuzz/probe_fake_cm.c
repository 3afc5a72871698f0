// SPDX-License-Identifier: GPL-2.0
/*
 * A fake RDMA-CM for the host test of rpcrdma-cm-probe --fuzz and --flood: an
 * LD_PRELOAD library that answers the librdmacm and libibverbs calls the
 * probe makes, without any RDMA device, so that the live --fuzz paths
 * (control connection, judging, counting, the listener's events, exit
 * status) run on any host. It plays an RFC 8797 peer with the
 * project's own codec, over IB/RoCE rules: a REQ carries at most 56
 * octets and a REP 196 (more is EINVAL, as the CM says), and the
 * receiver gets the field zero-padded; or over siw's (FAKE_CM_IWARP).
 *
 * Environment:
 *   FAKE_CM_SERVER   how the fake server answers the probe's connect
 *                    requests: "rfc" (default: accept, 4096/4096, R),
 *                    "change=K" (from request K on, the controls being
 *                    requests 0 and 1, advertise a Receive Size of 2048
 *                    instead), "reject=K"
 *                    (reject request K), "silent=K" (answer nothing
 *                    from request K on), "no-refuse" (accept a request
 *                    that offers no responder resources, which the
 *                    server otherwise rejects as svcrdma does)
 *   FAKE_CM_MAX_REQ  the server's sunrpc.svc_rdma.max_req_size: its
 *                    Receive Size, and its Send Size at least (default
 *                    4096)
 *   FAKE_CM_SEND_SIZE  rpcrdma.ko's server_send_size: offer a client
 *                    that Receives more a Send Size up to it, as
 *                    svc_rdma_cm_offer_send() does (default 0: none,
 *                    a stock server's max_req_size both ways)
 *   FAKE_CM_SEND_FIXED  a server of another kind: Send Size this,
 *                    whatever the client sent (default: unset)
 *   FAKE_CM_CLIENTS  for --listen: that many clients connect, each
 *                    with the message of a 4096/4096, R client
 *   FAKE_CM_LOG      a file where the fake peer writes one line per
 *                    connection it completed, as its kernel module's
 *                    rpcrdma_cm_negotiate event would read, and a
 *                    "fake-abandoned port=P" line per CM ID destroyed
 *                    with an answer it never read (--flood)
 *   FAKE_CM_IWARP    1: an iWARP device under siw's rules instead: 252
 *                    octets each way, delivered exact, not padded
 * Ports: each connection gets the next of 40000..40049, so that they
 * come back as the ephemeral range of a long run does. The channel's
 * fd is a pipe holding one octet per queued event, so that poll()
 * says what the kernel's would: readable while an event waits.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>
#include <linux/minmax.h>
#include <linux/types.h>
#include <linux/sunrpc/rpcrdma_pdata.h>

#define FAKE_REQ_MAX	56
#define FAKE_REP_MAX	196
#define FAKE_MPA_MAX	252
#define FAKE_FIELD_MAX	FAKE_MPA_MAX
#define FAKE_PORTS	50
#define FAKE_QUEUE	64

static struct ibv_device fake_dev = {
	.node_type = IBV_NODE_CA,
	.transport_type = IBV_TRANSPORT_IB,
	.name = "fake0",
};

static struct ibv_context fake_ctx = { .device = &fake_dev };
static struct ibv_device *fake_list[] = { &fake_dev, NULL };

/* Events not yet taken, oldest first */
static struct rdma_cm_event *fake_queue[FAKE_QUEUE];
static unsigned int fake_head, fake_count;
static unsigned long fake_requests, fake_ports, fake_clients_left;
static struct rdma_cm_id *fake_listen;
/* The channel's fd is fake_pipe[0]: one octet per queued event */
static int fake_pipe[2] = { -1, -1 };

/* Each event's private data lives behind it, freed with it */
struct fake_event {
	struct rdma_cm_event ev;
	u8 pdata[FAKE_FIELD_MAX];
};

static bool fake_iwarp(void)
{
	const char *s = getenv("FAKE_CM_IWARP");

	return s && !strcmp(s, "1");
}

/* What the CM lets a consumer send in a request or an accept */
static size_t fake_max(bool rep)
{
	return fake_iwarp() ? FAKE_MPA_MAX : rep ? FAKE_REP_MAX : FAKE_REQ_MAX;
}

/* What the receiver's CM delivers of @len octets: IB pads the field */
static size_t fake_delivered(size_t len, bool rep)
{
	return fake_iwarp() ? len : fake_max(rep);
}

static void fake_push(struct rdma_cm_id *id, struct rdma_cm_id *listen,
		      enum rdma_cm_event_type type, int status, const u8 *pd,
		      size_t len)
{
	struct fake_event *fe = calloc(1, sizeof(*fe));

	if (!fe || fake_count == FAKE_QUEUE) {
		fprintf(stderr, "fake_cm: event queue full\n");
		abort();
	}
	fe->ev.id = id;
	fe->ev.listen_id = listen;
	fe->ev.event = type;
	fe->ev.status = status;
	if (pd) {
		memcpy(fe->pdata, pd, len);
		fe->ev.param.conn.private_data = fe->pdata;
		fe->ev.param.conn.private_data_len = len;
	}
	fake_queue[(fake_head + fake_count++) % FAKE_QUEUE] = &fe->ev;
	if (write(fake_pipe[1], "e", 1) != 1)
		abort();
}

/* Take one octet off the channel's pipe, for an event taken or dropped */
static void fake_unsignal(void)
{
	char c;

	if (read(fake_pipe[0], &c, 1) != 1)
		abort();
}

/* The kernel frees the events of a destroyed ID that were never read;
 * so does the fake. Return: how many there were.
 */
static unsigned int fake_purge(struct rdma_cm_id *id)
{
	struct rdma_cm_event *keep[FAKE_QUEUE];
	unsigned int i, n = 0, dropped = 0;
	struct rdma_cm_event *ev;

	for (i = 0; i < fake_count; i++) {
		ev = fake_queue[(fake_head + i) % FAKE_QUEUE];
		if (ev->id == id) {
			free(ev);
			fake_unsignal();
			dropped++;
		} else {
			keep[n++] = ev;
		}
	}
	for (i = 0; i < n; i++)
		fake_queue[(fake_head + i) % FAKE_QUEUE] = keep[i];
	fake_count = n;
	return dropped;
}

/* How request @n is answered: FAKE_CM_SERVER's WORD=K applies from K */
static bool fake_from(const char *word, unsigned long n)
{
	const char *s = getenv("FAKE_CM_SERVER");
	size_t len = strlen(word);

	return s && !strncmp(s, word, len) && s[len] == '=' &&
	       n >= strtoul(s + len + 1, NULL, 10);
}

static bool fake_is(const char *word)
{
	const char *s = getenv("FAKE_CM_SERVER");

	return s && !strcmp(s, word);
}

static bool fake_at(const char *word, unsigned long n)
{
	const char *s = getenv("FAKE_CM_SERVER");
	size_t len = strlen(word);

	return s && !strncmp(s, word, len) && s[len] == '=' &&
	       n == strtoul(s + len + 1, NULL, 10);
}

/* What the receiver's module logs: its negotiate event, from the
 * octets its CM delivers (the field, zero-padded)
 */
static void fake_log(const char *role, const char *peer, const u8 *pd,
		     size_t len, size_t seen_len,
		     const struct rpcrdma_pdata_limits *local)
{
	const char *path = getenv("FAKE_CM_LOG");
	struct rpcrdma_pdata_result res;
	enum rpcrdma_pdata_status st;
	u8 seen[FAKE_FIELD_MAX] = { };
	struct rpcrdma_pdata msg;
	bool present;
	FILE *f;

	if (!path)
		return;
	memcpy(seen, pd, len);
	st = rpcrdma_pdata_parse(seen_len ? seen : NULL, seen_len, &msg);
	present = st == RPCRDMA_PDATA_PRESENT;
	rpcrdma_pdata_negotiate(local, present ? &msg : NULL, &res);
	f = fopen(path, "a");
	if (!f)
		return;
	fprintf(f, "  fake-1 [000] ..... 1.0: rpcrdma_cm_negotiate: role=%s peer=%s peer_pdata=%s",
		role, peer, rpcrdma_pdata_status_name(st));
	fprintf(f, " peer_send=%u peer_recv=%u peer_r=%u local_send=%u local_recv=%u local_r=%u",
		present ? msg.send_size : RPCRDMA_PDATA_SIZE_MIN,
		present ? msg.recv_size : RPCRDMA_PDATA_SIZE_MIN,
		present && msg.remote_inv, local->max_send, local->max_recv,
		local->remote_inv);
	fprintf(f, " send=%u recv=%u reminv=%u\n", res.send_thresh,
		res.recv_thresh, res.remote_inv);
	fclose(f);
}

static void fake_set_port(struct sockaddr *sa, unsigned int port)
{
	struct sockaddr_in *in = (struct sockaddr_in *)sa;

	in->sin_family = AF_INET;
	in->sin_addr.s_addr = htonl(0x0a000002);
	in->sin_port = htons(port);
}

struct ibv_device **ibv_get_device_list(int *num)
{
	if (fake_iwarp()) {
		fake_dev.node_type = IBV_NODE_RNIC;
		fake_dev.transport_type = IBV_TRANSPORT_IWARP;
	}
	if (num)
		*num = 1;
	return fake_list;
}

void ibv_free_device_list(struct ibv_device **list)
{
	(void)list;
}

const char *ibv_get_device_name(struct ibv_device *dev)
{
	return dev->name;
}

struct ibv_pd *ibv_alloc_pd(struct ibv_context *ctx)
{
	(void)ctx;
	return calloc(1, sizeof(struct ibv_pd));
}

int ibv_dealloc_pd(struct ibv_pd *pd)
{
	free(pd);
	return 0;
}

struct ibv_cq *ibv_create_cq(struct ibv_context *ctx, int cqe, void *cq_ctx,
			     struct ibv_comp_channel *ch, int vec)
{
	(void)ctx;
	(void)cqe;
	(void)cq_ctx;
	(void)ch;
	(void)vec;
	return calloc(1, sizeof(struct ibv_cq));
}

int ibv_destroy_cq(struct ibv_cq *cq)
{
	free(cq);
	return 0;
}

struct rdma_event_channel *rdma_create_event_channel(void)
{
	struct rdma_event_channel *ch = calloc(1, sizeof(*ch));

	if (!ch || pipe(fake_pipe)) {
		free(ch);
		return NULL;
	}
	ch->fd = fake_pipe[0];
	return ch;
}

void rdma_destroy_event_channel(struct rdma_event_channel *ch)
{
	close(fake_pipe[0]);
	close(fake_pipe[1]);
	free(ch);
}

int rdma_get_cm_event(struct rdma_event_channel *ch, struct rdma_cm_event **ev)
{
	(void)ch;
	if (!fake_count) {
		errno = EAGAIN;
		return -1;
	}
	*ev = fake_queue[fake_head];
	fake_head = (fake_head + 1) % FAKE_QUEUE;
	fake_count--;
	fake_unsignal();
	return 0;
}

int rdma_ack_cm_event(struct rdma_cm_event *ev)
{
	free(ev);
	return 0;
}

const char *rdma_event_str(enum rdma_cm_event_type type)
{
	static char buf[32];

	snprintf(buf, sizeof(buf), "event %d", type);
	return buf;
}

int rdma_create_id(struct rdma_event_channel *ch, struct rdma_cm_id **id,
		   void *context, enum rdma_port_space ps)
{
	*id = calloc(1, sizeof(**id));
	if (!*id)
		return -1;
	(*id)->channel = ch;
	(*id)->context = context;
	(*id)->ps = ps;
	return 0;
}

/* A connect request whose answer was never read: the probe left it
 * (--flood), and the fake server would see the CM ID go
 */
static void fake_log_abandoned(struct rdma_cm_id *id)
{
	const char *path = getenv("FAKE_CM_LOG");
	FILE *f;

	if (!path)
		return;
	f = fopen(path, "a");
	if (!f)
		return;
	fprintf(f, "fake-abandoned port=%u\n", ntohs(rdma_get_src_port(id)));
	fclose(f);
}

int rdma_destroy_id(struct rdma_cm_id *id)
{
	if (fake_purge(id))
		fake_log_abandoned(id);
	free(id);
	return 0;
}

int rdma_resolve_addr(struct rdma_cm_id *id, struct sockaddr *src,
		      struct sockaddr *dst, int timeout_ms)
{
	(void)src;
	(void)dst;
	(void)timeout_ms;
	id->verbs = &fake_ctx;
	id->port_num = 1;
	fake_set_port(&id->route.addr.src_addr,
		      40000 + fake_ports++ % FAKE_PORTS);
	fake_push(id, NULL, RDMA_CM_EVENT_ADDR_RESOLVED, 0, NULL, 0);
	return 0;
}

int rdma_resolve_route(struct rdma_cm_id *id, int timeout_ms)
{
	(void)timeout_ms;
	fake_push(id, NULL, RDMA_CM_EVENT_ROUTE_RESOLVED, 0, NULL, 0);
	return 0;
}

__be16 rdma_get_src_port(struct rdma_cm_id *id)
{
	return ((struct sockaddr_in *)&id->route.addr.src_addr)->sin_port;
}

int rdma_create_qp(struct rdma_cm_id *id, struct ibv_pd *pd,
		   struct ibv_qp_init_attr *attr)
{
	(void)pd;
	(void)attr;
	id->qp = calloc(1, sizeof(*id->qp));
	return id->qp ? 0 : -1;
}

void rdma_destroy_qp(struct rdma_cm_id *id)
{
	free(id->qp);
	id->qp = NULL;
}

/* The next of FAKE_CM_CLIENTS clients, with a 4096/4096, R request;
 * one at a time, as a kernel client reconnects
 */
static void fake_next_client(struct rdma_cm_id *listen)
{
	struct rpcrdma_pdata_limits cl = {
		.max_send = 4096, .max_recv = 4096, .remote_inv = true,
	};
	u8 req[FAKE_FIELD_MAX] = { };
	struct rdma_cm_id *child;

	if (!fake_listen || !fake_clients_left)
		return;
	fake_clients_left--;
	rpcrdma_pdata_build(req, &cl);
	if (rdma_create_id(listen->channel, &child, NULL, listen->ps))
		abort();
	child->verbs = &fake_ctx;
	fake_set_port(&child->route.addr.dst_addr,
		      40000 + fake_ports++ % FAKE_PORTS);
	fake_push(child, listen, RDMA_CM_EVENT_CONNECT_REQUEST, 0, req,
		  fake_delivered(RPCRDMA_PDATA_V1_LEN, false));
}

static u32 fake_env(const char *name, u32 dflt)
{
	const char *s = getenv(name);

	return s && *s ? strtoul(s, NULL, 10) : dflt;
}

/* The Send Size the server advertises to a client whose request is
 * @pd, @len octets, @seen_len as its CM delivers them:
 * svc_rdma_cm_parse()'s offer and svc_rdma_cm_send_size(), or
 * FAKE_CM_SEND_FIXED
 */
static u32 fake_server_send(const u8 *pd, size_t len, size_t seen_len,
			    u32 max_req)
{
	u32 offer = fake_env("FAKE_CM_SEND_SIZE", 0);
	u8 seen[FAKE_FIELD_MAX] = { };
	struct rpcrdma_pdata msg;

	if (getenv("FAKE_CM_SEND_FIXED"))
		return fake_env("FAKE_CM_SEND_FIXED", 0);
	memcpy(seen, pd, len);
	if (rpcrdma_pdata_parse(seen_len ? seen : NULL, seen_len, &msg) !=
	    RPCRDMA_PDATA_PRESENT)
		return max_req;
	offer = min(min(offer, msg.recv_size), 65536U);
	offer -= offer % RPCRDMA_PDATA_UNIT;
	return max(max_req, offer);
}

/* The fake server: one RFC 8797 message of its own, or none at all */
int rdma_connect(struct rdma_cm_id *id, struct rdma_conn_param *param)
{
	struct rpcrdma_pdata_limits srv = { .remote_inv = true };
	unsigned long n = fake_requests++;
	u8 rep[FAKE_FIELD_MAX] = { };
	char peer[32];

	if (param->private_data_len > fake_max(false)) {
		errno = EINVAL;
		return -1;
	}
	if (fake_from("silent", n))
		return 0;
	/* svc_rdma_accept() refuses an initiator depth of 0, which is
	 * what the server's CM makes of a request's responder resources
	 */
	if (fake_at("reject", n) ||
	    (!param->responder_resources && !fake_is("no-refuse"))) {
		/* a REJ (consumer reason 28) with its 148 octets, or
		 * iWARP's reset, which reaches a client as ECONNREFUSED
		 */
		fake_push(id, NULL, RDMA_CM_EVENT_REJECTED,
			  fake_iwarp() ? -ECONNREFUSED : 28, rep,
			  fake_iwarp() ? 0 : 148);
		return 0;
	}
	srv.max_recv = fake_env("FAKE_CM_MAX_REQ", 4096);
	srv.max_send = fake_server_send(param->private_data,
					param->private_data_len,
					fake_delivered(param->private_data_len,
						       false),
					srv.max_recv);
	if (fake_from("change", n))
		srv.max_recv = 2048;
	snprintf(peer, sizeof(peer), "10.0.0.2:%u",
		 ntohs(rdma_get_src_port(id)));
	fake_log("server", peer, param->private_data,
		 param->private_data_len,
		 fake_delivered(param->private_data_len, false), &srv);
	rpcrdma_pdata_build(rep, &srv);
	fake_push(id, NULL, RDMA_CM_EVENT_ESTABLISHED, 0, rep,
		  fake_delivered(RPCRDMA_PDATA_V1_LEN, true));
	return 0;
}

int rdma_disconnect(struct rdma_cm_id *id)
{
	if (id->qp) {
		/* once: a second call finds no QP to move to error */
		fake_push(id, NULL, RDMA_CM_EVENT_DISCONNECTED, 0, NULL, 0);
		free(id->qp);
		id->qp = NULL;
		/* the client whose connection ends comes back */
		fake_next_client(fake_listen);
	}
	return 0;
}

int rdma_bind_addr(struct rdma_cm_id *id, struct sockaddr *addr)
{
	(void)addr;
	id->verbs = &fake_ctx;
	return 0;
}

int rdma_listen(struct rdma_cm_id *id, int backlog)
{
	const char *s = getenv("FAKE_CM_CLIENTS");

	(void)backlog;
	fake_listen = id;
	fake_clients_left = s ? strtoul(s, NULL, 10) : 0;
	fake_next_client(id);
	return 0;
}

/* The fake client takes any accept the CM lets through */
int rdma_accept(struct rdma_cm_id *id, struct rdma_conn_param *param)
{
	struct rpcrdma_pdata_limits cl = {
		.max_send = 4096, .max_recv = 4096, .remote_inv = true,
	};

	if (param->private_data_len > fake_max(true)) {
		errno = EINVAL;
		return -1;
	}
	fake_log("client", "10.0.0.1:20051", param->private_data,
		 param->private_data_len,
		 fake_delivered(param->private_data_len, true), &cl);
	fake_push(id, NULL, RDMA_CM_EVENT_ESTABLISHED, 0, NULL, 0);
	return 0;
}

int rdma_reject(struct rdma_cm_id *id, const void *pd, uint8_t len)
{
	(void)id;
	(void)pd;
	(void)len;
	fake_next_client(fake_listen);
	return 0;
}
