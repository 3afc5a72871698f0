#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""RDMA operations, packets and octets on a VM pair's RoCEv2 wire.

  wireops.py count PAIRDIR|PCAP --lua LUA --home HOME
  wireops.py selftest --lua LUA --home HOME [--outdir DIR] [--doctor]

count reads the pair's wire.pcap (VM_PCAP=1) with tshark, through
wirecheck.py's run_tshark (the infiniband and rpcordma dissectors, run
as the wire checks run them), and counts per window:

  calls   RPC-over-RDMA Calls: client-to-server Send messages of type
          RDMA_MSG or RDMA_NOMSG that are not an RPC reply (a
          backchannel reply is RDMA_MSG too)
  send    Send messages without invalidate, both directions
  swi     Send With Invalidate messages (BTH ..._WITH_INVALIDATE)
  write   RDMA Write operations (WRITE_FIRST or WRITE_ONLY[_IMM])
  read    RDMA Read operations (READ_REQUEST)
  pkts    every RoCEv2 frame (UDP 4791): requests, responses, ACKs and
          retransmissions alike, as they cost the wire
  octets  their Ethernet frame lengths
  acks    of pkts, the ACKs; retx: the requests sent again (same
          sender, QP and PSN), left out of the operation counts
  csend, ssend  Send messages client-to-server, server-to-client
  pmtu    the largest payload of a packet that is not the last of its
          message (the path MTU, 0 when no message took two packets)

A message is counted in the window its last packet falls in, an RDMA
Write or Read in the window of its first packet.

Windows: the client guest (scripts/vm/bench-guest.sh) marks each
workload with two ICMP echo requests to the server, sized
MARK_BASE + 2 * (K mod MARK_SLOTS) octets of data to open window K and
one octet more to close it. ping waits for the echo reply, so every
frame of the workload follows the opening mark on the wire and every
frame before it precedes the closing one. Prints one line per window,
then the frames outside any window and all frames:

  ops mk=K calls=.. send=.. swi=.. write=.. read=.. pkts=.. octets=..
    acks=.. retx=.. csend=.. ssend=.. pmtu=..
  ops mk=out ...
  ops mk=all ...

and "ops note: ..." lines for marks that do not pair up. Exit status 0,
2 when there is no pcap or tshark failed. RoCEv2 only (siw's MPA/DDP
framing is not counted).

