"""Writes race.toml and abilities.toml from the compact tables below (run it after editing them).

Each race case: the gods' spaces, the rituals, the orbs of each ceremony (W U K R G counts) and the
expected result. One player, `a`, holds exactly those orbs and the ritual candles and places them;
player `b` holds nothing. The expectations are checked against result.toml by tests/cases.rs.
"""
import os

NAMES = {"W": "white", "U": "blue", "K": "black", "R": "red", "G": "green"}


def orbs(spec):
    """'W2 U1' -> ['white', 'white', 'blue']"""
    out = []
    for part in spec.split():
        out += [NAMES[part[0]]] * int(part[1:])
    return out


def q(items):
    return "[" + ", ".join(f'"{i}"' for i in items) + "]"


def case(name, ruling, spaces, rituals, c1, c2, c3, expect, podium=None):
    gods = ", ".join(f"{NAMES[g[0]]} = {g[1:]}" for g in spaces.split())
    ceremonies = [orbs(c) for c in (c1, c2, c3)]
    hand = sorted(sum(ceremonies, []))
    candles = [NAMES[r] for r in rituals]
    submit = f'meadow = "blue"\nceremony1 = {q(ceremonies[0])}\nceremony2 = {q(ceremonies[1])}\nceremony3 = {q(ceremonies[2])}\nlight = {q(candles)}\n'
    lines = [
        "[[case]]",
        f"name = {q([name])[1:-1]}",
        f'ruling = "{ruling}"',
        'players = ["a", "b"]',
        f'start = {{ round = 1, rounds_played = 1, players = {{ a = {{ meadow = "white", hand = {q(hand)}, candles = {q(candles)} }}, b = {{ meadow = "red" }} }} }}',
        f"replace = {{ gods = {{ {gods} }}, podium = {q(podium or [])} }}",
        "step = [",
        f"  {{ player = \"a\", submit = '''\n{submit}''', valid = true, problems = [] }},",
        f"  {{ resolve = true, public = {{ {expect} }} }},",
        "]",
        "",
    ]
    return "\n".join(lines)


WORKED = [
    ("spec example 1: ties are skipped, Green wins a ceremony with 0 orbs, an all-tie has no winner", "spec god-race.md, worked example 1; ruling 3",
     "W1 U1 K1 R1 G1", "", "W2 U1 K1", "W1 U3 K3 R1", "W2 U2 K2 R2 G2",
     'winners = ["white", "green", "none"], spaces = { white = 2, blue = 1, black = 1, red = 1, green = 3 }'),
    ("spec example 2: Green 1 to 4 with its ritual, White follows 1 to 3", "spec god-race.md, worked example 2; rulings 4, 5",
     "W1 U1 K1 R1 G1", "WG", "", "G3 W1", "",
     'winners = ["none", "green", "none"], rituals = ["white", "green"], spaces = { white = 3, green = 4 }, moves = [{ god = "green", from = 1, to = 4, cause = "ceremony 2, +1 Green" }, { god = "white", from = 1, to = 3, cause = "followed Green" }]'),
    ("spec example 3: Red lands exactly on Blue's space", "spec god-race.md, worked example 3; ruling 6",
     "U6 R3 W1 K1 G1", "U", "", "", "R4",
     'winners = ["none", "none", "red"], spaces = { red = 6, blue = 6 }, moves = [{ god = "red", from = 3, to = 6, cause = "ceremony 3" }]'),
    ("spec example 3, variant: from 4 Red is stopped by Blue on 6", "spec god-race.md, worked example 3; ruling 6",
     "U6 R4 W1 K1 G1", "U", "", "", "R4",
     'spaces = { red = 6 }, moves = [{ god = "red", from = 4, to = 6, cause = "ceremony 3", notes = ["stopped by Blue"] }]'),
    ("spec example 4: Red skips the occupied spaces 4, 5 and 7 and lands on 9", "spec god-race.md, worked example 4; ruling 7",
     "R3 W4 U5 K7 G1", "R", "", "", "R4",
     'spaces = { red = 9 }, moves = [{ god = "red", from = 3, to = 9, cause = "ceremony 3", notes = ["skipped occupied spaces"] }]'),
    ("spec example 4, variant: with Blue's ritual too, Red stops on Blue's space 5", "spec god-race.md, worked example 4; rulings 6, 7",
     "R3 W4 U5 K7 G1", "RU", "", "", "R4",
     'spaces = { red = 5 }, moves = [{ god = "red", from = 3, to = 5, cause = "ceremony 3", notes = ["skipped occupied spaces", "stopped by Blue"] }]'),
    ("spec example 5: Black pushes Green back at the start, then pushes Blue back after it moves", "spec god-race.md, worked example 5; ruling 8",
     "K5 G5 U4 W1 R1", "K", "U3", "", "",
     'spaces = { black = 5, green = 4, blue = 4 }, moves = [{ god = "green", from = 5, to = 4, cause = "pushed back by Black" }, { god = "blue", from = 4, to = 5, cause = "ceremony 1" }, { god = "blue", from = 5, to = 4, cause = "pushed back by Black" }]'),
    ("spec example 6: Green finishes 1st in ceremony 1; its orbs are ignored in ceremony 2; Red finishes 2nd", "spec god-race.md, worked example 6; rulings 3, 9",
     "G12 R13 W9 U8 K1", "G", "G3 R2", "G9 W4", "R4",
     'winners = ["green", "white", "red"], podium = ["green", "red"], finished_now = ["green", "red"], spaces = { white = 11, blue = 8, black = 1 }'),
]

