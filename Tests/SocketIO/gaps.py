"""How a socket.io bot's answers arrive: the numbers behind `--settle`'s default.

Usage: gaps.py URL [TURNS]  (run with a Python that has python-socketio: the Rasa tier's venv)

Plays TURNS user messages (the Rasa tier's test bot's topics, in three languages) over
socket.io, one conversation per language, with an acknowledgement asked for each, and
prints one JSON object: the largest gap between two messages of one answer, the time
from the last message to the acknowledgement (negative: the acknowledgement came first),
and how many answers were acknowledged after their messages. `make bench` prints it.
"""
import asyncio, json, sys, time

import socketio

MESSAGES = {
    "en": ["hello", "I need health insurance", "I need a flat", "/restart", "debug", "what?"],
    "ru": ["привет", "нужна страховка", "нужна квартира", "Жильё", "debug"],
    "uk": ["привіт", "потрібна страховка", "потрібна квартира", "debug"],
}


async def conversation(url, language, turns, results):
    client = socketio.AsyncClient()
    arrivals = []
    client.on("bot_uttered", lambda *_: arrivals.append(time.perf_counter()))
    await client.connect(url, transports=["polling"])
    confirmed = asyncio.Event()
    client.on("session_confirm", lambda *_: confirmed.set())
    await client.emit("session_request", {"session_id": None})
    await asyncio.wait_for(confirmed.wait(), 30)
    for turn in range(turns):
        message = MESSAGES[language][turn % len(MESSAGES[language])]
        arrivals.clear()
        sent = time.perf_counter()
        acked = asyncio.Event()
        ack_at = []
        await client.emit("user_uttered", {"message": message, "metadata": {"language": language}},
                          callback=lambda *_: (ack_at.append(time.perf_counter()), acked.set()))
        await asyncio.wait_for(acked.wait(), 30)
        await asyncio.sleep(0.5)  # anything after the acknowledgement is counted too
        times = sorted(arrivals)
        results.append({"messages": len(times), "first": (times[0] - sent) if times else None,
                        "gaps": [b - a for a, b in zip(times, times[1:])],
                        "ack_after_last": (ack_at[0] - times[-1]) if times else None})
    await client.disconnect()


async def main():
    url = sys.argv[1]
    turns = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    results = []
    await asyncio.gather(*(conversation(url, language, turns, results) for language in MESSAGES))
    gaps = [gap for result in results for gap in result["gaps"]]
    after = [r["ack_after_last"] for r in results if r["ack_after_last"] is not None]
    print(json.dumps({
        "answers": len(results),
        "messages": sum(r["messages"] for r in results),
        "max_gap_ms": round(max(gaps) * 1000, 1) if gaps else None,
        "p99_gap_ms": round(sorted(gaps)[int(len(gaps) * 0.99)] * 1000, 1) if gaps else None,
        "ack_after_last_message_ms": {"min": round(min(after) * 1000, 1), "max": round(max(after) * 1000, 1)}
        if after else None,
        "acknowledged_after_messages": sum(1 for value in after if value >= 0),
        "with_messages": len(after),
    }))


asyncio.run(main())
