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
 *
 * This file only strings the steps together; rpcrdma-cm-probe.h says
 * which file does what.
 */

#define _GNU_SOURCE
#include <stdio.h>

#include "rpcrdma-cm-probe.h"

const char *prog = "rpcrdma-cm-probe";
struct probe_opts opts;

/* A name that does not resolve is an unreachable server (exit 4); only
 * a failure of this host's resolver is an error (exit 1).
 */
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

/**
 * main - Check the options, find a device, run one side
 * @argc: argument count
 * @argv: arguments, see rpcrdma-cm-probe(8)
 *
 * Return: an exit code of enum probe_exit.
 */
int main(int argc, char **argv)
{
	struct addrinfo *ai;
	enum probe_exit ret;

	setvbuf(stdout, NULL, _IOLBF, 0);
	probe_parse_args(argc, argv);
	if (opts.fuzz_dry)
		return probe_fuzz_dry_run();
	probe_catch_release();
	if (opts.listen && !*opts.host)
		snprintf(opts.host, sizeof(opts.host), "%s", "0.0.0.0");

	ret = probe_resolve(&ai);
	if (ret)
		return ret;
	ret = probe_check_devices();
	if (ret == PROBE_OK && opts.flood)
		ret = probe_flood_active(ai);
	else if (ret == PROBE_OK && opts.fuzz)
		ret = opts.listen ? probe_fuzz_listen(ai) : probe_fuzz_active(ai);
	else if (ret == PROBE_OK)
		ret = opts.v2 ? (opts.listen ? probe_v2_listen(ai) :
					       probe_v2_active(ai)) :
				(opts.listen ? probe_listen(ai) :
					       probe_active(ai));
	freeaddrinfo(ai);
	if (channel)
		rdma_destroy_event_channel(channel);
	return ret;
}