ABILITIES = [
    ("White follows and Blue stops both the winner and White", "rulings 5, 6: White+Blue",
     "G3 W3 U4 K1 R1", "WU", "", "G1", "",
     'spaces = { green = 4, white = 4, blue = 4 }, moves = [{ god = "green", from = 3, to = 4, cause = "ceremony 2", notes = ["stopped by Blue"] }, { god = "white", from = 3, to = 4, cause = "followed Green", notes = ["stopped by Blue"] }]'),
    ("White follows Green by exactly the ceremony's spaces, without Green's bonus", "ruling 5: White+Green",
     "G2 W2 U1 K1 R1", "WG", "", "", "G1",
     'spaces = { green = 6, white = 5 }'),
    ("White follows Red without skipping", "ruling 5: no Red skipping when following",
     "R2 W2 U3 K4 G1", "WR", "", "", "R1",
     'spaces = { red = 7, white = 5 }'),
    ("White does not follow without its ritual", "ruling 4: White's ritual must be active",
     "G2 W2 U1 K1 R1", "", "G1", "", "",
     'spaces = { green = 3, white = 2 }'),
    ("White does not follow a god on another space", "ruling 4: White on the winner's space before it moves",
     "G2 W3 U1 K1 R1", "W", "G1", "", "",
     'spaces = { green = 3, white = 3 }'),
    ("White does not follow itself", "ruling 4: White is not the winner",
     "W2 U1 K1 R1 G1", "W", "W1", "", "",
     'spaces = { white = 3 }, moves = [{ god = "white", from = 2, to = 3, cause = "ceremony 1" }]'),
    ("Black pushes back a god that White's follow brought onto it, and that does not trigger White", "rulings 5, 8: Black+White",
     "G2 W2 K4 U1 R1", "WK", "", "G1", "",
     'spaces = { green = 3, white = 3, black = 4 }, moves = [{ god = "green", from = 2, to = 4, cause = "ceremony 2" }, { god = "white", from = 2, to = 4, cause = "followed Green" }, { god = "white", from = 4, to = 3, cause = "pushed back by Black" }, { god = "green", from = 4, to = 3, cause = "pushed back by Black" }]'),
    ("Black pushes Red back exactly one space, onto an occupied one", "rulings 7, 8: Black+Red",
     "K5 R5 W4 U1 G1", "KR", "", "", "",
     'spaces = { red = 4, white = 4 }, moves = [{ god = "red", from = 5, to = 4, cause = "pushed back by Black" }]'),
    ("Black on the start pushes nobody back", "ruling 8: unless Black is on the start",
     "K1 W1 U1 R1 G1", "K", "", "", "",
     'spaces = { black = 1, white = 1 }, moves = []'),
    ("Black does not push itself, and Blue's stop does not apply to Blue", "rulings 6, 8",
     "U2 K5 W6 R1 G1", "UK", "U1", "", "",
     'spaces = { blue = 3 }'),
    ("Green's bonus needs its ritual", "ruling 4: +1 only for Green with its ritual",
     "G1 W1 U1 K1 R1", "", "", "G2", "",
     'spaces = { green = 3 }'),
    ("Red's skipping needs its ritual", "ruling 7",
     "R3 W4 U5 K7 G1", "", "", "", "R4",
     'spaces = { red = 6 }'),
    ("Red's skipping: the goal always counts, overshooting stops on it", "ruling 7",
     "R12 W13 U1 K1 G1", "R", "", "", "R1",
     'podium = ["red"], finished_now = ["red"]'),
    ("Blue does not stop gods already ahead of it, nor backward moves", "ruling 6",
     "U3 G5 W1 K1 R1", "U", "G1", "", "",
     'spaces = { green = 6, blue = 3 }'),
    ("a finished god's orbs are ignored in a later ceremony of the same round", "ruling 3: orbs of finished gods are ignored",
     "W13 U1 K1 R1 G1", "", "W1", "W5 U1", "",
     'winners = ["white", "blue", "none"], podium = ["white"]'),
    ("the third god to finish ends the evaluation at once", "rulings 4, 11: stop when the third god finishes",
     "W13 U2 K1 R1 G1", "", "W1", "U1", "G1",
     'winners = ["white"], podium = ["green", "red", "white"], final = { god_points = { green = 3, red = 2, white = 1, blue = 0, black = 0 } }'),
    ("a god reaching the goal takes its place at once, in processing order", "ruling 9",
     "W13 G13 U1 K1 R1", "W", "G1", "", "",
     'podium = ["green", "white"], finished_now = ["green", "white"]'),
]


def write(path, header, cases, podiums=None):
    with open(path, "w") as f:
        f.write(header)
        for c in cases:
            podium = None
            name, ruling, spaces, rituals, c1, c2, c3, expect = c
            if "third god" in name:
                podium = ["green", "red"]
            f.write(case(name, ruling, spaces, rituals, c1, c2, c3, expect, podium))
            f.write("\n")


here = os.path.dirname(os.path.abspath(__file__))
write(os.path.join(here, "race.toml"), "# The worked examples of spec god-race.md. Generated by make_race_cases.py: edit the tables there.\n\n", WORKED)
write(os.path.join(here, "abilities.toml"), "# One case per ruling on the race and per pair of abilities that interact. Generated by\n# make_race_cases.py: edit the tables there.\n\n", ABILITIES)
