#!/usr/bin/env python3
"""`evaluate` agrees with `rasa test nlu` (#49): the same figures, to 0.001.

usage: agree-with-rasa.py NAME EVALUATE_REPORT.json RASA_TEST_OUT_DIR

Compares `evaluate --report`'s intent report with Rasa's intent_report.json, and
each entity extractor's report with Rasa's <extractor>_report.json: every label's
precision, recall, F1 and support, the accuracy and the three averages. Prints
both side by side and exits 1 on any difference over 0.001 or a label in one only.
"""
import json
import os
import sys

name, ours_path, rasa_dir = sys.argv[1:4]
ours = json.load(open(ours_path))
failures = []


def compare(title, mine, theirs):
    print(f"{name}: {title}")
    print(f"  {'label':<22} {'figure':<10} {'evaluate':>9} {'rasa':>9}")
    mine_labels = set(mine) - {"accuracy"}
    their_labels = set(theirs) - {"accuracy"}
    if mine_labels != their_labels:
        failures.append(f"{title}: labels differ: evaluate {sorted(mine_labels)}, rasa {sorted(their_labels)}")
    for label in sorted(mine_labels & their_labels):
        for figure in ("precision", "recall", "f1-score", "support"):
            a, b = mine[label][figure], theirs[label][figure]
            mark = "" if abs(a - b) <= 0.001 else "  <-- differs"
            if mark:
                failures.append(f"{title}: {label} {figure}: evaluate {a}, rasa {b}")
            print(f"  {label:<22} {figure:<10} {a:>9.4f} {b:>9.4f}{mark}")
    a, b = mine["accuracy"], theirs["accuracy"]
    if abs(a - b) > 0.001:
        failures.append(f"{title}: accuracy: evaluate {a}, rasa {b}")
    print(f"  {'accuracy':<22} {'':<10} {a:>9.4f} {b:>9.4f}")


compare("intents", ours["intent_evaluation"]["report"],
        json.load(open(os.path.join(rasa_dir, "intent_report.json"))))
rasa_entities = sorted(f[:-len("_report.json")] for f in os.listdir(rasa_dir)
                       if f.endswith("_report.json") and f not in ("intent_report.json", "response_selection_report.json"))
our_entities = sorted((ours.get("entity_evaluation") or {}).keys())
if rasa_entities != our_entities:
    failures.append(f"entity extractors differ: evaluate {our_entities}, rasa {rasa_entities}")
for extractor in sorted(set(rasa_entities) & set(our_entities)):
    compare(f"entities by token ({extractor})", ours["entity_evaluation"][extractor]["report"],
            json.load(open(os.path.join(rasa_dir, f"{extractor}_report.json"))))
if failures:
    print(f"{name}: evaluate and rasa test nlu disagree:")
    for failure in failures:
        print("  " + failure)
    sys.exit(1)
print(f"{name}: evaluate agrees with rasa test nlu to 0.001 "
      f"(intents{', entities by token' if our_entities else ''}).")
