#!/usr/bin/env python3
"""Journeys: whole first hours with migrant-chat, played in tmux and checked on the screen
and in the bytes the terminal received.

Each journey types what a user would (numbers, button titles, commands, Ctrl-C, a
narrow window) into a real terminal (tmux), waits for the answer, and checks every
screen it sees:
  - no raw JSON ({" on the screen);
  - no control bytes or replacement characters (garbage);
  - no English words in a Russian or Ukrainian session (the bot's own text aside:
    the Rasa test bot answers in the conversation's language);
  - the buttons of the latest answer numbered 1..N, as shown.
Then what the step is for (a guide, a saved step, a task, a report, a search).
The screen cannot show an escape sequence (the terminal acted on it), so every byte the
program wrote to its terminal is kept too (`tmux pipe-pane`) and scanned once it has
exited: no OSC, DCS, SOS, PM or APC, no C1 control, no CSI but the few the program and
readline write themselves, no bidi control, no U+FFFD, nothing but UTF-8. One journey
talks to a hostile bot on loopback whose text carries such sequences.

    journeys.py BINARY                      the offline and serve journeys (make test)
    journeys.py BINARY --rasa URL --data-api URL   the journeys against a Rasa bot

Prints a line per journey and `N passed, N failed`; exits 1 when any failed.
"""
import argparse
import http.server
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

ENGLISH = set(
    """the and you your with for not this that type choose what there was were has have from
    cannot could please help guide task tasks list added done saved sent report contact office
    offices directory language sample sorry found nothing here which press enter quit button
    buttons answer answers data unknown error when will""".split()
)


class JourneyFailed(Exception):
    pass


