"""Building min/max networks, as the generators share them: Batcher's sorting network, a graph
of min/max operations with Batcher's merges (the tiled generators), the ranks a tile's merged
list keeps, which maxes go to the FMA pipe, and median selection pruned to what the median
needs (the whole-window and temporal networks)."""
import math
import random

HIGH, LOW = "+inf", "-inf"  # the values select_network knows to lie above or below the median


def batcher(n):
    """Compare-exchanges (i, j), i < j, of Batcher's odd-even merge sort on n wires (any n)."""
    p = 1
    while p < n:
        k = p
        while k >= 1:
            for j in range(k % p, n - k, 2 * k):
                for i in range(min(k, n - j - k)):
                    if (i + j) // (2 * p) == (i + j + k) // (2 * p):
                        yield i + j, i + j + k
            k //= 2
        p *= 2


class Graph:
    """Min/max operations over inputs; a value is ("in", c, r) or ("op", index)."""

    def __init__(self):
        self.ops = []  # (kind, a, b), kind "lo" or "hi"

    def op(self, kind, a, b):
        self.ops.append((kind, a, b))
        return ("op", len(self.ops) - 1)

    def merge(self, a, b):
        """Batcher's odd-even merge of sorted lists a and b, of any lengths."""
        if not a or not b:
            return list(a or b)
        if len(a) == 1 and len(b) == 1:
            return [self.op("lo", a[0], b[0]), self.op("hi", a[0], b[0])]
        even = self.merge(a[0::2], b[0::2])
        odd = self.merge(a[1::2], b[1::2])
        out = [even[0]]
        for i in range(max(len(odd), len(even) - 1)):
            if i < len(odd) and i + 1 < len(even):
                out += [self.op("lo", odd[i], even[i + 1]), self.op("hi", odd[i], even[i + 1])]
            else:
                out.append(odd[i] if i < len(odd) else even[i + 1])
        return out

    def evaluate(self, need, source):
        """Runs the operations `need` (indices, in order) on inputs valued by source(value);
        returns the function that gives the value of an input or of an operation run."""
        val = {}

        def get(v):
            return val[v[1]] if v[0] == "op" else source(v)

        for i in need:
            kind, a, b = self.ops[i]
            val[i] = min(get(a), get(b)) if kind == "lo" else max(get(a), get(b))
        return get

    def needed(self, outputs):
        """Indices of the operations the outputs depend on."""
        need = {v[1] for v in outputs if v[0] == "op"}
        for i in range(len(self.ops) - 1, -1, -1):
            if i in need:
                for v in self.ops[i][1:]:
                    if v[0] == "op":
                        need.add(v[1])
        return need


def fma_maxes(g, need, share):
    """The operations of `need` (in order) to emit as L::hi_given_lo(a, b, min): the max of
    every exchange whose min is also needed, spread evenly at `share` of them."""
    needed, chosen, n = set(need), set(), 0
    for i in need:
        kind, a, b = g.ops[i]
        if kind == "hi" and i - 1 in needed and g.ops[i - 1] == ("lo", a, b):
            if math.floor((n + 1) * share) > math.floor(n * share):
                chosen.add(i)
            n += 1
    return chosen


def keep_median_ranks(values, n, m):
    """Of a sorted list of a values out of n still undecided, with the median at rank m, the
    values that can still be the median of every output sharing them (index i only if
    m - (n - a) <= i <= m), with n and m adjusted to them."""
    a = len(values)
    lo, hi = max(0, m - (n - a)), min(a - 1, m)
    return values[lo:hi + 1], n - lo - (a - 1 - hi), m - lo


def select_network(n, comparators=None):
    """Operations (name, op, a, b) computing the median of inputs v[0..n-1], and its name, from
    a sorting or selection network's compare-exchanges (i, j: min to wire i, max to wire j;
    Batcher's by default) whose wire (n-1)//2 carries the median."""
    m = (n - 1) // 2
    below = {f"v[{k}]": 1 << k for k in range(n)}  # inputs known <= the value
    above = dict(below)                             # inputs known >= the value
    ops = []
    wires = [f"v[{k}]" for k in range(n)]

    def classify(name):
        if bin(below[name]).count("1") >= m + 2:
            return HIGH
        if bin(above[name]).count("1") >= n - m + 1:
            return LOW
        return name

    for i, j in comparators if comparators is not None else batcher(n):
        a, b = wires[i], wires[j]
        if a == LOW or b == HIGH:
            continue
        if a == HIGH or b == LOW:
            wires[i], wires[j] = b, a
            continue
        lo, hi = f"t{len(ops)}", f"t{len(ops) + 1}"
        below[lo], above[lo] = below[a] & below[b], above[a] | above[b]
        below[hi], above[hi] = below[a] | below[b], above[a] & above[b]
        ops += [(lo, "lo", a, b), (hi, "hi", a, b)]
        wires[i], wires[j] = classify(lo), classify(hi)
    result = wires[m]
    assert result not in (HIGH, LOW)
    # Keep the operations the result depends on.
    needed, kept = {result}, []
    for op in reversed(ops):
        if op[0] in needed:
            needed.update(op[2:])
            kept.append(op)
    return list(reversed(kept)), result


def check_selection(n, ops, result, trials=3000):
    """Runs select_network's operations on random, tie-heavy inputs against sorting."""
    rng = random.Random(n)
    for t in range(trials):
        values = {f"v[{k}]": rng.randrange(4 if t % 3 == 0 else 1 << 30) for k in range(n)}
        want = sorted(values.values())[(n - 1) // 2]
        for name, op, a, b in ops:
            values[name] = min(values[a], values[b]) if op == "lo" else max(values[a], values[b])
        assert values[result] == want, (n, t)


def emit_selection(comment, signature, value_type, ops, result):
    """A function (comment, then signature ending in "{") running select_network's operations
    on values of value_type and returning the median."""
    lines = [comment, *signature]
    lines += [f"    const {value_type} {name} = L::{op}({a}, {b});" for name, op, a, b in ops]
    lines += [f"    return {result};", "}", ""]
    return "\n".join(lines)
