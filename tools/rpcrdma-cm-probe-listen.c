// SPDX-License-Identifier: GPL-2.0
/*
 * rpcrdma-cm-probe --listen: the passive side. Print what each client
 * sends in its connect request, then accept with the private data the
 * options chose (or reject, with --reject), and follow the connection
 * until the client disconnects. Connections are numbered from 1 in the
 * order their requests came in; each CM id's context points to its
 * struct probe_conn, so an event finds its connection.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rpcrdma-cm-probe.h"

/* Connections ended so far (disconnected, rejected or failed) */
static unsigned long probe_done;

/* Report the end of @c, then free it: @fmt (NULL for none) says why */
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
	probe_print_conn(c->num, event, why);
	probe_drop_conn(c);
	free(c);
	probe_done++;
}

/* Accept @c with @pd; on failure the client is rejected, not left to
 * time out, and @c ends
 */
static void probe_accept(struct probe_conn *c, const char *dev,
			 const u8 *pd, size_t pd_len)
{
	struct rdma_conn_param param;
	int ret;

	ret = probe_make_qp(c);
	if (ret) {
		rdma_reject(c->id, NULL, 0);
		probe_conn_done(c, "error", "cannot create a QP on %s: %s",
				dev, strerror(-ret));
		return;
	}
	probe_conn_param(&param, pd, pd_len);
	if (rdma_accept(c->id, &param)) {
		ret = errno;
		rdma_reject(c->id, NULL, 0);
		probe_conn_done(c, "error", "rdma_accept with %zu octets: %s",
				pd_len, strerror(ret));
	}
}

/* A new connect request: number it, report it, then answer it */
static void probe_on_request(const struct probe_event *ev,
			     unsigned long num, const u8 *pd, size_t pd_len)
{
	struct probe_conn *c;
	char peer[INET6_ADDRSTRLEN + 8], dev[IBV_SYSFS_NAME_MAX + 16];

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
	probe_print_request(num, peer, dev, ev, pd, pd_len);

	if (!opts.reject) {
		probe_accept(c, dev, pd, pd_len);
		return;
	}
	if (rdma_reject(c->id, NULL, 0))
		probe_conn_done(c, "error", "rdma_reject: %s", strerror(errno));
	else
		probe_conn_done(c, "rejected", NULL);
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

/**
 * probe_listen_on - Bind @ai and listen
 * @ai: the address and port
 * @listen_id: OUT: the listening CM id
 * @where: OUT: the address as text, for messages
 * @where_len: size of @where
 *
 * Return: PROBE_OK with @listen_id set, or the exit code after a
 * message.
 */
enum probe_exit probe_listen_on(const struct addrinfo *ai,
				struct rdma_cm_id **listen_id,
				char *where, size_t where_len)
{
	enum probe_exit ret;

	if (rdma_create_id(channel, listen_id, NULL, RDMA_PS_TCP)) {
		probe_err("rdma_create_id: %s", strerror(errno));
		return PROBE_ERROR;
	}
	probe_addr_str(ai->ai_addr, where, where_len);
	if (rdma_bind_addr(*listen_id, ai->ai_addr)) {
		ret = probe_bind_failed(ai->ai_addr, where, errno);
		rdma_destroy_id(*listen_id);
		return ret;
	}
	if (rdma_listen(*listen_id, 16)) {
		probe_err("rdma_listen on %s: %s", where, strerror(errno));
		rdma_destroy_id(*listen_id);
		return PROBE_ERROR;
	}
	return PROBE_OK;
}

/* An event on an accepted connection @c (NULL: one the probe no
 * longer follows). Return: PROBE_OK to go on, or the exit code.
 */
static enum probe_exit probe_on_conn_event(struct probe_conn *c,
					   const struct probe_event *ev)
{
	switch (ev->type) {
	case RDMA_CM_EVENT_ESTABLISHED:
		if (!c)
			break;
		c->established = true;
		probe_print_conn(c->num, "established", "");
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
					rdma_event_str(ev->type), ev->status);
		break;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		probe_err("the RDMA device went away");
		return PROBE_NODEV;
	default:
		break;
	}
	return PROBE_OK;
}

/**
 * probe_listen - Run the passive side until --count or --wait ends it
 * @ai: the address and port to listen on
 *
 * Return: the exit code: PROBE_OK after --count connections ended,
 * PROBE_TIMEOUT when --wait passed without an event, else an error.
 */
enum probe_exit probe_listen(const struct addrinfo *ai)
{
	struct rdma_cm_id *listen_id;
	unsigned long requests = 0;
	struct probe_event ev;
	struct probe_conn *c;
	char where[INET6_ADDRSTRLEN + 8];
	u8 pd[PROBE_PDATA_MAX];
	size_t pd_len;
	enum probe_exit ret;
	int err;

	ret = probe_listen_on(ai, &listen_id, where, sizeof(where));
	if (ret)
		return ret;
	pd_len = probe_local_pdata(pd);
	probe_print_listening(where);

	while (!ret && (!opts.count || probe_done < opts.count)) {
		err = probe_next_event(opts.wait_s ? opts.wait_s * 1000 : -1,
				       &ev);
		if (err == -ETIMEDOUT) {
			probe_err("no CM event for %ld s; giving up",
				  opts.wait_s);
			ret = PROBE_TIMEOUT;
		} else if (err) {
			probe_err("CM event channel: %s", strerror(-err));
			ret = PROBE_ERROR;
		} else if (ev.type == RDMA_CM_EVENT_CONNECT_REQUEST) {
			probe_on_request(&ev, ++requests, pd, pd_len);
		} else {
			c = ev.id != listen_id && ev.id ? ev.id->context : NULL;
			ret = probe_on_conn_event(c, &ev);
		}
	}
	probe_print_listen_tally(requests, probe_done);
	rdma_destroy_id(listen_id);
	return ret;
}