selftest writes a pcap of known frames (tools/wireshark/gen-vectors.py's
Ethernet/IPv4/ICRC framing, compare-c.py's RC packets): two marked
windows with Sends, a Send With Invalidate, a two-packet Send and a
retransmitted packet of it, RDMA Writes of one and three packets, an
RDMA Read, a backchannel call and its reply, ACKs, and frames outside
the windows; count must give exactly the counts written here by hand.
--doctor expects one Call more, to show that the test can fail.
"""

import argparse
import importlib.util
import os
import struct
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wirecheck as wc  # noqa: E402

# must agree with mark() in scripts/vm/bench-guest.sh
MARK_BASE, MARK_SLOTS = 200, 500
IP_ICMP_HDR = 20 + 8

# IBTA RC opcodes (BTH) beyond wirecheck's Send family
WRITE_FIRST, WRITE_MIDDLE, WRITE_ONLY, WRITE_ONLY_IMM = 0x06, 0x07, 0x0a, 0x0b
WRITE_OPS = set(range(0x06, 0x0c))
READ_REQUEST = 0x0c
READ_RESP_FIRST, READ_RESP_MIDDLE, READ_RESP_LAST = 0x0d, 0x0e, 0x0f
ACK, ATOMIC_ACK = 0x11, 0x12
# packets that carry a full path MTU of payload and no extension header
FULL_OPS = {wc.SEND_FIRST, wc.SEND_MIDDLE, WRITE_MIDDLE, READ_RESP_MIDDLE}
# packets a requester sends again when it retransmits
REQUEST_OPS = wc.SEND_OPS | WRITE_OPS | {READ_REQUEST}
MSG_END = {wc.SEND_LAST, wc.SEND_LAST_IMM, wc.SEND_ONLY, wc.SEND_ONLY_IMM,
           wc.SEND_LAST_INV, wc.SEND_ONLY_INV}
MSG_START = {wc.SEND_FIRST, wc.SEND_ONLY, wc.SEND_ONLY_IMM, wc.SEND_ONLY_INV}

KEYS = ["calls", "send", "swi", "write", "read", "pkts", "octets", "acks",
        "retx", "csend", "ssend", "pmtu"]
FIELDS = ["frame.number", "frame.len", "ip.src", "ip.dst", "ip.len",
          "icmp.type", "udp.length", "infiniband.bth.opcode",
          "infiniband.bth.destqp", "infiniband.bth.psn",
          "infiniband.bth.padcnt", "rpcordma.msg_type", "rpc.msgtyp"]
DFILTER = "udp.port == 4791 || icmp.type == 8"
# NFS itself is not needed (rpc.msgtyp is ONC RPC's): less to decode
EXTRA = ["--disable-protocol", "nfs"]


def first(s):
    """The first of tshark's aggregated values, as a number or None."""
    return wc.num(s.split(",")[0]) if s else None


class Tally(dict):
    def __init__(self):
        super().__init__((k, 0) for k in KEYS)

    def line(self, name):
        return "ops mk=%s %s" % (name, " ".join(
            "%s=%d" % (k, self[k]) for k in KEYS))


def count(rows, client_ip, server_ip):
    """(windows [(K, Tally)], outside, all, notes) from tshark rows."""
    windows, notes = [], []
    out, total = Tally(), Tally()
    cur = None                  # (K, Tally) of the open window
    last_k = -1
    seen = set()                # (sender, QP, PSN) of request packets
    partial = {}                # (sender, QP) -> rpc info of a message
    for row in rows:
        fr = row["frame.number"]
        src = row["ip.src"].split(",")[0]
        dst = row["ip.dst"].split(",")[0]
        if first(row["icmp.type"]) == 8 and not row["infiniband.bth.opcode"]:
            size = (first(row["ip.len"]) or 0) - IP_ICMP_HDR
            if src != client_ip or dst != server_ip or \
                    not MARK_BASE <= size < MARK_BASE + 2 * MARK_SLOTS:
                continue
            slot, end = divmod(size - MARK_BASE, 2)
            if end:
                if cur is None or cur[0] % MARK_SLOTS != slot:
                    notes.append("frame %s: a closing mark for slot %d "
                                 "outside its window" % (fr, slot))
                    continue
                cur = None
                continue
            if cur is not None:
                notes.append("frame %s: window %d opened before window %d "
                             "closed (its closing mark is missing)" % (
                                 fr, last_k + 1 + (slot - last_k - 1) %
                                 MARK_SLOTS, cur[0]))
            # the next K with this slot: a lost mark skips a window
            k = last_k + 1 + (slot - last_k - 1) % MARK_SLOTS
            if k != last_k + 1:
                notes.append("frame %s: window %d follows window %d" % (
                    fr, k, last_k))
            last_k = k
            cur = (k, Tally())
            windows.append(cur)
            continue
        op = first(row["infiniband.bth.opcode"])
        if op is None:
            continue
        tallies = (total, cur[1] if cur else out)
        for t in tallies:
            t["pkts"] += 1
            t["octets"] += first(row["frame.len"]) or 0
        qp = first(row["infiniband.bth.destqp"])
        if op in (ACK, ATOMIC_ACK):
            for t in tallies:
                t["acks"] += 1
            continue
        if op in FULL_OPS:
            size = ((first(row["udp.length"]) or 0) - wc.UDP_LEN - wc.BTH_LEN
                    - (first(row["infiniband.bth.padcnt"]) or 0) - wc.ICRC_LEN)
            for t in tallies:
                t["pmtu"] = max(t["pmtu"], size)
        if op in REQUEST_OPS:
            key = (src, qp, first(row["infiniband.bth.psn"]))
            if key in seen:
                for t in tallies:
                    t["retx"] += 1
                continue
            seen.add(key)
        if op in (WRITE_FIRST, WRITE_ONLY, WRITE_ONLY_IMM):
            for t in tallies:
                t["write"] += 1
            continue
        if op == READ_REQUEST:
            for t in tallies:
                t["read"] += 1
            continue
        if op not in wc.SEND_OPS:
            continue
        mkey = (src, qp)
        if op in MSG_START:
            partial[mkey] = None
        elif mkey not in partial:
            continue            # the capture began inside this message
        if row["rpcordma.msg_type"] and partial[mkey] is None:
            partial[mkey] = (first(row["rpcordma.msg_type"]),
                             first(row["rpc.msgtyp"]))
        if op not in MSG_END:
            continue
        info = partial.pop(mkey)
        inv = op in (wc.SEND_LAST_INV, wc.SEND_ONLY_INV)
        c2s = src == client_ip
        call = c2s and info is not None and \
            info[0] in (wc.RDMA_MSG, wc.RDMA_NOMSG) and info[1] != 1
        for t in tallies:
            t["swi" if inv else "send"] += 1
            t["csend" if c2s else "ssend"] += 1
            t["calls"] += int(call)
    if cur is not None:
        notes.append("window %d never closed" % cur[0])
    return windows, out, total, notes


def cmd_count(a):
    pcap = a.path
    if os.path.isdir(pcap):
        pcap = os.path.join(pcap, "wire.pcap")
    if not os.path.isfile(pcap) or os.path.getsize(pcap) == 0:
        print("ops note: no capture in %s (VM_PCAP=1 records one)" % pcap)
        return 2
    rc, err, rows = wc.run_tshark(pcap, a.lua, FIELDS, DFILTER, a.home,
                                  EXTRA)
    if rc != 0:
        print("ops note: tshark exited %d on %s: %s" % (
            rc, pcap, "; ".join(err[:3])))
        return 2
    windows, out, total, notes = count(rows, a.client_ip, a.server_ip)
    for k, t in windows:
        print(t.line(k))
    print(out.line("out"))
    print(total.line("all"))
    for n in notes:
        print("ops note: " + n)
    return 0


# ---- selftest -----------------------------------------------------------

def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def write_pcap(path, frames):
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
        for i, data in enumerate(frames):
            f.write(struct.pack("<IIII", i, 0, len(data), len(data)))
            f.write(data)


def selftest_frames(gv, cc):
    """The frames and what count must make of them."""
    c, s = [10, 99, 0, 2], [10, 99, 0, 1]
    cqp, sqp = 0x11, 0x22       # the client's QP, the server's
    frames = []

    def rc(op, dqp, psn, payload, src, dst, ext=None):
        frames.append(cc.roce_rc(gv, op, dqp, psn, payload, src, dst, ext))

    def icmp(src, dst, typ, size):
        body = struct.pack("!BBHHH", typ, 0, 0, 1, 1) + b"\xa5" * size
        body = body[:2] + struct.pack("!H", gv.csum16(body)) + body[4:]
        frames.append(gv.ether(gv.ipv4(src, dst, 1, body)))

    def mark(k, end):
        size = MARK_BASE + 2 * (k % MARK_SLOTS) + end
        icmp(c, s, 8, size)     # the mark
        icmp(s, c, 0, size)     # its echo reply: not a mark

    def call(xid, mtype=wc.RDMA_MSG, prog=100003):
        hdr = struct.pack("!IIIIIII", xid, 1, 32, mtype, 0, 0, 0)
        if mtype == wc.RDMA_NOMSG:
            return hdr
        return hdr + struct.pack("!IIIIIIIIII", xid, 0, 2, prog, 4, 0,
                                 0, 0, 0, 0)

    def reply(xid):
        return struct.pack("!IIIIIII", xid, 1, 32, wc.RDMA_MSG, 0, 0, 0) + \
            struct.pack("!IIIII", xid, 1, 0, 0, 0) + bytes(8)

    aeth = struct.pack("!I", 0x1f000001)
    reth = struct.pack("!QII", 0x1000, 0x4321, 1500)
    # outside any window: one Call and its Reply, an ACK
    rc(wc.SEND_ONLY, sqp, 1, call(0x10), c, s)
    rc(ACK, cqp, 1, b"", s, c, aeth)
    rc(wc.SEND_ONLY, cqp, 1, reply(0x10), s, c)
    # window 0
    mark(0, 0)
    #  Call 1, answered with Send With Invalidate
    rc(wc.SEND_ONLY, sqp, 2, call(0x11), c, s)
    rc(ACK, cqp, 2, b"", s, c, aeth)
    rc(wc.SEND_ONLY_INV, cqp, 2, reply(0x11), s, c, struct.pack("!I", 0x99))
    rc(ACK, sqp, 2, b"", c, s, aeth)
    #  Call 2: two packets (1024 + the rest), its last one sent twice
    big = call(0x12) + bytes(1300)
    rc(wc.SEND_FIRST, sqp, 3, big[:1024], c, s)
    rc(wc.SEND_LAST, sqp, 4, big[1024:], c, s)
    rc(wc.SEND_LAST, sqp, 4, big[1024:], c, s)
    #  the server writes 1500 octets in three packets, then 100 in one
    rc(WRITE_FIRST, cqp, 3, bytes(1024), s, c, reth)
    rc(WRITE_MIDDLE, cqp, 4, bytes(1024), s, c)
    rc(0x08, cqp, 5, bytes(452), s, c)
    rc(WRITE_ONLY, cqp, 6, bytes(100), s, c, reth)
    rc(wc.SEND_ONLY, cqp, 7, reply(0x12), s, c)
    #  Call 3 (RDMA_NOMSG): the server reads 1500 octets, then replies
    rc(wc.SEND_ONLY, sqp, 5, call(0x13, wc.RDMA_NOMSG), c, s)
    rc(READ_REQUEST, cqp, 8, b"", s, c, reth)
    rc(READ_RESP_FIRST, sqp, 8, bytes(1024), c, s, aeth)
    rc(READ_RESP_LAST, sqp, 9, bytes(476), c, s, aeth)
    rc(wc.SEND_ONLY, cqp, 10, reply(0x13), s, c)
    #  a backchannel call of the server, and the client's reply: no Call
    rc(wc.SEND_ONLY, cqp, 11, call(0x14, prog=0x40000000), s, c)
    rc(wc.SEND_ONLY, sqp, 6, reply(0x14), c, s)
    mark(0, 1)
    # between the windows: an ACK
    rc(ACK, sqp, 11, b"", c, s, aeth)
    # window 1: one Call, one Reply
    mark(1, 0)
    rc(wc.SEND_ONLY, sqp, 7, call(0x15), c, s)
    rc(wc.SEND_ONLY, cqp, 12, reply(0x15), s, c)
    mark(1, 1)
    lens = [len(f) for f in frames]
    exp = {
        0: {"calls": 3, "send": 7, "swi": 1, "write": 2, "read": 1,
            "pkts": 19, "acks": 2, "retx": 1, "csend": 4, "ssend": 4,
            "pmtu": 1024},
        1: {"calls": 1, "send": 2, "swi": 0, "write": 0, "read": 0,
            "pkts": 2, "acks": 0, "retx": 0, "csend": 1, "ssend": 1,
            "pmtu": 0},
        "out": {"calls": 1, "send": 2, "swi": 0, "write": 0, "read": 0,
                "pkts": 4, "acks": 2, "retx": 0, "csend": 1, "ssend": 1,
                "pmtu": 0},
    }
    # octets: the frames of each part, as built (Ethernet, no FCS)
    marks = [i for i, f in enumerate(frames) if f[23] == 1]
    part = {0: range(marks[1] + 1, marks[2]),
            1: range(marks[5] + 1, marks[6]),
            "out": list(range(0, marks[0])) + list(range(marks[3] + 1,
                                                          marks[4]))}
    for name, idx in part.items():
        exp[name]["octets"] = sum(lens[i] for i in idx)
        if len(idx) != exp[name]["pkts"]:
            raise AssertionError("selftest %s: %d frames built, %d written "
                                 "down" % (name, len(idx), exp[name]["pkts"]))
    exp["all"] = {k: sum(exp[n][k] for n in (0, 1, "out")) for k in KEYS
                  if k != "pmtu"}
    exp["all"]["pmtu"] = 1024
    return frames, exp


def cmd_selftest(a):
    here = os.path.dirname(os.path.abspath(__file__))
    tools = os.path.join(here, "..", "..", "tools", "wireshark")
    gv = load("gen_vectors", os.path.join(tools, "gen-vectors.py"))
    cc = load("compare_c", os.path.join(tools, "compare-c.py"))
    frames, exp = selftest_frames(gv, cc)
    if a.doctor:
        exp[0]["calls"] += 1
    outdir = a.outdir or tempfile.mkdtemp(prefix="wireops.")
    os.makedirs(outdir, exist_ok=True)
    pcap = os.path.join(outdir, "wireops-selftest.pcap")
    write_pcap(pcap, frames)
    os.chmod(pcap, 0o644)
    rc, err, rows = wc.run_tshark(pcap, a.lua, FIELDS, DFILTER, a.home,
                                  EXTRA)
    if rc != 0:
        print("wireops selftest: tshark exited %d: %s" % (rc,
                                                          "; ".join(err[:3])))
        return 1
    windows, out, total, notes = count(rows, "10.99.0.2", "10.99.0.1")
    got = dict(windows)
    got["out"], got["all"] = out, total
    checks = bad = 0
    for name, want in exp.items():
        have = got.get(name, Tally())
        for k, v in want.items():
            checks += 1
            if have[k] != v:
                bad += 1
                print("wireops selftest: window %s: %s=%d, expected %d" % (
                    name, k, have[k], v))
    for n in notes:
        bad += 1
        print("wireops selftest: unexpected note: " + n)
    if len(windows) != 2:
        bad += 1
        print("wireops selftest: %d windows, expected 2" % len(windows))
    print("wireops selftest: %d frames, %d checks, %d wrong (%s)" % (
        len(frames), checks, bad, pcap))
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("count")
    p.add_argument("path", help="a pair's directory or a pcap")
    p.add_argument("--client-ip", default="10.99.0.2")
    p.add_argument("--server-ip", default="10.99.0.1")
    t = sub.add_parser("selftest")
    t.add_argument("--outdir")
    t.add_argument("--doctor", action="store_true")
    for x in (p, t):
        x.add_argument("--lua", required=True)
        x.add_argument("--home", required=True)
    a = ap.parse_args()
    sys.exit(cmd_count(a) if a.cmd == "count" else cmd_selftest(a))


if __name__ == "__main__":
    main()
