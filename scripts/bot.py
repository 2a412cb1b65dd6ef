"""Plays every player of a God Race or Planar Control game directory for one round, the way a careful player
would reply to their private report: used by `make demo` and the tests to play the sample game
to its end. It reads each player's own facts (meadow, hand, candles, scoring orbs) from
state.toml, as the player would from their report, and writes
rounds/NNN/submissions/<player>.toml. Usage: bot.py GAME_DIR
"""
import os
import sys
import tomllib

GODS = ["white", "blue", "black", "red", "green"]


def submission(index, player, state):
    meadow = player["meadow"]
    support = player.get("support", [])
    racing = state.get("gods", {})
    # Move towards a supported god that still races, else to the next colour.
    wanted = [g for g in support if g != meadow and g in racing]
    new_meadow = wanted[0] if wanted else GODS[(GODS.index(meadow) + 1 + index) % 5]
    if new_meadow == meadow:
        new_meadow = GODS[(GODS.index(meadow) + 1) % 5]
    lines = [f'meadow = "{new_meadow}"']
    if state["round"] == 0:
        first = GODS[index % 5]
        second = GODS[(index * 2 + 1) % 5]
        if second == first:
            second = GODS[(index + 2) % 5]
        lines.append(f'support = ["{first}", "{second}"]')
        return "\n".join(lines) + "\n"
    # Orbs of supported gods go to the big ceremony; the others are spread over the small ones.
    ceremonies = [[], [], []]
    spread = 0
    for orb in player.get("hand", []):
        if orb in support:
            ceremonies[2].append(orb)
        else:
            ceremonies[spread % 2].append(orb)
            spread += 1
    for i, orbs in enumerate(ceremonies, start=1):
        lines.append(f"ceremony{i} = [" + ", ".join(f'"{o}"' for o in orbs) + "]")
    light = [c for c in player.get("candles", []) if c in support][:1]
    lines.append("light = [" + ", ".join(f'"{c}"' for c in light) + "]")
    return "\n".join(lines) + "\n"


def planar(index, pid, player, state):
    """Planar Control: vote out the first player on your plane of another alignment (spending a
    garnet when you have three), divine the next two players, or vote the first member of each
    losing alignment."""
    players = state["players"]
    ids = sorted(players)
    if state["phase"] == "elimination":
        if player["alignment"] != state.get("winner"):
            return None
        lines = ["[eliminate]"]
        for alignment in ["ember", "nature", "torrent"]:
            if alignment != state["winner"]:
                first = next(i for i in ids if players[i]["alignment"] == alignment)
                lines.append(f'{alignment} = "{first}"')
        return "\n".join(lines) + "\n"
    if player["plane"] in ("earth", "thera"):
        targets = [i for i in ids if i != pid and players[i]["plane"] == player["plane"] and players[i]["alignment"] != player["alignment"]]
        if not targets:
            return 'vote = "abstain"\n'
        spend = 1 if player.get("garnets", 0) >= 3 else 0
        return f'vote = "{targets[index % len(targets)]}"\ngarnets = {spend}\n'
    others = [i for i in ids if i != pid]
    return f'divine = ["{others[index % len(others)]}", "{others[(index + 5) % len(others)]}"]\n'


def main():
    game_dir = sys.argv[1]
    with open(os.path.join(game_dir, "state.toml"), "rb") as f:
        state = tomllib.load(f)
    if state.get("finished") or state.get("phase") == "over":
        return
    if "alignment" in next(iter(state["players"].values())):
        folder = os.path.join(game_dir, "rounds", f'{state["round"]:03}', "submissions")
        os.makedirs(folder, exist_ok=True)
        for index, (pid, player) in enumerate(sorted(state["players"].items())):
            text = planar(index, pid, player, state)
            if text is not None:
                with open(os.path.join(folder, f"{pid}.toml"), "w") as f:
                    f.write(text)
        return
    folder = os.path.join(game_dir, "rounds", f'{state["round"]:03}', "submissions")
    os.makedirs(folder, exist_ok=True)
    for index, (pid, player) in enumerate(sorted(state["players"].items())):
        with open(os.path.join(folder, f"{pid}.toml"), "w") as f:
            f.write(submission(index, player, state))


if __name__ == "__main__":
    main()
