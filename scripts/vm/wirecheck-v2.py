#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Wire check of RPC-over-RDMA Version Two transport properties.

Decodes a VM pair's pcap with tshark and tools/wireshark/rpcrdma_v2.lua
(PDML, so that several iWARP FPDUs of one TCP segment keep their
order), rebuilds every RDMA Send message (RoCEv2: an RC SEND's packets,
First..Last, per destination QP; iWARP: the DDP segments of one
untagged message, per direction) and replays the properties both sides
announced on the wire: ROPT_CONNPROP, the answer (ROPT_RESPROP) to
each ROPT_REQPROP, ROPT_UPDPROP. A connection starts with the first
Send of a new flow (RoCEv2: destination QP; iWARP: TCP ports) and is
taken from the host that sent it to be the client's; the first new
flow the other host then sends on is that connection's other direction
(connections between two hosts come one at a time, as in scenario 13).
Every Send must fit the receiver's Receive Buffer Size in force when
it was sent: the size it announced last (4096 before it said
anything), or, while the sender's request to lower it is pending, the
size asked for (xcharext-03 Section 3.1). A side that receives
RDMA2_ERR_INVAL_OPTION must send no property message (RDMA2_OPTIONAL)
on that connection after it; its pending request counts as rejected.
One that crosses the refusal on the wire must be refused in turn, and
none may follow the side's answer to a Call sent after the refusal
(class Refusals).

With --expect FILE (lines "CONN ROLE XID NAME LEN": the connection's
number in the capture, client or listener, and what the probe printed
for each Send) every Send the probes made must be found on the wire,
and nothing else: a Send the decode misses would go unchecked.

    wirecheck-v2.py [--lua FILE] [--home DIR] [--base 01|2016-11-10]
                    [--show] [--expect FILE] PCAP