class Terminal:
    """One program in its own tmux server, as a user sees it, and every byte it wrote
    to the terminal (`raw`), from before its first byte: the program starts once the
    pipe is open (a tmux wait-for channel says so)."""

    def __init__(self, name, command, env, width=100, height=40, accessible=False, bells=0):
        self.socket = f"journeys-{os.getpid()}-{name}"
        self.name = name
        # The accessible mode's stricter check (`accessible_problems`), and how many bells
        # (`--bell`) the program is to ring: exactly those are let through.
        self.accessible = accessible
        self.bells = bells
        self.screens = []
        descriptor, self.raw = tempfile.mkstemp(prefix=f"journey-{name}-", suffix=".raw")
        os.close(descriptor)
        self.raw_checked = False
        environment = " ".join(f"{key}={value!r}" for key, value in env.items())
        self.tmux(
            "new-session", "-d", "-s", name, "-x", str(width), "-y", str(height),
            f"tmux -L {self.socket} wait-for {name}-piped; "
            f"env {environment} {command}; echo JOURNEY-EXIT=$?; sleep 30",
        )
        self.tmux("pipe-pane", "-t", name, "-O", f"cat >> {self.raw}")
        self.tmux("wait-for", "-S", f"{name}-piped")

    def __enter__(self):
        return self

    def __exit__(self, kind, problem, trace):
        try:
            if kind is None:
                self.check_raw()
        finally:
            self.close()

    def written(self, timeout=30):
        """Every byte the program wrote, once it has exited (the pane's shell said
        JOURNEY-EXIT after them)."""
        deadline = time.time() + timeout
        while b"JOURNEY-EXIT=" not in self.raw_bytes():
            if time.time() > deadline:
                raise JourneyFailed(f"{self.name}: the program did not exit; the screen:\n"
                                    f"{self.screen()}")
            time.sleep(0.05)
        data = self.raw_bytes()
        return data[:data.rindex(b"JOURNEY-EXIT=")]

    def check_raw(self):
        """The bytes the program wrote hold nothing `raw_problems` refuses (nor, in the
        accessible mode, anything `accessible_problems` refuses)."""
        written = self.written()
        problems = []
        bells = written.count(b"\x07")
        if bells != self.bells:
            problems.append(f"{bells} bells rung, where {self.bells} were due")
        written = written.replace(b"\x07", b"")
        problems += raw_problems(written)
        if self.accessible:
            problems += accessible_problems(written)
        if problems:
            raise JourneyFailed(f"{self.name}: in the bytes the terminal received ({self.raw}): "
                                + "; ".join(problems[:8]))
        self.raw_checked = True

    def raw_bytes(self):
        try:
            with open(self.raw, "rb") as file:
                return file.read()
        except FileNotFoundError:
            return b""

    def tmux(self, *arguments):
        return subprocess.run(
            ["tmux", "-L", self.socket, "-f", "/dev/null", *arguments],
            capture_output=True, text=True, check=False,
        ).stdout

    def screen(self):
        return self.tmux("capture-pane", "-t", self.name, "-p")

    def history(self):
        return self.tmux("capture-pane", "-t", self.name, "-p", "-S", "-", "-J")

    def type(self, text, enter=True):
        self.tmux("send-keys", "-t", self.name, "-l", text)
        if enter:
            self.tmux("send-keys", "-t", self.name, "Enter")

    def key(self, key):
        self.tmux("send-keys", "-t", self.name, key)

    def resize(self, width, height):
        self.tmux("resize-window", "-t", self.name, "-x", str(width), "-y", str(height))

    def wait(self, pattern, timeout=30, after=""):
        """Waits for `pattern` in what came after the last `after` (the whole history when
        empty); returns that part, once the screen has settled (two captures alike)."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            text = self.history()
            part = text[text.rfind(after) + len(after):] if after and after in text else text
            if re.search(pattern, part):
                screen, previous = self.screen(), None
                while screen != previous and time.time() < deadline:
                    time.sleep(0.05)
                    screen, previous = self.screen(), screen
                self.screens.append(screen)
                text = self.history()
                return text[text.rfind(after) + len(after):] if after and after in text else text
            time.sleep(0.1)
        raise JourneyFailed(f"waited {timeout}s for {pattern!r}; the screen:\n{self.screen()}")

    def close(self):
        self.tmux("kill-server")
        if self.raw_checked:  # else kept, to be read
            os.remove(self.raw)


# What the program writes itself (Sources: Rendered.swift's SGR colours, `\r\e[K` before a
# progress line, SignalHub's `\e[?2004l`) and what readline writes through terminfo for
# xterm: bracketed paste on and off, the cursor moved (`\e[C`, `\e[3D`, `\e[A`) and the
# line's end erased (`\e[K`).
ALLOWED_CSI = re.compile(r"\x1b\[(?:[0-9;]*m|[0-9]*[ABCD]|[012]?K|\?2004[hl])")
CSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]?")
ESCAPE_NAMES = {"]": "OSC", "P": "DCS", "X": "SOS", "^": "PM", "_": "APC", "[": "CSI"}
BIDI = set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A))


def raw_problems(data):
    """What the bytes a terminal received hold that the program must never write: an
    escape sequence but those in ALLOWED_CSI, a C0 control but newline, return, tab and
    backspace, DEL, a C1 control, a bidi control, U+FFFD, bytes that are not UTF-8."""
    problems = []
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        problems.append(f"not UTF-8 at byte {error.start}: {data[error.start:error.start + 8]!r}")
        text = data.decode("utf-8", errors="replace")
    index = 0
    while index < len(text):
        character = text[index]
        code = ord(character)
        around = text[max(0, index - 20):index + 20]
        if character == "\x1b":
            allowed = ALLOWED_CSI.match(text, index)
            if allowed:
                index = allowed.end()
                continue
            kind = ESCAPE_NAMES.get(text[index + 1:index + 2], "escape")
            sequence = CSI.match(text, index) if kind == "CSI" else None
            shown = sequence.group() if sequence else text[index:index + 2]
            problems.append(f"{kind} {shown!r} in {around!r}")
        elif (code < 32 and character not in "\n\r\t\b") or code == 0x7F:
            problems.append(f"C0 control U+{code:04X} in {around!r}")
        elif 0x80 <= code <= 0x9F:
            problems.append(f"C1 control U+{code:04X} in {around!r}")
        elif code in BIDI:
            problems.append(f"bidi control U+{code:04X} in {around!r}")
        elif code == 0xFFFD:
            problems.append(f"U+FFFD in {around!r}")
        index += 1
    return problems


# What a screen reader must not be sent (#47): it reads every character, so a glyph is
# read by its name ("almost equal to"), braille cells one by one, and a line written
# again after `\r` twice.
SPOKEN_GLYPHS = "≈·•…—–★→"


def accessible_problems(data):
    """What the bytes hold that the accessible mode (and TERM=dumb) never writes: any
    escape sequence, a carriage return not followed by a line feed, a braille cell, one of
    SPOKEN_GLYPHS."""
    text = data.decode("utf-8", errors="replace")
    problems = []
    for match in re.finditer(r"\x1b|\x9b|\r(?!\n)|[\u2800-\u28ff]|[" + SPOKEN_GLYPHS + "]", text):
        around = text[max(0, match.start() - 20):match.end() + 20]
        problems.append(f"{match.group()!r} in {around!r}")
    return problems


def check_screen(screen, language, where):
    if '{"' in screen:
        raise JourneyFailed(f"{where}: raw JSON on the screen:\n{screen}")
    for character in screen:
        code = ord(character)
        if (code < 32 and character not in "\n\t") or 0x7F <= code <= 0x9F or code == 0xFFFD:
            raise JourneyFailed(f"{where}: control byte U+{code:04X} on the screen:\n{screen}")
    if language in ("ru", "uk"):
        for line in screen.splitlines():
            if "http" in line or "JOURNEY" in line or line.lstrip().startswith("$"):
                continue
            # Commands and options are typed as they are, in every language.
            line = re.sub(r"/[a-z_]+(?: (?:add|done|undo|show|remove|all|save|list))?", " ", line)
            line = re.sub(r"--[a-z-]+|Ctrl-[A-Z]|[\w.]*[_.][\w.]*", " ", line)
            line = re.sub(r"\[[a-z|]+\]|\b(done|undo|show|remove) N\b", " ", line)
            if "/todo" in line or "/inspect" in line:  # its subcommands, as typed
                line = re.sub(r"\b(add|done|undo|show|remove|save|all|list|on|off)\b", " ", line)
            words = {word.lower() for word in re.findall(r"[A-Za-z]+", line)}
            english = sorted(words & ENGLISH)
            if english:
                raise JourneyFailed(f"{where}: English {english} in a {language} session: {line!r}")


def check_numbers(answer, where):
    """The latest answer's buttons are numbered 1..N in the order shown."""
    numbers = [int(found) for found in re.findall(r"^\s*\[(\d+)\]", answer, re.MULTILINE)]
    if numbers != list(range(1, len(numbers) + 1)):
        raise JourneyFailed(f"{where}: buttons numbered {numbers}:\n{answer}")


