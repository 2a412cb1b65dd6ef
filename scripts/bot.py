"""Plays every player of a God Race, Planar Control, Final Ritual or Room Swap game directory for one round, the way a careful player
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


RESOURCES = ["wine", "gems", "gold"]


def ritual(pid, player, state):
    """Final Ritual: a Loyal X priest feeds X to the altar and orders others to; a Selfish X priest
    keeps X, pulls X and cards towards their own hand; the Traitor orders the most-marked player
    to pay what they may not have. A hand of 4 always announces at least one oracle."""
    players = state["players"]
    living = sorted((p for p in players if players[p]["alive"]), key=lambda p: players[p]["seat"])
    others = [p for p in living if p != pid]
    seat = players[pid]["seat"]
    after = sorted(others, key=lambda p: (players[p]["seat"] - seat) % len(players))
    role = player["role"]
    kind, _, mine = role.partition("-")
    rest = [r for r in RESOURCES if r != mine]
    victim = max(others, key=lambda p: (players[p]["marks"], -players[p]["seat"]))
    if kind == "loyal":
        dedicate, give, take = [mine] + rest, rest + [mine], rest + [mine]
    elif kind == "selfish":
        dedicate, give, take = rest + [mine], rest + [mine], [mine] + rest
    else:
        dedicate, give, take = RESOURCES, RESOURCES, RESOURCES
    wanted = []
    for oracle in player.get("oracles", []):
        parts = oracle.split("-")
        entry = None
        if oracle == "forgive" and player["marks"] > 0:
            entry = f'{{ oracle = "forgive", player = "{pid}" }}'
        elif oracle.startswith("take-any"):
            entry = f'{{ oracle = "{oracle}", player = "{pid}" }}'
        elif oracle.startswith("give-") and kind == "traitor":
            entry = f'{{ oracle = "{oracle}", from = "{victim}", to = "{after[0] if after[0] != victim else after[-1]}" }}'
        elif oracle.startswith("give-") and (parts[2] == mine or parts[1] == "any"):
            entry = f'{{ oracle = "{oracle}", from = "{after[0]}", to = "{pid}" }}'
        elif oracle == "all-give-any-1" and kind == "selfish":
            entry = f'{{ oracle = "{oracle}", to = "{pid}" }}'
        elif oracle.startswith("dedicate-") and (parts[2] == mine and kind == "loyal" or kind == "traitor"):
            entry = f'{{ oracle = "{oracle}", player = "{victim}" }}'
        elif oracle == "all-dedicate-any-1" and kind == "loyal":
            entry = f'{{ oracle = "{oracle}" }}'
        elif oracle == "all-take-any-1" and kind == "selfish":
            entry = f'{{ oracle = "{oracle}" }}'
        if entry and len(wanted) < 2:
            wanted.append(entry)
    if not wanted and len(player.get("oracles", [])) > 3:
        oracle = player["oracles"][0]
        if oracle.startswith("give-"):
            wanted.append(f'{{ oracle = "{oracle}", from = "{after[0]}", to = "{pid}" }}')
        elif oracle == "all-give-any-1":
            wanted.append(f'{{ oracle = "{oracle}", to = "{pid}" }}')
        elif oracle.startswith("dedicate-"):
            wanted.append(f'{{ oracle = "{oracle}", player = "{after[0]}" }}')
        elif oracle.startswith("all-"):
            wanted.append(f'{{ oracle = "{oracle}" }}')
        else:
            wanted.append(f'{{ oracle = "{oracle}", player = "{pid}" }}')
    quote = lambda xs: "[" + ", ".join(f'"{x}"' for x in xs) + "]"
    lines = [f"dedicate = {quote(dedicate)}", "announce = [" + ", ".join(wanted) + "]", "", "[respond]"]
    lines += [f"give = {quote(give)}", f"take = {quote(take)}"]
    return "\n".join(lines) + "\n"


def main():
    game_dir = sys.argv[1]
    with open(os.path.join(game_dir, "state.toml"), "rb") as f:
        state = tomllib.load(f)
    if state.get("finished") or state.get("phase") == "over":
        return
    if "role" in next(iter(state["players"].values())):
        folder = os.path.join(game_dir, "rounds", f'{state["round"]:03}', "submissions")
        os.makedirs(folder, exist_ok=True)
        for pid, player in sorted(state["players"].items()):
            if player["alive"]:
                with open(os.path.join(folder, f"{pid}.toml"), "w") as f:
                    f.write(ritual(pid, player, state))
        return
    if "block_used" in next(iter(state["players"].values())):
        # Room Swap: the first three players (by id) take the attic, the next two the basement,
        # the last the cellar: 3-2-1 every round, so the game ends after its rounds with three
        # joint winners (a bot for seasons and demos, not a strategy).
        if state.get("phase") != "main":
            return
        folder = os.path.join(game_dir, "rounds", f'{state["round"]:03}', "submissions")
        os.makedirs(folder, exist_ok=True)
        rooms = ["attic"] * 3 + ["basement"] * 2 + ["cellar"]
        for index, pid in enumerate(sorted(state["players"])):
            with open(os.path.join(folder, f"{pid}.toml"), "w") as f:
                f.write(f'room = "{rooms[index % 6]}"\n')
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
