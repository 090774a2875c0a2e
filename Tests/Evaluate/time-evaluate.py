#!/usr/bin/env python3
"""Times `evaluate` (#49): 1,000 examples at --jobs 8 against a bot, and the client's CPU.

usage: time-evaluate.py BINARY SERVER_URL OUT_DIR

Writes 1,000 distinct labelled examples (five intents, the tier bot's), runs
`evaluate --jobs 8` on them, and prints the wall time, the examples a second and
the client's CPU per example (user + system, from the child's rusage). A
benchmark: it prints figures and asserts only that the run worked.
"""
import os, resource, subprocess, sys, time

binary, server, out = sys.argv[1:4]
os.makedirs(out, exist_ok=True)
phrases = {
    "greet": ["hello", "hi", "good morning", "привет", "привіт", "добрый день"],
    "insurance": ["health insurance", "нужна страховка", "медичне страхування", "insurance for work"],
    "housing": ["a flat in Brno", "нужна квартира", "потрібне житло", "housing in Praha"],
    "residence": ["residence permit", "продление визы", "продовження посвідки", "вид на жительство"],
    "goodbye": ["bye", "пока", "до побачення", "see you"],
}
lines = ['version: "3.1"', "nlu:"]
count = 0
for intent, texts in phrases.items():
    lines += [f"- intent: {intent}", "  examples: |"]
    for n in range(200):
        lines.append(f"    - {texts[n % len(texts)]} {n // len(texts) + 1}")
        count += 1
path = os.path.join(out, "thousand.yml")
open(path, "w", encoding="utf-8").write("\n".join(lines) + "\n")
before = resource.getrusage(resource.RUSAGE_CHILDREN)
started = time.monotonic()
run = subprocess.run([binary, "evaluate", "--server", server, "--nlu", path, "--jobs", "8",
                      "--report", os.path.join(out, "thousand.json")],
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                     stdin=subprocess.DEVNULL, env=dict(os.environ, MIGRANT_CHAT_LANG="en"))
wall = time.monotonic() - started
after = resource.getrusage(resource.RUSAGE_CHILDREN)
assert run.returncode == 0, run.stderr
assert run.stdout.startswith(f"{count} examples asked"), run.stdout[:200]
cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
print(f"evaluate: {count} examples at --jobs 8 in {wall:.1f} s ({count / wall:.0f} a second); "
      f"client CPU {cpu:.2f} s, {cpu / count * 1000:.2f} ms an example")