class Journey:
    def __init__(self, terminal, language, prompt):
        self.terminal = terminal
        self.language = language
        self.prompt = prompt
        self.turn = 0

    def step(self, text, expect, timeout=30, then=None):
        """Types `text`, waits for `expect` in the answer and the next prompt; checks it.
        `then`: the language the session goes on in (`/lang`), and so its prompt."""
        self.turn += 1
        marker = f"{self.prompt}{text}"
        if then:
            self.language, self.prompt = then, {"ru": "вы> ", "uk": "ви> ", "en": "you> "}[then]
        self.terminal.type(text)
        answer = self.terminal.wait(
            rf"(?s){expect}.*{re.escape(self.prompt.strip())}", timeout=timeout, after=marker)
        where = f"{self.terminal.name} step {self.turn} ({text!r})"
        check_screen(self.terminal.screens[-1], self.language, where)
        check_screen(answer, self.language, where)
        check_numbers(answer, where)
        return answer


def environment(home):
    return {
        "XDG_CACHE_HOME": f"{home}/cache", "XDG_STATE_HOME": f"{home}/state",
        "XDG_CONFIG_HOME": f"{home}/config", "TERM": "xterm-256color", "NO_COLOR": "1",
        "LANG": "C.UTF-8", "MIGRANT_CHAT_SERVER": "", "MIGRANT_CHAT_DATA_API": "",
        # Empty: the session's TERM or flag decides (`make test` exports ACCESSIBLE=0).
        "ACCESSIBLE": "",
    }


def russian_offline(binary, home):
    with Terminal("ru-offline", f"{binary} --offline --lang ru", environment(home)) as terminal:
        journey = Journey(terminal, "ru", "вы> ")
        terminal.wait("вы> ")
        check_screen(terminal.screen(), "ru", "ru-offline start")
        check_numbers(terminal.screen(), "ru-offline start")
        journey.step("1", "Вид на жительство")
        guide = journey.step("1", "Карта сотрудника")
        assert "[sample]" not in guide, guide
        # The start of a long button's title chooses it.
        journey.step("сохранить эти шаги", "В список дел добавлено 2 дела")
        journey.step('/todo add "Купить полис" --due "к пятнице"', "Купить полис")
        todo = journey.step("/todo", r"3\. \[ \] Купить полис")
        assert "1. [ ]" in todo, todo
        journey.step("/todo done 1 2", "Выполнено: 2")
        journey.step("/report Срок 120 дней устарел", "сохранено")
        journey.step("/contacts Острава", "Острава|Ostrava")
        journey.step("/lang uk", "Мову змінено", then="uk")
        journey.step("/restart", "З чим вам допомогти")
        terminal.type("/quit")
        terminal.wait("JOURNEY-EXIT=0", after="/quit")


def ukrainian_offline(binary, home):
    with Terminal("uk-offline", f"{binary} --offline --lang uk", environment(home)) as terminal:
        journey = Journey(terminal, "uk", "ви> ")
        terminal.wait("ви> ")
        journey.step("2", "Медичне страхування")
        journey.step("1", "страхування")
        journey.step("/todo add Записатися до лікаря --due \"до п'ятниці\"", "Записатися до лікаря")
        journey.step("/contacts страхування", "#")
        # A narrow window (an old laptop over SSH) and Ctrl-C at the prompt.
        terminal.resize(50, 30)
        journey.step("/help", "/todo")
        terminal.key("C-c")
        terminal.wait("Щоб вийти")
        check_screen(terminal.screen(), "uk", "uk-offline Ctrl-C")
        terminal.key("C-d")
        terminal.wait("JOURNEY-EXIT=0")


