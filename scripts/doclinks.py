#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check the relative links of the tree's Markdown files.

Every [text](target) and ![alt](image) whose target is not a URL must
name a file of the tree, and a #fragment must name a heading of that
file (GitHub's anchors: lower case, punctuation dropped, spaces to
hyphens, -1, -2 ... for repeats) or an explicit <a id="..."></a>.
Without arguments: every *.md that git tracks, plus any untracked one
under Documentation/. Prints one line per broken link; exit status 1
when there is any, 0 otherwise.

    scripts/doclinks.py [FILE.md ...]
"""

import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINK = re.compile(r'!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^()\s]+(?:\([^()]*\))?)(?:\s+"[^"]*")?\)')
HEADING = re.compile(r'^(#{1,6})\s+(.*?)\s*#*\s*$')
ANCHOR = re.compile(r'<a\s+(?:id|name)="([^"]+)"')
FENCE = re.compile(r'^\s*(```|~~~)')


def slug(text):
    """GitHub's anchor for a heading's text."""
    text = re.sub(r'`([^`]*)`', r'\1', text)
    text = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', text)
    text = text.strip().lower()
    text = re.sub(r'[^\w\- ]', '', text)
    return text.replace(' ', '-')


def lines_outside_code(path):
    """The file's lines, fenced code blocks and indented code left out."""
    out = []
    fenced = False
    with open(path, encoding='utf-8') as f:
        for no, line in enumerate(f, 1):
            if FENCE.match(line):
                fenced = not fenced
                continue
            if fenced or line.startswith('    ') or line.startswith('\t'):
                continue
            out.append((no, line))
    return out


_anchors = {}


def anchors(path):
    """Every anchor a link may name in PATH."""
    if path not in _anchors:
        seen = {}
        found = set()
        for _, line in lines_outside_code(path):
            for a in ANCHOR.findall(line):
                found.add(a)
            m = HEADING.match(line)
            if not m:
                continue
            s = slug(m.group(2))
            n = seen.get(s, 0)
            seen[s] = n + 1
            found.add(s if n == 0 else '%s-%d' % (s, n))
        _anchors[path] = found
    return _anchors[path]


def inline_code_stripped(line):
    return re.sub(r'`[^`]*`', '', line)


def check(path):
    bad = []
    base = os.path.dirname(path)
    for no, line in lines_outside_code(path):
        for target in LINK.findall(inline_code_stripped(line)):
            if re.match(r'^[a-z][a-z0-9+.-]*:', target) or target.startswith('//'):
                continue
            file_part, _, frag = target.partition('#')
            dest = os.path.normpath(os.path.join(base, file_part)) if file_part else path
            where = '%s:%d' % (os.path.relpath(path, TOP), no)
            if not os.path.exists(dest):
                bad.append('%s: %s: no such file' % (where, target))
                continue
            if frag and dest.endswith('.md') and frag not in anchors(dest):
                bad.append('%s: %s: no heading or anchor "%s" in %s' %
                           (where, target, frag, os.path.relpath(dest, TOP)))
    return bad


def tree_files():
    out = subprocess.run(['git', '-C', TOP, 'ls-files', '--cached', '--others',
                          '--exclude-standard', '*.md'],
                         capture_output=True, text=True, check=True).stdout
    return [os.path.join(TOP, f) for f in out.split()
            if not f.startswith('build/') and os.path.exists(os.path.join(TOP, f))]


def main(argv):
    files = [os.path.abspath(a) for a in argv] or tree_files()
    bad = []
    for f in files:
        bad += check(f)
    for b in bad:
        print(b)
    if bad:
        print('%d broken link(s) in %d file(s)' % (len(bad), len(files)), file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
