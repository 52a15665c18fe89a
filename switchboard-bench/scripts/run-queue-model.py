#!/usr/bin/env python3
"""Every interleaving of the shared queue's protocol (RunQueue): OFFERS offers from outside, TAKERS busy workers
that poll once, POOL pool threads that run pumps. Reports terminal states in which an entry waits with no pump
(stranded) and the most pumps ever waiting. Usage: python3 run-queue-model.py [OFFERS TAKERS POOL]

State: E entries, P pumps submitted and not started, pend (RunQueue.pending), program counters, entries run.
An offer: enqueue; then submit a pump if pend is 0 (CAS 0 -> 1). A pump: pend = 0; then, as long as it likes
(until its worker has local tasks): poll; if it got an entry and entries remain, submit a pump if pend is 0; run
the entry. A busy worker: poll."""
import sys

OFFERS, TAKERS, POOL = (int(a) for a in (sys.argv[1:4] if len(sys.argv) > 3 else (3, 2, 2)))


def steps(s):
    E, P, pend, op, tk, pt, ran = s
    out = []
    if op < 2 * OFFERS:
        if op % 2 == 0:
            out.append((E + 1, P, pend, op + 1, tk, pt, ran))
        elif pend == 0:
            out.append((E, P + 1, 1, op + 1, tk, pt, ran))
        else:
            out.append((E, P, pend, op + 1, tk, pt, ran))
    for i, pc in enumerate(tk):
        if pc == 0:
            t = tk[:i] + (1,) + tk[i + 1:]
            out.append((E - 1, P, pend, op, t, pt, ran + 1) if E > 0 else (E, P, pend, op, t, pt, ran))
    for i, pc in enumerate(pt):
        def u(n):
            return pt[:i] + (n,) + pt[i + 1:]
        if pc == 0 and P > 0:
            out.append((E, P - 1, pend, op, tk, u(1), ran))           # the pool starts a pump
        elif pc == 1:
            out.append((E, P, 0, op, tk, u(2), ran))                   # pending = 0
        elif pc == 2:
            out.append((E - 1, P, pend, op, tk, u(3), ran + 1) if E > 0 else (E, P, pend, op, tk, u(0), ran))
        elif pc == 3:
            out.append((E, P, pend, op, tk, u(4) if E > 0 else u(5), ran))
        elif pc == 4:                                                   # signal, run the entry, then poll
            out.append((E, P + 1, 1, op, tk, u(5), ran) if pend == 0 else (E, P, pend, op, tk, u(5), ran))
        elif pc == 5:                                                   # again, or stop (local tasks wait)
            out.append((E, P, pend, op, tk, u(2), ran))
            out.append((E, P, pend, op, tk, u(0), ran))
    return out


start = (0, 0, 0, 0, (0,) * TAKERS, (0,) * POOL, 0)
seen, todo, stranded, most = {start}, [start], [], 0
while todo:
    s = todo.pop()
    most = max(most, s[1])
    nxt = steps(s)
    if not nxt and (s[0] > 0 or s[6] != OFFERS):
        stranded.append(s)
    for n in nxt:
        if n not in seen:
            seen.add(n)
            todo.append(n)
print(f"{OFFERS} offers, {TAKERS} takers, {POOL} pool threads: {len(seen)} states, "
      f"{len(stranded)} stranded, at most {most} pump(s) waiting")
sys.exit(1 if stranded else 0)
