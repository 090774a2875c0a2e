#!/usr/bin/env bash
# `make test-rasa`: the client against a real Rasa 3.6 server.
#
# A venv under ~/.cache/migrant-chat/ (reused) with rasa==3.6.21; the test bot
# in Tests/RasaBot trained (the model is cached by the hash of its files); the
# action server, Rasa (rest, myrest and socketio channels, --enable-api) and the data API
# (`migrant-chat serve`) on free loopback ports; then Transcripts/rasa replayed
# against both channels. Everything started is stopped on exit, also on failure.
# Without Python 3.10 or the Rasa install, it says so in one loud line and exits 0.
set -euo pipefail
binary=${1:-.build/debug/migrant-chat}
root=$(cd "$(dirname "$0")/.." && pwd)
cache=${MIGRANT_CHAT_RASA_CACHE:-$HOME/.cache/migrant-chat}
venv=$cache/rasa-venv
reports=$root/.build/rasa
mkdir -p "$cache" "$reports"
SECONDS=0

skip() {
  echo "!!!!! RASA TIER SKIPPED: $1 !!!!!"
  # make test names every skipped tier in its closing line.
  [ -z "${MIGRANT_CHAT_SKIPPED:-}" ] || echo "real Rasa: $1" >>"$MIGRANT_CHAT_SKIPPED"
  exit 0
}

python=""
for candidate in python3.10 "$HOME/.pyenv/versions/3.10"*/bin/python3.10 /usr/bin/python3.10; do
  if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c 'import sys; assert sys.version_info[:2] == (3, 10)' 2>/dev/null; then
    python=$(command -v "$candidate")
    break
  fi
done
[ -n "$python" ] || skip "no Python 3.10 (Rasa 3.6 needs Python < 3.11)"

if ! "$venv/bin/rasa" --version >/dev/null 2>&1; then
  echo "== installing rasa 3.6.21 into $venv (once)"
  "$python" -m venv "$venv" || skip "cannot create a venv with $python"
  installed=""
  for attempt in 1 2 3; do
    if "$venv/bin/pip" install -q --disable-pip-version-check "rasa==3.6.21"; then
      installed=yes
      break
    fi
    echo "pip install failed (attempt $attempt); retrying"
    sleep $((attempt * 10))
  done
  [ -n "$installed" ] || skip "pip install rasa==3.6.21 failed three times"
fi
install_seconds=$SECONDS

bot=$root/Tests/RasaBot
hash=$(cd "$bot" && find config.yml domain.yml data -type f -print0 | sort -z | xargs -0 cat | sha256sum | cut -c1-16)
model=$cache/rasa-models/$hash.tar.gz
if [ ! -f "$model" ]; then
  echo "== training the test bot"
  mkdir -p "$cache/rasa-models"
  (cd "$bot" && "$venv/bin/rasa" train --quiet --out "$cache/rasa-models" --fixed-model-name "$hash") \
    >"$reports/train.log" 2>&1 || { tail -20 "$reports/train.log"; exit 1; }
fi
# rasa init's moodbot as Rasa ships it, plus one form asking for free text
# (Tests/MoodBot/make-bot.py), with its own test stories and ours for the form.
mood=$reports/moodbot
"$venv/bin/python" "$root/Tests/MoodBot/make-bot.py" "$venv/bin/python" "$mood" >/dev/null
mood_hash=$(cd "$mood" && find config.yml domain.yml data -type f -print0 | sort -z | xargs -0 cat | sha256sum | cut -c1-16)
mood_model=$cache/rasa-models/moodbot-$mood_hash.tar.gz
if [ ! -f "$mood_model" ]; then
  echo "== training moodbot with a form"
  (cd "$mood" && "$venv/bin/rasa" train --quiet --out "$cache/rasa-models" --fixed-model-name "moodbot-$mood_hash") \
    >"$reports/train-moodbot.log" 2>&1 || { tail -20 "$reports/train-moodbot.log"; exit 1; }
fi
cp "$root/Tests/MoodBot/test_stories.yml" "$mood/tests/test_form_stories.yml"
train_seconds=$((SECONDS - install_seconds))
# `rasa test core` judges both bots' test stories in the background (a minute and more
# each, loading TensorFlow), niced so the steps that time the bot are not slowed; replay's
# verdicts are compared with its at the end.
core_out=$reports/rasa-test-core
rm -rf "$core_out" && mkdir -p "$core_out"
# A session of its own, so that stopping it (on failure, at exit) stops rasa within it.
setsid bash -c '
  nice -n 19 "$0" test core --stories "$2" --model "$3" --out "$1/tier" >"$1/tier.log" 2>&1 &&
  nice -n 19 "$0" test core --stories "$4" --model "$5" --out "$1/moodbot" >"$1/moodbot.log" 2>&1
' "$venv/bin/rasa" "$core_out" "$bot/tests" "$model" "$mood/tests" "$mood_model" &
core_pid=$!

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
wait_for() {
  local url=$1 name=$2
  for _ in $(seq 240); do
    python3 -c "import urllib.request; urllib.request.urlopen('$url', timeout=1)" 2>/dev/null && return 0
    sleep 0.5
  done
  echo "$name did not start; its log:"
  tail -30 "$reports/$name.log"
  return 1
}

pids=()
cleanup() {
  [ -z "${core_pid:-}" ] || kill -- -"$core_pid" 2>/dev/null || true
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
}
trap cleanup EXIT

actions_port=$(free_port)
rasa_port=$(free_port)
data_port=$(free_port)
home=$(mktemp -d)
export XDG_CACHE_HOME=$home/cache XDG_STATE_HOME=$home/state XDG_CONFIG_HOME=$home/config
export NO_COLOR=1 COLUMNS=80

