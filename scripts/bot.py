"""Plays every God Race player of a game directory for one round, the way a careful player
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


def main():
    game_dir = sys.argv[1]
    with open(os.path.join(game_dir, "state.toml"), "rb") as f:
        state = tomllib.load(f)
    if state.get("finished"):
        return
    folder = os.path.join(game_dir, "rounds", f'{state["round"]:03}', "submissions")
    os.makedirs(folder, exist_ok=True)
    for index, (pid, player) in enumerate(sorted(state["players"].items())):
        with open(os.path.join(folder, f"{pid}.toml"), "w") as f:
            f.write(submission(index, player, state))


if __name__ == "__main__":
    main()
