#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tidy.py PRISTINE FILE [SNIPPETS] : lay out the lines a fix rule added
as a maintainer would have typed them.

spatch prints the code a rule adds with its own spacing: a structure
member it adds is not aligned with its neighbours, and an assignment is
never wrapped, however long. A module does not care; a fix sent upstream
must read like the file around it. For each line of FILE that PRISTINE
does not have:

- a structure member declared after an aligned member gets that
  member's layout: its name starts in the same column, and a trailing
  comment follows a tab, as in the neighbouring lines;
- a #define after a #define takes its gap (a tab or spaces) and value
  column;
- a function definition's opening brace goes on a line of its own, and
  an iterator (list_for_each_entry() and the like) loses the space
  spatch puts before its parenthesis;
- an assignment longer than 80 columns is wrapped after its "=", the
  right-hand side one tab deeper.

A whole new function spatch would print in its own style (no space
after "for", conditions on one line), so a rule adds a marker comment
instead, "/* fix-insert: NAME */", and the function's text is
SNIPPETS/NAME.c (its SPDX line dropped).

FILE is rewritten in place. Nothing else changes.
"""

import difflib
import re
import sys

MEMBER = re.compile(r'^\t(?P<type>[A-Za-z_][\w ]*?[\w*])(?P<gap>[ \t]+)'
                    r'(?P<name>\**[A-Za-z_]\w*(\[\w*\])?;)'
                    r'(?P<comment>[ \t]*/\*.*\*/)?$')
DEFINE = re.compile(r'^#define(?P<gap1>\s+)(?P<name>\w+)(?P<gap2>\s+)(?P<value>\S.*)$')
FUNC_BRACE = re.compile(r'^(?P<head>(static )?[a-z].*\)) ?\{$')
ITERATOR = re.compile(r'^(?P<head>\s*\w*for_each\w*) \(')
INSERT = re.compile(r'^/\* fix-insert: (?P<name>\w+) \*/$')
ASSIGN = re.compile(r'^(?P<indent>\t+)(?P<lhs>[^=]*\S) = (?P<rhs>[^=].*;)$')


def width(text):
    """Columns TEXT takes, tabs at every 8."""
    col = 0
    for ch in text:
        col = (col // 8 + 1) * 8 if ch == '\t' else col + 1
    return col


def pad(start, column):
    """Whitespace from START to COLUMN, spaces as the neighbours use."""
    return ' ' * max(1, column - start)


def align(line, prev):
    """LINE laid out like the member PREV, or LINE when either is not one."""
    m, p = MEMBER.match(line), MEMBER.match(prev)
    if not m or not p:
        return line
    column = width('\t' + p.group('type') + p.group('gap'))
    head = '\t' + m.group('type')
    out = head + pad(width(head), column) + m.group('name')
    if m.group('comment'):
        out += '\t' + m.group('comment').strip()
    return out


def define(line, prev):
    """LINE, a #define, laid out like the #define PREV."""
    m, p = DEFINE.match(line), DEFINE.match(prev)
    if not m or not p:
        return line
    column = width('#define' + p.group('gap1') + p.group('name') +
                   p.group('gap2'))
    head = '#define' + p.group('gap1') + m.group('name')
    gap = p.group('gap2')
    if '\t' in gap:
        gap = '\t' * max(1, (column - width(head) + 7) // 8)
    else:
        gap = pad(width(head), column)
    return head + gap + m.group('value')


def spacing(line):
    """LINE with a brace or iterator spatch mislaid, as one or two lines."""
    m = FUNC_BRACE.match(line)
    if m:
        return [m.group('head'), '{']
    return [ITERATOR.sub(r'\g<head>(', line)]


def wrap(line):
    """LINE wrapped after its "=" when it is a long assignment."""
    m = ASSIGN.match(line)
    if width(line) <= 80 or not m:
        return [line]
    return [m.group('indent') + m.group('lhs') + ' =',
            m.group('indent') + '\t' + m.group('rhs')]


def insert(lines, snippets):
    """LINES with every fix-insert marker replaced by its snippet."""
    out = []
    for line in lines:
        m = INSERT.match(line)
        if not m:
            out.append(line)
            continue
        if not snippets:
            sys.exit("tidy.py: %s needs a snippet directory" % line)
        with open('%s/%s.c' % (snippets, m.group('name'))) as f:
            text = f.read().rstrip('\n').split('\n')
        out.extend(l for l in text if not l.startswith('// SPDX-'))
    return out


def main():
    pristine_path, path = sys.argv[1], sys.argv[2]
    snippets = sys.argv[3] if len(sys.argv) > 3 else None
    with open(pristine_path) as f:
        pristine = f.read().split('\n')
    with open(path) as f:
        lines = f.read().split('\n')
    out = []
    matcher = difflib.SequenceMatcher(None, pristine, lines, autojunk=False)
    for tag, _, _, j1, j2 in matcher.get_opcodes():
        for line in lines[j1:j2]:
            if tag in ('insert', 'replace'):
                if out:
                    line = define(align(line, out[-1]), out[-1])
                for part in spacing(line):
                    out.extend(wrap(part))
            else:
                out.append(line)
    with open(path, 'w') as f:
        f.write('\n'.join(insert(out, snippets)))


if __name__ == '__main__':
    main()