cat >"$home/endpoints.yml" <<YAML
action_endpoint:
  url: "http://127.0.0.1:$actions_port/webhook"
YAML

(cd "$bot" && exec "$venv/bin/rasa" run actions --port "$actions_port" --actions actions) \
  >"$reports/actions.log" 2>&1 &
pids+=($!)
(cd "$bot" && exec "$venv/bin/rasa" run --enable-api --port "$rasa_port" --interface 127.0.0.1 \
  --credentials credentials.yml --endpoints "$home/endpoints.yml" --model "$model") \
  >"$reports/rasa.log" 2>&1 &
pids+=($!)
"$binary" serve --port "$data_port" 2>"$reports/serve.log" &
pids+=($!)

wait_for "http://127.0.0.1:$actions_port/health" actions
wait_for "http://127.0.0.1:$rasa_port/webhooks/rest/" rasa
wait_for "http://127.0.0.1:$data_port/webhooks/rest/" serve
start_seconds=$((SECONDS - install_seconds - train_seconds))

# The client syncs its directory from serve's data API, so cards resolve as in production.
"$binary" contacts sync --data-api "http://127.0.0.1:$data_port" >/dev/null

echo "== Transcripts/rasa against Rasa's rest channel, with what of the domain it reached (--coverage)"
"$binary" replay "$root/Transcripts/rasa" --server "http://127.0.0.1:$rasa_port" \
  --junit "$reports/rest.xml" --coverage "$bot/domain.yml" --coverage-report "$reports/coverage.json" \
  | tee "$reports/rest.txt"
python3 - "$reports/coverage.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
kinds = report["kinds"]
# The suite talks in three languages and greets in each: the trackers must say so.
assert sorted(report["languages"]) == ["en", "ru", "uk"], report["languages"].keys()
assert "greet" in kinds["intents"]["reached"], kinds["intents"]
assert "action_greet" in kinds["actions"]["reached"], kinds["actions"]
print("coverage of the tier bot's domain: " + ", ".join(
    f"{kind} {len(v['reached'])}/{len(v['reached']) + len(v['not_reached'])}"
    for kind, v in kinds.items() if v["reached"] or v["not_reached"]))
PY
echo "== Transcripts/rasa against the custom myrest channel"
"$binary" replay "$root/Transcripts/rasa" --server "http://127.0.0.1:$rasa_port" \
  --webhook-path /webhooks/myrest/webhook --junit "$reports/myrest.xml" | tee "$reports/myrest.txt"
echo "== Rasa Pro fixtures and metadata: slots through the tracker events API, metadata with each message"
"$binary" replay "$root/Transcripts/rasa-api" --server "http://127.0.0.1:$rasa_port" --lang en \
  --junit "$reports/fixtures.xml" | tee "$reports/fixtures.txt"
grep -q "^2 passed, 0 failed" "$reports/fixtures.txt" || { echo "the fixtures test cases did not pass"; exit 1; }
echo "== a conversation in Rasa's tracker store becomes a transcript that replays green (replay from-tracker)"
printf 'hello\n1\nI need a flat in Brno\n' \
  | "$binary" --server "http://127.0.0.1:$rasa_port" --sender "tier-tracked-$$" --start-message "" \
    --no-history >/dev/null
"$binary" replay from-tracker "tier-tracked-$$" --server "http://127.0.0.1:$rasa_port" --lang en \
  --out "$reports/from-tracker.yaml"
grep -q '^- button: "Health insurance"' "$reports/from-tracker.yaml" \
  || { echo "the button chosen by its number is not a button: step"; exit 1; }
"$binary" replay "$reports/from-tracker.yaml" --server "http://127.0.0.1:$rasa_port" --lang en \
  | tee "$reports/from-tracker.txt"
grep -q "^1 passed, 0 failed" "$reports/from-tracker.txt" || { echo "the tracker's transcript did not replay green"; exit 1; }
echo "== a recording with /lang, /restart and /new replays green against the same Rasa bot"
printf 'I need insurance\n1\n/lang uk\n/restart\nмені потрібне житло\n2\n/new\nhello\n1\n' \
  | "$binary" --server "http://127.0.0.1:$rasa_port" --start-message hello \
    --record "$reports/recorded.yaml" >/dev/null
"$binary" replay "$reports/recorded.yaml" --server "http://127.0.0.1:$rasa_port" | tee "$reports/recorded.txt"
echo "== the inspector shows what the real bot understood, turn by turn"
printf 'I need a flat in Brno\n/slots\n/tracker 4\n/parse health insurance in Ostrava\n' \
  | NO_COLOR=1 COLUMNS=100 "$binary" --server "http://127.0.0.1:$rasa_port" --start-message hello \
    --inspect --lang en >"$reports/inspect.out" 2>"$reports/inspect.err"
cat "$reports/inspect.err"
for expected in "intent: greet" "intent: housing" "entities: city=Brno" "city - -> Brno" \
  "actions: action_housing (RulePolicy" "city = Brno" "entities: city=Ostrava" \
  "The last 4 events:"; do
  grep -qF -- "$expected" "$reports/inspect.err" || { echo "inspector: missing '$expected'"; exit 1; }
done
echo "== robustness: the bot's own examples as migrants type them (Cyrillic training data only)"
status=0
"$binary" robustness --server "http://127.0.0.1:$rasa_port" --nlu "$bot/data/nlu.yml" --lang ru,uk,en \
  --threshold 90% --report "$reports/robustness.json" --write-nlu "$reports/robustness-nlu.yml" \
  --write-transcripts "$reports/robustness-transcripts" >"$reports/robustness.txt" || status=$?
