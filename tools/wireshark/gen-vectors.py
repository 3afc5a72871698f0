#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Test frames for tools/wireshark/rpcrdma_cm.lua, and their verdicts.

`gen` writes text2pcap input holding RFC 8797 private data in the two
carriers the dissector knows:

  roce  Ethernet/IPv4/UDP 4791/BTH (UD SEND only to QP1)/DETH/MAD of
        the CM class, attribute ConnectRequest (0x0010) or ConnectReply
        (0x0013), then the ICRC. A REQ carries rdma_cm's 36-octet IP CM
        header and 56 octets of consumer data; a REP 196 octets. Both
        are zero-padded, as the kernel sends them.
  mpa   Ethernet/IPv4/TCP with an MPA request and then its reply on a
        TCP connection of their own, revision 1, or revision 2 with the
        Enhanced flag and the 4-octet IRD/ORD header ahead of the data.

The private data comes from the vector tables of
kunit/rpcrdma_pdata_test.c (read from the file, so a vector added there
is tested here too) or from a seeded random generator. Beside each
frame it writes what tshark must print for it: the verdict is not
written by hand but asked of the codec itself, net/sunrpc/xprtrdma/
rpcrdma_pdata.c built as a shared library, on exactly the octets a
receiving kernel would hand it.

`check` compares tshark's fields with those expectations.
"""

import argparse
import ctypes
import random
import re
import struct
import sys
import zlib

IDENT = bytes.fromhex('f6ab0e18')
REQ_PDATA_LEN = 92
REQ_ULP_LEN = 56        # what rdma_cm's 36-octet IP CM header leaves
REP_PDATA_LEN = 196
MPA_REQ_KEY = b'MPA ID Req Frame'
MPA_REP_KEY = b'MPA ID Rep Frame'
MPA_FLAG_ENHANCED = 0x10
MPA_V2_HDR_LEN = 4
# What siw puts ahead of the consumer's data (Documentation/siw.md)
MPA_V2_IRD_ORD = {'req': bytes.fromhex('00800000'),
                  'rep': bytes.fromhex('00000080')}

# tshark -T fields columns, in order; the test script asks tshark for
# these. First what Wireshark's own dissectors must still show...
CARRIER_FIELDS = ['infiniband.mad.mgmtclass', 'infiniband.mad.attributeid',
                  'infiniband.cm.req', 'infiniband.cm.rep', 'iwarp_mpa.req',
                  'iwarp_mpa.rep', 'iwarp_mpa.rev', 'iwarp_mpa.pdlength']
# ...then what the dissector adds, expert infos last ('1' when raised)
EXPERTS = ['absent', 'truncated', 'bad_version', 'reserved', 'offset',
           'mpa_short']
PDATA_FIELDS = ['rpcrdma_cm.carrier', 'rpcrdma_cm.status',
                'rpcrdma_cm.offset', 'rpcrdma_cm.version', 'rpcrdma_cm.r',
                'rpcrdma_cm.reserved', 'rpcrdma_cm.send_size.encoded',
                'rpcrdma_cm.send_size', 'rpcrdma_cm.recv_size.encoded',
                'rpcrdma_cm.recv_size'] + \
    ['rpcrdma_cm.expert.' + e for e in EXPERTS]
FIELDS = ['frame.number'] + CARRIER_FIELDS + PDATA_FIELDS
# tshark 4.0 prints a boolean as 1 or 0, tshark 4.4 as True or False
BOOLEANS = {'True': '1', 'False': '0'}


class Codec:
    """rpcrdma_pdata_parse() and its status names, through ctypes."""

    class Msg(ctypes.Structure):
        _fields_ = [('version', ctypes.c_uint8),
                    ('remote_inv', ctypes.c_bool),
                    ('send_size', ctypes.c_uint32),
                    ('recv_size', ctypes.c_uint32),
                    ('offset', ctypes.c_uint32)]

    def __init__(self, path):
        lib = ctypes.CDLL(path)
        self.parse_fn = lib.rpcrdma_pdata_parse
        self.parse_fn.restype = ctypes.c_int
        self.parse_fn.argtypes = [ctypes.c_char_p, ctypes.c_size_t,
                                  ctypes.POINTER(self.Msg)]
        self.name_fn = lib.rpcrdma_pdata_status_name
        self.name_fn.restype = ctypes.c_char_p
        self.name_fn.argtypes = [ctypes.c_int]

    def parse(self, buf):
        msg = self.Msg()
        status = self.parse_fn(buf if buf else None, len(buf),
                               ctypes.byref(msg))
        return self.name_fn(status).decode(), msg


def expect(codec, buf):
    """The rpcrdma_cm fields tshark must print for consumer data @buf."""
    status, msg = codec.parse(buf)
    f = dict.fromkeys(PDATA_FIELDS, '')
    f['rpcrdma_cm.status'] = status
    experts = []
    if status == 'present':
        flags = buf[msg.offset + 5]
        f.update({
            'rpcrdma_cm.offset': str(msg.offset),
            'rpcrdma_cm.version': str(msg.version),
            'rpcrdma_cm.r': '1' if msg.remote_inv else '0',
            # A field under a mask prints shifted: bits 7..1 of flags
            'rpcrdma_cm.reserved': '0x%02x' % (flags >> 1),
            'rpcrdma_cm.send_size.encoded': str(msg.send_size // 1024 - 1),
            'rpcrdma_cm.send_size': str(msg.send_size),
            'rpcrdma_cm.recv_size.encoded': str(msg.recv_size // 1024 - 1),
            'rpcrdma_cm.recv_size': str(msg.recv_size),
        })
        if flags & 0xfe:
            experts.append('reserved')
        if msg.offset:
            experts.append('offset')
    elif status in ('truncated', 'bad_version'):
        # The codec reports the first candidate's fault; so does the
        # dissector, pointing at that candidate.
        off = buf.find(IDENT)
        f['rpcrdma_cm.offset'] = str(off)
        if status == 'bad_version':
            f['rpcrdma_cm.version'] = str(buf[off + 4])
        experts.append(status)
    else:
        experts.append('absent')
    for e in experts:
        f['rpcrdma_cm.expert.' + e] = '1'
    return f


# ---------------------------------------------------------------------
# Vectors from kunit/rpcrdma_pdata_test.c

def c_bytes(text):
    text = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
    return bytes(int(t, 0) for t in re.findall(r'0x[0-9a-fA-F]+|\d+', text))


def kunit_fill(n):
    """rpcrdma_test_fill(): octets below 0x80, never an identifier."""
    return bytes((i * 37 + 11) & 0x7f for i in range(n))


def kunit_msg(version, flags, send, recv):
    return IDENT + bytes([version, flags, send, recv])


def kunit_vectors(path):
    """(description, private data) for every buffer the suite parses."""
    src = open(path).read()
    defines = {m[0]: int(m[1]) for m in
               re.findall(r'#define\s+(\w+)\s+(\d+)\s*$', src, re.M)}
    arrays = {}
    for name, size, init in re.findall(
            r'static const u8 (rpcrdma_vec_\w+)\[(\w*)\]'
            r'\s*(?:=\s*\{([^}]*)\})?;', src):
        data = c_bytes(init or '')
        n = (defines[size] if size in defines else int(size)) if size \
            else len(data)
        arrays[name] = data + bytes(n - len(data))
    descs = dict((d[1], d[0]) for d in re.findall(
        r'\.desc\s*=\s*"([^"]*)",\s*\.data\s*=\s*(rpcrdma_vec_\w+)', src))
    trunc = re.findall(r'\{ "([^"]+)", (\d+), (\d+), RPCRDMA_PDATA_\w+ \}',
                       src)
    wires = re.findall(r'\.desc\s*=\s*"([^"]*)",[^{]*\{[^}]*\},\s*'
                       r'\.wire\s*=\s*\{([^}]*)\}', src)
    if not arrays or len(descs) != len(arrays) or not trunc or not wires:
        sys.exit('gen-vectors: cannot read the vector tables of %s '
                 '(%d arrays, %d described, %d truncations, %d builds)'
                 % (path, len(arrays), len(descs), len(trunc), len(wires)))

    vecs = [('parse: ' + descs[n], d) for n, d in arrays.items()]
    for desc, n, kept in trunc:
        n, kept = int(n), int(kept)
        buf = kunit_fill(n - kept) + kunit_msg(1, 0x01, 0x03, 0x03)[:kept]
        vecs.append(('truncated: ' + desc, buf))
    vecs += [('build: ' + d, c_bytes(w)) for d, w in wires]
    # parse_any_offset_case: every offset in a REQ's and a REP's data
    for n in (REQ_ULP_LEN, REP_PDATA_LEN):
        for off in range(n - 7):
            buf = bytearray(kunit_fill(n))
            buf[off:off + 8] = kunit_msg(1, 0x01, 0x07, 0x0f)
            vecs.append(('any offset: %d-octet, offset %d' % (n, off),
                         bytes(buf)))
    # parse_garbage_case: the suite's 32-bit LCG
    state, garbage = 0x8797, bytearray()
    for _ in range(REP_PDATA_LEN):
        state = (state * 1664525 + 1013904223) & 0xffffffff
        garbage.append(state >> 24)
    vecs.append(('garbage: LCG 0x8797', bytes(garbage)))
    vecs.append(('zero length', b''))
    # size_decode_case: every encoded octet, in both size fields
    for v in range(256):
        vecs.append(('size: encoded %d' % v, kunit_msg(1, 0, v, 255 - v)))
    return vecs


def random_vectors(seed, count):
    """Random consumer data, half of it around a planted identifier."""
    rng = random.Random(seed)
    vecs = []
    for i in range(count):
        n = rng.choice([REQ_ULP_LEN, REP_PDATA_LEN, rng.randrange(0, 300)])
        buf = bytearray(rng.getrandbits(8) for _ in range(n))
        for _ in range(rng.choice([0, 0, 1, 1, 2])):
            off = rng.randrange(0, n + 1)
            ver = rng.choice([1, 1, 1, 0, 2, 255])
            plant = kunit_msg(ver, rng.getrandbits(8), rng.getrandbits(8),
                              rng.getrandbits(8))
            buf[off:off + 8] = plant[:max(0, n - off)]
        vecs.append(('random %d (seed %d)' % (i, seed), bytes(buf[:n])))
    return vecs


# ---------------------------------------------------------------------
# Frames

def csum16(data):
    if len(data) % 2:
        data += b'\0'
    s = sum(struct.unpack('!%dH' % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def ipv4(src, dst, proto, payload, ttl=64):
    hdr = struct.pack('!BBHHHBBH4s4s', 0x45, 0, 20 + len(payload), 0,
                      0x4000, ttl, proto, 0, bytes(src), bytes(dst))
    return hdr[:10] + struct.pack('!H', csum16(hdr)) + hdr[12:] + payload


def ether(payload):
    return bytes.fromhex('020000000002 020000000001 0800') + payload


def icrc(ip_udp_ib):
    """RoCEv2 invariant CRC: CRC-32 over eight 0xff octets standing in
    for the LRH, then the packet with the fields routers may change
    (IPv4 TOS, TTL and checksum, UDP checksum, BTH reserved octet) set
    to all ones; sent least significant octet first, as rxe does."""
    p = bytearray(ip_udp_ib)
    p[1] = 0xff
    p[8] = 0xff
    p[10:12] = b'\xff\xff'
    p[26:28] = b'\xff\xff'
    p[32] = 0xff
    return struct.pack('<I', zlib.crc32(b'\xff' * 8 + bytes(p)))


def roce_cm(attr, tid, cm_data, src, dst):
    bth = struct.pack('!BBHII', 0x64, 0, 0xffff, 1, tid & 0xffffff)
    deth = struct.pack('!II', 0x80010000, 1)
    mad = struct.pack('!BBBBHHQHHI', 1, 0x07, 2, 0x03, 0, 0, tid, attr, 0, 0)
    payload = bth + deth + mad + cm_data.ljust(232, b'\0')
    udp = struct.pack('!HHHH', 0xc000 | (tid & 0x3fff), 4791,
                      8 + len(payload) + 4, 0)
    pkt = ipv4(src, dst, 17, udp + payload + bytes(4))[:-4]
    return ether(pkt + icrc(pkt))


def cm_req(comm_id, pdata, ip_cm=True):
    """ConnectRequest. With @ip_cm, as rdma_cm sends it for NFS/RDMA's
    port 20049 (RDMA_PS_TCP): its IP CM header for 10.0.0.1 -> 10.0.0.2
    ahead of @pdata. Without, from a consumer of the IB CM proper: a
    Service ID outside the IP CM range, @pdata at offset 0."""
    gid = bytes(10) + b'\xff\xff'
    body = struct.pack('!II', comm_id, 0)
    body += struct.pack('!Q', 0x0000000001060000 | 20049 if ip_cm
                        else 0x0002c90300001234)
    body += struct.pack('!QII', 0x0200000000000001, 0, 0)  # GUID, Q_Key
    body += struct.pack('!I', 0x11 << 8 | 0x10)     # QPN, responder res.
    body += struct.pack('!I', 0x10)                 # EECN, initiator depth
    body += struct.pack('!I', 20 << 3)              # CM timeout, RC
    body += struct.pack('!I', 0x123456 << 8 | 20 << 3 | 7)  # PSN, retries
    body += struct.pack('!HBB', 0xffff, 4 << 4 | 7, 15 << 4)
    body += struct.pack('!HH', 0xffff, 0xffff)      # RoCE: permissive LIDs
    body += gid + bytes([10, 0, 0, 1]) + gid + bytes([10, 0, 0, 2])
    body += struct.pack('!IBBBB', 0, 0, 64, 0, 16 << 3)
    body += bytes(44)                               # no alternate path
    cma_hdr = bytes([0x00, 0x40]) + struct.pack('!H', 0xc001)
    cma_hdr += bytes(12) + bytes([10, 0, 0, 1])
    cma_hdr += bytes(12) + bytes([10, 0, 0, 2])
    assert len(body) == 140 and len(cma_hdr) == 36
    if not ip_cm:
        return body + pdata.ljust(REQ_PDATA_LEN, b'\0')
    return body + cma_hdr + pdata.ljust(REQ_ULP_LEN, b'\0')


def cm_rep(comm_id, pdata):
    body = struct.pack('!IIIIII', comm_id + 1, comm_id, 0, 0x22 << 8,
                       0, 0x1 << 8)
    body += struct.pack('!BBBBQ', 0x10, 0x10, 0, 7 << 5, 0x0200000000000002)
    assert len(body) == 36
    return body + pdata.ljust(REP_PDATA_LEN, b'\0')


def tcp(sport, dport, seq, ack, payload, src, dst):
    hdr = struct.pack('!HHIIBBHHH', sport, dport, seq, ack, 5 << 4, 0x18,
                      65535, 0, 0)
    pseudo = struct.pack('!4s4sBBH', bytes(src), bytes(dst), 0, 6,
                         len(hdr) + len(payload))
    csum = struct.pack('!H', csum16(pseudo + hdr + payload))
    return ether(ipv4(src, dst, 6, hdr[:16] + csum + hdr[18:] + payload))


def mpa(key, rev, kind, ulp):
    """An MPA request or reply as siw sends it: no markers, no CRC."""
    if rev == 1:
        return key + struct.pack('!BBH', 0, rev, len(ulp)) + ulp
    pdata = MPA_V2_IRD_ORD[kind] + ulp
    return key + struct.pack('!BBH', MPA_FLAG_ENHANCED, rev,
                             len(pdata)) + pdata


# ---------------------------------------------------------------------
# Output

class Writer:
    """text2pcap input plus one line of expected fields per frame."""

    def __init__(self, prefix):
        self.hex = open(prefix + '.txt', 'w')
        self.exp = open(prefix + '.expect', 'w')
        self.frames = 0

    def frame(self, data, desc, carrier, fields):
        self.frames += 1
        for off in range(0, len(data), 16):
            self.hex.write('%06x %s\n' % (off, data[off:off + 16].hex(' ')))
        row = [str(self.frames)] + [carrier.get(k, '')
                                    for k in CARRIER_FIELDS]
        row += [fields[k] for k in PDATA_FIELDS]
        self.exp.write('\t'.join(row) + '\t# ' + desc + '\n')

    def close(self):
        self.hex.close()
        self.exp.close()


def ib_fields(attr, kind, comm_id):
    return {'infiniband.mad.mgmtclass': '0x07',
            'infiniband.mad.attributeid': attr,
            'infiniband.cm.' + kind: '0x%08x' % comm_id}


def mpa_fields(kind, frame):
    return {'iwarp_mpa.' + kind: '1', 'iwarp_mpa.rev': str(frame[17]),
            'iwarp_mpa.pdlength': str(len(frame) - 20)}


def write_roce(w, codec, vecs, plain_req):
    """REQ (and with @plain_req, a REQ without rdma_cm's header too) and
    REP frames for every buffer that fits; the codec judges the buffer
    as the kernel receives it, zero-padded to the CM's fixed size."""
    a, b = [10, 0, 0, 1], [10, 0, 0, 2]
    for i, (desc, ulp) in enumerate(vecs):
        comm = 0x1000 + i
        if len(ulp) <= REQ_ULP_LEN:
            padded = ulp.ljust(REQ_ULP_LEN, b'\0')
            f = expect(codec, padded)
            f['rpcrdma_cm.carrier'] = 'IB CM REQ'
            w.frame(roce_cm(0x0010, 2 * i, cm_req(comm, ulp), a, b),
                    desc + ' [REQ]', ib_fields('0x0010', 'req', comm), f)
        if plain_req and len(ulp) <= REQ_PDATA_LEN:
            padded = ulp.ljust(REQ_PDATA_LEN, b'\0')
            f = expect(codec, padded)
            f['rpcrdma_cm.carrier'] = 'IB CM REQ'
            w.frame(roce_cm(0x0010, 2 * i, cm_req(comm, ulp, False), a, b),
                    desc + ' [REQ, no IP CM header]',
                    ib_fields('0x0010', 'req', comm), f)
        if len(ulp) <= REP_PDATA_LEN:
            padded = ulp.ljust(REP_PDATA_LEN, b'\0')
            f = expect(codec, padded)
            f['rpcrdma_cm.carrier'] = 'IB CM REP'
            w.frame(roce_cm(0x0013, 2 * i + 1, cm_rep(comm, ulp), b, a),
                    desc + ' [REP]', ib_fields('0x0013', 'rep', comm + 1),
                    f)


def write_mpa(w, codec, vecs, revs):
    b = [10, 0, 1, 2]
    conn = 0
    for desc, ulp in vecs:
        f = expect(codec, ulp)
        for rev in revs:
            # One TCP connection per exchange: Wireshark's MPA dissector
            # only takes a reply that answers a request it has seen. The
            # client port is ephemeral, as the kernel's is; a registered
            # one could hand the segment to another dissector first.
            port = 49152 + conn % 16384
            a = [10, 0, 2 + conn // 16384, 1]
            conn += 1
            req = mpa(MPA_REQ_KEY, rev, 'req', ulp)
            rep = mpa(MPA_REP_KEY, rev, 'rep', ulp)
            f['rpcrdma_cm.carrier'] = 'MPA request'
            w.frame(tcp(port, 20049, 1, 1, req, a, b),
                    '%s [MPA rev %d request]' % (desc, rev),
                    mpa_fields('req', req), f)
            f['rpcrdma_cm.carrier'] = 'MPA reply'
            w.frame(tcp(20049, port, 1, 1 + len(req), rep, b, a),
                    '%s [MPA rev %d reply]' % (desc, rev),
                    mpa_fields('rep', rep), f)


def write_mpa_short(w):
    """Enhanced MPA frames whose private data cannot even hold the
    IRD/ORD header: no RFC 8797 verdict, only the expert info."""
    a, b = [10, 0, 9, 1], [10, 0, 1, 2]
    for n in range(MPA_V2_HDR_LEN):
        port = 49152 + n
        for kind, key in (('req', MPA_REQ_KEY), ('rep', MPA_REP_KEY)):
            frame = key + struct.pack('!BBH', MPA_FLAG_ENHANCED, 2, n)
            frame += MPA_V2_IRD_ORD[kind][:n]
            f = dict.fromkeys(PDATA_FIELDS, '')
            f['rpcrdma_cm.carrier'] = ('MPA request' if kind == 'req'
                                       else 'MPA reply')
            f['rpcrdma_cm.expert.mpa_short'] = '1'
            src, dst, sport, dport = (a, b, port, 20049) if kind == 'req' \
                else (b, a, 20049, port)
            w.frame(tcp(sport, dport, 1, 1, frame, src, dst),
                    'MPA v2 private data of %d octets [%s]' % (n, kind),
                    mpa_fields(kind, frame), f)


def cmd_gen(args):
    codec = Codec(args.codec)
    # The kunit vectors in every variant of each carrier; random ones
    # in the variants the kernel meets (rdma_cm's REQ, MPA revision 2).
    sets = [('vectors', kunit_vectors(args.kunit), True, [1, 2])]
    if args.random:
        sets.append(('random', random_vectors(args.seed, args.random),
                     False, [2]))
    for name, vecs, plain_req, revs in sets:
        for carrier in ('roce', 'mpa'):
            w = Writer('%s/%s-%s' % (args.outdir, name, carrier))
            if carrier == 'roce':
                write_roce(w, codec, vecs, plain_req)
            else:
                write_mpa(w, codec, vecs, revs)
                if name == 'vectors':
                    write_mpa_short(w)
            w.close()
            print('%s-%s %d %d' % (name, carrier, len(vecs), w.frames))


def cmd_check(args):
    """Compare tshark's -T fields output with an .expect file; print
    each mismatch, then the number of frames and of mismatches. Columns
    tshark prints past FIELDS are the caller's business."""
    want = [line.rstrip('\n').split('\t# ') for line in open(args.expect)]
    got = [[BOOLEANS.get(v, v) for v in
            line.rstrip('\n').split('\t')[:len(FIELDS)]]
           for line in open(args.actual)]
    bad = 0
    for i, (row, desc) in enumerate(want):
        have = got[i] if i < len(got) else []
        if have == row.split('\t'):
            continue
        bad += 1
        if bad > args.show:
            continue
        print('FAIL %s frame %d: %s' % (args.pcap, i + 1, desc))
        for k, w, h in zip(FIELDS, row.split('\t'),
                           have + [''] * len(FIELDS)):
            if w != h:
                print('    %s: expected "%s", tshark printed "%s"'
                      % (k, w, h))
    if len(got) != len(want):
        print('FAIL %s: tshark printed %d frames, expected %d'
              % (args.pcap, len(got), len(want)))
        bad += 1
    print('%d %d' % (len(want), bad))


def cmd_fields(_args):
    print(' '.join(FIELDS))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    sub = ap.add_subparsers(dest='cmd', required=True)
    g = sub.add_parser('gen', help='write text2pcap input and expectations')
    g.add_argument('--codec', required=True,
                   help='rpcrdma_pdata.c built as a shared library')
    g.add_argument('--kunit', required=True,
                   help='kunit/rpcrdma_pdata_test.c')
    g.add_argument('--outdir', required=True)
    g.add_argument('--random', type=int, default=0,
                   help='how many random buffers (0: none)')
    g.add_argument('--seed', type=int, default=8797)
    g.set_defaults(fn=cmd_gen)
    c = sub.add_parser('check', help='compare tshark fields output')
    c.add_argument('expect')
    c.add_argument('actual')
    c.add_argument('--pcap', default='', help='named in failures')
    c.add_argument('--show', type=int, default=10,
                   help='mismatches printed in full')
    c.set_defaults(fn=cmd_check)
    f = sub.add_parser('fields', help='the fields to ask tshark for')
    f.set_defaults(fn=cmd_fields)
    args = ap.parse_args()
    args.fn(args)


if __name__ == '__main__':
    main()
