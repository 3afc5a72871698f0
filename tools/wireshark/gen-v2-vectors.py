#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Test frames for tools/wireshark/rpcrdma_v2.lua, and their verdicts.

`gen` writes text2pcap input of RoCEv2 frames (Ethernet/IPv4/UDP 4791/
BTH RC SEND Only/payload/ICRC) whose payload is an RPC-over-RDMA Version
Two message: the optinfo vectors of kunit/rpcrdma_xchar_test.c (read
from the file, so a vector added there is tested here too) in an
RDMA2_OPTIONAL message of the type each belongs to, every propvalset
vector of that file as an ROPT_REQPROP, its whole RDMA2_MSG/NOMSG and
RDMA2_ERROR headers, every 4-octet prefix of each, an unknown
rdma_opttype, and seeded random mutations. Each set is written twice:
as version-two-01 reads it (the dissector's default) and as the
working copy of 2016-11-10 does (its preference rpcrdma_v2.base).
Beside each frame it writes what tshark must print; the verdict is
asked of net/sunrpc/xprtrdma/rpcrdma_xchar.c itself, built as a shared
library.

`check` compares tshark's fields with those expectations.
"""

import argparse
import ctypes
import importlib.util
import os
import random
import re
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    'gen_vectors', os.path.join(HERE, 'gen-vectors.py'))
gv = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gv)

# duplicate_prop is no status: the set decodes, its first value counting
EXPERTS = ['xdr_overrun', 'bad_propval', 'duplicate_prop', 'unknown_opttype']
FIELDS = ['frame.number', 'infiniband.bth.opcode', 'rpcrdma_v2.status',
          'rpcrdma_v2.opttype', 'rpcrdma_v2.prop.rbsiz',
          'rpcrdma_v2.subset.positions', 'rpcrdma_v2.hdrlen',
          'rpcrdma_v2.err_name'] + \
    ['rpcrdma_v2.expert.' + e for e in EXPERTS]
# Columns that are only compared when the message decodes
VALUE_FIELDS = ['rpcrdma_v2.prop.rbsiz', 'rpcrdma_v2.subset.positions',
                'rpcrdma_v2.hdrlen', 'rpcrdma_v2.err_name']
# enum rpcrdma_xchar_base_id, by the names the dissector's preference takes
BASES = {'01': 0, '2016-11-10': 1}
OPTTYPES = {'CONNPROP': 1, 'REQPROP': 2, 'RESPROP': 3, 'UPDPROP': 4}


class Props(ctypes.Structure):
    _fields_ = [('rbsiz', ctypes.c_uint32), ('reqreminv', ctypes.c_bool),
                ('brs', ctypes.c_int)]


class Propset(ctypes.Structure):
    _fields_ = [('count', ctypes.c_uint32), ('present', ctypes.c_uint32),
                ('dflt', ctypes.c_uint32), ('dup', ctypes.c_uint32),
                ('pos', ctypes.c_uint32 * 4),
                ('val', Props), ('err_pos', ctypes.c_uint32)]


class Subset(ctypes.Structure):
    _fields_ = [('wire', ctypes.c_void_p), ('nwords', ctypes.c_uint32)]


class Segment(ctypes.Structure):
    _fields_ = [('handle', ctypes.c_uint32), ('length', ctypes.c_uint32),
                ('offset', ctypes.c_uint64)]


class Msghdr(ctypes.Structure):
    _fields_ = [('xid', ctypes.c_uint32), ('credit', ctypes.c_uint32),
                ('proc', ctypes.c_uint32), ('dir', ctypes.c_uint32),
                ('inv_handle', ctypes.c_uint32), ('nreads', ctypes.c_uint32),
                ('pos0', ctypes.c_bool), ('read', Segment),
                ('nwrites', ctypes.c_uint32), ('reply', ctypes.c_bool),
                ('nreply', ctypes.c_uint32), ('reply_seg', Segment),
                ('hdrlen', ctypes.c_uint32)]


class Errhdr(ctypes.Structure):
    _fields_ = [('xid', ctypes.c_uint32), ('vers', ctypes.c_uint32),
                ('credit', ctypes.c_uint32), ('err', ctypes.c_uint32),
                ('arg', ctypes.c_uint32 * 2)]


class Opthdr(ctypes.Structure):
    _fields_ = [('xid', ctypes.c_uint32), ('credit', ctypes.c_uint32),
                ('optdir', ctypes.c_uint32), ('opttype', ctypes.c_uint32),
                ('info', ctypes.c_void_p), ('infolen', ctypes.c_uint32),
                ('hdrlen', ctypes.c_uint32)]


MSGS = {1: [('start', Propset), ('nochg', Subset)],
        2: [('want', Propset)],
        3: [('done', Subset), ('rej', Subset), ('other', Propset)],
        4: [('now', Propset)]}
DECODERS = {1: 'connprop', 2: 'reqprop', 3: 'resprop', 4: 'updprop'}


class Codec:
    """The xchar codec's decoders, through ctypes."""

    def __init__(self, path):
        self.lib = ctypes.CDLL(path)
        self.lib.rpcrdma_xchar_status_name.restype = ctypes.c_char_p
        self.lib.rpcrdma_xchar_subset_test.restype = ctypes.c_bool
        self.lib.rpcrdma_xchar_base_get.restype = ctypes.c_void_p
        self.lib.rpcrdma_xchar_err_name.restype = ctypes.c_char_p

    def name(self, st):
        return self.lib.rpcrdma_xchar_status_name(st).decode()

    def header(self, msg, base):
        """The verdict on an RDMA2_MSG/NOMSG or RDMA2_ERROR header under
        @base: status, header length, error name ('' where none)"""
        buf = ctypes.create_string_buffer(bytes(msg), len(msg))
        b = ctypes.c_void_p(self.lib.rpcrdma_xchar_base_get(BASES[base]))
        proc = struct.unpack('!I', msg[12:16])[0]
        if proc == 4:
            err = Errhdr()
            st = self.lib.rpcrdma_xchar_decode_error(b, buf, len(msg),
                                                     ctypes.byref(err))
            if st:
                return self.name(st), '', ''
            return 'ok', '', self.lib.rpcrdma_xchar_err_name(
                b, err.err).decode()
        hdr = Msghdr()
        st = self.lib.rpcrdma_xchar_decode_msghdr(b, buf, len(msg),
                                                  ctypes.byref(hdr))
        if st:
            return self.name(st), '', ''
        return 'ok', str(hdr.hdrlen), ''

    def verdict(self, msg, base='01'):
        """status, opttype, rbsiz values, subset position lists, whether
        a set named a known property again (decoders fill in as far as
        they got, so that holds for a failed message too), header
        length and error name of the other procedures"""
        buf = ctypes.create_string_buffer(bytes(msg), len(msg))
        hdr = Opthdr()
        st = self.lib.rpcrdma_xchar_decode_opthdr(buf, len(msg),
                                                  ctypes.byref(hdr))
        opttype = struct.unpack('!I', msg[20:24])[0] \
            if len(msg) >= 24 else None
        if self.name(st) == 'not_optional':
            proc = struct.unpack('!I', msg[12:16])[0]
            # the dissector claims the four procedures only
            if proc not in (0, 1, 4):
                return '', None, [], [], False, '', ''
            st, hdrlen, err = self.header(msg, base)
            return st, None, [], [], False, hdrlen, err
        if st:
            return self.name(st), opttype, [], [], False, '', ''
        if hdr.opttype not in MSGS:
            return 'unknown_opttype', hdr.opttype, [], [], False, '', ''
        cls = type('Msg', (ctypes.Structure,),
                   {'_fields_': MSGS[hdr.opttype]})
        m = cls()
        fn = getattr(self.lib, 'rpcrdma_xchar_decode_' +
                     DECODERS[hdr.opttype])
        st = fn(ctypes.c_void_p(hdr.info), hdr.infolen, ctypes.byref(m))
        dup = any(getattr(m, name).dup for name, kind in MSGS[hdr.opttype]
                  if kind is Propset)
        if st:
            return self.name(st), hdr.opttype, [], [], dup, '', ''
        rbsiz, subsets = [], []
        for name, kind in MSGS[hdr.opttype]:
            part = getattr(m, name)
            if kind is Propset and part.present & 2:
                rbsiz.append(str(part.val.rbsiz))
            if kind is Subset:
                subsets.append(','.join(
                    str(p) for p in range(32 * min(part.nwords, 8))
                    if self.lib.rpcrdma_xchar_subset_test(
                        ctypes.byref(part), p)))
        return 'ok', hdr.opttype, rbsiz, subsets, dup, '', ''


def kunit_arrays(path):
    """Every 'static const __be32 NAME[] = { W(..), ... };' of the file"""
    text = open(path).read()
    out = {}
    for name, body in re.findall(
            r'static const __be32 (\w+)\[\] = \{(.*?)\};', text, re.S):
        words = re.findall(r'W\((0x[0-9a-fA-F]+|\d+)\)', body)
        out[name] = b''.join(struct.pack('!I', int(w, 0)) for w in words)
    return out


def opthdr(xid, opttype, info, optdir=0, infolen=None):
    n = len(info) if infolen is None else infolen
    pad = (-len(info)) % 4
    return struct.pack('!IIIIIII', xid, 2, 3, 5, optdir, opttype, n) + \
        info + bytes(pad)


def roce_send(payload, psn):
    """An RC SEND Only from QP 0x11 to QP 0x12 carrying @payload"""
    pad = (-len(payload)) % 4
    bth = struct.pack('!BBHII', 0x04, pad << 4, 0xffff, 0x12, psn)
    body = bth + payload + bytes(pad)
    udp = struct.pack('!HHHH', 0xc000 | (psn & 0x3fff), 4791,
                      8 + len(body) + 4, 0)
    pkt = gv.ipv4([10, 0, 2, 15], [10, 0, 2, 16], 17, udp + body +
                  bytes(4))[:-4]
    return gv.ether(pkt + gv.icrc(pkt))


def vectors(paths):
    arrs = {}
    for path in paths:
        arrs.update(kunit_arrays(path))
    out = []
    xid = 0
    for name, data in sorted(arrs.items()):
        m = re.match(r'(?:xchar|sm)_(connprop|reqprop|resprop|updprop)', name)
        kinds = [m.group(1).upper()] if m else []
        if name.startswith(('xchar_set_', 'sm_req_')):
            kinds = ['REQPROP']
        if name.startswith('sm_res_'):
            kinds = ['RESPROP']
        if name.startswith('sm_') and 'connprop' in name:
            kinds = ['CONNPROP']
        if name.startswith(('xchar_hdr_', 'xchar_err_')):
            out.append((name, data))
            for cut in range(16, len(data), 4):
                out.append(('%s, %d octets' % (name, cut), data[:cut]))
            continue
        for kind in kinds:
            xid += 1
            msg = opthdr(xid, OPTTYPES[kind], data)
            out.append(('%s as %s' % (name, kind), msg))
            for cut in range(28, len(msg), 4):
                out.append(('%s as %s, %d octets' % (name, kind, cut),
                            msg[:cut]))
            # the optinfo cut short inside an intact header
            for cut in range(0, len(data), 4):
                out.append(('%s as %s, optinfo %d of %d' %
                            (name, kind, cut, len(data)),
                            opthdr(xid, OPTTYPES[kind], data[:cut])))
    out.append(('unknown opttype 9', opthdr(99, 9, arrs['xchar_updprop_vec'])))
    return out


def mutations(seed, count, base):
    rnd = random.Random(seed)
    out = []
    for i in range(count):
        name, msg = base[rnd.randrange(len(base))]
        m = bytearray(msg)
        if len(m) > 28:
            for _ in range(rnd.randrange(1, 4)):
                at = rnd.randrange(24, len(m))
                m[at] = rnd.choice([0, 1, 2, 3, 4, 0xff, rnd.randrange(256)])
        out.append(('random %d from %s' % (i, name), bytes(m)))
    return out


def cmd_gen(args):
    codec = Codec(args.codec)
    base = vectors(args.kunit)
    sets = [('v2-vectors', base, '01')]
    if args.random:
        valid = [v for v in base if codec.verdict(v[1])[0] == 'ok']
        sets.append(('v2-random', mutations(args.seed, args.random, valid),
                     '01'))
    # the same frames as the working copy reads them
    sets += [(name + '-wc', vecs, '2016-11-10') for name, vecs, _ in sets]
    for name, vecs, vbase in sets:
        w_hex = open('%s/%s.txt' % (args.outdir, name), 'w')
        w_exp = open('%s/%s.expect' % (args.outdir, name), 'w')
        for n, (desc, msg) in enumerate(vecs, 1):
            frame = roce_send(msg, n)
            for off in range(0, len(frame), 16):
                w_hex.write('%06x %s\n' % (off, frame[off:off + 16].hex(' ')))
            st, opttype, rbsiz, subsets, dup, hdrlen, err = \
                codec.verdict(msg, vbase)
            # The dissector claims Version Two only
            if st == 'not_version_2':
                st, opttype = '', None
            row = [str(n), '4', st,
                   '' if opttype is None else str(opttype),
                   '|'.join(rbsiz), '|'.join(subsets), hdrlen, err]
            row += ['1' if st == e or (e == 'duplicate_prop' and dup)
                    else '' for e in EXPERTS]
            w_exp.write('\t'.join(row) + '\t# ' + desc + '\n')
        w_hex.close()
        w_exp.close()
        print('%s %d %s' % (name, len(vecs), vbase))


def cmd_check(args):
    want = [line.rstrip('\n').split('\t# ') for line in open(args.expect)]
    got = [line.rstrip('\n').split('\t')[:len(FIELDS)]
           for line in open(args.actual)]
    bad = 0
    for i, (row, desc) in enumerate(want):
        exp = row.split('\t')
        have = got[i] + [''] * len(FIELDS) if i < len(got) else \
            [''] * len(FIELDS)
        diffs = []
        for k, w, h in zip(FIELDS, exp, have):
            if k in VALUE_FIELDS and exp[2] != 'ok':
                continue
            # where the header itself fails, the type may be unread
            if k == 'rpcrdma_v2.opttype' and exp[2] != 'ok':
                continue
            if w != h:
                diffs.append('    %s: expected "%s", tshark printed "%s"'
                             % (k, w, h))
        if not diffs:
            continue
        bad += 1
        if bad <= args.show:
            print('FAIL %s frame %d: %s' % (args.pcap, i + 1, desc))
            print('\n'.join(diffs))
    if len(got) != len(want):
        print('FAIL %s: tshark printed %d frames, expected %d'
              % (args.pcap, len(got), len(want)))
        bad += 1
    print('%d %d' % (len(want), bad))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    sub = ap.add_subparsers(dest='cmd', required=True)
    g = sub.add_parser('gen', help='write text2pcap input and expectations')
    g.add_argument('--codec', required=True, help='librpcrdma_xchar.so')
    g.add_argument('--kunit', required=True, action='append',
                   help='kunit/rpcrdma_xchar_test.c (and _sm_test.c)')
    g.add_argument('--outdir', required=True)
    g.add_argument('--seed', type=int, default=1)
    g.add_argument('--random', type=int, default=0)
    c = sub.add_parser('check', help='compare tshark fields output')
    c.add_argument('--pcap', default='')
    c.add_argument('--show', type=int, default=20)
    c.add_argument('expect')
    c.add_argument('actual')
    sub.add_parser('fields', help='the fields to ask tshark for')
    args = ap.parse_args()
    if args.cmd == 'gen':
        cmd_gen(args)
    elif args.cmd == 'check':
        cmd_check(args)
    else:
        print(' '.join(FIELDS))


if __name__ == '__main__':
    main()
