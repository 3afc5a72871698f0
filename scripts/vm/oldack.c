// SPDX-License-Identifier: GPL-2.0
/*
 * oldack: scenario 14's LD_REPRO=old-ack injector (client guest).
 *
 * Watches the RoCEv2 frames an interface sends. It keeps the last RC
 * ACKNOWLEDGE with an AETH of type ACK sent to each destination QP (the
 * client acknowledging the server's Sends), and when the client then
 * starts a multi-packet RDMA Read response to that QP (READ_RESPONSE_FIRST:
 * the server pulling a WRITE's payload) it sends that older ACK again, as
 * captured. To the server's completer this is a duplicate acknowledgment
 * arriving between two responses of a Read, what a responder sends for a
 * retried Send after a link came back
 * (Documentation/investigations/rxe-comp-error-success-61.md).
 *
 * The frame is replayed byte for byte, so its ICRC stays valid. It is
 * sent at TC_PRIO_INTERACTIVE, so that pfifo_fast puts it ahead of the
 * Read's remaining responses when they are still queued there; a second
 * packet socket sees it leave in its place among them (the sending socket
 * does not see its own frames), which tells whether it landed between a
 * Read's FIRST and its LAST.
 *
 *   oldack IFACE COUNT SECONDS
 *
 * stops after COUNT replays or SECONDS, and prints one line of counts:
 *   acks=A reads=R injected=I inside=N
 * (N: replays that left between a Read response's FIRST and its LAST).
 * Exit status: 0 when at least one replay landed inside a Read, 1 when
 * none did, 2 on a usage or socket error.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define ROCE_V2_PORT	4791
#define OP_READ_FIRST	0x0d	/* RC RDMA READ response First */
#define OP_READ_LAST	0x0f	/* RC RDMA READ response Last */
#define OP_READ_ONLY	0x10	/* RC RDMA READ response Only */
#define OP_ACK		0x11	/* RC ACKNOWLEDGE */
#define AETH_TYPE_MASK	0x60
#define SLOTS		64	/* destination QPs remembered */
#define FRAME_MAX	2048

struct roce {
	unsigned char opcode;
	unsigned int dqpn;
	unsigned int psn;
	const unsigned char *aeth;	/* NULL when the packet has none */
};

struct saved_ack {
	unsigned int dqpn;
	unsigned int psn;
	size_t len;
	unsigned char frame[FRAME_MAX];
	/* what left for this QP: a Read response under way, its newest PSN */
	int in_read;
	unsigned int hi_psn;
};

static struct saved_ack acks[SLOTS];
static unsigned int nacks;

static unsigned int be24(const unsigned char *p)
{
	return (unsigned int)p[0] << 16 | (unsigned int)p[1] << 8 | p[2];
}

/* 24-bit PSN order, as the IBA defines it: a < b when b - a is in (0, 2^23) */
static int psn_before(unsigned int a, unsigned int b)
{
	unsigned int d = (b - a) & 0xffffff;

	return d && d < 0x800000;
}

/* parse an Ethernet/IPv4/UDP frame to port 4791; 0 when it is one */
static int parse(const unsigned char *f, size_t len, struct roce *r)
{
	size_t ihl, bth;

	if (len < 14 + 20 + 8 + 12 + 4)
		return -1;
	if (f[12] != 0x08 || f[13] != 0x00 || (f[14] >> 4) != 4)
		return -1;
	ihl = (size_t)(f[14] & 0xf) * 4;
	if (f[14 + 9] != IPPROTO_UDP || len < 14 + ihl + 8 + 12 + 4)
		return -1;
	if ((f[14 + ihl + 2] << 8 | f[14 + ihl + 3]) != ROCE_V2_PORT)
		return -1;
	bth = 14 + ihl + 8;
	r->opcode = f[bth];
	r->dqpn = be24(f + bth + 5);
	r->psn = be24(f + bth + 9);
	r->aeth = len >= bth + 12 + 4 + 4 ? f + bth + 12 : NULL;
	return 0;
}

static struct saved_ack *slot(unsigned int dqpn, int create)
{
	unsigned int i;

