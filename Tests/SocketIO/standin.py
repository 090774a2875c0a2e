#!/usr/bin/env python3
"""Stand-in for a Rasa socket.io chatbot deployment, for testing the Swift client.

It speaks Engine.IO v4 / Socket.IO v5 (python-socketio on aiohttp) the way
rasa/core/channels/socketio.py does: the client emits `session_request` and
gets `session_confirm` with a session id; it emits `user_uttered` with
{message, session_id, metadata}; the bot answers with `bot_uttered` payloads
({"text": ...}, {"text": ..., "quick_replies": [...]}, {"attachment": ...}),
text split on blank lines into several messages, quick replies on the last.

Behind the socket sits a tiny deterministic bot (see `reply`). Each --mode
reproduces a way a real deployment can behave or misbehave:

  normal         answers to room=sid before the handler returns (Rasa default)
  silent         answers go to room=session_id, which nobody joined
                 (Rasa 3.6 session_persistence trap): nothing ever arrives
  late           /insurance: the image comes 3 s after the handler returned; once
                 the client has taken it (it polled again), "late delivered" on stdout
  background     handler returns at once; answers follow 0.2 s later, 0.1 s apart
  drop           /insurance: first paragraph, then the server disconnects
  pings          ping_interval=0.5, ping_timeout=1: a client that does not
                 answer pings is dropped after about 1.5 s
  hostile        every message gets malformed / oversized / odd payloads
  jwt            connect needs auth {"token": "secret-token"} (or "Bearer ...")
  http400        no socket.io; the path answers HTTP 400 {"error":"bad handshake"}
  http404        no socket.io; 404 for everything
  hang           TCP accepted, nothing is ever written back
  custom-events  normal bot; meant to be run with --user-event/--bot-event
  flood          every message is answered with 2 MB bot_uttered payloads, one each
                 time the client polls, never acknowledged, until the client leaves
  odd-sid        normal bot whose Engine.IO session ids hold & # / + = characters
  small-payload  normal bot that takes at most 2000 bytes a POST (maxPayload 2000)

--path, --user-event, --bot-event and --metadata-key are honoured in every mode.
Prints "ready" on stdout once listening; logs user messages to stderr.

Usage: standin.py --port PORT --mode MODE [--path /socket.io]
                  [--user-event user_uttered] [--bot-event bot_uttered]
                  [--metadata-key metadata]
"""
import argparse
import asyncio
import json
import sys
import uuid

import socketio
from aiohttp import web

MODES = ["normal", "silent", "late", "background", "drop", "pings", "hostile",
         "jwt", "http400", "http404", "hang", "custom-events", "flood", "odd-sid",
         "small-payload"]
FLOOD_TEXT = "x" * (2 * 1000 * 1000)
HOST = "127.0.0.1"
IMAGE_URL = "https://example.com/insurance-card.png"
GREETINGS = {  # language -> (text, insurance title, housing title)
    "en": ("Hello! What do you need help with?", "Health insurance", "Housing"),
    "ru": ("Здравствуйте! С чем вам помочь?", "Медицинская страховка", "Жильё"),
    "uk": ("Вітаю! З чим вам допомогти?", "Медичне страхування", "Житло"),
}


def log(*parts):
    print(*parts, file=sys.stderr, flush=True)


def texts(text, buttons=None):
    """Rasa's send_text_message / send_text_with_buttons: one payload per paragraph."""
    parts = text.strip().split("\n\n")
    if not buttons:
        return [{"text": part} for part in parts]
    messages = [{"text": part, "quick_replies": []} for part in parts]
    messages[-1]["quick_replies"] = [
        {"content_type": "text", "title": title, "payload": payload}
        for title, payload in buttons]
    return messages