def ukrainian_english_layout(binary, home):
    """Olena on a borrowed office PC with only the English layout (#48): her lines reach
    the assistant as she meant them and she is told so, once; typed again, a line goes as
    typed; a due date typed so is read, and a deadline at a task's end is its due date;
    Czech is left alone. Then `LANG=C` in a fresh home: the chat offers /lang uk."""
    with Terminal("uk-layout", f"{binary} --offline --lang uk", environment(home)) as terminal:
        journey = Journey(terminal, "uk", "ви> ")
        terminal.wait("ви> ")
        answer = journey.step("ghjljd;tyyz gjcdslrb", "Надіслано як «продовження посвідки»")
        assert "набрано в англійській розкладці" in answer, answer
        again = journey.step("ghjljd;tyyz gjcdslrb", "ghjljd;tyyz")
        assert "Надіслано як" not in again, again
        latin = journey.step("meni potribna dopomoga", "Надіслано як «мені потрібна допомога»")
        assert "набрано латиницею" in latin, latin
        czech = journey.step("kde je urad prace", "kde je urad prace|urad prace")
        assert "Надіслано як" not in czech, czech
        journey.step('/todo add zrobyty strakhovku --due "lj rsywz vsczwz"', "зробити страховку")
        journey.step("/todo add подати заяву до 15 грудня", "прочитано з «до 15 грудня»")
        todo = journey.step("/todo", "подати заяву")
        assert "зробити страховку" in todo and "до 15 грудня" not in todo, todo
        terminal.type("/quit")
        terminal.wait("JOURNEY-EXIT=0", after="/quit")
    fresh = home + "/english-pc"
    os.makedirs(fresh, exist_ok=True)
    english = dict(environment(fresh), LANG="C", LC_ALL="C")
    with Terminal("uk-lang-c", f"{binary} --offline", english) as terminal:
        journey = Journey(terminal, "en", "you> ")
        terminal.wait("you> ")
        terminal.type("ghbdsn")
        offer = terminal.wait(r"(?s)type /lang uk\..*наберіть /lang uk\..*you>", after="you> ghbdsn")
        assert offer.count("/lang uk") == 2, offer
        terminal.type("/quit")
        terminal.wait("JOURNEY-EXIT=0", after="/quit")


def ukrainian_comes_back(binary, home):
    """Oksana asks about housing, leaves, and comes back: the chat names the last
    conversation in one line, /history 1 shows it as it was, --resume goes on with it."""
    with Terminal("uk-history", f"{binary} --offline --lang uk", environment(home)) as terminal:
        journey = Journey(terminal, "uk", "ви> ")
        terminal.wait("ви> ")
        journey.step("житло", "Пошук житла|житл")
        terminal.type("/quit")
        terminal.wait("JOURNEY-EXIT=0", after="/quit")
    with Terminal("uk-history-2", f"{binary} --offline --lang uk", environment(home)) as terminal:
        terminal.wait(r"Минулого разу, .*: житло\. Введіть /history 1")
        # A conversation shown again has its answers' buttons as they were, each list from 1.
        terminal.type("/history 1")
        terminal.wait(r"(?s)Розмова 1, .*> житло.*Пошук житла.*ви> ", after="/history 1")
        check_screen(terminal.screen(), "uk", "uk-history /history 1")
        terminal.type("/quit")
        terminal.wait("JOURNEY-EXIT=0", after="/quit")
    command = f"{binary} --offline --lang uk --resume"
    with Terminal("uk-history-3", command, environment(home)) as terminal:
        terminal.wait(r"(?s)> житло.*розмова триває.*ви> ")
        check_screen(terminal.screen(), "uk", "uk-history resume")
        terminal.type("/quit")
        terminal.wait("JOURNEY-EXIT=0", after="/quit")


