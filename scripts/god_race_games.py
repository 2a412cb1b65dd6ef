"""A plain Python model of whole God Race games with random legal players: the peer `make bench`
compares `adjudicate simulate god-race --bots random` with (issue #15: simulate at least 30x
faster than this model, side by side on the same machine).

The leanest plain Python (lists of ints, no classes, no I/O), playing the same rules as the
engine with the same random player as the `random` bot: round 0 (a random other meadow, two
random scoring orbs; garnets, the box of 3n + 5 orbs, the first two candles), then rounds of three
orbs drawn from the box plus the meadow orb, each orb to a random ceremony, each held candle lit
with probability 1/2; ceremonies won by the largest count held by exactly one racing god; White
follows, Blue stops, Black pushes back, Red skips occupied spaces, Green moves one more; drawn
orbs back to the box, a finished god's box orbs recoloured; three gods on the podium end it;
scores 3/2/1 for the two supported gods. One process, one core.

Usage: god_race_games.py GAMES [PLAYERS]   prints "N games of K players: X games/s".
"""
import random
import sys
import time

WHITE, BLUE, BLACK, RED, GREEN = range(5)
GOAL = 14


def winner(spaces, counts):
    """The god with the largest count held by exactly one racing god (counts of 0 count)."""
    racing = [counts[g] for g in range(5) if spaces[g] is not None]
    best, best_god = -1, None
    for g in range(5):
        if spaces[g] is not None:
            c = counts[g]
            if c > best and racing.count(c) == 1:
                best, best_god = c, g
    return best_god


def black(spaces, podium, rituals):
    b = spaces[BLACK]
    if BLACK in rituals and b is not None and b > 1:
        for g in range(5):
            if g != BLACK and spaces[g] == b:
                spaces[g] = b - 1


def move(spaces, podium, rituals, god, steps, red):
    frm = spaces[god]
    if frm is None:
        return
    if red:
        occupied = {spaces[g] for g in range(5) if g != god and spaces[g] is not None}
        at, left = frm, steps
        while left > 0 and at < GOAL:
            at += 1
            if at == GOAL or at not in occupied:
                left -= 1
        to = at
    else:
        to = min(frm + steps, GOAL)
    b = spaces[BLUE]
    if god != BLUE and BLUE in rituals and b is not None and frm < b < to:
        to = b
    if to == GOAL:
        spaces[god] = None
        podium.append(god)
    else:
        spaces[god] = to


def evaluate(spaces, podium, rituals, ceremonies):
    finished = len(podium)
    black(spaces, podium, rituals)
    for i in range(3):
        if len(podium) >= 3:
            break
        c = i + 1
        w = winner(spaces, ceremonies[i])
        if w is None:
            black(spaces, podium, rituals)
            continue
        white = WHITE in rituals and w != WHITE and spaces[WHITE] is not None and spaces[WHITE] == spaces[w]
        steps = c + 1 if (w == GREEN and GREEN in rituals) else c
        move(spaces, podium, rituals, w, steps, w == RED and RED in rituals)
        if len(podium) >= 3:
            break
        if white and spaces[WHITE] is not None:
            move(spaces, podium, rituals, WHITE, c, False)
            if len(podium) >= 3:
                break
        black(spaces, podium, rituals)
    return podium[finished:]


def game(n, rng):
    meadow = [rng.randrange(5) for _ in range(n)]
    garnets = [10] * n
    # round 0
    box = [1] * 5
    support = []
    candles = []
    for p in range(n):
        nxt = (meadow[p] + 1 + rng.randrange(4)) % 5
        a = rng.randrange(5)
        b = (a + 1 + rng.randrange(4)) % 5
        support.append((a, b))
        for g in range(5):
            if g != a and g != b:
                box[g] += 1
        garnets[p] += (a in (meadow[p], nxt)) + (b in (meadow[p], nxt))
        candles.append(sorted([meadow[p], nxt]))
        meadow[p] = nxt
    spaces = [1] * 5
    podium = []
    rounds = 1
    while len(podium) < 3:
        # draws: each player in turn, three orbs without replacement, plus the meadow orb
        pool = [g for g in range(5) for _ in range(box[g])]
        hands = []
        randrange = rng.randrange
        for p in range(n):
            hand = []
            for _ in range(3):
                if not pool:
                    break
                i = randrange(len(pool))
                pool[i], pool[-1] = pool[-1], pool[i]
                hand.append(pool.pop())
            hands.append(hand)
        box = [pool.count(g) for g in range(5)]
        # submissions and the round
        ceremonies = [[0] * 5 for _ in range(3)]
        rituals = set()
        for p in range(n):
            meadow_orb = meadow[p] if spaces[meadow[p]] is not None else None
            for g in hands[p]:
                ceremonies[randrange(3)][g] += 1
            if meadow_orb is not None:
                ceremonies[randrange(3)][meadow_orb] += 1
            lit = [c for c in candles[p] if rng.random() < 0.5]
            for c in lit:
                candles[p].remove(c)
                rituals.add(c)
            meadow[p] = (meadow[p] + 1 + rng.randrange(4)) % 5
        finished = evaluate(spaces, podium, rituals, ceremonies)
        for hand in hands:
            for g in hand:
                box[g] += 1
        for god in finished:
            k = box[god]
            box[god] = 0
            racing = [g for g in range(5) if spaces[g] is not None]
            if racing:
                for g in racing:
                    box[g] += k // len(racing)
        rounds += 1
    points = [0] * 5
    for place, god in enumerate(podium[:3]):
        points[god] = 3 - place
    scores = [points[a] + points[b] for a, b in support]
    top = max(scores)
    return rounds, [s == top for s in scores]


def main():
    games = int(sys.argv[1])
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    rng = random.Random(1)
    started = time.perf_counter()
    rounds = 0
    for _ in range(games):
        r, _ = game(players, rng)
        rounds += r
    took = time.perf_counter() - started
    print(f"{games} games of {players} players: {games / took:.0f} games/s ({rounds / games:.2f} rounds per game)")


if __name__ == "__main__":
    main()