def reply(message, metadata, session_id):
    """The deterministic bot: list of bot_uttered payloads for one user message."""
    text = (message or "").strip().lower() if isinstance(message, str) else ""
    if text in ("hello", "/greet", "привет"):
        language = metadata.get("language") if isinstance(metadata, dict) else None
        greeting, insurance, housing = GREETINGS.get(language, GREETINGS["en"])
        return texts(greeting, [(insurance, "/insurance"), (housing, "/housing")])
    if text == "/insurance":
        return (texts("Foreigners need health insurance.\n\nAsk the insurer.")
                + [{"contacts": [138512]},
                   {"attachment": {"type": "image", "payload": {"src": IMAGE_URL}}}])
    if text == "/housing":
        return texts("Look for a flat.", [("Back", "/greet")])
    if text == "/restart":
        return []
    if text == "/echo_meta":
        return texts(json.dumps(metadata, sort_keys=True))
    if text == "/echo_sender":
        return texts("sender=" + str(session_id))
    return texts("Sorry, I did not understand.", [("Help", "/greet")])


def hostile_payloads():
    """Payloads (as emit() `data` arguments) a client must survive, in order."""
    return [
        {"text": "x" * (1024 * 1024)},                          # 1 MiB text
        {"text": "\x1b[31mRED\x1b]0;title\x07 \x1b[2J"},        # ANSI / OSC escapes
        {"text": "\u202eevil"},                                 # bidi override
        {"text": "\x85\x9b"},                                   # C1 controls
        "just a string",
        [1, 2],
        None,     # emit(event, None): python-socketio sends the event with NO argument
        (None,),  # a tuple spreads into arguments: this one carries an explicit null
        {"text": 5},
        {"quick_replies": "not a list"},
        {"quick_replies": [{"title": None}, 7, {"title": "Ok", "payload": "/greet"}]},
        b"\x00\x01",                                            # binary event
    ]


