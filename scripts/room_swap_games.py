"""A plain Python model of whole Room Swap games with random legal players: the peer `make bench`
compares `adjudicate simulate room-swap --bots random` with (issue #30: simulate at least 30x
faster than this model, side by side on the same machine), and a check that both play the same
game: it prints the statistics the engine's table prints for random bots, so that the two can be
compared within their confidence intervals.

The leanest plain Python (lists of ints, no classes, no I/O), playing the rules of
games/room-swap/README.md with the `random` bot's choices: six players, each round every player
in a uniformly random room (the random bot neither Peeks nor Blocks); the six-player table says
which room scores; after round 4 the most points win: six joint winners play another round for
everyone, five play tiebreak rounds on the five-player table (again while all or none score; the
sixth is the Elimination Candidate), four leave the other two as candidates, otherwise the fewest
points are; a sole winner then gives a Token of Life in one more round to a random player who is
neither a winner nor a candidate, if there is one. One process, one core.

Usage: room_swap_games.py GAMES [SEED]   prints games/s, then
       "length MEAN; player wins RATE; elimination RATE; tokens RATE" per player.
"""
import random
import sys
import time

ROUNDS = 4
# sizes in decreasing order -> size of the room that scores (None: nobody)
SIX = {(2, 2, 2): 2, (3, 2, 1): 3, (4, 1, 1): 4, (4, 2, 0): 2, (5, 1, 0): 1, (3, 3, 0): None,
       (6, 0, 0): None}
FIVE = {(2, 2, 1): 2, (3, 1, 1): 3, (3, 2, 0): 2, (4, 1, 0): 1, (5, 0, 0): None}


def scorers(table, players, rng):
    """Who scores this round: each of `players` in a random room."""
    rooms = [rng.randrange(3) for _ in players]
    counts = [0, 0, 0]
    for r in rooms:
        counts[r] += 1
    size = table[tuple(sorted(counts, reverse=True))]
    if size is None:
        return []
    return [p for p, r in zip(players, rooms) if counts[r] == size]


def game(rng):
    """One game: (rounds played, winners, Elimination Candidates, Token holders)."""
    everyone = list(range(6))
    points = [0] * 6
    played = 0
    while True:
        played += 1
        for p in scorers(SIX, everyone, rng):
            points[p] += 1
        if played < ROUNDS:
            continue
        top = max(points)
        winners = [p for p in everyone if points[p] == top]
        if len(winners) == 6:
            continue
        break
    others = [p for p in everyone if points[p] != top]
    if len(winners) == 5:
        elimination = others
        while True:
            played += 1
            scored = scorers(FIVE, winners, rng)
            if 0 < len(scored) < len(winners):
                winners = scored
                break
    elif len(winners) == 4:
        elimination = others
    else:
        bottom = min(points)
        elimination = [p for p in everyone if points[p] == bottom]
    tokens = set(winners)
    eligible = [p for p in everyone if p not in tokens and p not in elimination]
    if len(winners) == 1 and eligible:
        played += 1  # the gift round
        tokens.add(rng.choice(eligible))
    return played, winners, elimination, tokens


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    length = wins = elim = tokens = 0
    start = time.perf_counter()
    for _ in range(games):
        played, winners, elimination, holders = game(rng)
        length += played
        wins += len(winners)
        elim += len(elimination)
        tokens += len(holders)
    took = time.perf_counter() - start
    n = games * 6
    print(f"{games} games of 6 players: {games / took:.0f} games/s")
    print(f"length {length / games:.4f}; player wins {wins / n:.4f}; "
          f"elimination {elim / n:.4f}; tokens {tokens / n:.4f}")


if __name__ == "__main__":
    main()
