"""A plain Python model of whole Final Ritual games with random legal players: the peer `make
bench` compares `adjudicate simulate final-ritual --bots random` with (issue #30), and a check
that both play the same game: it prints the share of games each role group wins and the mean
length, which the engine's CSVs give too.

The leanest plain Python (lists of ints, no classes, no I/O), playing games/final-ritual/README.md
with six priests and the `random` bot's submission, sent at the start of each round by every
living priest: dedicate the resources in a random order, with "refuse" first one time in four;
announce zero to two random oracles of the hand (at least one with four), each with random living
targets (`to` never the giver); refuse each other living priest with probability 1/2; random
`give` and `take` orders. Roles dealt from the seven; 5 resources and 2 oracles each, then the
oracle of the first turn. A turn: dedication, the entries (skipped when a target died or the
oracle is gone), a forced random oracle when four are still held, harvest 2, draw 1 (the
announced pile reshuffled when the deck is empty); a Betray Mark for every order refused or
unpayable, the third executes (cards leave the game); goals checked after every step, the
first clockwise from the active priest winning; the last priest alive wins; 30 rounds at most.
One process, one core.

Usage: final_ritual_games.py GAMES [SEED]   prints games/s, then
       "loyal RATE; selfish RATE; traitor RATE; none RATE; length MEAN".
"""
import random
import sys
import time

N = 6
WINE, GEMS, GOLD = range(3)
LOYAL_ALTAR, SELFISH_HAND, MAX_ROUNDS, EXECUTION = 10, 7, 30, 3
# roles: 0-2 loyal wine/gems/gold, 3-5 selfish wine/gems/gold, 6 traitor
# oracle kinds: (kind, n, resource, copies); kinds: give, allgive, dedicate, alldedicate, take,
# alltake, forgive
KINDS = (
    [("give", 1, r, 3) for r in range(3)] + [("give", 2, r, 2) for r in range(3)]
    + [("give", 3, r, 1) for r in range(3)] + [("give", 2, None, 5), ("allgive", 1, None, 1)]
    + [("dedicate", 2, r, 3) for r in range(3)]
    + [("alldedicate", 1, None, 3), ("take", 3, None, 2), ("take", 2, None, 5),
       ("alltake", 1, None, 1), ("forgive", 0, None, 4)]
)
DECK = [k for k, row in enumerate(KINDS) for _ in range(row[3])]
TARGETS = {"give": "fromto", "allgive": "to", "dedicate": "player", "take": "player",
           "forgive": "player", "alldedicate": "none", "alltake": "none"}


class Over(Exception):
    pass


def pick(hand, n, order):
    """Up to n cards of hand, as many of order[0] as there are, then order[1]..."""
    out = [0, 0, 0]
    for r in order:
        k = min(hand[r], n)
        out[r] += k
        n -= k
    return out


