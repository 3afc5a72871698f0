#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Place rpcrdma-cm's dissector code into a fetched Wireshark source tree.

  place.py TREE PLUGIN_SOURCE MPA_SNIPPET

TREE is an unpacked Wireshark source (apt-get source wireshark);
PLUGIN_SOURCE is tools/wireshark/c/packet-rpcrdma-cm.c already passed
through unifdef -DRPCRDMA_CM_UPSTREAM; MPA_SNIPPET is
tools/wireshark/upstream/iwarp-mpa-private.c. Only this project's code
is written; each piece goes at an anchor found by the shape of the code
around it (a declaration, a registration call), and every anchor must
match exactly once, or nothing is written and the exit code is 1: a
Wireshark release whose code has another shape needs its anchors
looked at, not a silent half-patch.

What differs between Wireshark releases is read from TREE itself: the
heuristic dissector's return type (bool from 4.2, gboolean before),
whether field_info holds its value or a pointer to it, whether
tvb_get_uint8 exists, and the type and initializer of the files' hf
variables.
"""

import os
import re
import sys


class Anchor(Exception):
    pass


def read(path):
    with open(path) as f:
        return f.read()


def one(lines, pattern, start=0, what=None):
    """The index of the one line at or after @start matching @pattern."""
    rx = re.compile(pattern)
    hits = [i for i in range(start, len(lines)) if rx.search(lines[i])]
    if len(hits) != 1:
        raise Anchor('%s: %d lines match /%s/ (need exactly one)' %
                     (what or 'anchor', len(hits), pattern))
    return hits[0]


def first(lines, pattern, start, what):
    rx = re.compile(pattern)
    for i in range(start, len(lines)):
        if rx.search(lines[i]):
            return i
    raise Anchor('%s: no line matches /%s/ after line %d' %
                 (what, pattern, start + 1))


def snippets(text):
    """The "@@ name @@" sections of the MPA snippet."""
    out, name = {}, None
    for line in text.split('\n'):
        m = re.match(r'^@@ (\w+) @@$', line)
        if m:
            name = m.group(1)
            out[name] = []
        elif name:
            out[name].append(line)
    return {k: '\n'.join(v).strip('\n').split('\n') for k, v in out.items()}


def tree_facts(tree):
    packet_h = read(os.path.join(tree, 'epan', 'packet.h'))
    proto_h = read(os.path.join(tree, 'epan', 'proto.h'))
    tvbuff_h = read(os.path.join(tree, 'epan', 'tvbuff.h'))
    return {
        'heur_bool': re.search(r'typedef\s+bool\s*\(\s*\*\s*heur_dissector_t',
                               packet_h) is not None,
        'fvalue_ptr': re.search(r'fvalue_t\s*\*\s*value;', proto_h)
        is not None,
        'get_uint8': re.search(r'\btvb_get_uint8\s*\(', tvbuff_h) is not None,
    }


def hf_style(line):
    """(type, initializer) of a "static gint hf_x = -1;" line."""
    m = re.match(r'^static\s+(\w+)\s+\w+(\s*=\s*-1)?\s*;', line)
    if not m:
        raise Anchor('cannot read the hf declaration style of: ' + line)
    return m.group(1), m.group(2) or ''


def adapt(text, facts):
    """Our C, written for the plugin's compat header, for this tree."""
    text = text.replace('heur_ret_t', 'bool' if facts['heur_bool']
                        else 'gboolean')
    text = re.sub(r'FI_VALUE\((\w+)\)', (r'\1->value' if facts['fvalue_ptr']
                                          else r'&\1->value'), text)
    if not facts['get_uint8']:
        text = re.sub(r'\btvb_get_uint8\b', 'tvb_get_guint8', text)
    return text