sed -n 1,10p "$reports/robustness.txt"
[ "$status" = 1 ] || { echo "robustness exited $status, not 1 (below --threshold 90%)"; exit 1; }
python3 - "$reports/robustness.json" "$reports/robustness-nlu.yml" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
share = {name: c["kept"] / c["variants"] for name, c in report["classes"].items()}
print("kept by class:", {name: round(value, 2) for name, value in share.items()})
# As measured on a Rasa 3.6 bot in issue #35: transliterated and wrong-layout variants fall
# to nlu_fallback, typos and case keep the intent.
assert share["transliteration"] < 0.2 and share["keyboard-layout"] < 0.3, share
assert share["typo"] > 0.7 and share["case-punctuation"] > 0.9, share
written = open(sys.argv[2], encoding="utf-8").read()
assert written.startswith('version: "3.1"\nnlu:\n') and "  examples: |\n" in written, written[:200]
assert len(report["failures"]) == report["variants"] - report["kept"]
# Entities judged (#49): the towns swapped in that the bot's lookup table lacks are lost
# (Liberec, Zlín…), those it has are found; negations are reported apart, never counted.
swaps = report["classes"]["entity-swap"]
assert 0 < swaps["kept"] < swaps["variants"], swaps
lost = [f for f in report["failures"] if f["class"] == "entity-swap" and f["lost_entities"]]
assert lost and all(f["understood"] == f["intent"] for f in lost), lost[:3]
assert report["lost_entity"] >= len(lost), report["lost_entity"]
negation = report["negation"]
assert negation["variants"] > 0 and "negation" not in report["classes"], negation
print(f"entity-swap: {swaps['kept']} of {swaps['variants']} kept; {report['lost_entity']} variants lost an entity; "
      f"negation: {negation['unmoved']} of {negation['variants']} negated examples taken as surely as written")
assert "[Liberec](city)" in written or "[Zlín](city)" in written or "(city)" in written, "no swap written"
PY
echo "== reading (#48): lines on the English layout and in Latin letters reach the bot read"
printf 'ghjljd;tyyz gjcdslrb\n' | "$binary" --server "http://127.0.0.1:$rasa_port" --lang uk \
  --start-message hello --no-history >"$reports/chat-reading-uk.txt" 2>&1
printf 'prodlenie vizy\nghjlktybt dbps\n' | "$binary" --server "http://127.0.0.1:$rasa_port" --lang ru \
  --start-message hello --no-history >"$reports/chat-reading-ru.txt" 2>&1
cat "$reports/chat-reading-uk.txt" "$reports/chat-reading-ru.txt"
grep -qF "Надіслано як «продовження посвідки» (набрано в англійській розкладці)" "$reports/chat-reading-uk.txt" \
  || { echo "reading: the English-layout line was not read"; exit 1; }
[ "$(grep -c "Residence permits are extended" "$reports/chat-reading-uk.txt")" = 1 ] \
  || { echo "reading: the bot did not answer the uk line read"; exit 1; }
grep -qF "Отправлено как «продление визы» (набрано латиницей)" "$reports/chat-reading-ru.txt" \
  || { echo "reading: the Latin-letter line was not read"; exit 1; }
[ "$(grep -c "Residence permits are extended" "$reports/chat-reading-ru.txt")" = 2 ] \
  || { echo "reading: the bot did not answer both ru lines read"; exit 1; }
echo "== evaluate (#49): the tier bot's held-out set and its training data, as rasa test nlu counts them"
# evaluate_agrees NAME PORT MODEL NLU_FILE [evaluate options]: evaluate over HTTP, rasa test nlu
# in-process on the same model, and the two reports compared figure by figure to 0.001.
evaluate_agrees() {
  local name=$1 port=$2 model_file=$3 nlu_file=$4
  shift 4
  rm -rf "$reports/rasa-test-nlu-$name"
  nice -n 5 "$venv/bin/rasa" test nlu --nlu "$nlu_file" --model "$model_file" \
    --out "$reports/rasa-test-nlu-$name" --no-plot >"$reports/rasa-test-nlu-$name.log" 2>&1 \
    || { tail -20 "$reports/rasa-test-nlu-$name.log"; exit 1; }
  "$binary" evaluate --server "http://127.0.0.1:$port" --nlu "$nlu_file" --jobs 8 \
    --report "$reports/evaluate-$name.json" --html "$reports/evaluate-$name.html" "$@" \
    >"$reports/evaluate-$name.txt"
  python3 "$root/Tests/Evaluate/agree-with-rasa.py" "$name" "$reports/evaluate-$name.json" \
    "$reports/rasa-test-nlu-$name" >"$reports/agree-$name.txt" || { cat "$reports/agree-$name.txt"; exit 1; }
  tail -1 "$reports/agree-$name.txt"
}
evaluate_agrees tier-heldout "$rasa_port" "$model" "$bot/heldout/nlu.yml" --threshold 'f1>=0.8'
sed -n 1,12p "$reports/evaluate-tier-heldout.txt"
sed -n '/by token/,$p' "$reports/evaluate-tier-heldout.txt"
sed -n '/intents$/,/accuracy/p' "$reports/agree-tier-heldout.txt" | awk 'NR <= 12'
evaluate_agrees tier-training "$rasa_port" "$model" "$bot/data/nlu.yml"
# Time (#49): 1,000 examples at --jobs 8, and the client's CPU per example (figures only).
python3 "$root/Tests/Evaluate/time-evaluate.py" "$binary" "http://127.0.0.1:$rasa_port" "$reports/evaluate-time"
python3 - "$reports/evaluate-tier-heldout.json" "$reports/evaluate-tier-heldout.html" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
page = open(sys.argv[2], encoding="utf-8").read()
# Every example's prediction is in the report; the synonyms count in the value match
# (Prague is Praha), and the span match does not need them.
assert report["examples"] == len(report["predictions"]) == 35, report["examples"]
prague = [p for p in report["predictions"] if p["text"] == "any apartment in Prague"][0]
assert prague["found"][0]["value"] == "Praha", prague
assert report["entities_by_value"]["city"]["matched"] >= 5, report["entities_by_value"]
assert report["bot_threshold"] == 0.3, report["bot_threshold"]
assert len(report["thresholds"]) == 101
# The page stands alone: SVG drawn inline, no script, nothing fetched.
assert page.count("<svg") == 2 and "<script" not in page and "src=" not in page, "html"
print("evaluate --report and --html: checked")
PY
# A figure the bot misses fails the run (1), and says which.
status=0
"$binary" evaluate --server "http://127.0.0.1:$rasa_port" --nlu "$bot/heldout/nlu.yml" \
  --threshold 'intent:goodbye:recall>=0.99' >/dev/null 2>"$reports/evaluate-gate.err" || status=$?
