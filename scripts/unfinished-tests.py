#!/usr/bin/env python3
"""Prints, on one line, the Swift Testing tests that a `swift test` log shows started but never finished.

scripts/test.sh calls it when `swift test` ends without its summary (the test process crashed or was killed): the
tests named are those that were running when it died. Usage: scripts/unfinished-tests.py LOG STATUS
"""
import collections
import re
import sys

started = re.compile(r"^\S+ Test (?!run started\.$)(.+) started\.$")
ended = re.compile(r"^\S+ Test (.+?) (?:passed|failed) after |^\S+ Test (.+?) skipped")

log, status = sys.argv[1], int(sys.argv[2])
running = collections.Counter()
order = []
with open(log, encoding="utf-8", errors="replace") as lines:
    for line in lines:
        line = line.rstrip("\n")
        if match := started.match(line):
            running[match[1]] += 1
            order.append(match[1])
        elif match := ended.match(line):
            name = match[1] or match[2]
            if running[name] > 0:
                running[name] -= 1

unfinished = []
for name in order:
    if running[name] > 0 and name not in unfinished:
        unfinished.append(name)
cause = f"signal {status - 128}" if status > 128 else f"exit status {status}"
if unfinished:
    print(f"swift test stopped without its summary ({cause}) while {len(unfinished)} test(s) ran: " + "; ".join(unfinished))
else:
    print(f"swift test stopped without its summary ({cause}) with no test running (before the first or after the last)")