	for (i = 0; i < nacks; i++)
		if (acks[i].dqpn == dqpn)
			return &acks[i];
	if (!create)
		return NULL;
	/* a full table forgets its oldest QP: reconnects make new ones */
	if (nacks == SLOTS) {
		memmove(acks, acks + 1, sizeof(acks[0]) * (SLOTS - 1));
		nacks--;
	}
	memset(&acks[nacks], 0, sizeof(acks[0]));
	acks[nacks].dqpn = dqpn;
	return &acks[nacks++];
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* a packet socket on LL's interface; PROTO 0 receives nothing */
static int packet_socket(struct sockaddr_ll *ll, const char *ifname,
			 int proto)
{
	int fd = socket(AF_PACKET, SOCK_RAW, proto);

	ll->sll_protocol = (unsigned short)proto;
	if (fd < 0 || bind(fd, (struct sockaddr *)ll, sizeof(*ll)) < 0) {
		fprintf(stderr, "oldack: packet socket on %s: %s\n", ifname,
			strerror(errno));
		exit(2);
	}
	return fd;
}

/*
 * One frame this host sent, seen by the watching socket: note ACKs and
 * where each QP's Read response stands; returns the QP's slot when the
 * frame starts a Read response, and counts a replay seen inside one.
 */
static struct saved_ack *watch(const unsigned char *f, size_t n,
			       unsigned long *nack, unsigned long *inside)
{
	struct saved_ack *a;
	struct roce r;

	if (parse(f, n, &r))
		return NULL;
	if (r.opcode == OP_ACK && r.aeth && !(r.aeth[0] & AETH_TYPE_MASK)) {
		a = slot(r.dqpn, 0);
		/* a replay: older than the responses already sent */
		if (a && a->len && psn_before(r.psn, a->hi_psn)) {
			*inside += a->in_read;
			return NULL;
		}
		a = slot(r.dqpn, 1);
		a->psn = r.psn;
		a->len = n;
		memcpy(a->frame, f, n);
		(*nack)++;
		return NULL;
	}
	if (r.opcode < OP_READ_FIRST || r.opcode > OP_READ_ONLY)
		return NULL;
	a = slot(r.dqpn, 1);
	a->in_read = r.opcode < OP_READ_LAST;
	if (!a->hi_psn || psn_before(a->hi_psn, r.psn))
		a->hi_psn = r.psn;
	return r.opcode == OP_READ_FIRST ? a : NULL;
}

int main(int argc, char **argv)
{
	unsigned long want, nack = 0, nread = 0, sent = 0, inside = 0;
	struct sockaddr_ll ll = { .sll_family = AF_PACKET };
	int prio = 6;	/* TC_PRIO_INTERACTIVE: pfifo_fast's first band */
	unsigned char f[FRAME_MAX];
	int rx, tx;
	double end;

	if (argc != 4) {
		fprintf(stderr, "usage: oldack IFACE COUNT SECONDS\n");
		return 2;
	}
	want = strtoul(argv[2], NULL, 0);
	end = now() + strtod(argv[3], NULL);
	ll.sll_ifindex = (int)if_nametoindex(argv[1]);
	if (!ll.sll_ifindex) {
		fprintf(stderr, "oldack: no interface %s\n", argv[1]);
		return 2;
	}
	tx = packet_socket(&ll, argv[1], 0);
	rx = packet_socket(&ll, argv[1], htons(ETH_P_ALL));
	/* what a replayed frame is: its skb's protocol, as the stack's own */
	ll.sll_protocol = htons(ETH_P_IP);
	if (setsockopt(tx, SOL_SOCKET, SO_PRIORITY, &prio, sizeof(prio)) < 0) {
		fprintf(stderr, "oldack: SO_PRIORITY: %s\n", strerror(errno));
		return 2;
	}
	while (now() < end) {
		struct pollfd p = { .fd = rx, .events = POLLIN };
		struct sockaddr_ll from;
		socklen_t fl = sizeof(from);
		struct saved_ack *a;
		ssize_t n;

		if (poll(&p, 1, 200) <= 0)
			continue;
		n = recvfrom(rx, f, sizeof(f), MSG_DONTWAIT,
			     (struct sockaddr *)&from, &fl);
		/* only what this host sends: its ACKs, Read responses, replays */
		if (n <= 0 || from.sll_pkttype != PACKET_OUTGOING)
			continue;
		a = watch(f, (size_t)n, &nack, &inside);
		if (!a)
			continue;
		nread++;
		if (sent >= want || !a->len || !psn_before(a->psn, a->hi_psn))
			continue;
		if (sendto(tx, a->frame, a->len, 0, (struct sockaddr *)&ll,
			   sizeof(ll)) != (ssize_t)a->len)
			continue;
		/* after the last replay, a second to see where it left */
		if (++sent == want && end > now() + 1)
			end = now() + 1;
	}
	printf("acks=%lu reads=%lu injected=%lu inside=%lu\n", nack, nread,
	       sent, inside);
	return inside ? 0 : 1;
}
