#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Where a running guest's CPU goes, sampled through QEMU's monitor.

The VM rig starts every guest with its monitor on two FIFOs beside the
console log (LOG.mon.in, LOG.mon.out; scripts/vm/lib.sh). This asks
"info registers" every INTERVAL seconds for SECONDS seconds, keeps each
sample's RIP and names the kernel function it falls in from the guest
kernel's System.map. No tool runs in the guest and nothing in it
changes, so it works on the debug kernels, whose guests have no perf,
and under TCG, which has no PMU. A sample is where the vCPU was between
two translation blocks: a statistical profile, good for shares of ten
per cent and more, not for small ones.

Module text is not in System.map: a sample past the kernel's own text
(_etext up to the init and data sections' ends) counts as "[modules]".

    scripts/vm/guestprof.py LOG [--seconds 60] [--interval 0.1]
                            [--map System.map] [--top 25]

Run it while the pair is up, e.g. on a scenario's server log under
build/vm/<release>/logs/<run>/<pair>/server.log. --map defaults to the
debug kernel's build/System.map in the cache when LOG's path names a
debug kernel release.
"""

import argparse
import bisect
import collections
import os
import re
import sys
import threading
import time

# A function's group, by the first pattern that matches its name
GROUPS = [
    ("lockdep", re.compile(r"^(__)?lock_(acquire|release|is_held|acquired|contended)"
                           r"|^(mark_lock|find_held_lock|match_held_lock|check_chain_key"
                           r"|validate_chain|lockdep_|debug_lockdep_rcu_enabled"
                           r"|rcu_is_watching|trace_hardirqs_(on|off)|lock_is_held_type)")),
    ("stack unwinding", re.compile(r"^(unwind_|__unwind|arch_stack_walk|__orc_find|orc_find"
                                   r"|stack_trace_|stack_access_ok|__kernel_text_address"
                                   r"|kernel_text_address|is_module_text_address"
                                   r"|__module_address|mod_find|__read_once_word_nocheck"
                                   r"|stack_depot_)")),
    ("kasan", re.compile(r"kasan")),
    ("kmemleak", re.compile(r"^(__)?(kmemleak|link_object|lookup_object|create_object"
                            r"|delete_object|scan_block|scan_)")),
    ("idle", re.compile(r"^(default_idle|cpu_idle|do_idle|poll_idle|acpi_idle)")),
]


def load_map(path):
    """Text symbols of System.map, sorted by address, and the address
    past which the kernel image ends (module text lies beyond it)"""
    syms = []
    end = 0
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) < 3:
                continue
            a = int(parts[0], 16)
            if parts[2] == "_end":
                end = a
            if parts[1] in "tTwW":
                syms.append((a, parts[2]))
    syms.sort()
    return [a for a, _ in syms], [n for _, n in syms], end or syms[-1][0]


def sample(log, seconds, interval):
    """RIPs of LOG's guest, one per 'info registers' answered"""
    raw = []
    out = open(log + ".mon.out", "rb", buffering=0)
    stop = threading.Event()

    def reader():
        while not stop.is_set():
            chunk = out.read(65536)
            if not chunk:
                break
            raw.append(chunk)

    t = threading.Thread(target=reader, daemon=True)
    t.start()
    with open(log + ".mon.in", "w") as mon:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            mon.write("info registers\n")
            mon.flush()
            time.sleep(interval)
    time.sleep(2)
    stop.set()
    text = b"".join(raw).decode("ascii", "replace")
    return [int(m, 16) for m in re.findall(r"RIP=([0-9a-f]{16})", text)]


def default_map(log):
    m = re.search(r"/vm/([^/]*-dbg-[0-9a-f]+)/", os.path.abspath(log))
    if not m:
        return None
    cache = os.environ.get("RPCRDMA_CM_CACHE", "/var/cache/rpcrdma-cm")
    path = os.path.join(cache, "kernels", m.group(1), "build", "System.map")
    return path if os.path.exists(path) else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("log", help="the guest's console log (LOG.mon.in and LOG.mon.out beside it)")
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--interval", type=float, default=0.1)
    ap.add_argument("--map", help="the guest kernel's System.map")
    ap.add_argument("--top", type=int, default=25)
    a = ap.parse_args()

    smap = a.map or default_map(a.log)
    if not smap:
        sys.exit("guestprof: no System.map for %s: give --map (a debug kernel's is "
                 "<cache>/kernels/<release>/build/System.map)" % a.log)
    for f in (a.log + ".mon.in", a.log + ".mon.out"):
        if not os.path.exists(f):
            sys.exit("guestprof: no %s: is the pair still running, started by the VM rig?" % f)
    addrs, names, image_end = load_map(smap)
    rips = sample(a.log, a.seconds, a.interval)
    if not rips:
        sys.exit("guestprof: the monitor answered no 'info registers' in %g s" % a.seconds)

    funcs = collections.Counter()
    for rip in rips:
        if rip >= image_end:
            funcs["[modules]"] += 1
            continue
        i = bisect.bisect_right(addrs, rip) - 1
        funcs[names[i] if i >= 0 else "[unknown]"] += 1
    groups = collections.Counter()
    for name, n in funcs.items():
        g = next((g for g, rx in GROUPS if rx.search(name)), "other")
        groups["modules" if name == "[modules]" else g] += n

    total = len(rips)
    print("guestprof: %d samples of %s over %g s (%s)" % (total, a.log, a.seconds, smap))
    print("by group:")
    for g, n in groups.most_common():
        print("  %5.1f%%  %s" % (100.0 * n / total, g))
    print("by function (top %d):" % a.top)
    for name, n in funcs.most_common(a.top):
        print("  %5.1f%%  %5d  %s" % (100.0 * n / total, n, name))


if __name__ == "__main__":
    main()
