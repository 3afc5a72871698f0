#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""carve.py FILE REGEX... : remove from one of the project's own C files
the pieces a later patch of `make patches` adds, so an earlier patch of
the series carries the file without them.

Every line matching a REGEX (Python syntax, searched) removes:
  - when it is inside a comment: the line and the lines that continue
    it, up to an empty comment line (" *"), the next kernel-doc @field
    or the end of the comment (a kernel-doc @field, or a paragraph);
  - the top-level unit it starts in, when it is at brace and parenthesis
    depth 0: a function with its kernel-doc comment, a prototype, a
    declaration, a macro invocation, or one preprocessor directive;
  - the statement it starts, when it is inside a block: from the line
    to the first line that ends with ';'.
Then blank lines are tidied the way checkpatch wants: never two in a
row, none right after '{' or right before '}', none at the end; and
so are empty comment lines: never two in a row, none right before the
end of the comment.
The file is rewritten in place; a REGEX that matches no line of the
file (even one another REGEX removes) is an error: the series would
silently carry what it was meant to hold back.
"""

import re
import sys


def strip_noncode(line, in_comment):
    """Return (code, in_comment): line without comments and literals."""
    out = []
    i = 0
    while i < len(line):
        if in_comment:
            j = line.find('*/', i)
            if j < 0:
                return ''.join(out), True
            i = j + 2
            in_comment = False
            continue
        c = line[i]
        if line.startswith('/*', i):
            in_comment = True
            i += 2
            continue
        if line.startswith('//', i):
            break
        if c in '"\'':
            j = i + 1
            while j < len(line) and line[j] != c:
                j += 2 if line[j] == '\\' else 1
            i = j + 1
            continue
        out.append(c)
        i += 1
    return ''.join(out), in_comment


def analyse(lines):
    """Per line: (depth at start, inside a comment at start, code)."""
    info = []
    depth = 0
    in_comment = False
    for line in lines:
        code, after = strip_noncode(line, in_comment)
        comment_line = in_comment or (code.strip() == '' and
                                      line.strip().startswith(('/*', '*')))
        info.append((depth, comment_line, code))
        depth += code.count('{') + code.count('(')
        depth -= code.count('}') + code.count(')')
        in_comment = after
    return info


def units(lines, info):
    """Top-level units as [start, end) line ranges."""
    res = []
    start = None
    for i, line in enumerate(lines):
        depth, comment_line, code = info[i]
        nxt = info[i + 1][0] if i + 1 < len(lines) else 0
        if line.strip() == '' and depth == 0:
            if start is not None:
                res.append((start, i))
                start = None
            continue
        if start is None:
            start = i
        if comment_line or nxt != 0:
            continue
        s = code.rstrip()
        if line.rstrip().endswith('\\'):
            continue
        if s.endswith((';', '}')) or line.lstrip().startswith('#') or \
           s.endswith(')') and re.match(r'^[A-Z_]+\(', line):
            res.append((start, i + 1))
            start = None
    if start is not None:
        res.append((start, len(lines)))
    return res


def comment_end(lines, info, i):
    """End of the comment text line I starts: the line after its last
    continuation line."""
    if '*/' in lines[i]:
        return i + 1
    j = i + 1
    while j < len(lines) and info[j][1]:
        s = lines[j].strip()
        if s in ('*', '*/') or s.startswith('* @'):
            break
        j += 1
        if s.endswith('*/'):
            break
    return j


def carve(lines, regexes):
    info = analyse(lines)
    unit_of = {}
    for s, e in units(lines, info):
        for i in range(s, e):
            unit_of[i] = (s, e)
    drop = set()
    for rx in regexes:
        pat = re.compile(rx)
        hit = False
        for i, line in enumerate(lines):
            if not pat.search(line):
                continue
            hit = True
            if i in drop:
                continue
            depth, comment_line, _ = info[i]
            if comment_line:
                drop.update(range(i, comment_end(lines, info, i)))
            elif depth == 0:
                s, e = unit_of.get(i, (i, i + 1))
                drop.update(range(s, e))
            else:
                j = i
                while j < len(lines) and not lines[j].rstrip().endswith(';'):
                    j += 1
                drop.update(range(i, j + 1))
        if not hit:
            raise SystemExit('carve.py: %r matches nothing' % rx)
    kept = [line for i, line in enumerate(lines) if i not in drop]
    out = []
    for line in kept:
        if line.strip() in ('*', '*/') and out and out[-1].strip() == '*':
            out.pop()
        blank = line.strip() == ''
        if blank and (not out or out[-1].strip() == '' or
                      out[-1].rstrip().endswith('{')):
            continue
        if line.strip().startswith('}') and out and out[-1].strip() == '':
            out.pop()
        out.append(line)
    while out and out[-1].strip() == '':
        out.pop()
    return out


def main():
    if len(sys.argv) < 3:
        raise SystemExit('usage: carve.py FILE REGEX...')
    path = sys.argv[1]
    with open(path) as f:
        lines = f.read().split('\n')
    if lines and lines[-1] == '':
        lines.pop()
    out = carve(lines, sys.argv[2:])
    with open(path, 'w') as f:
        f.write('\n'.join(out) + '\n')


if __name__ == '__main__':
    main()