[ "$status" = 1 ] && grep -q "intent:goodbye:recall>=0.99" "$reports/evaluate-gate.err" \
  || { echo "evaluate --threshold: exit $status"; cat "$reports/evaluate-gate.err"; exit 1; }
echo "== robustness --black-box --through-client: the same variants, as typed and as the chat sends them"
"$binary" robustness --server "http://127.0.0.1:$rasa_port" --nlu "$bot/data/nlu.yml" --lang ru,uk \
  --black-box --through-client --report "$reports/robustness-client.json" \
  >"$reports/robustness-client.txt"
cat "$reports/robustness-client.txt" | sed -n 1,40p
python3 - "$reports/robustness-client.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
classes = report["classes"]
direct = {name: c["kept"] / c["variants"] for name, c in classes.items()}
through = {name: c["kept_through_client"] / c["variants"] for name, c in classes.items()}
print("kept as typed:      ", {n: round(v, 3) for n, v in direct.items()})
print("kept through client:", {n: round(v, 3) for n, v in through.items()})
# Issue #48: transliteration and wrong layout keep 90 % or more through the client (from
# about 0 % and 17 % as typed); typos and case are not made worse.
assert through["transliteration"] >= 0.9 and through["keyboard-layout"] >= 0.9, through
assert direct["transliteration"] < 0.3 and direct["keyboard-layout"] < 0.3, direct
for name in ("typo", "case-punctuation"):
    assert through[name] >= direct[name], (name, direct[name], through[name])
PY
echo "== journeys: a Russian speaker and the inspector against the Rasa bot, in tmux"
python3 "$root/Tests/Journeys/journeys.py" "$binary" --rasa "http://127.0.0.1:$rasa_port" \
  --data-api "http://127.0.0.1:$data_port"
echo "== explore: every path of the Rasa bot in every language; the paths replay green"
"$binary" explore --server "http://127.0.0.1:$rasa_port" --start hello \
  --report "$reports/explore.json" --graph "$reports/explore.dot" \
  --record-dir "$reports/explore-paths" | tee "$reports/explore.txt"
"$binary" replay "$reports/explore-paths" --server "http://127.0.0.1:$rasa_port" | tail -2
echo "== socket.io: Transcripts/rasa over Rasa's socketio channel"
"$binary" replay "$root/Transcripts/rasa" --server "http://127.0.0.1:$rasa_port" --channel socketio \
  --lang en --junit "$reports/socketio.xml" | tee "$reports/socketio.txt"
echo "== socket.io: a chat recorded over socketio (a card, /lang, /restart, /new) replays green over it"
printf 'I need insurance\n/lang uk\n/restart\nмені потрібне житло\n/new\nhello\n1\n' \
  | "$binary" --server "http://127.0.0.1:$rasa_port" --channel socketio --start-message hello \
    --record "$reports/recorded-socketio.yaml" >"$reports/chat-socketio.txt"
grep -q "#138508" "$reports/chat-socketio.txt" || { echo "no contact card over socketio"; exit 1; }
"$binary" replay "$reports/recorded-socketio.yaml" --server "http://127.0.0.1:$rasa_port" \
  --channel socketio | tail -2
echo "== socket.io: explore over socketio; its paths replay green over it"
"$binary" explore --server "http://127.0.0.1:$rasa_port" --channel socketio --start hello \
  --record-dir "$reports/explore-socketio-paths" | tail -2
"$binary" replay "$reports/explore-socketio-paths" --server "http://127.0.0.1:$rasa_port" \
  --channel socketio | tail -2
echo "== socket.io: rest and socketio answer alike, but for the id the bot keeps the conversation under"
status=0
"$binary" replay "$root/Transcripts/rasa" --server "http://127.0.0.1:$rasa_port" --channel rest,socketio \
  --lang en --report "$reports/conformance.json" >"$reports/conformance.txt" || status=$?