def socketio_app(args):
    # pings: python-engineio advertises int(0.5) * 1000 = 0 as "pingInterval" in
    # the handshake, yet really pings every 0.5 s (pingTimeout is 1000).
    options = {"ping_interval": 0.5, "ping_timeout": 1} if args.mode == "pings" else {}
    if args.mode == "small-payload":
        options["max_http_buffer_size"] = 2000  # said to the client as maxPayload
    sio = socketio.AsyncServer(async_mode="aiohttp", cors_allowed_origins=[], **options)
    if args.mode == "odd-sid":
        ids = iter(range(1, 1 << 30))
        sio.eio.generate_id = lambda: f"a&b=c#d/e+f{next(ids)}"

    # The client's long polls, counted: it polls again only once it has handled what the
    # previous poll brought, so a new poll is the sign that it has.
    polls = {"started": 0, "open": 0}
    poll_seen = asyncio.Condition()

    @web.middleware
    async def count_polls(request, handler):
        polling = request.method == "GET" and "sid" in request.query
        if polling:
            async with poll_seen:
                polls["started"] += 1
                polls["open"] += 1
                poll_seen.notify_all()
        try:
            return await handler(request)
        finally:
            if polling:
                polls["open"] -= 1

    async def emit_and_wait_for_next_poll(payload, room, timeout=None):
        """Emits; returns once the client polled again after taking it (False: it did not)."""
        # A poll waiting takes the packet now; else the next poll does, and the one after
        # it is the sign.
        after = polls["started"] + (0 if polls["open"] else 1)
        await sio.emit(args.bot_event, payload, room=room)
        async with poll_seen:
            try:
                await asyncio.wait_for(poll_seen.wait_for(lambda: polls["started"] > after), timeout)
                return True
            except asyncio.TimeoutError:
                return False

    app = web.Application(middlewares=[count_polls])
    sio.attach(app, socketio_path=args.path)

    async def health(_request):
        return web.json_response({"status": "ok"})
    app.router.add_get("/", health)

    async def send(room, payloads, first=0.0, gap=0.0):
        await asyncio.sleep(first)
        for index, payload in enumerate(payloads):
            if index and gap:
                await asyncio.sleep(gap)
            await sio.emit(args.bot_event, payload, room=room)

    tasks = set()  # strong references, so pending sends are not garbage-collected

    def later(coroutine):
        task = asyncio.create_task(coroutine)
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    @sio.on("connect")
    async def connect(sid, environ, auth=None):
        if args.mode != "jwt":
            return True
        token = auth.get("token") if isinstance(auth, dict) else None
        accepted = token in ("secret-token", "Bearer secret-token")
        log(f"connect sid={sid} auth={json.dumps(auth)} accepted={accepted}")
        return accepted

    gone = set()

    @sio.on("disconnect")
    async def disconnect(sid, *_reason):
        gone.add(sid)
        log(f"disconnect sid={sid}")

    async def late_then_report(sid, payloads):
        await asyncio.sleep(3)
        for payload in payloads:
            await emit_and_wait_for_next_poll(payload, sid)
        print("late delivered", flush=True)

    @sio.on("session_request")
    async def session_request(sid, data=None):
        data = data if isinstance(data, dict) else {}
        session_id = data.get("session_id") or uuid.uuid4().hex
        # Rasa would enter_room(sid, session_id) here when session_persistence is
        # on; `silent` mode is the deployment where that never happens.
        await sio.emit("session_confirm", session_id, room=sid)

    @sio.on(args.user_event)
    async def user_uttered(sid, data=None):
        data = data if isinstance(data, dict) else {}
        message, session_id = data.get("message", ""), data.get("session_id")
        metadata = data.get(args.metadata_key, {})
        if isinstance(metadata, str):
            try:
                metadata = json.loads(metadata)
            except ValueError:
                pass
        log(f"{args.user_event} sid={sid} message={json.dumps(message, ensure_ascii=False)}"
            f" metadata={json.dumps(metadata, ensure_ascii=False, sort_keys=True)}")
        if args.mode == "flood":
            # Never returns while the client listens: no acknowledgement, ever.
            for _ in range(500):
                if sid in gone or not await emit_and_wait_for_next_poll(
                        {"text": FLOOD_TEXT}, sid, timeout=10):
                    break
            log(f"flood over sid={sid}")
            return None
        if args.mode == "hostile":
            await send(sid, hostile_payloads())
            await sio.emit("other_event", {"text": "ignore me"}, room=sid)
            await send(sid, [{"text": "end of hostile answer"}])
            return None
        payloads = reply(message, metadata, session_id)
        is_insurance = isinstance(message, str) and message.strip().lower() == "/insurance"
        if args.mode == "silent":
            await send(session_id or uuid.uuid4().hex, payloads)  # a room nobody is in
        elif args.mode == "background":
            later(send(sid, payloads, first=0.2, gap=0.1))
        elif args.mode == "late" and is_insurance:
            await send(sid, payloads[:-1])
            later(late_then_report(sid, payloads[-1:]))  # after the handler returned
        elif args.mode == "drop" and is_insurance:
            await send(sid, payloads[:1])
            await sio.disconnect(sid)
        else:
            await send(sid, payloads)
        return None  # python-socketio acks (with no arguments) if the client asked

    return app


def refusing_app(args):
    app = web.Application()
    if args.mode == "http400":
        async def bad_handshake(_request):
            return web.json_response({"error": "bad handshake"}, status=400)
        path = "/" + args.path.strip("/")
        app.router.add_route("*", path, bad_handshake)
        app.router.add_route("*", path + "/{tail:.*}", bad_handshake)
    return app  # http404: no routes at all


async def serve(args):
    if args.mode == "hang":
        held = []  # keep the transports alive: nothing is ever written back

        async def swallow(reader, writer):
            held.append(writer)
            while await reader.read(65536):
                pass
            held.remove(writer)  # the client gave up
            writer.close()
        server = await asyncio.start_server(swallow, HOST, args.port)
        async with server:
            print("ready", flush=True)
            await server.serve_forever()
        return
    app = refusing_app(args) if args.mode in ("http400", "http404") else socketio_app(args)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, HOST, args.port).start()
    print("ready", flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--mode", choices=MODES, required=True)
    parser.add_argument("--path", default="/socket.io")
    parser.add_argument("--user-event", default="user_uttered")
    parser.add_argument("--bot-event", default="bot_uttered")
    parser.add_argument("--metadata-key", default="metadata")
    args = parser.parse_args()
    try:
        asyncio.run(serve(args))
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