def place_mpa(tree, snippet, facts):
    path = os.path.join(tree, 'epan', 'dissectors', 'packet-iwarp-mpa.c')
    lines = read(path).split('\n')
    parts = snippets(snippet)
    i = one(lines, r'^static\s+\w+\s+hf_mpa_private_data\b', what='MPA hf')
    hf_type, hf_init = hf_style(lines[i])

    def sub(name):
        return [adapt(l, facts).replace('@INT@', hf_type)
                .replace('@INIT@', hf_init) for l in parts[name]]

    edits = []      # (index to insert after, lines), applied bottom up
    edits.append((i, [''] + sub('decls')))
    # the function goes ahead of dissect_mpa_req_rep and its comment
    d = one(lines, r'^dissect_mpa_req_rep\s*\(', what='dissect_mpa_req_rep')
    b = d
    while b > 0 and lines[b - 1].strip() != '':
        b -= 1
    edits.append((b - 1, sub('function') + ['']))
    # the call, right after the private data item of that function
    p = one(lines, r'hf_mpa_private_data,\s*tvb,\s*offset', d,
            what='private data item')
    e = first(lines, r'pd_length,\s*ENC_NA\);', p, 'private data item end')
    edits.append((e, sub('call')))
    # registrations
    h = one(lines, r'\{\s*&hf_mpa_private_data,', what='hf entry')
    edits.append((first(lines, r'HFILL\s*\}\s*\},', h, 'hf entry end'),
                  sub('hf')))
    t = one(lines, r'\*\s*ett\[\]\s*=', what='ett array')
    edits.append((first(lines, r'&ett_mpa,', t, 'ett_mpa entry'), sub('ett')))
    edits.append((one(lines, r'\{\s*&ei_mpa_bad_length,', what='ei entry'),
                  sub('ei')))
    edits.append((one(lines, r'expert_register_field_array\(expert_iwarp_mpa',
                      what='expert registration'), sub('register')))
    for at, new in sorted(edits, key=lambda x: -x[0]):
        lines[at + 1:at + 1] = new
    return path, '\n'.join(lines)


def intro(src):
    """Our file's header comment, less its name line, SPDX and the
    paragraph about rpcrdma-cm, as the section's comment."""
    m = re.search(r'/\* packet-rpcrdma-cm\.c\n(.*?)\n \*/', src, re.S)
    body = m.group(1).split('\n')
    keep = []
    for line in body:
        if line.startswith(' * Part of rpcrdma-cm'):
            break
        keep.append(line)
    while keep and keep[-1].strip() == '*':
        keep.pop()
    return ['/*'] + keep + [' */']


def place_rpcrdma(tree, src, facts):
    path = os.path.join(tree, 'epan', 'dissectors', 'packet-rpcrdma.c')
    text = read(path)
    lines = text.split('\n')
    src = adapt(src, facts)
    # what follows our includes is the code; our includes join theirs
    body = src.split('\n')
    inc = [l for l in body if l.startswith('#include <epan/')]
    start = one(body, r'^#define RPCRDMA_CM_FORMAT_ID', what='our code')
    code = body[start:]
    code = [re.sub(r'\bproto_rpcrdma\b', 'proto_rpcordma', l) for l in code]
    code = [l.replace('"rpcrdma.', '"rpcordma.') for l in code]
    if '= -1;' not in ''.join(l for l in lines if l.startswith('static int hf_rpcordma_xid')):
        code = [re.sub(r'^(static int (hf|ett)_\w+) = -1;$', r'\1;', l)
                for l in code]
    while code and code[-1] == '':
        code.pop()

    edits = []
    last_inc = max(i for i, l in enumerate(lines)
                   if l.startswith('#include <epan/'))
    missing = [l for l in inc if l not in lines]
    # a dissector's header is included there by its local name
    missing = [l for l in missing if '#include "%s"' % os.path.basename(
        l.split('<')[1].rstrip('>')) not in lines]
    if missing:
        edits.append((last_inc, missing))
    r = one(lines, r'^proto_register_rpcordma\s*\(void\)', what='register')
    if lines[r - 1].strip() != 'void':
        raise Anchor('proto_register_rpcordma is not preceded by "void"')
    edits.append((r - 2, intro(src) + [''] + code + ['']))
    edits.append((first(lines, r'proto_register_subtree_array\(ett,', r,
                        'rpcordma subtree registration'),
                  ['', '    rpcordma_cm_register();']))
    h = one(lines, r'^proto_reg_handoff_rpcordma\s*\(void\)', what='handoff')
    edits.append((first(lines, r'rpc_handler\s*=\s*find_dissector', h,
                        'rpc handle lookup'),
                  ['', '    rpcordma_cm_handoff();']))
    for at, new in sorted(edits, key=lambda x: -x[0]):
        lines[at + 1:at + 1] = new
    return path, '\n'.join(lines)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    tree, src, snippet = sys.argv[1:]
    try:
        facts = tree_facts(tree)
        out = [place_mpa(tree, read(snippet), facts),
               place_rpcrdma(tree, read(src), facts)]
    except (Anchor, OSError) as e:
        print('place.py: %s; nothing written' % e, file=sys.stderr)
        return 1
    for path, text in out:
        with open(path, 'w') as f:
            f.write(text)
        print('placed: %s' % os.path.relpath(path, tree))
    print('tree: heuristic returns %s, field_info value %s, %s' % (
        'bool' if facts['heur_bool'] else 'gboolean',
        'pointer' if facts['fvalue_ptr'] else 'embedded',
        'tvb_get_uint8' if facts['get_uint8'] else 'tvb_get_guint8'))
    return 0


if __name__ == '__main__':
    sys.exit(main())
