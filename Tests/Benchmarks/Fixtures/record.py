#!/usr/bin/env python3
"""Records bot answers for `make bench`'s decoding figure: one JSON answer a line.

Usage: record.py WEBHOOK_URL OUT.jsonl
Posts every example of Tests/RasaBot/data/nlu.yml, in each language, plus the
bot's button payloads, as one sender per language, and keeps each raw answer.
rasa-answers.jsonl was recorded against the Rasa tier's bot (Rasa 3.6.21 and
its action server), serve-answers.jsonl against `migrant-chat serve`.
"""
import json, os, sys, urllib.request

url, out = sys.argv[1:3]
nlu = os.path.join(os.path.dirname(__file__), "..", "..", "RasaBot", "data", "nlu.yml")
examples = [line.strip()[2:] for line in open(nlu, encoding="utf-8") if line.strip().startswith("- ")
            and not line.strip().startswith("- intent")]
payloads = ["/start", "/greet", "/insurance", "/housing", "/faq_tag{\"id\":2}", "/faq_item{\"id\":20}",
            "/back", "/restart"]
with open(out, "w", encoding="utf-8") as answers:
    for language in ("en", "ru", "uk"):
        for message in payloads + examples:
            body = json.dumps({"sender": "record-" + language, "message": message,
                               "metadata": {"language": language}, "language": language}).encode()
            request = urllib.request.Request(url, body, {"Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=30) as response:
                answers.write(response.read().decode("utf-8").replace("\n", " ") + "\n")