tail -1 "$reports/conformance.txt"
conformance_differs() {  # FILE EXPECTED-JSON: the steps that differ, and how, are exactly those expected
  python3 - "$1" "$2" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
found = {(t["name"], d["step"], line) for t in report["transcripts"] for d in t["differences"]
         for line in sorted(set(d["rest"]) ^ set(d["socketio"]))
         if not line.startswith("text: language=")}
found |= {(t["name"], d["step"], "sender") for t in report["transcripts"] for d in t["differences"]
          if any(line.startswith("text: language=") for line in d["rest"])}
expected = {tuple(item) for item in json.loads(sys.argv[2])}
print(f"differences expected {len(expected)}, found {len(found & expected)}, other {len(found - expected)}")
if found != expected:
    sys.exit(f"missed: {sorted(expected - found)}; not expected: {sorted(found - expected)}")
PY
}
[ "$status" = 1 ] || { echo "replay --channel rest,socketio exited $status, not 1"; exit 1; }
conformance_differs "$reports/conformance.json" \
  '[["Rasa, English", 5, "sender"], ["Rasa, Russian", 4, "sender"], ["Rasa, Ukrainian", 4, "sender"]]'
echo "== explore finds exactly the defects planted in the action server"
kill "${pids[0]}" && wait "${pids[0]}" 2>/dev/null || true
(cd "$bot" && MIGRANT_CHAT_PLANTED_DEFECTS=1 exec "$venv/bin/rasa" run actions \
  --port "$actions_port" --actions actions) >"$reports/actions-planted.log" 2>&1 &
pids[0]=$!
wait_for "http://127.0.0.1:$actions_port/health" actions-planted
status=0
# A state of its own: the summary in the environment's language, not the one /lang chose above.
rm -rf "$reports/explore-planted-paths"
XDG_STATE_HOME=$home/explore-state "$binary" explore --server "http://127.0.0.1:$rasa_port" \
  --start hello --report "$reports/explore-planted.json" \
  --record-dir "$reports/explore-planted-paths" | tee "$reports/explore-planted.txt" \
  || status=$?
[ "$status" = 1 ] || { echo "explore exited $status with planted defects, not 1"; exit 1; }
python3 - "$reports/explore-planted.json" <<'PY'
import json, sys
found = {(f["kind"], f["language"], " > ".join(f["path"]))
         for f in json.load(open(sys.argv[1]))["findings"] if f["failure"]}
planted = {("fallback", "en", "Visa"), ("fallback", "ru", "Виза"), ("fallback", "uk", "Віза"),
           ("wrong-language", "ru", "Жильё"), ("missing-contact", "uk", "Медичне страхування"),
           ("language-mismatch", "en", "Health insurance")}
print(f"planted {len(planted)}, found {len(found & planted)}, other findings {len(found - planted)}")
if found != planted:
    sys.exit(f"missed: {sorted(planted - found)}; not planted: {sorted(found - planted)}")
PY
echo "== socket.io: explore over socketio finds the fallbacks it finds over REST (the tracker read under the session id)"
status=0
XDG_STATE_HOME=$home/explore-state "$binary" explore --server "http://127.0.0.1:$rasa_port" \
  --channel socketio --start hello --report "$reports/explore-planted-socketio.json" \
  >"$reports/explore-planted-socketio.txt" || status=$?
[ "$status" = 1 ] || { tail -5 "$reports/explore-planted-socketio.txt"; echo "explore over socketio exited $status, not 1"; exit 1; }
python3 - "$reports/explore-planted.json" "$reports/explore-planted-socketio.json" <<'PY'
import json, sys
def fallbacks(path):
    return {(f["language"], " > ".join(f["path"])) for f in json.load(open(path))["findings"]
            if f["kind"] == "fallback"}
rest, socketio = fallbacks(sys.argv[1]), fallbacks(sys.argv[2])
print(f"fallbacks over REST {len(rest)}, over socketio {len(socketio)}, in both {len(rest & socketio)}")
if not rest or rest != socketio:
    sys.exit(f"only over REST: {sorted(rest - socketio)}; only over socketio: {sorted(socketio - rest)}")
PY
echo "== socket.io: the comparison finds the custom JSON Rasa's socketio channel loses (Rasa #5461)"
status=0
"$binary" replay "$root/Transcripts/rasa" --server "http://127.0.0.1:$rasa_port" --channel rest,socketio \
  --lang en --report "$reports/conformance-planted.json" >"$reports/conformance-planted.txt" || status=$?
tail -1 "$reports/conformance-planted.txt"
[ "$status" = 1 ] || { echo "replay --channel rest,socketio exited $status, not 1"; exit 1; }
conformance_differs "$reports/conformance-planted.json" "$(python3 -c '
import json
insurance = ["contacts: 138508, 138503", "image: https://example.org/insurance-map.png"]
steps = [("greets and helps with insurance", 2, insurance), ("assertions as Rasa Pro writes them", 2, ["contacts: 138512"]),
         ("payload lines and numbers as written", 2, insurance),
         ("Rasa, English", 2, insurance), ("Rasa, English", 3, ["contacts: 138512"]),
         ("Rasa, what the bot understood", 2, ["contacts: 138512"]), ("Rasa, what the bot understood", 3, insurance),
         ("Rasa, Russian", 2, ["contacts: 138512"]), ("Rasa, Russian", 3, insurance),
         ("Rasa, Ukrainian", 2, ["contacts: 138508, 138503, 999999", insurance[1]]),
         ("Rasa, Ukrainian", 3, ["contacts: 138512"])]
expected = [[name, step, line] for name, step, lines in steps for line in lines]
expected += [["Rasa, English", 5, "sender"], ["Rasa, Russian", 4, "sender"], ["Rasa, Ukrainian", 4, "sender"]]
print(json.dumps(expected))')"
echo "== the paths through planted defects replay as expected failures (XFAIL), not as passing tests"
"$binary" replay "$reports/explore-planted-paths" --server "http://127.0.0.1:$rasa_port" --lang en \
  >"$reports/replay-planted.txt" || { cat "$reports/replay-planted.txt"; echo "replay of the planted paths failed"; exit 1; }
