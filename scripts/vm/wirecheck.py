#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Wire assertions for one VM pair (scripts/vm/wirecheck.sh runs this).

Reads the pair's wire.pcap with tshark: Wireshark's own infiniband,
iwarp_mpa/iwarp_ddp_rdmap and rpcordma (RPC-over-RDMA) dissectors plus
tools/wireshark/rpcrdma_cm.lua for the RFC 8797 private data. Then, from
the wire alone, with the guests' debugfs lines (RPCRDMA-CONN in the
console logs) only as the thing to compare with:

  pdata   the private data each side sent (REQ/REP, MPA request/reply)
          is what the other side's debugfs line reports as peer_*;
  swi     a Reply goes as Send With Invalidate exactly when both sides
          set R and the Call's chunks all carry one R_key (the one the
          IETH names); with R clear on either side, never;
  inline  no Send is longer than the threshold the two messages give
          for its direction (min(send, peer recv), 1024 when absent),
          multi-packet Sends reassembled per QP;
  short   a Reply to a Call that offered a Reply chunk is RDMA_MSG with
          the Reply chunk echoed with zero lengths when the server has
          short_replies on and it fits; otherwise RDMA_NOMSG using the
          chunk.

Prints "wire: ..." counts on one line and "wire FAIL: ..." lines; exit
status 0 (pass), 1 (an assertion failed), 2 (cannot check).
"""

import argparse
import contextlib
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time

FMT_ERR = "wire FAIL: "
SIZE_MIN = 1024

# IBTA RC opcodes (BTH): the Send family
SEND_FIRST, SEND_MIDDLE, SEND_LAST, SEND_LAST_IMM = 0x00, 0x01, 0x02, 0x03
SEND_ONLY, SEND_ONLY_IMM = 0x04, 0x05
SEND_LAST_INV, SEND_ONLY_INV = 0x16, 0x17
SEND_OPS = {SEND_FIRST, SEND_MIDDLE, SEND_LAST, SEND_LAST_IMM, SEND_ONLY,
            SEND_ONLY_IMM, SEND_LAST_INV, SEND_ONLY_INV}
# octets after the BTH before the payload, per Send opcode
SEND_EXT = {SEND_LAST_IMM: 4, SEND_ONLY_IMM: 4, SEND_LAST_INV: 4,
            SEND_ONLY_INV: 4}
BTH_LEN, UDP_LEN, ICRC_LEN = 12, 8, 4
CM_CLASS = 0x07
ATTR_REQ, ATTR_REP = 0x0010, 0x0013
# RDMAP opcodes (RFC 5040): Send, Send with Invalidate, with SE
RDMAP_SEND_OPS = {0x3: False, 0x4: True, 0x5: False, 0x6: True}
DDP_UNTAGGED_HDR = 18       # control 2, Inv STag 4, QN 4, MSN 4, MO 4
# RPC-over-RDMA message types
RDMA_MSG, RDMA_NOMSG, RDMA_ERROR = 0, 1, 4

ROCE_FIELDS = [
    "frame.number", "ip.src", "udp.length", "infiniband.bth.opcode",
    "infiniband.bth.destqp", "infiniband.bth.psn", "infiniband.bth.padcnt",
    "infiniband.ieth", "infiniband.mad.mgmtclass", "infiniband.mad.attributeid",
    "infiniband.cm.req", "infiniband.cm.req.localqpn",
    "infiniband.cm.req.ip_cm.sport", "infiniband.cm.req.serviceid.dport",
    "infiniband.cm.rep",
    "infiniband.cm.rep.remotecommid", "infiniband.cm.rep.localqpn",
]
MPA_FIELDS = [
    "frame.number", "ip.src", "tcp.srcport", "tcp.dstport",
    "iwarp_mpa.key.req", "iwarp_mpa.key.rep", "iwarp_rdma.opcode",
    "iwarp_ddp.qn", "iwarp_ddp.msn", "iwarp_ddp.mo", "iwarp_ddp.last_flag",
    "iwarp_mpa.ulpdulength", "iwarp_rdma.inval_stag",
]
COMMON_FIELDS = [
    "rpcrdma_cm.carrier", "rpcrdma_cm.status", "rpcrdma_cm.r",
    "rpcrdma_cm.send_size", "rpcrdma_cm.recv_size",
    "rpcordma.xid", "rpcordma.msg_type", "rpcordma.reads_count",
    "rpcordma.writes_count", "rpcordma.reply_count",
    "rpcordma.segment_count", "rpcordma.rdma_handle",
    "rpcordma.rdma_length", "_ws.lua.error",
]
ROCE_FILTER = ("infiniband.mad.mgmtclass == 0x07 || "
               "infiniband.bth.opcode <= 5 || infiniband.bth.opcode == 22 || "
               "infiniband.bth.opcode == 23")
MPA_FILTER = ("iwarp_mpa.key.req || iwarp_mpa.key.rep || "
              "(iwarp_ddp.qn == 0 && iwarp_rdma.opcode >= 3 && "
              "iwarp_rdma.opcode <= 6)")


def num(s):
    """tshark number (decimal, 0x hex, True/False) or None."""
    if s is None or s == "":
        return None
    if s in ("True", "False"):
        return int(s == "True")
    return int(s, 0)


def nums(s):
    return [num(x) for x in s.split(",")] if s else []


class Msg:
    """The RFC 8797 verdict on one private data buffer."""

    def __init__(self, row):
        self.status = row.get("rpcrdma_cm.status") or "none"
        self.r = num(row.get("rpcrdma_cm.r")) or 0
        self.send = num(row.get("rpcrdma_cm.send_size"))
        self.recv = num(row.get("rpcrdma_cm.recv_size"))

    def present(self):
        return self.status == "present"

    def eff(self):
        """(R, send, recv) the receiver applies (RFC 8797 5.1)."""
        if self.present():
            return self.r, self.send, self.recv
        return 0, SIZE_MIN, SIZE_MIN

    def __str__(self):
        if self.present():
            return "R=%d send %d recv %d" % (self.r, self.send, self.recv)
        return self.status


class Conn:
    def __init__(self, n):
        self.n = n
        self.req = self.rep = None      # Msg
        self.req_frame = self.rep_frame = None
        self.sport = None               # client's port (IP CM or TCP)
        self.dport = None               # server's port
        self.cqp = self.sqp = None      # QPNs (rxe)
        self.calls = {}                 # xid -> call info
        self.sends = {"c": 0, "s": 0}
        self.maxlen = {"c": 0, "s": 0}
        self.swi = 0
        self.server_sends = 0

    def established(self):
        return self.req is not None and self.rep is not None

    def both_r(self):
        return self.req.eff()[0] == 1 and self.rep.eff()[0] == 1

    def thresh(self, d):
        """Inline threshold of direction d: c (client->server), s."""
        _, csend, crecv = self.req.eff()
        _, ssend, srecv = self.rep.eff()
        return min(csend, srecv) if d == "c" else min(ssend, crecv)

    def name(self):
        return "connection %d (client port %s, frame %s)" % (
            self.n, self.sport, self.req_frame)


def roce_prefilter(pcap, out):
    """Copy to out the frames tshark needs from a RoCEv2 capture: the CM
    MADs (UD Send Only to QP1), the RC Sends, and short RDMA Write Only
    packets (the srv answers, see find_switches); leave out the bulk
    (RDMA Write/Read data, ACKs). A classic pcap of Ethernet frames, as
    QEMU's filter-dump writes. Returns the original frame number of
    each frame kept, or None when the file is not such a pcap."""
    keep_ops = set(range(0x00, 0x06)) | {0x16, 0x17, 0x64}
    kept = [0]
    with open(pcap, "rb") as f, open(out, "wb") as o:
        ghdr = f.read(24)
        if len(ghdr) < 24:
            return None
        magic = ghdr[:4]
        if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"):
            e = "<"
        elif magic in (b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
            e = ">"
        else:
            return None
        if struct.unpack(e + "I", ghdr[20:24])[0] != 1:
            return None             # not Ethernet
        o.write(ghdr)
        n = 0
        while True:
            rhdr = f.read(16)
            if len(rhdr) < 16:
                break
            incl = struct.unpack(e + "I", rhdr[8:12])[0]
            data = f.read(incl)
            if len(data) < incl:
                break               # cut short: what is there is kept
            n += 1
            # Ethernet II, IPv4, UDP to 4791, then the BTH opcode
            if len(data) < 14 + 20 + 8 + 1 or data[12:14] != b"\x08\x00":
                continue
            ihl = (data[14] & 0x0f) * 4
            if data[23] != 17:
                continue
            u = 14 + ihl
            if len(data) < u + 9 or data[u + 2:u + 4] != b"\x12\xb7":
                continue
            op = data[u + 8]
            ulen = (data[u + 4] << 8) | data[u + 5]
            if op in keep_ops or (op == 0x0a and ulen < 600):
                o.write(rhdr)
                o.write(data)
                kept.append(n)
    kept.append(n)      # the last entry: how many frames were read
    return kept


def tshark_version():
    """(major, minor) of the tshark on PATH, (0, 0) when unknown."""
    try:
        out = subprocess.run(["tshark", "--version"], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL,
                             universal_newlines=True).stdout
        m = re.search(r"TShark \(Wireshark\) (\d+)\.(\d+)", out)
        return (int(m.group(1)), int(m.group(2))) if m else (0, 0)
    except OSError:
        return (0, 0)


def unprivileged():
    """Command prefix that drops root where it must: from 4.4 on (Debian
    13) tshark runs no Lua script as root. Older ones keep running as
    they are, so files made under a strict umask stay readable."""
    if os.geteuid() != 0 or tshark_version() < (4, 4):
        return []
    return ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
            "--"]


@contextlib.contextmanager
def tshark_inputs(lua, pcap, home):
    """Yields (command prefix, lua, pcap, home) for a tshark run. Where
    tshark must run as nobody (unprivileged()), nobody may not reach the
    clone's files: root's home, where a clone may live, is 0700. The
    two files are then copied into a directory of their own under /tmp,
    with a HOME there, removed afterwards."""
    pre = unprivileged()
    if not pre:
        yield [], lua, pcap, home
        return
    stage = tempfile.mkdtemp(prefix="rpcrdma-cm-tshark.", dir="/tmp")
    try:
        os.chmod(stage, 0o755)
        copies = []
        for src in (lua, pcap):
            dst = os.path.join(stage, os.path.basename(src))
            shutil.copyfile(src, dst)
            os.chmod(dst, 0o644)
            copies.append(dst)
        shome = os.path.join(stage, "home")
        os.mkdir(shome)
        os.chown(shome, 65534, 65534)
        yield pre, copies[0], copies[1], shome
    finally:
        shutil.rmtree(stage, ignore_errors=True)


def run_tshark(pcap, lua, fields, dfilter, home, extra=()):
    # Heuristic dissectors first: MPA is found by heuristics, and a client
    # port that is some protocol's registered port (48898, Beckhoff AMS)
    # would otherwise hand the MPA exchange to that protocol's dissector.
    # extra: more tshark options (wireops.py leaves NFS undecoded).
    with tshark_inputs(lua, pcap, home) as (pre, lua, pcap, home):
        cmd = pre + ["tshark", "-n", "-o", "tcp.try_heuristic_first:TRUE",
                     "-X", "lua_script:" + lua, "-r", pcap] + list(extra) + [
                     "-Y", dfilter, "-T", "fields", "-E", "separator=/t",
                     "-E", "occurrence=a", "-E", "aggregator=,"]
        for f in fields:
            cmd += ["-e", f]
        p = subprocess.run(cmd, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE,
                           env=dict(os.environ, HOME=home),
                           universal_newlines=True)
    err = [l for l in p.stderr.splitlines()
           if l and not l.startswith("Running as user")]
    rows = []
    for line in p.stdout.splitlines():
        v = line.split("\t")
        rows.append(dict(zip(fields, v + [""] * (len(fields) - len(v)))))
    return p.returncode, err, rows


def parse_logs(pairdir):
    """debugfs lines, modules and parameters from the console logs."""
    info = {"conn": [], "module": {}, "params": {}, "expect": {}}
    for side in ("client", "server"):
        path = os.path.join(pairdir, side + ".log")
        try:
            text = open(path, encoding="utf-8", errors="replace").read()
        except OSError:
            continue
        for line in text.splitlines():
            line = line.strip("\r")
            m = re.search(r"RPCRDMA-CONN: (client|server) (role=.*)", line)
            if m:
                kv = dict(re.findall(r"(\w+)=(\S+)", m.group(2)))
                kv["_line"] = m.group(2)
                kv["_pos"] = len(info["conn"])
                info["conn"].append(kv)
                continue
            m = re.search(r"RPCRDMA-EXPECT: (.*)", line)
            if m:
                info["expect"].update(re.findall(r"(\w+)=(\S+)", m.group(1)))
                continue
            m = re.search(r"RPCRDMA-STATUS: module-(client|server) \w+ "
                          r"(ours|stock)", line)
            if m:
                info["module"][m.group(1)] = m.group(2)
                continue
            m = re.search(r"RPCRDMA-STEP: \[[^]]*\] boot \w+ .* rdma=(\w+)",
                          line)
            if m:
                info["rdma"] = m.group(1)
            if re.search(r"RPCRDMA-STEP: \[[^]]*\] srv \d+: param "
                         r"short_replies ", line):
                info["switches"] = True
            m = re.search(r"RPCRDMA-STEP: \[[^]]*\] param (\w+)=(\S*)", line)
            if m and side == "server":
                info["params"][m.group(1)] = m.group(2)
    return info


class Checker:
    def __init__(self, args):
        self.a = args
        self.fails = []
        self.notes = []
        self.conns = []
        self.pdata_fails = 0

    def fail(self, what, fix=""):
        self.fails.append(what + (" (" + fix + ")" if fix else ""))

    # ---- RoCEv2 --------------------------------------------------------
    def load_roce(self, rows):
        by_commid = {}
        cur = {}                    # (direction, destqp) -> Conn
        partial = {}                # (direction, destqp) -> [octets, pkts]
        seen_psn = set()
        for row in rows:
            fr = self.orig(num(row["frame.number"]))
            src = row["ip.src"]
            if num(row["infiniband.mad.mgmtclass"]) == CM_CLASS:
                attr = num(row["infiniband.mad.attributeid"])
                if attr == ATTR_REQ and src == self.a.client_ip:
                    cid = num(row["infiniband.cm.req"])
                    if cid in by_commid:
                        continue        # a retransmitted REQ
                    c = Conn(len(self.conns) + 1)
                    c.req, c.req_frame = Msg(row), fr
                    c.sport = num(row["infiniband.cm.req.ip_cm.sport"])
                    c.dport = num(row["infiniband.cm.req.serviceid.dport"])
                    c.cqp = num(row["infiniband.cm.req.localqpn"])
                    by_commid[cid] = c
                    self.conns.append(c)
                elif attr == ATTR_REP and src == self.a.server_ip:
                    c = by_commid.get(num(row["infiniband.cm.rep.remotecommid"]))
                    if c is None or c.rep is not None:
                        continue
                    c.rep, c.rep_frame = Msg(row), fr
                    if self.a.doctor == "r-clear":
                        c.rep.r = 0
                    c.sqp = num(row["infiniband.cm.rep.localqpn"])
                    cur[("s", c.cqp)] = c
                    cur[("c", c.sqp)] = c
                continue
            op = num(row["infiniband.bth.opcode"])
            if op not in SEND_OPS:
                continue
            d = "c" if src == self.a.client_ip else "s"
            qp = num(row["infiniband.bth.destqp"])
            c = cur.get((d, qp))
            if c is None:
                continue
            psn = num(row["infiniband.bth.psn"])
            if (c.n, d, psn) in seen_psn:
                continue                # a retransmission
            seen_psn.add((c.n, d, psn))
            length = (num(row["udp.length"]) - UDP_LEN - BTH_LEN -
                      SEND_EXT.get(op, 0) - num(row["infiniband.bth.padcnt"]) -
                      ICRC_LEN)
            key = (d, qp)
            if op in (SEND_FIRST, SEND_ONLY, SEND_ONLY_IMM, SEND_ONLY_INV):
                partial[key] = {"len": 0, "frame": fr, "rpc": None}
            p = partial.get(key)
            if p is None:
                continue                # capture began mid-message
            p["len"] += length
            if row["rpcordma.xid"] and p["rpc"] is None:
                p["rpc"] = row
            if op in (SEND_FIRST, SEND_MIDDLE):
                continue
            del partial[key]
            inv = op in (SEND_LAST_INV, SEND_ONLY_INV)
            rkey = None
            if inv and row["infiniband.ieth"]:
                rkey = int(row["infiniband.ieth"].split(",")[0].replace(":", ""), 16)
            self.message(c, d, p["len"], p["frame"], inv, rkey, p["rpc"])

    # ---- iWARP (MPA) ---------------------------------------------------
    def load_mpa(self, rows):
        by_port = {}
        partial = {}
        for row in rows:
            fr = self.orig(num(row["frame.number"]))
            src = row["ip.src"]
            if row["iwarp_mpa.key.req"] and src == self.a.client_ip:
                c = Conn(len(self.conns) + 1)
                c.req, c.req_frame = Msg(row), fr
                c.sport = num(row["tcp.srcport"])
                c.dport = num(row["tcp.dstport"])
                by_port[c.sport] = c
                self.conns.append(c)
                continue
            if row["iwarp_mpa.key.rep"] and src == self.a.server_ip:
                c = by_port.get(num(row["tcp.dstport"]))
                if c is not None and c.rep is None:
                    c.rep, c.rep_frame = Msg(row), fr
                    if self.a.doctor == "r-clear":
                        c.rep.r = 0
                continue
            port = num(row["tcp.srcport"] if src == self.a.client_ip
                       else row["tcp.dstport"])
            c = by_port.get(port)
            if c is None or not c.established():
                continue
            d = "c" if src == self.a.client_ip else "s"
            # one FPDU per row is the common case; several are aggregated
            ops = nums(row["iwarp_rdma.opcode"])
            qns = nums(row["iwarp_ddp.qn"])
            msns = nums(row["iwarp_ddp.msn"])
            mos = nums(row["iwarp_ddp.mo"])
            lasts = nums(row["iwarp_ddp.last_flag"])
            ulens = nums(row["iwarp_mpa.ulpdulength"])
            invs = nums(row["iwarp_rdma.inval_stag"])
            untagged = [i for i, q in enumerate(qns) if q == 0]
            for j, i in enumerate(untagged):
                if j >= len(msns) or i >= len(ops) or i >= len(ulens):
                    break
                op = ops[i]
                if op not in RDMAP_SEND_OPS:
                    continue
                key = (c.n, d, msns[j])
                seg = ulens[i] - DDP_UNTAGGED_HDR
                p = partial.setdefault(key, {"len": 0, "frame": fr,
                                             "rpc": None})
                p["len"] = max(p["len"], mos[j] + seg)
                if row["rpcordma.xid"] and p["rpc"] is None:
                    p["rpc"] = row
                if not lasts or not lasts[min(i, len(lasts) - 1)]:
                    continue
                del partial[key]
                inv = RDMAP_SEND_OPS[op]
                rkey = invs.pop(0) if inv and invs else None
                self.message(c, d, p["len"], p["frame"], inv, rkey, p["rpc"])

    # ---- per message ---------------------------------------------------
    def message(self, c, d, length, frame, inv, rkey, rpc):
        c.sends[d] += 1
        c.maxlen[d] = max(c.maxlen[d], length)
        th = c.thresh(d) // (2 if self.a.doctor == "thresh" else 1)
        if length > th and d == "s" and self.stock_server:
            # Debian's server ignores the client's Receive Size
            # (Documentation/upstream-bugs.md#receive-size-ignored):
            # reported, not asserted
            self.stock_over += 1
        elif length > th:
            self.fail("%s: a %s Send of %d octets (frame %d) exceeds the "
                      "negotiated %s threshold %d (REQ %s, REP %s)" % (
                          c.name(), "client" if d == "c" else "server",
                          length, frame, "client-to-server" if d == "c"
                          else "server-to-client", th, c.req, c.rep))
        info = None
        if rpc is not None:
            info = {
                "xid": num(rpc["rpcordma.xid"].split(",")[0]),
                "type": num(rpc["rpcordma.msg_type"].split(",")[0]),
                "reads": num(rpc["rpcordma.reads_count"].split(",")[0]) or 0,
                "writes": num(rpc["rpcordma.writes_count"].split(",")[0]) or 0,
                "reply": num(rpc["rpcordma.reply_count"].split(",")[0]) or 0,
                "segcounts": nums(rpc["rpcordma.segment_count"]),
                "handles": nums(rpc["rpcordma.rdma_handle"]),
                "lengths": nums(rpc["rpcordma.rdma_length"]),
                "frame": frame, "len": length,
            }
        if d == "c":
            if info is not None and info["type"] in (RDMA_MSG, RDMA_NOMSG):
                c.calls[info["xid"]] = info
            return
        c.server_sends += 1
        if inv:
            c.swi += 1
        call = c.calls.pop(info["xid"], None) if info else None
        self.reply(c, call, info, inv, rkey)

    def reply(self, c, call, info, inv, rkey):
        """Checks on one server Send that answers a client Call."""
        if call is None:
            if inv:
                self.fail("%s: a server Send With Invalidate (frame %s) "
                          "answers no Call of this connection" % (
                              c.name(), info["frame"] if info else "?"))
            return
        self.replies += 1
        handles = set(call["handles"])
        want_inv = c.both_r() and len(handles) == 1 and 0 not in handles
        if self.stock_server:
            self.stock_swi += int(inv)
        elif inv != want_inv:
            why = ("both sides set R and the Call's chunks carry the one "
                   "R_key 0x%08x" % min(handles) if want_inv else
                   "R is clear on %s" % ("the client" if not c.req.eff()[0]
                                          else "the server")
                   if not c.both_r() else "the Call's chunks carry %s" % (
                       "no R_key" if not handles else
                       "%d R_keys" % len(handles)))
            self.fail("%s: the Reply to XID 0x%08x (frame %d) was %s, but "
                      "%s" % (c.name(), call["xid"], info["frame"],
                              "a Send With Invalidate" if inv else
                              "a plain Send", why))
        elif inv and rkey not in handles:
            self.fail("%s: the Reply to XID 0x%08x (frame %d) invalidates "
                      "R_key 0x%08x, not the Call's 0x%08x" % (
                          c.name(), call["xid"], info["frame"], rkey,
                          min(handles)))
        if not call["reply"]:
            return
        self.chunk_replies += 1
        short_on = self.short_mode(info["frame"])
        if self.a.doctor == "short" and short_on is not None:
            short_on = not short_on
        # the Reply chunk is the last chunk of the Reply's header:
        # its segment lengths are the last rdma_length values
        segs = info["segcounts"][-1] if info["segcounts"] else 0
        lens = info["lengths"][-segs:] if segs else []
        if info["type"] == RDMA_MSG and info["reply"] and segs and \
                not any(lens):
            self.short += 1
            if short_on is False:
                self.fail("%s: the Reply to XID 0x%08x (frame %d) skipped "
                          "the Reply chunk (RDMA_MSG, zero lengths) while "
                          "the server's short_replies is 0" % (
                              c.name(), call["xid"], info["frame"]))
            return
        if info["type"] == RDMA_NOMSG and info["reply"] and sum(lens) > 0:
            self.chunked += 1
            inline = info["len"] + sum(lens)
            if short_on and inline <= c.thresh("s"):
                self.fail("%s: the Reply to XID 0x%08x (frame %d) used the "
                          "Reply chunk (RDMA_NOMSG, %d octets written) but "
                          "would fit inline (%d <= %d) and short_replies "
                          "is 1" % (c.name(), call["xid"], info["frame"],
                                    sum(lens), inline, c.thresh("s")))
            return
        if info["type"] == RDMA_ERROR:
            return
        self.fail("%s: the Reply to XID 0x%08x (frame %d), a Call with a "
                  "Reply chunk, is neither RDMA_MSG with the chunk echoed "
                  "with zero lengths nor RDMA_NOMSG using it: type %s, "
                  "reply chunk %s, lengths %s" % (
                      c.name(), call["xid"], info["frame"], info["type"],
                      info["reply"], lens))

    def short_mode(self, frame):
        """short_replies on the server at frame: True, False or None."""
        mode = self.short_initial
        for fr, val, done in self.switches:
            if frame > done:
                mode = val
            elif frame > fr:
                return None         # switching
        return mode

    # ---- debugfs --------------------------------------------------------
    def compare_debugfs(self, info):
        """Each debugfs line against the message its peer sent. A server
        line names the client's port (the IP CM header's source port on
        RoCE, the TCP port on iWARP); a client line only the server's
        address, so the server line logged right after it (show_conns)
        or else the port it connected to says which connection it is.
        Ports are reused (the probe makes hundreds of connections):
        among the connections from that port, one must carry exactly
        what the line reports."""
        checked = 0
        est = [c for c in self.conns if c.established()]
        by_sport, by_dport = {}, {}
        for c in est:
            by_sport.setdefault(c.sport, []).append(c)
            by_dport.setdefault(c.dport, []).append(c)
        lines = info["conn"]
        for i, kv in enumerate(lines):
            role = kv.get("role")
            port = re.match(r".*:(\d+)$", kv.get("peer", ""))
            port = int(port.group(1)) if port else None
            if role == "server":
                cands = by_sport.get(port, [])
                if not cands:
                    self.fail("debugfs: no connection on the wire from client "
                              "port %s for the server line '%s'" % (
                                  port, kv["_line"]),
                              "did the capture miss it? see wire.pcap")
                    continue
                checked += self.agree(kv, [(c, c.req, c.req_frame)
                                           for c in cands],
                                      "client's REQ/MPA request")
            elif role == "client":
                nxt = lines[i + 1] if i + 1 < len(lines) else None
                cands = []
                if nxt and nxt.get("role") == "server":
                    m = re.match(r".*:(\d+)$", nxt.get("peer", ""))
                    cands = by_sport.get(int(m.group(1)), []) if m else []
                if not cands:
                    cands = by_dport.get(port, [])
                if not cands:
                    self.notes.append("no connection to port %s on the "
                                      "wire for the client line '%s'" % (
                                          port, kv["_line"]))
                    continue
                checked += self.agree(kv, [(c, c.rep, c.rep_frame)
                                           for c in cands],
                                      "server's REP/MPA reply")
        return checked

    def check_expect(self, info, est):
        """The client script's "expect" lines: what the server's private
        data must say on every connection, as its receiver applies it."""
        fields = {"r": 0, "send": 1, "recv": 2}
        for key, want in sorted(info["expect"].items()):
            side, _, field = key.partition("_")
            if side != "rep" or field not in fields:
                self.fail("the client script expects %s=%s, which wirecheck.py "
                          "does not know (rep_r, rep_send, rep_recv)" % (key, want),
                          "fix the scenario's expect line")
                continue
            bad = [c for c in est
                   if str(c.rep.eff()[fields[field]]) != want]
            if bad:
                c = bad[0]
                self.fail("%d of %d connections: the server's REP/MPA reply "
                          "(frame %s) says %s, but the scenario expects %s=%s "
                          "(first: %s)" % (len(bad), len(est), c.rep_frame,
                                          c.rep, key, want, c.name()))
        if info["expect"]:
            self.notes.append("server private data on %d connections as "
                              "expected: %s" % (len(est), " ".join(
                                  "%s=%s" % kv for kv in
                                  sorted(info["expect"].items()))))

    def agree(self, kv, cands, what):
        """Compare one debugfs line with the message its peer sent, on
        one of the candidate connections (the newest first)."""
        got = kv.get("peer_pdata", "")
        if got == "absent:disabled":
            return 1        # pdata=0 on the receiving side: it ignored it
        first = None
        for c, msg, frame in reversed(cands):
            if msg.present():
                want = {"peer_pdata": "present", "peer_send": str(msg.send),
                        "peer_recv": str(msg.recv), "peer_r": str(msg.r)}
            else:
                want = {"peer_pdata": "absent:" + msg.status,
                        "peer_send": str(SIZE_MIN),
                        "peer_recv": str(SIZE_MIN), "peer_r": "0"}
            bad = ["%s=%s (wire: %s)" % (k, kv.get(k), v)
                   for k, v in want.items() if kv.get(k) != v]
            if not bad:
                return 1
            first = first or (c, msg, frame, bad)
        c, msg, frame, bad = first
        self.pdata_fails += 1
        self.fail("%s: the %s (frame %s) says %s but the %s's debugfs "
                  "line has %s%s: '%s'" % (
                      c.name(), what, frame, msg, kv["role"], ", ".join(bad),
                      "" if len(cands) == 1 else
                      " (nor does any of the %d other connections from that "
                      "port agree)" % (len(cands) - 1), kv["_line"]),
                  "the module reports something other than what its "
                  "peer sent: see the codec's verdict on these octets")
        return 1

    def disabled(self, kv):
        """A receiver that ignores private data reports absent:disabled."""
        return kv.get("peer_pdata") == "absent:disabled"

    def run(self):
        a = self.a
        info = parse_logs(a.pairdir)
        if a.rdma == "auto":
            a.rdma = info.get("rdma", "rxe")
        self.stock_server = info["module"].get("server") == "stock" and \
            a.doctor != "stock-strict"
        # the module parameter as the server booted (Y/N, or 1/0)
        self.short_initial = info["params"].get("short_replies",
                                                "N") in ("Y", "1")
        self.switches = []
        self.replies = self.chunk_replies = self.short = self.chunked = 0
        self.stock_swi = 0
        self.stock_over = 0
        pcap = os.path.join(a.pairdir, "wire.pcap")
        t0 = time.time()
        if a.rdma == "siw":
            fields, dfilter = MPA_FIELDS + COMMON_FIELDS, MPA_FILTER
        else:
            fields, dfilter = ROCE_FIELDS + COMMON_FIELDS, ROCE_FILTER
        if a.pdata_only:
            dfilter = "rpcrdma_cm"
        self.framemap = None
        tmp = None
        if a.rdma != "siw":
            fd, tmp = tempfile.mkstemp(suffix=".pcap", prefix=".wirecheck.",
                                       dir=a.pairdir)
            os.close(fd)
            os.chmod(tmp, 0o644)    # tshark may run unprivileged
            self.framemap = roce_prefilter(pcap, tmp)
            if self.framemap is not None:
                self.total = self.framemap.pop()
            if self.framemap is not None:
                pcap_in = tmp
            else:
                pcap_in = pcap
        else:
            pcap_in = pcap
        self.out = []
        try:
            rc = self.check(info, pcap, pcap_in, fields, dfilter, t0)
            if rc == 0 and tmp and a.shrink and \
                    len(self.framemap) - 1 < self.total:
                # checked: keep only the frames checked (CM, Sends);
                # a failed pair keeps the whole capture
                before = os.path.getsize(pcap)
                os.chmod(tmp, 0o644)
                os.replace(tmp, pcap)
                tmp = None
                self.out[0] += "; pcap %.1f -> %.1f MB (the %d of %d frames " \
                    "checked; VM_PCAP_FULL=1 keeps all)" % (
                        before / 1e6, os.path.getsize(pcap) / 1e6,
                        len(self.framemap) - 1, self.total)
            return rc
        finally:
            if tmp:
                os.unlink(tmp)
            print("\n".join(self.out))

    def orig(self, fr):
        """Frame number in the pair's own pcap."""
        return self.framemap[fr] if self.framemap else fr

    def check(self, info, pcap, pcap_in, fields, dfilter, t0):
        a = self.a
        rc, err, rows = run_tshark(pcap_in, a.lua, fields, dfilter, a.home)
        if rc != 0:
            hint = ""
            if any("rpcrdma_cm." in l for l in err):
                hint = (" (tshark did not load %s: Debian 13's tshark 4.4 "
                        "runs no Lua script as root; run wirecheck.sh as a "
                        "normal user, or VM_WIRECHECK=0)" % a.lua)
            self.out.append(FMT_ERR + "tshark exited %d on %s: %s%s" % (
                rc, pcap, "; ".join(err[:3]), hint))
            return 2
        lua_err = [r["_ws.lua.error"] for r in rows if r["_ws.lua.error"]]
        lua_err += [l for l in err if "Lua" in l]
        if lua_err:
            self.fail("the dissector raised a Lua error: %s" % lua_err[0],
                      "fix tools/wireshark/rpcrdma_cm.lua")
        if info.get("switches"):
            self.find_switches(pcap_in)
        if a.rdma == "siw":
            self.load_mpa(rows)
        else:
            self.load_roce(rows)
        est = [c for c in self.conns if c.established()]
        undecoded = [c for c in est if "none" in (c.req.status, c.rep.status)]
        if undecoded:
            c = undecoded[0]
            self.fail("%d of %d connections have a REQ/REP or MPA request/"
                      "reply that rpcrdma_cm.lua did not decode (first: %s)" %
                      (len(undecoded), len(est), c.name()),
                      "tshark ran no Lua? Debian 13's tshark 4.4 skips Lua "
                      "scripts as root: run scripts/vm/wirecheck.sh as a "
                      "normal user, or VM_WIRECHECK=0")
        if not est:
            self.fail("no connection (REQ+REP or MPA request+reply) between "
                      "%s and %s in %s" % (a.client_ip, a.server_ip, pcap),
                      "the capture missed the connection setup")
        checked = self.compare_debugfs(info)
        self.check_expect(info, est)
        if a.pdata_only:
            self.out.append("wire: %d connections, %d debugfs lines agree with the "
                  "private data on the wire; tshark %.1fs" % (
                      len(est), checked - self.pdata_fails,
                      time.time() - t0))
            return self.report()
        r_both = [c for c in est if c.both_r()]
        r_clear = [c for c in est if not c.both_r()]
        swi_both = sum(c.swi for c in r_both)
        swi_clear = sum(c.swi for c in r_clear)
        sends_both = sum(c.server_sends for c in r_both)
        sends_clear = sum(c.server_sends for c in r_clear)
        if self.stock_server and swi_clear:
            self.notes.append("stock server: %d Sends With Invalidate on "
                              "connections where it advertised R=0 "
                              "(upstream-bugs.md#server-r-bit), not asserted" %
                              swi_clear)
        if self.stock_over:
            self.notes.append("stock server: %d Sends above the threshold "
                              "the client's Receive Size sets (it ignores "
                              "it, upstream-bugs.md#receive-size-ignored), not asserted" %
                              self.stock_over)
        maxc = max([c.maxlen["c"] for c in est] or [0])
        maxs = max([c.maxlen["s"] for c in est] or [0])
        nsend = sum(c.sends["c"] + c.sends["s"] for c in est)
        self.out.append("wire: %d connections, %d debugfs lines agree%s; SWI %d/%d "
              "server Sends with R on both, %d/%d with R clear; %d Sends "
              "within thresholds (largest c->s %d, s->c %d); %d Replies to "
              "Calls with a Reply chunk: %d short, %d via the chunk; "
              "tshark %.1fs" % (
                  len(est), checked - self.pdata_fails,
                  "" if checked else " (none logged)", swi_both, sends_both,
                  swi_clear, sends_clear, nsend, maxc, maxs,
                  self.chunk_replies, self.short, self.chunked,
                  time.time() - t0))
        return self.report()

    def report(self):
        for n in self.notes:
            self.out.append("wire: note: " + n)
        for f in self.fails[:10]:
            self.out.append(FMT_ERR + f)
        if len(self.fails) > 10:
            self.out.append(FMT_ERR + "... and %d more" % (len(self.fails) - 10))
        return 1 if self.fails else 0

    def find_switches(self, pcap):
        """When the client asked the server (srv param short_replies N,
        guest/lib.sh) to switch: (request frame, N, frame of the ack)."""
        rc, _, rows = run_tshark(
            pcap, self.a.lua, ["frame.number", "ip.src", "data.data",
                               "nfs.data", "tcp.payload"],
            'frame contains "param short_replies " || frame contains "END "',
            self.a.home)
        if rc != 0:
            return
        pending = []
        for row in rows:
            raw = "".join(row[f] for f in ("data.data", "nfs.data",
                                           "tcp.payload"))
            try:
                text = bytes.fromhex(raw.replace(":", "").replace(",", ""))
            except ValueError:
                continue
            fr = self.orig(num(row["frame.number"]))
            for m in re.finditer(rb"(\d+) param short_replies ([01])\n",
                                 text):
                pending.append((fr, int(m.group(1)), m.group(2) == b"1"))
            for m in re.finditer(rb"END (\d+)\n", text):
                for p in pending:
                    if p[1] == int(m.group(1)):
                        self.switches.append((p[0], p[2], fr))
                        pending.remove(p)
                        break
        for p in pending:
            self.switches.append((p[0], p[2], 1 << 62))


