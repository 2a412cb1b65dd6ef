"""Writes a synthetic God Race game directory with N players for the benchmark, then the round 1
submissions are made by bot.py after round 0 resolves. Usage: make_big_race.py DIR N"""
import os
import sys

out, n = sys.argv[1], int(sys.argv[2])
gods = ["white", "blue", "black", "red", "green"]
os.makedirs(out, exist_ok=True)
with open(os.path.join(out, "game.toml"), "w") as f:
    f.write('game = "god-race"\ntitle = "Benchmark race"\nseed = 1\n\n[mail]\ntransport = "none"\n\n')
    for i in range(n):
        f.write(f'[[players]]\nid = "p{i:05}"\nmeadow = "{gods[i % 5]}"\n\n')
