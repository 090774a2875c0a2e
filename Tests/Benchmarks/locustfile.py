# Locust's side of `make bench`'s load comparison: each user plays the
# conversation of Fixtures/load.yaml through the Rasa REST channel, as a bot
# team would write it (FastHttpUser, one POST per step, a new sender per
# conversation). The `user:` lines are read from the same file migrant-chat
# replays, so both clients send the same bodies.
#
# LOAD_RATE (conversations a second, across all users) paces the users
# (constant_throughput); unset, each user starts its next conversation at once
# (a closed model, like `replay --jobs N`).
import json
import os
import re
import uuid

from locust import constant, constant_throughput, task
from locust.contrib.fasthttp import FastHttpUser

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.environ.get("LOAD_FIXTURE") or os.path.join(HERE, "Fixtures", "load.yaml"),
          encoding="utf-8") as fixture:
    STEPS = [match.group(1).strip().strip('"') for match in re.finditer(r"^\s*- user: (.+)$", fixture.read(), re.M)]

USERS = int(os.environ.get("LOAD_USERS", "1"))
RATE = os.environ.get("LOAD_RATE")
WEBHOOK = "/webhooks/rest/webhook"


class Conversation(FastHttpUser):
    wait_time = constant_throughput(float(RATE) / USERS) if RATE else constant(0)

    @task
    def converse(self):
        sender = uuid.uuid4().hex
        for number, text in enumerate(STEPS, start=1):
            body = json.dumps({"sender": sender, "message": text, "metadata": {"language": "en"},
                               "language": "en"})
            with self.client.post(WEBHOOK, data=body, headers={"Content-Type": "application/json"},
                                  name=f"step {number}", catch_response=True) as response:
                if response.status_code != 200 or not response.text.startswith("["):
                    response.failure(f"status {response.status_code}")
                    return