def tshark_main(argv):
    """wirecheck.py tshark HOME LUA PCAP ARGS...: tshark with the
    dissector LUA on PCAP and ARGS, its exit code returned. Its input is
    staged by tshark_inputs, so scripts/wireshark.sh runs tshark the way
    the wire checks do."""
    if len(argv) < 3:
        sys.exit("usage: wirecheck.py tshark HOME LUA PCAP [TSHARK-ARGS...]")
    try:
        with tshark_inputs(argv[1], argv[2], argv[0]) as (pre, lua, pcap,
                                                            home):
            env = dict(os.environ, HOME=home)
            return subprocess.call(pre + ["tshark", "-X", "lua_script:" + lua,
                                          "-r", pcap] + argv[3:], env=env)
    except OSError as e:
        sys.exit("wirecheck: cannot stage tshark's input under /tmp: %s" % e)


def main():
    if sys.argv[1:2] == ["tshark"]:
        sys.exit(tshark_main(sys.argv[2:]))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("pairdir")
    ap.add_argument("--lua", required=True)
    ap.add_argument("--home", required=True)
    ap.add_argument("--rdma", default="auto",
                    help="rxe or siw (default: what the logs say)")
    ap.add_argument("--shrink", action="store_true",
                    help="when the checks pass, keep only the frames checked "
                    "in the pcap (RoCE)")
    ap.add_argument("--pdata-only", action="store_true",
                    help="only the private data against debugfs")
    ap.add_argument("--client-ip", default="10.99.0.2")
    ap.add_argument("--server-ip", default="10.99.0.1")
    # --doctor: make one assertion's premise false on purpose, to show
    # that it fails (r-clear: pretend the server sent R=0; thresh:
    # halve every threshold; short: invert short_replies; stock-strict:
    # hold a stock server to the RFC like this module)
    ap.add_argument("--doctor", help=argparse.SUPPRESS,
                    choices=["r-clear", "thresh", "short", "stock-strict"])
    sys.exit(Checker(ap.parse_args()).run())


if __name__ == "__main__":
    main()
