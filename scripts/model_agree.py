"""Whether `adjudicate simulate GAME --bots random --out OUT` and the game's Python model
(scripts/<game>_games.py, whose last line is "name value; name value; ...") play the same game.

Rates (shares of games or of players) agree when they differ by less than four standard errors
of the difference of two independent estimates over GAMES games each (plus the rounding of the
engine's CSV to four decimals); the mean length when it
differs by less than 1%. Prints one line; exits 1 when something disagrees.

Usage: model_agree.py GAME OUT "MODEL LINE" GAMES
"""
import csv
import math
import sys


def engine_figures(game, out):
    rows = list(csv.DictReader(open(f"{out}/results.csv")))
    lengths = list(csv.DictReader(open(f"{out}/lengths.csv")))
    games = sum(int(r["games"]) for r in lengths)
    figures = {"length": sum(int(r["rounds"]) * int(r["games"]) for r in lengths) / games}
    if game == "room-swap":
        row = next(r for r in rows if r["by"] == "strategy")
        figures.update({"player wins": float(row["player_wins"]),
                        "elimination": float(row["elimination_per_player"]),
                        "tokens": float(row["tokens_per_player"])})
    else:  # final-ritual: the share of games each role group wins
        for r in rows:
            if r["by"] == "role":
                figures[r["group"]] = float(r["games_won"])
        figures["none"] = max(0.0, 1 - sum(figures[g] for g in ("loyal", "selfish", "traitor")))
    return figures


def main():
    game, out, line, games = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    model = {k: float(v) for k, v in (part.rsplit(" ", 1) for part in line.split("; "))}
    engine = engine_figures(game, out)
    parts, ok = [], True
    for key, theirs in model.items():
        ours = engine[key]
        if key == "length":
            good = abs(ours - theirs) <= 0.01 * theirs
        else:
            p = (ours + theirs) / 2
            se = math.sqrt(max(p * (1 - p), 1e-12) * 2 / games)
            # + the CSV's rounding to four decimals
            good = abs(ours - theirs) <= 4 * se + 2e-4
        ok &= good
        parts.append(f"{key} {ours:.4f} / {theirs:.4f}" + ("" if good else " (!)"))
    verdict = "agree" if ok else "DISAGREE"
    print(f"  {game}, engine / model over {games} games each: {', '.join(parts)}: {verdict}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