tail -2 "$reports/replay-planted.txt"
grep -q "^XFAIL  explore ru: Жильё" "$reports/replay-planted.txt" \
  || { echo "the English answer in Russian was not an expected failure"; exit 1; }
grep -Eq "expected failures?" "$reports/replay-planted.txt" || { echo "no expected failure counted"; exit 1; }
echo "== robustness, the loop: the bot's data and the written variants, retrained, hold on another seed"
# The variants robustness wrote (seed 1) go into a copy of the bot's training data; the
# retrained bot is measured on seed 2 and must keep, at 90 % or more, the transliterations
# and keyboard-layout switches seed 1 did not make (other chat-Latin spellings, other
# part-way switches): the standards' spellings and the whole-text switches are the same for
# every seed, so the retrained bot was trained on those. The transcripts written from
# seed 1 fail against the old bot and pass against the new one.
retrain_started=$SECONDS
retrained=$home/retrained-bot
mkdir -p "$retrained"
cp -r "$bot/config.yml" "$bot/domain.yml" "$bot/data" "$retrained/"
cp "$reports/robustness-nlu.yml" "$retrained/data/robustness-variants.yml"
hash2=$(cd "$retrained" && find config.yml domain.yml data -type f -print0 | sort -z | xargs -0 cat | sha256sum | cut -c1-16)
model2=$cache/rasa-models/$hash2.tar.gz
if [ ! -f "$model2" ]; then
  (cd "$retrained" && "$venv/bin/rasa" train --quiet --out "$cache/rasa-models" --fixed-model-name "$hash2") \
    >"$reports/retrain.log" 2>&1 || { tail -20 "$reports/retrain.log"; exit 1; }
fi
rasa2_port=$(free_port)
(cd "$bot" && exec "$venv/bin/rasa" run --enable-api --port "$rasa2_port" --interface 127.0.0.1 \
  --credentials credentials.yml --endpoints "$home/endpoints.yml" --model "$model2") \
  >"$reports/rasa-retrained.log" 2>&1 &
pids+=($!)
wait_for "http://127.0.0.1:$rasa2_port/webhooks/rest/" rasa-retrained
status=0
"$binary" robustness --server "http://127.0.0.1:$rasa2_port" --nlu "$bot/data/nlu.yml" --lang ru,uk,en \
  --seed 2 --report "$reports/robustness-retrained.json" >"$reports/robustness-retrained.txt" || status=$?
sed -n 1,10p "$reports/robustness-retrained.txt"
[ "$status" = 0 ] || { echo "robustness against the retrained bot exited $status"; exit 1; }
# Which of seed 2's variants are new: the report counts kept variants by class only and
# lists the failing ones (class, scheme, text), so it cannot tell them apart (it would need
# the kept variants too, or counts by scheme). Each seed's variants are listed by asking a
# stand-in bot that understands each training example as its intent at confidence 0: with
# --min-confidence 0.5 every variant fails, so its report lists them all.
cat >"$home/stand-in.py" <<'PY'
import http.server, json, re, sys
examples = {}
intent = None
for line in open(sys.argv[2], encoding="utf-8"):
    block = re.match(r"\s*- (intent|synonym|regex|lookup):\s*(\S+)", line)
    if block:
        intent = block.group(2) if block.group(1) == "intent" else None
    elif intent and (example := re.match(r"\s+- (.+)", line)):
        # As the client reads an example: the entity marks taken out.
        text = re.sub(r"\[([^\]]*)\](?:\([^)]*\)|\{[^}]*\})", r"\1", example.group(1).strip())
        examples.setdefault(text, intent)
class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.end_headers()
    def do_POST(self):
        text = json.loads(self.rfile.read(int(self.headers["Content-Length"])))["text"]
        body = json.dumps({"text": text, "entities": [], "intent_ranking": [],
                           "intent": {"name": examples.get(text, "stand_in_unknown"), "confidence": 0.0}})
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(body.encode())
    def log_message(self, *arguments):
        pass
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
PY
stand_in_port=$(free_port)
python3 "$home/stand-in.py" "$stand_in_port" "$bot/data/nlu.yml" >"$reports/stand-in.log" 2>&1 &
pids+=($!)
wait_for "http://127.0.0.1:$stand_in_port/" stand-in
for seed in 1 2; do
  "$binary" robustness --server "http://127.0.0.1:$stand_in_port" --nlu "$bot/data/nlu.yml" \
    --lang ru,uk,en --seed "$seed" --min-confidence 0.5 \
    --report "$reports/robustness-variants-seed$seed.json" >/dev/null \
    || { echo "robustness against the stand-in bot (seed $seed) failed"; exit 1; }
done
python3 - "$reports/robustness.json" "$reports/robustness-retrained.json" \
  "$reports/robustness-variants-seed1.json" "$reports/robustness-variants-seed2.json" <<'PY'
import json, sys
before, after, listed1, listed2 = (json.load(open(path)) for path in sys.argv[1:])
for listed in (listed1, listed2):
    assert not listed["skipped"] and listed["kept"] == 0, "the stand-in did not list every variant"
left_out = {s["example"] for s in after["skipped"]}
def key(f):
    return f["intent"], f["example"]
made_by_seed1 = {}
for f in listed1["failures"]:
    made_by_seed1.setdefault(key(f), set()).add(f["variant"])