def russian_over_ssh(binary, home):
    """Dmitry over SSH, where the locale is plain C: Cyrillic typed at the prompt is
    drawn as typed (readline under LC_ALL=C drew each letter as two columns)."""
    env = environment(home)
    env.update({"LANG": "C", "LC_ALL": "C"})
    with Terminal("ru-ssh", f"{binary} --offline --lang ru", env, width=70, height=20) as terminal:
        terminal.wait("вы> ")
        line = "здравствуйте мне нужна страховка для жены и ребенка"
        terminal.type(line, enter=False)
        try:
            terminal.wait(re.escape(f"вы> {line}"), timeout=10)
        except JourneyFailed:
            raise JourneyFailed(
                f"ru-ssh: the typed line is not drawn as typed:\n{terminal.screen()}") from None
        terminal.key("Enter")
        terminal.wait(r"(?s)Инструкции по запросу.*вы> ", after=line)
        check_screen(terminal.screen(), "ru", "ru-ssh answer")
        terminal.type("/quit")
        terminal.wait("JOURNEY-EXIT=0", after="/quit")


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_line(path, text, timeout=30):
    """Waits for `text` in the file at `path` (a server says it is listening)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if os.path.exists(path) and text in open(path, encoding="utf-8", errors="replace").read():
            return
        time.sleep(0.05)
    raise JourneyFailed(f"waited {timeout}s for {text!r} in {path}")


def shell_step(terminal, command, expect, timeout=60):
    terminal.type(f"{command}; echo STEP-EXIT=$?")
    output = terminal.wait(rf"(?s){expect}.*STEP-EXIT=\d+", timeout=timeout, after=command)
    status = int(re.search(r"STEP-EXIT=(\d+)", output).group(1))
    for control in output:
        if (ord(control) < 32 and control not in "\n\t") or ord(control) == 0xFFFD:
            raise JourneyFailed(f"control byte after {command!r}:\n{output}")
    return status, output


def bot_team(binary, home, root):
    """Replay, explore, replay what explore recorded, and a short load with thresholds,
    against `serve --sample`, as a bot team's first hour goes."""
    port = free_port()
    work = tempfile.mkdtemp(dir=home)
    with Terminal("bot-team", "bash --norc --noprofile", environment(home), width=120) as terminal:
        terminal.type(f"cd {root} && PS1='$ ' && export PS1")
        terminal.type(f"{binary} serve --sample --port {port} 2>{work}/serve.log &")
        url = f"http://127.0.0.1:{port}"
        wait_for_line(f"{work}/serve.log", url)
        status, output = shell_step(terminal, f"{binary} replay Transcripts/offline --server {url}",
                                    r"4 passed, 0 failed")
        assert status == 0, output
        status, output = shell_step(
            terminal, f"{binary} explore --server {url} --lang en,uk --record-dir {work}/paths",
            r"Problems: 0")
        assert status == 0, output
        status, output = shell_step(terminal, f"{binary} replay {work}/paths --server {url}",
                                    r"\d+ passed, 0 failed")
        assert status == 0, output
        status, output = shell_step(
            terminal,
            f"{binary} replay Transcripts/offline --server {url} --rate 20 --duration 2 "
            "--threshold 'p99<5s' --threshold 'pass>=99%' --threshold 'errors<1%'",
            r"thresholds:")
        assert status == 0 and "BROKEN" not in output, output
        status, output = shell_step(
            terminal, f"{binary} replay Transcripts/offline --server {url} --rate 5 --duration 1 "
            "--threshold 'p99<0.001ms'", r"BROKEN")
        assert status == 1, output
        terminal.type("kill %1; exit")


def russian_rasa(binary, home, rasa, data_api):
    """Dmitry against the Rasa bot: his words, its buttons, cards, a task from an answer,
    a report after an answer that names no guide, a search, /lang uk."""
    command = f"{binary} --server {rasa} --data-api {data_api} --lang ru --start-message привет"
    with Terminal("ru-rasa", command, environment(home)) as terminal:
        journey = Journey(terminal, "ru", "вы> ")
        terminal.wait("Здравствуйте")
        terminal.wait("вы> ")
        answer = journey.step("нужна страховка", "С медицинской страховкой помогут")
        assert "#138508" in answer, answer
        journey.step("/todo add 1", "В список дел добавлено 1 дело")
        offered = journey.step("/report Адрес страховой устарел", r"Введите номер")
        assert "[1]" in offered, offered
        journey.step("1", "Спасибо|сохранено")
        journey.step("/contacts Острава", "#")
        journey.step("/lang uk", "Мову змінено", then="uk")
        journey.step("житло", "Завжди підписуйте")
        terminal.type("/quit")
        terminal.wait("JOURNEY-EXIT=0", after="/quit")


def inspector_rasa(binary, home, rasa):
    command = f"{binary} --server {rasa} --lang en --start-message hello --inspect"
    with Terminal("inspect-rasa", command, environment(home), width=110) as terminal:
        journey = Journey(terminal, "en", "you> ")
        terminal.wait("you> ")
        journey.step("I need a flat in Brno", r"intent: housing")
        journey.step("/slots", r"city")
        terminal.type("/quit")
        terminal.wait("JOURNEY-EXIT=0", after="/quit")


# What a hostile (or broken) bot can put in its text, each to be stripped before the
# terminal sees it: named, so a report says which got through.
HOSTILE = {
    "title": "\x1b]0;owned\x07",  # OSC 0: sets the window title
    "clear": "\x1b[2J",  # CSI: clears the screen
    "c1-csi": "\x9b31m",  # 8-bit CSI: red from here on
    "bidi": "\u202e",  # right-to-left override: the rest of the line reads backwards
    "link": "\x1b]8;;http://evil.example/\x1b\\",  # OSC 8: a hyperlink, ended by ST
    "dcs": "\x1bP+q544e\x1b\\",  # DCS XTGETTCAP: makes the terminal type an answer
    "apc": "\x1b_owned\x1b\\",  # APC
    "shift-out": "\x0e",  # SO: switches to the line-drawing character set
    "reset": "\x1bc",  # RIS: resets the terminal
}
HOSTILE_TEXT = "Welcome. " + " ".join(f"{name}<{sequence}>" for name, sequence in HOSTILE.items())


