#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""restore_comments.py PRISTINE FILE : undo one side effect of spatch.

When a rule adds a line after an anchor line that ends with a trailing
comment, e.g.

    #include <linux/sunrpc/rpc_rdma.h> 	/* RPC/RDMA protocol */

spatch leaves the anchor bare and moves the comment to the line it
added. The module does not care; a patch for review must not move
upstream's comments. For every line of FILE that PRISTINE has with a
trailing comment but FILE has without it, take that comment back from
the first following line that ends with it. FILE is rewritten in place.
"""

import re
import sys

TRAIL = re.compile(r'^(?P<code>.*?\S)(?P<gap>[ \t]+)(?P<comment>/\*.*\*/)$')


def main():
    pristine_path, path = sys.argv[1], sys.argv[2]
    with open(pristine_path) as f:
        pristine = f.read().split('\n')
    with open(path) as f:
        lines = f.read().split('\n')
    commented = {}
    for line in pristine:
        m = TRAIL.match(line)
        if m:
            commented.setdefault(m.group('code'), (m.group('gap'),
                                                   m.group('comment')))
    for i, line in enumerate(lines):
        if line not in commented:
            continue
        gap, comment = commented[line]
        for j in range(i + 1, min(i + 4, len(lines))):
            m = TRAIL.match(lines[j])
            if m and m.group('comment') == comment:
                lines[j] = m.group('code')
                lines[i] = line + gap + comment
                break
    with open(path, 'w') as f:
        f.write('\n'.join(lines))


if __name__ == '__main__':
    main()