# Seed 2's variants of the examples the retrained bot measured (not those it left out).
variants2 = [f for f in listed2["failures"] if f["example"] not in left_out]
for name, counts in after["classes"].items():
    listed = sum(f["class"] == name for f in variants2)
    assert listed == counts["variants"], (name, listed, counts, "the listing is not the run's")
failed2 = {(key(f), f["class"], f["variant"]) for f in after["failures"]}
for name in ("transliteration", "keyboard-layout"):
    old = before["classes"][name]["kept"] / before["classes"][name]["variants"]
    everything = after["classes"][name]["kept"] / after["classes"][name]["variants"]
    new = [f for f in variants2
           if f["class"] == name and f["variant"] not in made_by_seed1.get(key(f), set())]
    kept = sum((key(f), name, f["variant"]) not in failed2 for f in new)
    schemes = sorted({f["scheme"] for f in new})
    print(f"{name}: {old:.0%} kept before (seed 1); after retraining, seed 2: {everything:.0%} of all "
          f"{after['classes'][name]['variants']} variants, {kept / len(new):.0%} of the {len(new)} "
          f"seed 1 did not make ({', '.join(schemes)})")
    for f in new:
        if (key(f), name, f["variant"]) in failed2:
            print(f"  not kept: {f['example']} -> {f['variant']} ({f['scheme']})")
    assert kept / len(new) >= 0.9, (name, kept, len(new))
for name in ("typo", "case-punctuation"):
    assert after["classes"][name]["kept"] / after["classes"][name]["variants"] >= 0.85, (name, after["classes"][name])
PY
status=0
"$binary" replay "$reports/robustness-transcripts" --server "http://127.0.0.1:$rasa_port" --lang en \
  >"$reports/robustness-replay-old.txt" || status=$?
tail -1 "$reports/robustness-replay-old.txt"
[ "$status" = 1 ] && grep -q "^0 passed, " "$reports/robustness-replay-old.txt" \
  || { echo "the written transcripts did not all fail against the bot they came from"; exit 1; }
status=0
"$binary" replay "$reports/robustness-transcripts" --server "http://127.0.0.1:$rasa2_port" --lang en \
  >"$reports/robustness-replay-new.txt" || status=$?
tail -1 "$reports/robustness-replay-new.txt"
python3 - "$reports/robustness-replay-new.txt" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
passed, failed = (int(n) for n in re.search(r"^(\d+) passed, (\d+) failed", text, re.M).groups())
print(f"written transcripts against the retrained bot: {passed} of {passed + failed} pass")
assert passed / (passed + failed) >= 0.9, (passed, failed)
PY
retrain_seconds=$((SECONDS - retrain_started))
echo "== rasa init's moodbot plus a form asking for free text: explore without and with --answers"
mood_started=$SECONDS
mood_port=$(free_port)
(cd "$mood" && exec "$venv/bin/rasa" run --enable-api --port "$mood_port" --interface 127.0.0.1 \
  --model "$mood_model") >"$reports/rasa-moodbot.log" 2>&1 &
pids+=($!)
wait_for "http://127.0.0.1:$mood_port/webhooks/rest/" rasa-moodbot
"$binary" explore --server "http://127.0.0.1:$mood_port" --lang en --start hello --start /transfer \
  --report "$reports/moodbot-plain.json" | tee "$reports/moodbot-plain.txt"
rm -rf "$reports/moodbot-paths"
"$binary" explore --server "http://127.0.0.1:$mood_port" --lang en --start hello --start /transfer \
  --answers "$root/Tests/MoodBot/answers.yml" --report "$reports/moodbot-answers.json" \
  --record-dir "$reports/moodbot-paths" | tee "$reports/moodbot-answers.txt"
python3 - "$reports/moodbot-plain.json" "$reports/moodbot-answers.json" "$reports/moodbot-paths" <<'PY'
import json, os, sys
plain, answered = (json.load(open(path)) for path in sys.argv[1:3])
def needs(report):
    return sorted((" > ".join(f["path"]), f["detail"]) for f in report["findings"] if f["kind"] == "needs-answer")
def shape(report):
    walk = report["languages"][0]
    return f"messages {walk['nodes']}, clicks {walk['clicks']}, turns {walk['turns']}"
print(f"moodbot without --answers: {shape(plain)}; questions left {len(needs(plain))}")
print(f"moodbot with --answers:    {shape(answered)}; questions left {len(needs(answered))}")
assert [path for path, _ in needs(plain)] == ["/transfer", "hello"], needs(plain)
# The form's question is named by the slot the tracker shows; moodbot's by its text.
assert "amount" in needs(plain)[0][1] and "How are you?" in needs(plain)[1][1], needs(plain)
assert not needs(answered), needs(answered)
assert not answered["failed"] and not plain["failed"]
recorded = "".join(open(os.path.join(sys.argv[3], name), encoding="utf-8").read()
                   for name in sorted(os.listdir(sys.argv[3])))
for said in ("Transferred 50 euros.", "Great, carry on!", "Did that help you?", "Bye"):
    assert said in recorded, said
PY
"$binary" replay "$reports/moodbot-paths" --server "http://127.0.0.1:$mood_port" \
  --coverage "$mood/domain.yml" --coverage-report "$reports/moodbot-coverage.json" | tail -5