def game(rng):
    roles = rng.sample(range(7), N)
    deck = [r for r in range(3) for _ in range(40)]
    rng.shuffle(deck)
    oracles = DECK[:]
    rng.shuffle(oracles)
    hands, held = [], []
    for _ in range(N):
        h = [0, 0, 0]
        for r in deck[:5]:
            h[r] += 1
        del deck[:5]
        hands.append(h)
        held.append(oracles[:2])
        del oracles[:2]
    for p in range(N):
        held[p].append(oracles.pop(0))
    altar = [0, 0, 0]
    alive = [True] * N
    marks = [0] * N
    announced = []
    g = {"winner": None}

    def goal(p):
        role = roles[p]
        if role < 3:
            return altar[role] >= LOYAL_ALTAR
        if role < 6:
            return hands[p][role - 3] >= SELFISH_HAND
        return any(not alive[q] for q in range(N) if q != p)

    def clockwise(p):
        return [(p + i) % N for i in range(N)]

    def decide(active):
        for p in clockwise(active):
            if alive[p] and goal(p):
                g["winner"] = roles[p]
                raise Over

    def mark(p):
        marks[p] += 1
        if marks[p] >= EXECUTION:
            alive[p] = False
            hands[p] = [0, 0, 0]
            held[p] = []
            living = [q for q in range(N) if alive[q]]
            if len(living) == 1:
                g["winner"] = roles[living[0]]
                raise Over

    def pay(announcer, p, n, res, plan):
        if p != announcer and plans[p] and announcer in plans[p][2]:
            mark(p)
            return None
        if res is not None:
            if hands[p][res] < n:
                mark(p)
                return None
            cards = [0, 0, 0]
            cards[res] = n
        else:
            cards = pick(hands[p], n, plans[p][3]) if plans[p] else random_cards(hands[p], n)
            if sum(cards) < n:
                mark(p)
                return None
        for r in range(3):
            hands[p][r] -= cards[r]
        return cards

    def random_cards(source, n):
        left, out = source[:], [0, 0, 0]
        for _ in range(min(n, sum(source))):
            k = rng.randrange(sum(left))
            for r in range(3):
                if k < left[r]:
                    left[r] -= 1
                    out[r] += 1
                    break
                k -= left[r]
        return out

    def take(announcer, p, n):
        if p != announcer and plans[p] and announcer in plans[p][2]:
            mark(p)
            return
        cards = pick(altar, n, plans[p][4]) if plans[p] else random_cards(altar, n)
        for r in range(3):
            altar[r] -= cards[r]
            hands[p][r] += cards[r]

    def announce(me, entry):
        kind, a, b = entry
        held[me].remove(kind)
        announced.append(kind)
        what, n, res, _ = KINDS[kind]
        order = clockwise(me)
        if what == "give":
            cards = pay(me, a, n, res, None)
            if cards:
                for r in range(3):
                    hands[b][r] += cards[r]
        elif what == "allgive":
            for p in order:
                if p != a and alive[p]:
                    cards = pay(me, p, 1, None, None)
                    if cards:
                        for r in range(3):
                            hands[a][r] += cards[r]
        elif what == "dedicate":
            cards = pay(me, a, 2, res, None)
            if cards:
                for r in range(3):
                    altar[r] += cards[r]
        elif what == "alldedicate":
            for p in order:
                if alive[p]:
                    cards = pay(me, p, 1, None, None)
                    if cards:
                        for r in range(3):
                            altar[r] += cards[r]
        elif what == "take":
            take(me, a, n)
        elif what == "alltake":
            for p in order:
                if alive[p]:
                    take(me, p, 1)
        elif alive[a] and marks[a] > 0:  # forgive
            marks[a] -= 1

    def targets(kind, living):
        t = TARGETS[KINDS[kind][0]]
        if t == "fromto":
            frm = rng.choice(living)
            others = [p for p in living if p != frm]
            return (kind, frm, rng.choice(others))
        if t == "none":
            return (kind, None, None)
        return (kind, rng.choice(living), None)

    def random_plan(me, living):
        dedicate = [WINE, GEMS, GOLD]
        rng.shuffle(dedicate)
        if rng.randrange(4) == 0:
            dedicate.insert(0, "refuse")
        least = 1 if len(held[me]) >= 4 else 0
        count = min(rng.randint(least, 2), len(held[me]))
        hand = held[me][:]
        rng.shuffle(hand)
        entries = [targets(k, living) for k in hand[:count]]
        refuse = {p for p in living if p != me and rng.random() < 0.5}
        give, tk = [WINE, GEMS, GOLD], [WINE, GEMS, GOLD]
        rng.shuffle(give)
        rng.shuffle(tk)
        return (dedicate, entries, refuse, give, tk)

    def turn(me):
        dedicate = plans[me][0]
        choice = next((d for d in dedicate if d == "refuse" or hands[me][d] > 0), None)
        if choice == "refuse" or choice is None and sum(hands[me]) == 0:
            mark(me)
        else:
            if choice is None:
                choice = next(r for r in range(3) if hands[me][r] > 0)
            hands[me][choice] -= 1
            altar[choice] += 1
        decide(me)
        if not alive[me]:
            return
        for entry in plans[me][1]:
            kind, a, b = entry
            if any(p is not None and not alive[p] for p in (a, b)) or kind not in held[me]:
                continue
            announce(me, entry)
            decide(me)
            if not alive[me]:
                return
        if len(held[me]) > 3:
            living = [p for p in range(N) if alive[p]]
            announce(me, targets(rng.choice(held[me]), living))
            decide(me)
            if not alive[me]:
                return
        for r in deck[:2]:
            hands[me][r] += 1
        del deck[:2]
        decide(me)
        if not oracles and announced:
            rng.shuffle(announced)
            oracles.extend(announced)
            announced.clear()
        if oracles:
            held[me].append(oracles.pop(0))

    rounds = 0
    first = 0
    try:
        while rounds < MAX_ROUNDS:
            rounds += 1
            living = [p for p in range(N) if alive[p]]
            plans = [random_plan(p, living) if alive[p] else None for p in range(N)]
            start = next(p for p in clockwise(first) if alive[p])
            for me in clockwise(start):
                if alive[me]:
                    turn(me)
            first = (first + 1) % N
    except Over:
        pass
    return rounds, g["winner"]


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    won = {"loyal": 0, "selfish": 0, "traitor": 0, "none": 0}
    length = 0
    start = time.perf_counter()
    for _ in range(games):
        rounds, winner = game(rng)
        length += rounds
        group = "none" if winner is None else "loyal" if winner < 3 else "selfish" if winner < 6 else "traitor"
        won[group] += 1
    took = time.perf_counter() - start
    print(f"{games} games of {N} players: {games / took:.0f} games/s")
    print("; ".join(f"{k} {v / games:.4f}" for k, v in won.items()) + f"; length {length / games:.4f}")


if __name__ == "__main__":
    main()