class LoopbackBot(http.server.ThreadingHTTPServer):
    """A Rasa REST bot on loopback: `answer(message)` gives the status and the body."""

    def __init__(self, answer):
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length", 0))
                message = json.loads(self.rfile.read(length) or b"{}").get("message", "")
                status, body = answer(message)
                data = body.encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *arguments):
                pass

        super().__init__(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server_address[1]}"
        threading.Thread(target=self.serve_forever, daemon=True).start()


class HostileBot(LoopbackBot):
    """A bot whose every text, button title, image address and error body carries
    HOSTILE's sequences; `break` gets HTTP 500."""

    def __init__(self):
        def answer(message):
            if message == "break":
                return 500, f"upstream{HOSTILE['title']} failed{HOSTILE['c1-csi']}"
            return 200, json.dumps([{
                "recipient_id": "journey", "text": HOSTILE_TEXT,
                "image": f"https://example.org/map.png{HOSTILE['title']}",
                "buttons": [
                    {"title": f"Pay{HOSTILE['link']}here", "payload": "/pay"},
                    {"title": f"Leave{HOSTILE['clear']}{HOSTILE['bidi']}", "payload": "/bye"},
                ],
            }])

        super().__init__(answer)


def hostile_bot(binary, home):
    """A bot whose text carries escape sequences, in colour: what reaches the terminal is
    the text without them (TerminalSanitizer), and the program's own colours."""
    bot = HostileBot()
    env = environment(home)
    del env["NO_COLOR"]
    command = f"{binary} --server {bot.url} --lang en --color always --start-message hello"
    try:
        with Terminal("hostile-bot", command, env) as terminal:
            journey = Journey(terminal, "en", "you> ")
            terminal.wait(r"(?s)reset<.*you> ")
            journey.step("break", r"HTTP status 500")
            journey.step("again", r"reset<")
            journey.step("1", r"reset<")
            terminal.type("/quit")
            terminal.wait("JOURNEY-EXIT=0", after="/quit")
            seen = terminal.history()
            for name in HOSTILE:
                if f"{name}<" not in seen:
                    raise JourneyFailed(f"hostile-bot: the bot's text around {name} was not "
                                        f"shown:\n{terminal.screen()}")
            # Not a check of nothing: the colours (allowed) were written.
            if not re.search(rb"\x1b\[[0-9;]*m", terminal.written()):
                raise JourneyFailed("hostile-bot: --color always wrote no colour")
    finally:
        bot.shutdown()
        bot.server_close()


class SlowBot(LoopbackBot):
    """A bot that answers in Ukrainian; `повільно` is answered only once `release` is
    set (the journey sets it when the chat has said it is still waiting)."""

    def __init__(self):
        self.release = threading.Event()

        def answer(message):
            if message == "повільно":
                self.release.wait(timeout=GUARD)
                text = "Ось повільна відповідь — дякуємо за терпіння…"
            else:
                text = "Вітаю! Оберіть тему ≈ так:"
            return 200, json.dumps([{
                "recipient_id": "journey", "text": text,
                "buttons": [{"title": "Житло", "payload": "/housing"},
                            {"title": "Робота", "payload": "/work"}],
            }, {"recipient_id": "journey", "text": "• Друге повідомлення · з крапкою"}])

        super().__init__(answer)


# How long a journey waits for a sign before it fails: a busy machine is slow, not stuck.
GUARD = 600


def blind_ukrainian(binary, home):
    """Olena uses a screen reader, so her terminal says TERM=dumb (#47): every bot message
    starts with "Бот:", an answer ends with a line that says so and counts its buttons, a
    slow answer is announced once and then every 10 s, never erased, and `--bell` rings
    once when it comes; the map is a list; nothing is redrawn, no escape is sent, and
    no glyph is read by its name (the bot's own are words too)."""
    bot = SlowBot()
    env = environment(home)
    env["TERM"] = "dumb"
    command = f"{binary} --server {bot.url} --lang uk --bell --start-message привіт"
    try:
        with Terminal("uk-blind", command, env, width=80, accessible=True, bells=1) as terminal:
            start = terminal.wait(r"(?s)Кінець відповіді, 2 кнопки.*ви> ")
            assert re.search(r"Бот: Вітаю! Оберіть тему близько так:", start), start
            assert "Бот: Друге повідомлення, з крапкою" in start, start
            assert re.search(r"(?m)^  1\. Житло$", start), start
            terminal.type("повільно")
            terminal.wait(r"Досі чекаємо на відповідь бота: 1\d с", timeout=GUARD,
                          after="ви> повільно")
            bot.release.set()
            slow = terminal.wait(r"(?s)повільна відповідь.*Кінець відповіді.*ви> ",
                                 timeout=GUARD, after="ви> повільно")
            assert "чекаємо на відповідь бота." in slow, slow
            assert "Бот: Ось повільна відповідь, дякуємо за терпіння." in slow, slow
            journey = Journey(terminal, "uk", "ви> ")
            near = journey.step("/near Brno", r"номер 138503")
            assert re.search(r"(?m)^  Центр для іноземців \(Brno\), 0,3 км, номер 138503$",
                             near), near
            shown = journey.step("/map Brno", r"Карта є малюнком")
            assert "номер 138503" in shown, shown
            journey.step("/contact 138503", r"Години роботи")
            listed = journey.step("/history", r"Введіть /history N")
            assert re.search(r"привіт|повільно", listed) and "Розмова 1, " in listed, listed
            shown = journey.step("/history 1", r"Розмова 1")
            assert "Ви: повільно" in shown, shown
            # Ctrl-C at the prompt: the terminal echoes ^C, and the notice is a line of its own.
            terminal.key("C-c")
            terminal.wait("Щоб вийти")
            if "^CЩоб" in terminal.history():
                raise JourneyFailed(f"uk-blind: the notice follows ^C on its line:\n{terminal.screen()}")
            terminal.key("C-d")
            terminal.wait("JOURNEY-EXIT=0")
            if re.search(r"ви> JOURNEY-EXIT", terminal.history()):
                raise JourneyFailed("uk-blind: Ctrl-D left the prompt's line open")
    finally:
        bot.shutdown()
        bot.server_close()