python3 - "$reports/moodbot-coverage.json" <<'PY'
import json, sys
kinds = json.load(open(sys.argv[1]))["kinds"]
# The paths explore recorded with --answers reach the form, its slot and the intents the
# answers say (what "no" reads as is the model's call), never bot_challenge: no question
# leads to "are you a bot?".
assert kinds["forms"]["reached"] == ["transfer_form"], kinds["forms"]
assert kinds["slots"]["reached"] == ["amount"], kinds["slots"]
assert {"greet", "mood_great", "mood_unhappy", "affirm", "transfer"} <= set(kinds["intents"]["reached"]), kinds["intents"]
assert "bot_challenge" in kinds["intents"]["not_reached"], kinds["intents"]
assert "utter_ask_amount" in kinds["responses"]["reached"], kinds["responses"]
PY
echo "== evaluate (#49) against moodbot, a bot no one here wrote, on a held-out set a helper wrote"
evaluate_agrees moodbot "$mood_port" "$mood_model" "$root/Tests/MoodBot/heldout.yml"
sed -n 1,14p "$reports/evaluate-moodbot.txt"
echo "== test stories, judged through each bot's model (replay) and by rasa test core, story by story"
for which in moodbot tier; do
  if [ "$which" = moodbot ]; then stories=$mood/tests port=$mood_port; else stories=$bot/tests port=$rasa_port; fi
  status=0
  "$binary" replay "$stories" --server "http://127.0.0.1:$port" --report "$reports/stories-$which.json" \
    --failed-stories "$reports/failed-stories-$which.yml" --junit "$reports/stories-$which.xml" \
    >"$reports/stories-$which.txt" || status=$?
  tail -1 "$reports/stories-$which.txt"
  [ "$status" = 1 ] || { cat "$reports/stories-$which.txt"; echo "replay of $which's stories exited $status, not 1 (some are wrong on purpose)"; exit 1; }
done
wait "$core_pid" || { tail -20 "$core_out"/*.log; echo "rasa test core failed"; exit 1; }
core_pid=""
"$venv/bin/python" - "$reports" "$core_out" <<'PY'
import json, re, sys, yaml
reports, core = sys.argv[1:3]
def failed(path):
    stories = (yaml.safe_load(open(path, encoding="utf-8")) or {}).get("stories") or []
    # Both write "NAME (FILE)"; the file is named differently, the story alike.
    return {re.sub(r" \([^()]*\)$", "", story["story"]) for story in stories}
for which in ("moodbot", "tier"):
    ours = json.load(open(f"{reports}/stories-{which}.json"))["transcripts"]
    names = [t["name"] for t in ours]
    mine = failed(f"{reports}/failed-stories-{which}.yml")
    rasa = failed(f"{core}/{which}/failed_test_stories.yml")
    for name in names:
        print(f"  {which:8s} {'FAIL' if name in mine else 'pass'} (rasa test core: {'FAIL' if name in rasa else 'pass'})  {name}")
    assert mine == {t["name"] for t in ours if not t["passed"]}, (mine, ours)
    assert mine == rasa, f"{which}: only replay failed {sorted(mine - rasa)}, only rasa test core failed {sorted(rasa - mine)}"
    assert any(n.startswith("wrong on purpose") for n in mine), mine
    print(f"{which}: {len(names)} stories, replay and rasa test core agree on each ({len(mine)} failed)")
PY
echo "== test stories executed: each user line sent, the actions the bot really ran read from its tracker"
for which in moodbot tier; do
  if [ "$which" = moodbot ]; then stories=$mood/tests port=$mood_port; else stories=$bot/tests port=$rasa_port; fi
  status=0
  "$binary" replay "$stories" --stories execute --server "http://127.0.0.1:$port" \
    --report "$reports/executed-$which.json" --failed-stories "$reports/executed-failed-$which.yml" \
    >"$reports/executed-$which.txt" || status=$?
  tail -1 "$reports/executed-$which.txt"
  [ "$status" = 1 ] || { cat "$reports/executed-$which.txt"; echo "executed $which's stories exited $status, not 1"; exit 1; }
done
"$venv/bin/python" - "$reports" <<'PY'
import json, sys, yaml
reports = sys.argv[1]
for which in ("moodbot", "tier"):
    predicted = {t["name"]: t["passed"] for t in json.load(open(f"{reports}/stories-{which}.json"))["transcripts"]}
    executed = {t["name"]: t["passed"] for t in json.load(open(f"{reports}/executed-{which}.json"))["transcripts"]}
    text = open(f"{reports}/executed-failed-{which}.yml", encoding="utf-8").read()
    written = (yaml.safe_load(text) or {}).get("stories") or []
    for name in predicted:
        print(f"  {which:8s} executed {'pass' if executed[name] else 'FAIL'}, predicted {'pass' if predicted[name] else 'FAIL'}  {name}")
    # What the model predicts wrong on purpose, the bot runs wrong too; every failed
    # story is written with the line where the bot parted from it.
    for name in predicted:
        if name.startswith("wrong on purpose"):
            assert not executed[name], f"{which}: {name} passed when executed"
    assert len(written) == sum(not p for p in executed.values()) == text.count("# executed: "), text
    same = sum(executed[n] == predicted[n] for n in predicted)
    print(f"{which}: {len(predicted)} stories executed, {sum(executed.values())} pass; the same verdict as predicted for {same}")
PY
mood_seconds=$((SECONDS - mood_started))
echo "== side by side: the offline assistant over HTTP (migrant-chat serve), same run"
"$binary" replay "$root/Transcripts/offline" --server "http://127.0.0.1:$data_port" | tail -2
echo "rasa tier: install ${install_seconds}s, train ${train_seconds}s, start ${start_seconds}s, robustness loop ${retrain_seconds}s, moodbot ${mood_seconds}s, total ${SECONDS}s"
