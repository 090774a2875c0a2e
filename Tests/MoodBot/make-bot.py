"""Writes `rasa init`'s moodbot, as Rasa ships it, plus one form with a free-text slot.

usage: make-bot.py RASA_PYTHON TARGET

The project is copied from the installed Rasa package (what `rasa init --no-prompt`
copies, without the training it starts), so the tier tests a bot this project did not
write. The form is the one thing added: "transfer" asks "How much money do you want to
transfer?" and takes any text as the amount (a `from_text` slot), as a bank's bot would.
"""

import os
import shutil
import subprocess
import sys

python, target = sys.argv[1], sys.argv[2]
source = subprocess.run(
    [python, "-c", "import os, rasa.cli; print(os.path.join(os.path.dirname(rasa.cli.__file__), 'initial_project'))"],
    check=True, capture_output=True, text=True).stdout.strip()
if os.path.exists(target):
    shutil.rmtree(target)
shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))

with open(os.path.join(target, "domain.yml"), encoding="utf-8") as file:
    domain = file.read()
domain = domain.replace("  - bot_challenge\n", "  - bot_challenge\n  - transfer\n", 1)
domain = domain.replace(
    "responses:\n",
    """slots:
  amount:
    type: text
    influence_conversation: false
    mappings:
    - type: from_text
      conditions:
      - active_loop: transfer_form
        requested_slot: amount

forms:
  transfer_form:
    required_slots:
    - amount

responses:
  utter_ask_amount:
  - text: "How much money do you want to transfer?"

  utter_transferred:
  - text: "Transferred {amount}."

""", 1)
with open(os.path.join(target, "domain.yml"), "w", encoding="utf-8") as file:
    file.write(domain)

with open(os.path.join(target, "data", "nlu.yml"), "a", encoding="utf-8") as file:
    file.write("""
- intent: transfer
  examples: |
    - I want to transfer money
    - transfer money
    - send money
    - I need to make a transfer
    - can I transfer some money
    - wire money to a friend
    - make a payment
""")

with open(os.path.join(target, "data", "rules.yml"), "a", encoding="utf-8") as file:
    file.write("""
- rule: Start the transfer form
  steps:
  - intent: transfer
  - action: transfer_form
  - active_loop: transfer_form

- rule: Submit the transfer form
  condition:
  - active_loop: transfer_form
  steps:
  - action: transfer_form
  - active_loop: null
  - slot_was_set:
    - requested_slot: null
  - action: utter_transferred
""")
print(target)