def accessible_flag(binary, home):
    """`--accessible` in a terminal that could draw anything (xterm): the same plain
    bytes; readline is not used (it redraws the line), the terminal's own line editing is."""
    env = environment(home)
    del env["NO_COLOR"]
    command = f"{binary} --offline --lang ru --accessible --color always"
    with Terminal("ru-accessible", command, env, width=70, accessible=True) as terminal:
        journey = Journey(terminal, "ru", "вы> ")
        start = terminal.wait(r"(?s)Конец ответа, 5 кнопок.*вы> ")
        assert "Бот: " in start, start
        journey.step("1", r"Конец ответа")
        journey.step("/map", r"Карта нарисована")
        journey.step("/contacts Острава", r"номер")
        terminal.type("/quit")
        terminal.wait("JOURNEY-EXIT=0", after="/quit")


def accessible_bot_team(binary, home, root):
    """ACCESSIBLE=1 for a bot team's commands: explore, replay, and a 12-second load whose
    live line becomes a line of its own every 10 s (nothing rewritten in place)."""
    work = tempfile.mkdtemp(dir=home)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = environment(home)
    env["ACCESSIBLE"] = "1"
    script = (
        f"cd {root}; {binary} serve --sample --port {port} 2>{work}/serve.log & "
        f"until grep -q {url} {work}/serve.log 2>/dev/null; do sleep 0.1; done; "
        f"{binary} explore --server {url} --lang uk; echo EXPLORE=$?; "
        f"{binary} replay Transcripts/offline --server {url} --rate 5 --duration 12; "
        "echo LOAD=$?; kill %1")
    with Terminal("team-accessible", f"bash -c {script!r}", env, width=100,
                  accessible=True) as terminal:
        terminal.wait(r"EXPLORE=0", timeout=GUARD)
        shown = terminal.wait(r"LOAD=0", timeout=GUARD)
        # The live line, as a line of its own, once the run has gone 10 s.
        if not re.search(r"(?m)^passed \d+, failed 0, ", shown):
            raise JourneyFailed(f"team-accessible: no plain live line:\n{shown}")


def raw_self_test(folder):
    """The raw check, through tmux and pipe-pane as the journeys use them, refuses the
    hostile bot's text printed as it came (a program without TerminalSanitizer): each
    of HOSTILE's sequences is found."""
    path = os.path.join(folder, "hostile.txt")
    with open(path, "w", encoding="utf-8") as file:
        file.write(HOSTILE_TEXT + "\n")
    terminal = Terminal("raw-self-test", f"cat {path}", {"LANG": "C.UTF-8"})
    try:
        problems = raw_problems(terminal.written())
    finally:
        terminal.close()
    missed = [name for name in HOSTILE if not any(f"{name}<" in found for found in problems)]
    if missed:
        raise SystemExit(f"journeys: the raw check let through {missed}; it found {problems}")
    os.remove(terminal.raw)
    return len(HOSTILE)


