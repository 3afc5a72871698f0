#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The C dissector (tools/wireshark/c) against the Lua one, field by field.

  compare-c.py fields lua|c|lua-v2|c-v2|conn
                                   the -e fields of each, in the same order
                                   (-v2: the Version Two plugins')
  compare-c.py tshark HOME SO PCAP ARGS...
                                   tshark with the C plugin SO on PCAP
  compare-c.py compare LUA C       two tshark -T fields outputs (fields lua
                                   and fields c, aggregator '|'), frame by
                                   frame; prints "N frames, M differ"
  compare-c.py compare-v2 LUA C    the same for the Version Two plugins
  compare-c.py gen-conn OUTDIR     connection vectors: RoCEv2 and iWARP
                                   connections with Sends, for the
                                   thresholds and the R warning
  compare-c.py check-conn EXPECT FIELDS
                                   their decode against what gen-conn
                                   expects; prints "N frames, M wrong"

The C plugin names its fields "rpcrdma.cm.*" where the Lua plugin has
"rpcrdma_cm.*" (R is rpcrdma.cm.flags.r and the reserved bits
rpcrdma.cm.flags.reserved). The two must print the same value for every
field of every frame, and the same expert info messages, with one
difference by design: the C heuristic only claims private data that
holds a Format Identifier (other consumers of the IB CM own the rest),
so on a frame where the Lua plugin says no_data or no_ident the C plugin
must say nothing at all, and the Lua plugin's "Not RFC 8797" note is
the only expert info the C run lacks.

Personal plugins are not loaded for root, so when root runs this the C
plugin and the pcap are staged under /tmp and tshark runs as nobody,
as tools/wireshark's Lua runs do for tshark 4.4 (scripts/vm/wirecheck.py).
"""

import importlib.util
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

# Lua name -> C name; the order is the -e order of both runs
FIELD_MAP = [
    ('rpcrdma_cm.carrier', 'rpcrdma.cm.carrier'),
    ('rpcrdma_cm.status', 'rpcrdma.cm.status'),
    ('rpcrdma_cm.length', 'rpcrdma.cm.length'),
    ('rpcrdma_cm.mpa_ird_ord', 'rpcrdma.cm.mpa_ird_ord'),
    ('rpcrdma_cm.offset', 'rpcrdma.cm.offset'),
    ('rpcrdma_cm.format_id', 'rpcrdma.cm.format_id'),
    ('rpcrdma_cm.version', 'rpcrdma.cm.version'),
    ('rpcrdma_cm.flags', 'rpcrdma.cm.flags'),
    ('rpcrdma_cm.reserved', 'rpcrdma.cm.flags.reserved'),
    ('rpcrdma_cm.r', 'rpcrdma.cm.flags.r'),
    ('rpcrdma_cm.send_size', 'rpcrdma.cm.send_size'),
    ('rpcrdma_cm.send_size.encoded', 'rpcrdma.cm.send_size.encoded'),
    ('rpcrdma_cm.recv_size', 'rpcrdma.cm.recv_size'),
    ('rpcrdma_cm.recv_size.encoded', 'rpcrdma.cm.recv_size.encoded'),
] + [('rpcrdma_cm.expert.' + e, 'rpcrdma.cm.expert.' + e)
     for e in ('truncated', 'bad_version', 'reserved', 'offset', 'mpa_short')]
# The Version Two plugin's fields: rpcrdma_v2.X in Lua, rpcrdma.v2.X in C
V2_NAMES = ['status', 'xid', 'vers', 'credit', 'proc', 'optdir', 'opttype',
            'optinfo_len', 'err', 'err_name', 'vers_low', 'vers_high',
            'segment_index', 'length_needed', 'direction', 'inv_handle',
            'reads', 'writes', 'reply_segments', 'hdrlen', 'propset',
            'propset.count', 'prop.which', 'prop.position', 'prop.len',
            'prop.rbsiz', 'prop.reqreminv', 'prop.brs', 'prop.default',
            'prop.data', 'subset', 'subset.words', 'subset.positions'] + \
    ['expert.' + e for e in ('xdr_overrun', 'bad_propval', 'duplicate_prop',
                             'unknown_prop', 'unknown_opttype')]
V2_MAP = [('rpcrdma_v2.' + n, 'rpcrdma.v2.' + n) for n in V2_NAMES]
COMMON = ['frame.number']
EXPERT = '_ws.expert.message'
ABSENT = ('no_data', 'no_ident')
NOT_8797 = 'Not RFC 8797: '
BOOLEANS = {'True': '1', 'False': '0'}

# Connection fields, for the gen-conn vectors
CONN_FIELDS = ['frame.number', 'rpcrdma.conn.direction',
               'rpcrdma.conn.threshold.c2s', 'rpcrdma.conn.threshold.s2c',
               'rpcrdma.conn.threshold', 'rpcrdma.conn.remote_inv',
               'rpcrdma.conn.send_len', 'rpcrdma.conn.send_inv',
               'rpcrdma.conn.expert.over_threshold',
               'rpcrdma.conn.expert.inv_without_r']


def fields(which):
    fmap = V2_MAP if which.endswith('-v2') else FIELD_MAP
    return COMMON + [lua if which.startswith('lua') else c
                     for lua, c in fmap] + [EXPERT]


def norm(v):
    return '|'.join(BOOLEANS.get(x, x) for x in v.split('|')) if v else v


def rows(path, n):
    out = {}
    with open(path) as f:
        for line in f:
            cols = line.rstrip('\n').split('\t')
            cols += [''] * (n - len(cols))
            out[cols[0]] = cols
    return out


def cmd_compare(lua_path, c_path, v2=False):
    n = len(fields('lua-v2' if v2 else 'lua'))
    lua, c = rows(lua_path, n), rows(c_path, n)
    names = fields('c-v2' if v2 else 'c')
    bad = 0
    for fr in sorted(set(lua) | set(c), key=lambda x: int(x or 0)):
        a, b = lua.get(fr), c.get(fr)
        if a is None or b is None:
            print('frame %s: only in the %s run' % (fr, 'C' if a is None
                                                    else 'Lua'))
            bad += 1
            continue
        la = [norm(x) for x in a[1:-1]]
        lb = [norm(x) for x in b[1:-1]]
        ea = [m for m in a[-1].split('|') if m and not m.startswith(NOT_8797)]
        eb = [m for m in b[-1].split('|') if m]
        status = '' if v2 else a[1 + FIELD_MAP.index(('rpcrdma_cm.status',
                                                      'rpcrdma.cm.status'))]
        if status in ABSENT:
            # the C heuristic leaves such private data to its owner
            la = [''] * len(la)
        diffs = [(names[i + 1], x, y) for i, (x, y) in enumerate(zip(la, lb))
                 if x != y]
        if ea != eb:
            diffs.append((EXPERT, '|'.join(ea), '|'.join(eb)))
        if diffs:
            bad += 1
            if bad <= 10:
                print('frame %s differs:' % fr)
                for name, x, y in diffs:
                    print('  %s: Lua %r, C %r' % (name, x, y))
    print('%d frames, %d differ' % (len(lua), bad))
    return 0 if bad == 0 else 1


def tshark_version():
    out = subprocess.run(['tshark', '--version'], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL,
                         universal_newlines=True).stdout
    m = re.search(r'TShark \(Wireshark\) (\d+)\.(\d+)', out)
    return '%s.%s' % (m.group(1), m.group(2)) if m else None


def cmd_tshark(home, so, pcap, args):
    """tshark with the plugin SO as HOME's personal plugin. Root loads no
    personal plugin: stage both under /tmp and run as nobody."""
    ver = tshark_version()
    if not ver:
        sys.exit('compare-c: no tshark (apt-get install tshark)')
    root = os.geteuid() == 0
    stage = tempfile.mkdtemp(prefix='rpcrdma-cm-c.', dir='/tmp') if root \
        else None
    try:
        if stage:
            os.chmod(stage, 0o755)
            home = os.path.join(stage, 'home')
            dst = os.path.join(stage, os.path.basename(pcap))
            shutil.copyfile(pcap, dst)
            os.chmod(dst, 0o644)
            pcap = dst
        pdir = os.path.join(home, '.local', 'lib', 'wireshark', 'plugins',
                            ver, 'epan')
        os.makedirs(pdir, exist_ok=True)
        shutil.copyfile(so, os.path.join(pdir, 'rpcrdma-cm.so'))
        pre = []
        if stage:
            for d, _, files in os.walk(stage):
                os.chmod(d, 0o755)
                for f in files:
                    os.chmod(os.path.join(d, f), 0o644)
            pre = ['setpriv', '--reuid=65534', '--regid=65534',
                   '--clear-groups', '--']
        cmd = pre + ['tshark', '-n', '-r', pcap] + args
        return subprocess.call(cmd, env=dict(os.environ, HOME=home),
                               cwd='/tmp')
    finally:
        if stage:
            shutil.rmtree(stage, ignore_errors=True)


# ---------------------------------------------------------------------
# Connection vectors

def gen_vectors():
    spec = importlib.util.spec_from_file_location(
        'gen_vectors', os.path.join(HERE, 'gen-vectors.py'))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def msg(r, send, recv):
    return bytes.fromhex('f6ab0e18') + bytes([1, r, send // 1024 - 1,
                                              recv // 1024 - 1])


def rpcrdma_v1(xid, size):
    """An RDMA_MSG header with empty chunk lists, padded to @size."""
    hdr = struct.pack('!IIIIIII', xid, 1, 32, 0, 0, 0, 0)
    return hdr + bytes(size - len(hdr))


def roce_rc(gv, op, dqp, psn, payload, src, dst, ext=None):
    pad = -len(payload) % 4
    bth = struct.pack('!BBHII', op, pad << 4, 0xffff, dqp & 0xffffff,
                      psn & 0xffffff)
    body = bth + (ext or b'') + payload + bytes(pad)
    udp = struct.pack('!HHHH', 0xc123, 4791, 8 + len(body) + 4, 0)
    pkt = gv.ipv4(src, dst, 17, udp + body + bytes(4))[:-4]
    return gv.ether(pkt + gv.icrc(pkt))


def fpdu(op, msn, mo, payload, last=True, inv_stag=0):
    """An untagged DDP segment (queue 0) in an MPA FPDU, no CRC."""
    # DDP: T=0, L, DV=1; RDMAP: RV=1, the opcode
    ctrl = struct.pack('!BB', (0x40 if last else 0) | 0x01, 0x40 | op)
    hdr = ctrl + struct.pack('!IIII', inv_stag, 0, msn, mo)
    ulpdu = hdr + payload
    body = struct.pack('!H', len(ulpdu)) + ulpdu
    # pad to 4 octets, then the CRC field (zero: siw negotiates no CRC)
    return body + bytes(-len(body) % 4) + bytes(4)


def cmd_gen_conn(outdir):
    """Three RoCEv2 and three iWARP connections, each with Sends both
    ways: ours (both R, 4096/4096, a Send With Invalidate: no warning), a
    stock Linux server's (R clear in the REP, yet Send With Invalidate:
    the R warning), and one whose client sends more than the server's
    Receive Size (2048): the threshold warning."""
    gv = gen_vectors()
    cases = [
        ('ours', msg(1, 4096, 4096), msg(1, 4096, 4096), 1000, True),
        ('stock-server', msg(1, 4096, 4096), msg(0, 4096, 4096), 1000, True),
        ('over-threshold', msg(1, 4096, 4096), msg(1, 4096, 2048), 3000,
         False),
    ]
    c_ip, s_ip = [10, 0, 0, 1], [10, 0, 0, 2]
    for carrier in ('roce', 'mpa'):
        w = gv.Writer(os.path.join(outdir, 'conn-' + carrier))
        for n, (name, creq, srep, clen, inv) in enumerate(cases):
            xid = 0x100 + n
            if carrier == 'roce':
                comm, cqp, sqp = 0x5000 + n, 0x11, 0x22
                req = gv.cm_req(comm, creq)
                rep = gv.cm_rep(comm, srep)
                # gen-vectors' REQ and REP carry QPNs 0x11 and 0x22
                frames = [(gv.roce_cm(0x0010, 2 * n, req, c_ip, s_ip), None),
                          (gv.roce_cm(0x0013, 2 * n + 1, rep, s_ip, c_ip),
                           None)]
                call = rpcrdma_v1(xid, clen)
                if clen > 2048:
                    frames.append((roce_rc(gv, 0x00, sqp, 1, call[:2048],
                                           c_ip, s_ip), ('c2s', None, None)))
                    frames.append((roce_rc(gv, 0x02, sqp, 2, call[2048:],
                                           c_ip, s_ip), ('c2s', clen, False)))
                else:
                    frames.append((roce_rc(gv, 0x04, sqp, 1, call, c_ip,
                                           s_ip), ('c2s', clen, False)))
                reply = rpcrdma_v1(xid, 600)
                op, ext = (0x17, struct.pack('!I', 0x1234)) if inv else \
                    (0x04, None)
                frames.append((roce_rc(gv, op, cqp, 1, reply, s_ip, c_ip,
                                       ext), ('s2c', 600, inv)))
            else:
                port = 40000 + n
                req = gv.mpa(gv.MPA_REQ_KEY, 2, 'req', creq)
                rep = gv.mpa(gv.MPA_REP_KEY, 2, 'rep', srep)
                cseq, sseq = 1 + len(req), 1 + len(rep)
                frames = [(gv.tcp(port, 20049, 1, 1, req, c_ip, s_ip), None),
                          (gv.tcp(20049, port, 1, cseq, rep, s_ip, c_ip),
                           None)]
                call = fpdu(0x3, 1, 0, rpcrdma_v1(xid, clen))
                frames.append((gv.tcp(port, 20049, cseq, sseq, call, c_ip,
                                      s_ip), ('c2s', clen, False)))
                cseq += len(call)
                reply = fpdu(0x4 if inv else 0x3, 1, 0, rpcrdma_v1(xid, 600),
                             inv_stag=0x1234 if inv else 0)
                frames.append((gv.tcp(20049, port, sseq, cseq, reply, s_ip,
                                      c_ip), ('s2c', 600, inv)))
            for data, exp in frames:
                w.frames += 1
                for off in range(0, len(data), 16):
                    w.hex.write('%06x %s\n' % (off, ' '.join(
                        '%02x' % x for x in data[off:off + 16])))
                w.hex.write('\n')
                w.exp.write('%d\t%s\t%s\n' % (w.frames, name, conn_expect(
                    exp, creq, srep)))
        w.close()
        print('conn-%s %d' % (carrier, w.frames))


def conn_expect(exp, creq, srep):
    """The CONN_FIELDS values (after frame.number) frame @exp must show."""
    if exp is None:
        return '\t'.join([''] * (len(CONN_FIELDS) - 1))
    d, length, inv = exp
    c_r, c_send, c_recv = creq[5], (creq[6] + 1) * 1024, (creq[7] + 1) * 1024
    s_r, s_send, s_recv = srep[5], (srep[6] + 1) * 1024, (srep[7] + 1) * 1024
    c2s, s2c = min(c_send, s_recv), min(s_send, c_recv)
    th = c2s if d == 'c2s' else s2c
    both = '1' if c_r and s_r else '0'
    done = length is not None
    vals = ['client to server' if d == 'c2s' else 'server to client',
            str(c2s), str(s2c), str(th), both,
            str(length) if done else '',
            ('1' if inv else '0') if done else '',
            '1' if done and length > th else '',
            '1' if done and inv and both == '0' else '']
    return '\t'.join(vals)


def cmd_check_conn(expect, fields_path):
    got = rows(fields_path, len(CONN_FIELDS))
    bad = n = 0
    with open(expect) as f:
        for line in f:
            cols = line.rstrip('\n').split('\t')
            fr, name, want = cols[0], cols[1], cols[2:]
            n += 1
            have = [norm(x) for x in got.get(fr, [fr] + [''] *
                                             (len(CONN_FIELDS) - 1))[1:]]
            # an expert field prints its message; only its presence counts
            have[-2:] = ['1' if x else '' for x in have[-2:]]
            if have != want:
                bad += 1
                print('frame %s (%s):' % (fr, name))
                for k, w, h in zip(CONN_FIELDS[1:], want, have):
                    if w != h:
                        print('  %s: want %r, got %r' % (k, w, h))
    print('%d frames, %d wrong' % (n, bad))
    return 0 if bad == 0 else 1


def main():
    a = sys.argv[1:]
    if a[:1] == ['fields'] and len(a) == 2:
        print(' '.join(CONN_FIELDS if a[1] == 'conn' else fields(a[1])))
    elif a[:1] == ['tshark'] and len(a) >= 4:
        return cmd_tshark(a[1], a[2], a[3], a[4:])
    elif a[:1] == ['compare'] and len(a) == 3:
        return cmd_compare(a[1], a[2])
    elif a[:1] == ['compare-v2'] and len(a) == 3:
        return cmd_compare(a[1], a[2], v2=True)
    elif a[:1] == ['gen-conn'] and len(a) == 2:
        cmd_gen_conn(a[1])
    elif a[:1] == ['check-conn'] and len(a) == 3:
        return cmd_check_conn(a[1], a[2])
    else:
        sys.exit(__doc__)
    return 0


if __name__ == '__main__':
    sys.exit(main())
