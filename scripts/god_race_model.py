"""A plain Python model of a God Race round's resolve phase: the peer `make bench` compares
`GodRace::resolve` with (issue #17: the resolve phase at least 10x faster than this model).

It does the same work per player as the engine, with parallel lists of ints (the leanest plain
Python, so the comparison flatters no one) and no I/O: the next meadow
(or a random default), orbs counted into the three ceremonies, the candle plan (buy, light),
the race (ceremony winners and moves, much simplified: it is a handful of steps for five gods
whatever the number of players), the drawn orbs back to the box, three new orbs drawn from the
box for every player, and each player's private note (a tuple).

Usage: god_race_model.py N [RUNS]   prints "N players: resolve X ms (median of RUNS)".
"""
import random
import sys
import time

GODS = 5  # white, blue, black, red, green
CANDLE_PRICE = 4


def setup(n, rng):
    """Parallel lists, one entry per player (the leanest plain Python)."""
    meadow = [i % GODS for i in range(n)]
    hand = [sorted(rng.randrange(GODS) for _ in range(3)) + [meadow[i]] for i in range(n)]
    state = {
        "meadow": meadow,
        "hand": hand,
        "meadow_orb": list(meadow),
        "candles": [[m, (m + 1) % GODS] for m in meadow],
        "garnets": [10] * n,
        # the submission, as the bench's: every orb in ceremony 1, move on, light nothing
        "next_meadow": [(m + 1) % GODS for m in meadow],
        "placement": [(list(h), [], []) for h in hand],
        "buy": [[] for _ in range(n)],
        "light": [[] for _ in range(n)],
    }
    # the box holds about three orbs per player (round 0 adds the unsupported colours)
    box = [0] * GODS
    for m in meadow:
        for g in (m + 1, m + 3, m + 4):
            box[g % GODS] += 1
    return state, box


def ceremony_winner(spaces, counts):
    by_count = {}
    for g in spaces:
        by_count.setdefault(counts[g], []).append(g)
    for c in sorted(by_count, reverse=True):
        if len(by_count[c]) == 1:
            return by_count[c][0]
    return None


def resolve(s, box, spaces, rng):
    n = len(s["meadow"])
    ceremonies = [[0] * GODS for _ in range(3)]
    rituals = set()
    defaulted = []
    meadows = [0] * n
    for i in range(n):
        m = s["next_meadow"][i]
        if m is None:
            m = rng.choice([g for g in range(GODS) if g != s["meadow"][i]])
            defaulted.append(i)
        meadows[i] = m
        for c, orbs in enumerate(s["placement"][i]):
            counts = ceremonies[c]
            for g in orbs:
                counts[g] += 1
        buy, light = s["buy"][i], s["light"][i]
        s["garnets"][i] -= CANDLE_PRICE * len(buy)
        candles = s["candles"][i]
        candles.extend(buy)
        for g in light:
            candles.remove(g)
        rituals.update(light)
    moves = []
    for counts in ceremonies:
        w = ceremony_winner(spaces, counts)
        if w is not None:
            before = spaces[w]
            spaces[w] = min(before + 3, 20)
            moves.append((w, before, spaces[w]))
    for i in range(n):
        drawn = list(s["hand"][i])
        m = s["meadow_orb"][i]
        if m is not None and m in drawn:
            drawn.remove(m)
        for g in drawn:
            box[g] += 1
    pool = [g for g in range(GODS) for _ in range(box[g])]
    notes = []
    for i in range(n):
        hand = []
        for _ in range(3):
            if not pool:
                break
            j = rng.randrange(len(pool))
            pool[j], pool[-1] = pool[-1], pool[j]
            hand.append(pool.pop())
        m = meadows[i]
        s["meadow"][i] = m
        s["meadow_orb"][i] = m
        hand.append(m)
        hand.sort()
        s["hand"][i] = hand
        # the player's private note: what the report shows
        g = s["garnets"][i]
        notes.append((g, m, hand, list(s["candles"][i]), g // CANDLE_PRICE))
    for g in range(GODS):
        box[g] = pool.count(g)
    return notes, moves


def main():
    n = int(sys.argv[1])
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    times = []
    for r in range(runs):
        rng = random.Random(r)
        state, box = setup(n, rng)
        spaces = {g: 1 for g in range(GODS)}
        start = time.perf_counter()
        notes, _ = resolve(state, box, spaces, rng)
        times.append((time.perf_counter() - start) * 1000)
        assert len(notes) == n
    times.sort()
    print(f"{n} players: resolve {times[len(times) // 2]:.1f} ms (median of {runs})")


if __name__ == "__main__":
    main()