def self_test():
    """The checks catch what they are for (each bad screen must be refused)."""
    bad = [
        ("Данные: {\"faq_item\":10}", "ru"), ("вы> \x1b]0;x", "ru"), ("a\ufffdb", "uk"),
        ("Type a number to choose", "ru"), ("Выберите номер", None),
    ]
    for screen, language in bad:
        try:
            if language is None:
                check_numbers("  [1] a\n  [3] b\n", "self-test")
            else:
                check_screen(screen, language, "self-test")
        except JourneyFailed:
            continue
        raise SystemExit(f"journeys: the checks let through {screen!r}")
    check_screen("Выберите: /todo done 1, --due, config.yaml, http://x", "ru", "self-test")
    check_numbers("  [1] a\n  [2] b\n", "self-test")
    # What the program and readline write is let through...
    written = ("\x1b[?2004hвы> \x1b[1m[1]\x1b[0m Вид\x1b[36m\x1b[1;33m\r\n\r\x1b[Kdone\tok"
               "\x1b[C\x1b[3D\x1b[A\x1b[K\b\x1b[?2004l\r\n")
    if raw_problems(written.encode("utf-8")):
        raise SystemExit(
            f"journeys: the raw check refuses the program's own {raw_problems(written.encode())}")
    # ...and each of these, put in it, is refused.
    planted = [
        *HOSTILE.values(), "\x1bX sos\x1b\\", "\x1b^ pm\x1b\\", "\x1b[?1049h", "\x1b[6n",
        "\x1b[H", "\x1b[1;1H", "\x1b[0c", "\x1b]52;c;b3duZWQ=\x07", "\x90", "\x9d", "\x85",
        "\u2066", "\ufffd", "\x07", "\x7f", "\x1b=", "\x1b(0",
    ]
    middle = written.index("Вид") + 1  # between two letters
    for sequence in planted:
        if not raw_problems((written[:middle] + sequence + written[middle:]).encode("utf-8")):
            raise SystemExit(f"journeys: the raw check lets through {sequence!r}")
    if not raw_problems(written.encode("utf-8") + b"\xd0"):  # half a Cyrillic letter
        raise SystemExit("journeys: the raw check lets through a cut UTF-8 character")
    # The accessible mode's check lets a plain chat through, and refuses each of these.
    plain = "Бот: Вітаю, близько 2 км.\r\n  1. Житло\nКінець відповіді, 1 кнопка.\n"
    if accessible_problems(plain.encode("utf-8")):
        raise SystemExit(f"journeys: the accessible check refuses {accessible_problems(plain.encode())}")
    spoken = [*SPOKEN_GLYPHS, "\r", "\x1b[K", "\x1b[1m", "\u2801", "\u28ff", "\x9b2K"]
    for sequence in spoken:
        if not accessible_problems((plain[:6] + sequence + plain[6:]).encode("utf-8")):
            raise SystemExit(f"journeys: the accessible check lets through {sequence!r}")
    return len(planted) + 1 + len(spoken)


def main():
    planted = self_test()
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--rasa")
    parser.add_argument("--data-api")
    parser.add_argument("--only", help="play only the journeys whose name holds this text")
    options = parser.parse_args()
    if shutil.which("tmux") is None:
        print("journeys: tmux is missing (make test installs it)")
        return 1
    binary = os.path.abspath(options.binary)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if options.rasa:
        journeys = [
            ("a Russian speaker against the Rasa bot",
             lambda home: russian_rasa(binary, home, options.rasa, options.data_api)),
            ("a bot team's inspector on the Rasa bot",
             lambda home: inspector_rasa(binary, home, options.rasa)),
        ]
    else:
        journeys = [
            ("a Russian speaker, offline", lambda home: russian_offline(binary, home)),
            ("a Ukrainian speaker, offline, narrow window",
             lambda home: ukrainian_offline(binary, home)),
            ("a Russian speaker over SSH (LC_ALL=C)", lambda home: russian_over_ssh(binary, home)),
            ("a Ukrainian speaker on the English layout (#48)",
             lambda home: ukrainian_english_layout(binary, home)),
            ("a Ukrainian speaker comes back: the last time, /history, --resume",
             lambda home: ukrainian_comes_back(binary, home)),
            ("a bot team: replay, explore, load with thresholds",
             lambda home: bot_team(binary, home, root)),
            ("a hostile bot: escape sequences in its text, buttons and errors",
             lambda home: hostile_bot(binary, home)),
            ("a blind Ukrainian speaker: TERM=dumb, a slow bot, --bell, /near, /map, /history",
             lambda home: blind_ukrainian(binary, home)),
            ("--accessible in an xterm, in Russian", lambda home: accessible_flag(binary, home)),
            ("a bot team with ACCESSIBLE=1: explore, a load's live line",
             lambda home: accessible_bot_team(binary, home, root)),
        ]
    if options.only:
        journeys = [(name, play) for name, play in journeys if options.only in name]
    folder = tempfile.mkdtemp(prefix="journey-self-test-")
    try:
        live = raw_self_test(folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"journeys: the raw check refuses {planted} planted sequences, and {live} of "
          f"{len(HOSTILE)} printed unsanitized through tmux")
    passed = failed = 0
    started = time.time()
    for name, play in journeys:
        home = tempfile.mkdtemp(prefix="journey-")
        begun = time.time()
        try:
            play(home)
            passed += 1
            print(f"PASS  {name}  ({time.time() - begun:.1f} s)")
        except (JourneyFailed, AssertionError) as problem:
            failed += 1
            print(f"FAIL  {name}  ({time.time() - begun:.1f} s)\n  {problem}")
        finally:
            shutil.rmtree(home, ignore_errors=True)
    print(f"journeys: {passed} passed, {failed} failed ({time.time() - started:.0f} s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