--base is the dissector's preference rpcrdma_v2.base: the Version Two
text the probes followed (rpcrdma-cm-probe --base), 01 by default.
Prints one line per Version Two message with --show, then a summary;
exit status 1 when a Send does not fit, one is missing or extra, a
property message follows an INVAL_OPTION its sender had read (or
crossed one and was not refused in turn), or nothing was found.
"""

import argparse
import os
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET

from wirecheck import tshark_inputs

TOP = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
DEFAULT_RBSIZ = 4096
# RC SEND opcodes: first, middle, last (+imm, +inv), only (+imm, +inv)
RC_FIRST, RC_MIDDLE = {0x00}, {0x01}
RC_LAST = {0x02, 0x03, 0x16}
RC_ONLY = {0x04, 0x05, 0x17}
RC_EXTRA = {0x03: 4, 0x05: 4, 0x16: 4, 0x17: 4}
# RDMAP Send opcodes (Send, Send with Invalidate, with SE)
RDMAP_SENDS = {3, 4, 5, 6}
DDP_UNTAGGED_HDR = 18


def fields(proto):
    out = {}
    for f in proto.iter('field'):
        name = f.get('name')
        if name and name not in out:
            out[name] = f.get('show')
    return out


def all_values(proto, name):
    return [f.get('show') for f in proto.iter('field') if f.get('name') == name]


def v2_info(proto):
    """What the dissector made of a Version Two header"""
    f = fields(proto)
    info = {'xid': int(f.get('rpcrdma_v2.xid', '0'), 0),
            'proc': int(f.get('rpcrdma_v2.proc', '-1')),
            'opttype': int(f['rpcrdma_v2.opttype'])
            if 'rpcrdma_v2.opttype' in f else None,
            'optdir': int(f.get('rpcrdma_v2.optdir', '-1')),
            'status': f.get('rpcrdma_v2.status'),
            'err': f.get('rpcrdma_v2.err_name'),
            'sets': [], 'subsets': []}
    for node in proto.iter('field'):
        if node.get('name') == 'rpcrdma_v2.propset':
            vals = all_values(node, 'rpcrdma_v2.prop.rbsiz')
            info['sets'].append(int(vals[0]) if vals else None)
        if node.get('name') == 'rpcrdma_v2.subset':
            pos = all_values(node, 'rpcrdma_v2.subset.positions')
            info['subsets'].append(
                set(int(p) for p in pos[0].split(',') if p) if pos and
                pos[0] else set())
    return info


def messages(pdml):
    """(frame, src, dst, length, v2 info or None, flow) per Send message"""
    out, partial = [], {}
    for pkt in ET.parse(pdml).getroot().iter('packet'):
        protos = list(pkt.iter('proto'))
        frame = next((fields(p).get('frame.number') for p in protos
                      if p.get('name') == 'frame'), '?')
        ip = next((p for p in protos if p.get('name') == 'ip'), None)
        if ip is None:
            continue
        src, dst = fields(ip)['ip.src'], fields(ip)['ip.dst']
        ib = next((p for p in protos if p.get('name') == 'infiniband'), None)
        if ib is not None:
            roce(out, partial, frame, src, dst, protos, ib)
            continue
        iwarp(out, partial, frame, src, dst, protos)
    return out


def roce(out, partial, frame, src, dst, protos, ib):
    f = fields(ib)
    op = int(f.get('infiniband.bth.opcode', '-1'))
    if op not in RC_FIRST | RC_MIDDLE | RC_LAST | RC_ONLY:
        return
    udp = next(p for p in protos if p.get('name') == 'udp')
    plen = int(fields(udp)['udp.length']) - 8 - 12 - 4 - \
        int(f.get('infiniband.bth.padcnt', '0')) - RC_EXTRA.get(op, 0)
    key = (src, dst, f.get('infiniband.bth.destqp'))
    v2p = next((p for p in protos if p.get('name') == 'rpcrdma_v2'), None)
    if op in RC_FIRST | RC_ONLY:
        partial[key] = [frame, plen, None]
    elif key in partial:
        partial[key][1] += plen
    else:
        return
    if v2p is not None:
        partial[key][2] = v2_info(v2p)
    if op in RC_LAST | RC_ONLY:
        fr, n, info = partial.pop(key)
        out.append((fr, src, dst, n, info, key))


def iwarp(out, partial, frame, src, dst, protos):
    tcp = next((fields(p) for p in protos if p.get('name') == 'tcp'), {})
    flow = (src, tcp.get('tcp.srcport'), dst, tcp.get('tcp.dstport'))
    mpa = None
    for i, p in enumerate(protos):
        if p.get('name') == 'iwarp_mpa':
            mpa = p
        if p.get('name') != 'iwarp_ddp_rdmap':
            continue
        f = fields(p)
        if f.get('iwarp_ddp.tagged_flag') in ('1', 'True') or \
           int(f.get('iwarp_rdma.opcode', '-1'), 0) not in RDMAP_SENDS:
            continue
        ulpdu = int(fields(mpa).get('iwarp_mpa.ulpdulength', '0'), 0) \
            if mpa is not None else 0
        seg = ulpdu - DDP_UNTAGGED_HDR
        mo = int(f.get('iwarp_ddp.mo', '0'), 0)
        key = (src, dst, f.get('iwarp_ddp.msn'))
        # the Version Two header, if any, follows this segment's DDP
        # header before the next FPDU's (Lua protocols sit in a wrapper)
        nxt = None
        for q in protos[i + 1:]:
            if q.get('name') in ('iwarp_mpa', 'iwarp_ddp_rdmap'):
                break
            if q.get('name') == 'rpcrdma_v2':
                nxt = q
                break
        if mo == 0:
            partial[key] = [frame, 0, None]
        if key not in partial:
            continue
        # Wireshark reassembles a message of several DDP segments and
        # decodes it where its last segment is
        if nxt is not None:
            partial[key][2] = v2_info(nxt)
        partial[key][1] = mo + seg
        if f.get('iwarp_ddp.last_flag') in ('1', 'True'):
            fr, n, info = partial.pop(key)
            out.append((fr, src, dst, n, info, flow))


PROCS = {0: 'RDMA2_MSG', 1: 'RDMA2_NOMSG', 4: 'RDMA2_ERROR'}
OPTS = {1: 'ROPT_CONNPROP', 2: 'ROPT_REQPROP', 3: 'ROPT_RESPROP',
        4: 'ROPT_UPDPROP'}


def msg_name(info):
    """The name rpcrdma-cm-probe --v2 prints for a message it sends"""
    if info['proc'] == 5:
        return OPTS.get(info['opttype'], 'RDMA2_OPTIONAL')
    return PROCS.get(info['proc'], 'proc-%d' % info['proc'])


class Peer:
    def __init__(self):
        self.rbsiz = DEFAULT_RBSIZ
        self.pending = None      # (xid, requested rbsiz) of its REQPROP


class Conns:
    """Which connection each flow belongs to, and who is its client"""

    def __init__(self):
        self.flows, self.num, self.client, self.back = set(), 0, None, None

    def opens(self, src, flow):
        """True when the Send of @src on @flow opens a connection"""
        if flow in self.flows:
            return False
        self.flows.add(flow)
        if self.num and src != self.client and self.back is None:
            self.back = flow
            return False
        self.num, self.client, self.back = self.num + 1, src, None
        return True


class Refusals:
    """xcharext-03 Section 4 on one connection: a side told
    RDMA2_ERR_INVAL_OPTION sends no property message after it.

    The wire shows when the refusal went out, not when its receiver
    took it in, and a property message may cross it. A property message
    after the refusal is therefore a crossing when the receiver cannot
    yet be shown to have read the refusal, and must itself be refused;
    once the receiver has answered a Call sent after the refusal (RC
    delivers in order, so it had read the refusal first), any property
    message from it is a failure."""

    def __init__(self):
        self.told = {}        # side: frame of the first refusal to it
        self.calls = {}       # side: xids of Calls to it after that
        self.read = {}        # side: frame proving it read the refusal
        self.crossed = {}     # (side, xid): frame of a crossing message
        self.inval, self.bad, self.crossings = 0, [], 0

    def note(self, frame, src, dst, info, client):
        proc, xid = info['proc'], info['xid']
        if proc == 4 and info['err'] == 'RDMA2_ERR_INVAL_OPTION':
            self.inval += 1
            self.told.setdefault(dst, frame)
            self.calls.setdefault(dst, set())
            self.crossed.pop((dst, xid), None)
            return True
        if proc in (0, 1) and src == client and dst in self.told:
            self.calls[dst].add(xid)
        elif proc in (0, 1, 4) and xid in self.calls.get(src, ()):
            self.read.setdefault(src, frame)
        elif proc == 5 and src in self.told:
            what = 'frame %s: %s -> %s %s xid=%d after the INVAL_OPTION ' \
                'of frame %s' % (frame, src, dst, msg_name(info), xid,
                                 self.told[src])
            if src in self.read:
                self.bad.append(what + ', read by frame %s' % self.read[src])
            else:
                self.crossings += 1
                self.crossed[(src, xid)] = what
        return False

    def finish(self):
        """The failures, crossings left unrefused among them"""
        return self.bad + [what + ', crossed it but was not refused'
                           for what in self.crossed.values()]


def replay(msgs, show, found, opened=None):
    """Replay @msgs; @found gets (conn, role, xid, name, len): frames,
    @opened each connection's number: the frame of its first Send.
    Returns the Sends checked, those too long, counts by name, the
    sides' final state, INVAL_OPTIONs, crossings of one, and property
    messages after one"""
    peers, checked, bad, counts = {}, 0, [], {}
    conns, refused, failures = Conns(), Refusals(), []
    inval = crossings = 0
    for frame, src, dst, n, info, flow in msgs:
        if info is None:
            continue
        # both sides start again from the defaults on a new connection
        if conns.opens(src, flow):
            peers[src], peers[dst] = Peer(), Peer()
            failures += refused.finish()
            inval, crossings = inval + refused.inval, \
                crossings + refused.crossings
            refused = Refusals()
            if opened is not None:
                opened[conns.num] = frame
        conn, client = conns.num, conns.client
        key = (conn, 'client' if src == client else 'listener', info['xid'],
               msg_name(info), n)
        found.setdefault(key, []).append(frame)
        s = peers.setdefault(src, Peer())
        r = peers.setdefault(dst, Peer())
        limit = r.rbsiz
        if s.pending and s.pending[1] and s.pending[1] < limit:
            limit = s.pending[1]
        checked += 1
        name = msg_name(info)
        counts[name] = counts.get(name, 0) + 1
        ok = n <= limit
        if not ok:
            bad.append('frame %s: %s -> %s %s of %d octets, receiver in '
                       'force %d' % (frame, src, dst, name, n, limit))
        if show:
            print('wire-v2: frame %s %s -> %s %s xid=%d len=%d limit=%d %s'
                  % (frame, src, dst, name, info['xid'], n, limit,
                     'ok' if ok else 'TOO LONG'))
        if refused.note(frame, src, dst, info, client):
            r.pending = None
        if info['status'] != 'ok' or info['proc'] != 5:
            continue
        sets = info['sets']
        if info['opttype'] in (1, 4) and sets and sets[0]:
            s.rbsiz = sets[0]
        elif info['opttype'] == 2:
            s.pending = (info['xid'], sets[0] if sets else None)
        elif info['opttype'] == 3 and r.pending and \
                r.pending[0] == info['xid']:
            done, rej = (info['subsets'] + [set(), set()])[:2]
            other = sets[0] if sets else None
            if 0 in done and 0 not in rej and other is None:
                s.rbsiz = r.pending[1] or s.rbsiz
            elif other is not None and 0 not in done | rej:
                s.rbsiz = other
            r.pending = None
    failures += refused.finish()
    return checked, bad, counts, peers, inval + refused.inval, \
        crossings + refused.crossings, failures


def compare(expect_file, found):
    """Sends the probes reported against those found: a list of FAILs"""
    want = []
    with open(expect_file) as f:
        for line in f:
            w = line.split()
            if len(w) == 5:
                want.append((int(w[0]), w[1], int(w[2]), w[3], int(w[4])))
    left = {k: list(v) for k, v in found.items()}
    out, near = [], None
    for key in want:
        if left.get(key):
            near = left[key].pop(0)
            continue
        out.append('connection %d: the %s\'s %s xid=%d len=%d is not on '
                   'the wire (%s)' % (key[0], key[1], key[3], key[2], key[4],
                                      'after frame %s' % near if near else
                                      'before any other'))
    for key, frames in sorted(left.items()):
        for fr in frames:
            out.append('connection %d: frame %s, a %s xid=%d len=%d from the '
                       '%s, was not reported by the probes' %
                       (key[0], fr, key[3], key[2], key[4], key[1]))
    if not want:
        out.append('%s lists no Send' % expect_file)
    return len(want), out


def missing(expect_file, found):
    """The Sends of @expect_file that @found lacks"""
    want, left = [], {k: len(v) for k, v in found.items()}
    with open(expect_file) as f:
        for line in f:
            w = line.split()
            if len(w) != 5:
                continue
            key = (int(w[0]), w[1], int(w[2]), w[3], int(w[4]))
            if left.get(key):
                left[key] -= 1
            else:
                want.append(key)
    return want


def tcp_segments(pcap, env):
    """Every TCP segment with data: (frame, (src, sport, dst, dport),
    seq, payload, protocols tshark found in it, its Info column)"""
    out = subprocess.run(['tshark', '-o', 'tcp.try_heuristic_first:TRUE',
                          '-r', pcap, '-Y', 'tcp.len > 0', '-T', 'fields',
                          '-E', 'separator=/t', '-e', 'frame.number',
                          '-e', 'ip.src', '-e', 'tcp.srcport', '-e', 'ip.dst',
                          '-e', 'tcp.dstport', '-e', 'tcp.seq_raw',
                          '-e', 'tcp.payload', '-e', 'frame.protocols',
                          '-e', '_ws.col.Info'], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, env=env, text=True).stdout
    segs = []
    for line in out.splitlines():
        f = line.split('\t')
        if len(f) < 9 or not f[6]:
            continue
        segs.append((f[0], (f[1], f[2], f[3], f[4]), int(f[5]),
                     bytes.fromhex(f[6].replace(':', '')), f[7], f[8]))
    return segs


def stream_search(segs, opened, key):
    """Find the Send @key in its connection's TCP byte stream, not in
    tshark's MPA decode: the untagged DDP segment whose payload starts
    with its rdma_xid, rdma_vers 2 and rdma_proc. Returns (frame, src,
    dst, length, info, why) or None."""
    conn, role, xid, name, _ = key
    first = opened.get(conn)
    tup = next((t for fr, t, *_ in segs if fr == first), None)
    if tup is None:
        return None
    if role == 'listener':
        tup = (tup[2], tup[3], tup[0], tup[1])
    mine = [sg for sg in segs if sg[1] == tup]
    base = min(sg[2] for sg in mine)
    size = max(sg[2] - base + len(sg[3]) for sg in mine)
    stream = bytearray(size)
    for sg in mine:
        off = sg[2] - base
        stream[off:off + len(sg[3])] = sg[3]
    proc = next((p for p, n in PROCS.items() if n == name), 5)
    pat = struct.pack('>II', xid, 2)
    at = stream.find(pat)
    while at >= 0:
        if at >= 20 and len(stream) >= at + 16 and \
           struct.unpack('>I', stream[at + 12:at + 16])[0] == proc:
            ctrl, rdmap = stream[at - 18], stream[at - 17] & 0x0f
            mo = struct.unpack('>I', stream[at - 4:at])[0]
            ulpdu = struct.unpack('>H', stream[at - 20:at - 18])[0]
            if not ctrl & 0x80 and ctrl & 0x40 and mo == 0 and \
               rdmap in RDMAP_SENDS:
                break
        at = stream.find(pat, at + 1)
    if at < 0:
        return None
    seq = base + at - 20
    carriers = [sg for sg in mine if sg[2] <= seq < sg[2] + len(sg[3])]
    fr = carriers[0]
    why = '; '.join('frame %s at TCP payload offset %d (%s; tshark: %s)' %
                    (sg[0], seq - sg[2], sg[5], sg[4]) for sg in carriers)
    info = {'xid': xid, 'proc': proc, 'opttype': None, 'optdir': -1,
            'status': None, 'err': None, 'sets': [], 'subsets': []}
    return (fr[0], tup[0], tup[2], ulpdu - DDP_UNTAGGED_HDR, info, tup, why)


def recover(args, env, msgs, found, opened):
    """Sends of --expect that tshark's decode missed, found in the TCP
    stream: only RDMA2_MSG/NOMSG/ERROR, whose size is all the replay
    needs (a missed ROPT message would carry properties it needs)."""
    extra = []
    segs = None
    for key in missing(args.expect, found):
        if key[3] not in PROCS.values():
            continue
        if segs is None:
            segs = tcp_segments(args.pcap, env)
        hit = stream_search(segs, opened, key)
        if hit:
            extra.append(hit)
            print('wire-v2: connection %d: the %s\'s %s xid=%d len=%d found '
                  'only in the TCP stream: %s' % (key[0], key[1], key[3],
                                                   key[2], hit[3], hit[6]))
    return [m[:6] for m in extra]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--lua', default=os.path.join(
        TOP, 'tools/wireshark/rpcrdma_v2.lua'))
    ap.add_argument('--home', default=None)
    ap.add_argument('--base', default='01', choices=['01', '2016-11-10'])
    ap.add_argument('--show', action='store_true')
    ap.add_argument('--expect', default=None)
    ap.add_argument('pcap')
    args = ap.parse_args()
    env = dict(os.environ)
    if args.home:
        env['HOME'] = args.home
    pdml = args.pcap + '.v2.pdml'
    # tshark 4.4 (Debian 13) runs no Lua script as root: as nobody there,
    # from copies nobody can read (wirecheck.py)
    with open(pdml, 'w') as out, tshark_inputs(
            args.lua, args.pcap, env.get('HOME')) as (pre, lua, pcap,
                                                           home):
        # MPA (siw) is found by heuristics, as in wirecheck.sh
        rc = subprocess.run(pre + ['tshark', '-X', 'lua_script:' + lua,
                                   '-o', 'rpcrdma_v2.base:' + args.base,
                                   '-o', 'tcp.try_heuristic_first:TRUE',
                                   '-r', pcap, '-T', 'pdml'], stdout=out,
                            stderr=subprocess.PIPE,
                            env=dict(env, HOME=home) if home else env
                            ).returncode
    if rc:
        print('wire-v2 FAIL: tshark exited %d on %s' % (rc, args.pcap))
        return 1
    found, opened = {}, {}
    msgs = messages(pdml)
    checked, bad, counts, peers, inval, crossings, after = replay(
        msgs, args.show, found, opened)
    extra = recover(args, env, msgs, found, opened) if args.expect else []
    if extra:
        msgs = sorted(msgs + extra, key=lambda m: int(m[0]))
        found = {}
        checked, bad, counts, peers, inval, crossings, after = replay(
            msgs, False, found)
    summary = ', '.join('%d %s' % (v, k) for k, v in sorted(counts.items()))
    print('wire-v2: %d Version Two Sends (%s), %d longer than the '
          'receiver\'s size in force; final sizes %s' %
          (checked, summary, len(bad),
           ' '.join('%s=%d' % (k, v.rbsiz) for k, v in sorted(peers.items()))))
    for line in bad[:10]:
        print('wire-v2 FAIL: ' + line)
    print('wire-v2: %d RDMA2_ERR_INVAL_OPTION, %d property messages '
          'crossing one (each refused in turn), %d after one' %
          (inval, crossings, len(after)))
    for line in after[:10]:
        print('wire-v2 FAIL: ' + line)
    if not checked:
        print('wire-v2 FAIL: no Version Two message in %s' % args.pcap)
    unmatched = []
    if args.expect:
        nwant, unmatched = compare(args.expect, found)
        print('wire-v2: the probes reported %d Sends, %d of them not found '
              'on the wire, %d found that they did not report' %
              (nwant, sum('is not on' in u for u in unmatched),
               sum('was not reported' in u for u in unmatched)))
        for line in unmatched[:10]:
            print('wire-v2 FAIL: ' + line)
    return 1 if bad or after or not checked or unmatched else 0


if __name__ == '__main__':
    sys.exit(main())
