#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Find iWARP connections whose first FPDU the server never answered.

Reads a pair's wire.pcap (classic pcap, Ethernet) without tshark, so a
capture of several GB takes minutes, not hours. For every TCP connection
to the NFS/RDMA port it notes when the server sent its MPA Reply, when
the client's first FPDU after it arrived, and when the server next sent
payload. A connection where the server stayed silent for more than
--quiet seconds after that FPDU is printed: the sign of siw's accept race
(Documentation/siw.md), which leaves the FPDU unread in the socket.

Output: one "stall:" line per such connection, then
"siwstall: N of M connections" (M: connections with an MPA Reply).
Exit status 0, or 2 when the file cannot be read as pcap.
"""

import argparse
import struct
import sys

MPA_REP = b'MPA ID Rep Frame'


def packets(path):
    """Yield (seconds, frame bytes) for each record of a pcap file."""
    with open(path, 'rb') as f:
        hdr = f.read(24)
        if len(hdr) < 24 or hdr[:4] not in (b'\xd4\xc3\xb2\xa1', b'\x4d\x3c\xb2\xa1'):
            raise ValueError('not a little-endian pcap file')
        scale = 1e-6 if hdr[:4] == b'\xd4\xc3\xb2\xa1' else 1e-9
        while True:
            rec = f.read(16)
            if len(rec) < 16:
                return
            sec, frac, incl, _ = struct.unpack('<IIII', rec)
            yield sec + frac * scale, f.read(incl)


def tcp_segment(frame):
    """(sport, dport, flags, payload) of an IPv4 TCP frame, else None."""
    if len(frame) < 54 or frame[12:14] != b'\x08\x00' or frame[23] != 6:
        return None
    ihl = (frame[14] & 15) * 4
    tcp = 14 + ihl
    sport, dport = struct.unpack('>HH', frame[tcp:tcp + 4])
    doff = (frame[tcp + 12] >> 4) * 4
    iplen = struct.unpack('>H', frame[16:18])[0]
    end = 14 + iplen
    return sport, dport, frame[tcp + 13], frame[tcp + doff:end]


def scan(path, port):
    """Per client port: MPA Reply, first FPDU, next server payload, FIN."""
    conns = {}
    t0 = None
    for t, frame in packets(path):
        t0 = t if t0 is None else t0
        seg = tcp_segment(frame)
        if not seg or port not in seg[:2]:
            continue
        sport, dport, flags, payload = seg
        from_server = sport == port
        c = conns.setdefault(dport if from_server else sport,
                             {'rep': None, 'fpdu': None, 'next': None, 'fin': None})
        if flags & 1 and c['fin'] is None:
            c['fin'] = t - t0
        if not payload:
            continue
        if from_server:
            if payload.startswith(MPA_REP):
                c['rep'] = t - t0
            elif c['fpdu'] is not None and c['next'] is None:
                c['next'] = t - t0
        elif c['rep'] is not None and c['fpdu'] is None and not payload.startswith(b'MPA'):
            c['fpdu'] = t - t0
    return conns


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('pcap')
    ap.add_argument('--port', type=int, default=20049)
    ap.add_argument('--quiet', type=float, default=5.0,
                    help='seconds of server silence that count as a stall')
    args = ap.parse_args()
    try:
        conns = scan(args.pcap, args.port)
    except (OSError, ValueError) as e:
        print(f'siwstall: cannot read {args.pcap}: {e}', file=sys.stderr)
        return 2
    accepted = [c for c in conns.values() if c['rep'] is not None]
    stalls = 0
    for cport, c in sorted(conns.items(), key=lambda kv: kv[1]['rep'] or 0):
        if c['rep'] is None or c['fpdu'] is None:
            continue
        answered = c['next'] if c['next'] is not None else c['fin']
        silent = (answered if answered is not None else float('inf')) - c['fpdu']
        if silent <= args.quiet:
            continue
        stalls += 1
        fin = 'none' if c['fin'] is None else f"{c['fin']:.3f} s"
        print(f"stall: client port {cport}: MPA Reply at {c['rep']:.3f} s, first FPDU "
              f"{(c['fpdu'] - c['rep']) * 1e3:.1f} ms later, server silent for "
              f"{silent:.1f} s (client FIN: {fin})")
    print(f'siwstall: {stalls} of {len(accepted)} connections')
    return 0


if __name__ == '__main__':
    sys.exit(main())
