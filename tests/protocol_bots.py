"""Protocol bots for the tests (docs/PROTOCOL.md): the C example built with the system compiler,
the Python example, and small misbehaving bots, each a Python script with no dimsum import (so
it starts in tens of milliseconds) that answers the hello and then breaks in one way."""

import shlex
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import dimsum.bots
from dimsum._secrets import secret_seed
from needs import need

ROOT = Path(__file__).resolve().parent.parent
C_SOURCE = ROOT / "examples" / "protocol_bot.c"
PYTHON_BOT = [sys.executable, str(ROOT / "examples" / "protocol_bot.py"), "--serve"]


def build_c_bot(directory: Path) -> Path:
    """examples/protocol_bot.c compiled with the system's C compiler (a skip without one)."""
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    need(compiler is not None, "a C compiler (cc, gcc or clang)")
    binary = directory / "protocol_bot"
    subprocess.run([compiler, "-std=c99", "-D_POSIX_C_SOURCE=200809L", "-Wall", "-Wextra", "-Werror", "-O2",
                    "-o", str(binary), str(C_SOURCE)], check=True, timeout=60)
    return binary


# The start every misbehaving bot shares: a correct hello, then ``on_act(line)`` at each act.
PRELUDE = '''
import json, os, sys, time
PIDS = os.environ.get("PROTOCOL_TEST_PIDS")
if PIDS:
    with open(PIDS, "a") as f:
        f.write(f"{os.getpid()}\\n")
LOG = os.environ.get("PROTOCOL_TEST_LOG")  # every line the engine sends, kept (an attacker's notes)
def say(message):
    sys.stdout.write(json.dumps(message) + "\\n"); sys.stdout.flush()
def first_legal(line):
    return json.loads(line)["legal"][0]["id"]
for line in sys.stdin:
    if LOG:
        with open(LOG, "a") as f:
            f.write(line)
    kind = json.loads(line)["type"]
    if kind == "hello":
        say(HELLO)
    elif kind == "act":
        on_act(line)
    elif kind == "quit":
        on_quit()
on_quit()  # the end of input is a quit too
'''

HELLO = '{"type": "hello", "protocol": 1, "name": "test bot", "want": []}'
STDERR_MB = 200  # what the stderr_flood bot writes before each of its moves

BEHAVIOURS = {
    "good": "def on_act(line): say({'type': 'action', 'action': first_legal(line)})",
    "crash": "def on_act(line):\n    sys.stderr.write('boom: the bot gave up\\n'); sys.exit(3)",
    "hang": "def on_act(line):\n    time.sleep(1000)",
    "garbage": "def on_act(line):\n    print('thinking... e2e4'); sys.stdout.flush()",
    "illegal": "def on_act(line): say({'type': 'action', 'action': 1000000})",
    "bad_name": "def on_act(line): say({'type': 'action', 'action': 'no such move'})",
    "long_line": "def on_act(line):\n    sys.stdout.write('x' * (3 << 20)); sys.stdout.flush(); time.sleep(1000)",
    "chatty": "def on_act(line):\n    say({'type': 'action', 'action': first_legal(line)}); say({'type': 'action', 'action': 0})",
    "slow": "def on_act(line):\n    time.sleep(0.05); say({'type': 'action', 'action': first_legal(line)})",
    # a deeply nested reply: a recursive parser would overflow its stack
    "deep": "def on_act(line):\n    sys.stdout.write('{\"type\": \"action\", \"action\": ' + '[' * 100000 + ']' * 100000 + '}\\n'); sys.stdout.flush()",
    # hundreds of MB on stderr before each answer, and a last word before it crashes at its third move
    "stderr_flood": ("MOVES = []\ndef on_act(line):\n    MOVES.append(line)\n"
                     "    for _ in range(STDERR_MB):\n        sys.stderr.write('x' * 1048575 + '\\n')\n"
                     "    sys.stderr.flush()\n"
                     "    if len(MOVES) == 3:\n        sys.stderr.write('the last word\\n'); sys.exit(5)\n"
                     "    say({'type': 'action', 'action': first_legal(line)})"),
}

# Bots that leave processes behind unless their whole process group is ended: each forks a helper
# (in its group, holding its pipes) that ignores SIGTERM, SIGINT and SIGHUP and never exits by
# itself (it sleeps in a loop rather than spinning, to spare the shared test machine's CPU), then
# plays as the behaviour of the same name without the prefix.
HELPER = ("import signal, time\nfor s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):\n"
          "    signal.signal(s, signal.SIG_IGN)\nwhile True:\n    time.sleep(0.2)\n")
_FORK = ("import subprocess\nHELPERS = []\ndef fork_helper():\n    if not HELPERS:\n"
         f"        HELPERS.append(subprocess.Popen([sys.executable, '-c', {HELPER!r}]))\n")
for _name in ("good", "slow", "hang", "illegal"):
    BEHAVIOURS["helper_" + _name] = (_FORK + BEHAVIOURS[_name].replace("def on_act(line):", "def _on_act(line):")
                                     + "\ndef on_act(line):\n    fork_helper(); _on_act(line)")


def script(directory: Path, behaviour: str, hello: str = HELLO, on_quit: str = "sys.exit(0)") -> list:
    """The argv of a bot that answers the hello with ``hello`` and behaves as ``behaviour`` at each
    move; ``on_quit``: what it does on quit (``time.sleep(1000)``: it ignores quit)."""
    path = directory / f"{behaviour}_bot.py"
    body = (f"import json, os, sys, time\nHELLO = {hello}\nSTDERR_MB = {STDERR_MB}\n{BEHAVIOURS[behaviour]}\n"
            f"def on_quit():\n    {on_quit}\n" + textwrap.dedent(PRELUDE))
    path.write_text(body, encoding="utf-8")
    return [sys.executable, str(path)]


def spec(argv, **params) -> str:
    """The spec string of an external bot running ``argv`` (words quoted as shlex splits them)."""
    command = " ".join(shlex.quote(str(word)) for word in argv)
    return "external:command=" + command + "".join(f",{key}={value}" for key, value in params.items())


class HeuristicOnProtocolSeeds:
    """The in-process heuristic seeded as the protocol seeds a program: for each seat of each game a
    fresh heuristic, seeded with the ``new_game`` seed an external bot made from a spec sends (the
    arena makes one per seat and hands it the game's table secret: its first game under it, number
    0), as examples/protocol_bot.py does on the other side of the pipe."""

    def __init__(self, game):
        self.game, self.secret, self.bots = game, None, {}

    def use_table_secret(self, secret):
        self.secret, self.bots = secret, {}

    def act(self, state):
        seat = state.current_player
        if seat not in self.bots:
            from dimsum.bots.external import NEW_GAME_SEEDS

            seed = secret_seed(self.secret, NEW_GAME_SEEDS, seat, 0)
            self.bots[seat] = dimsum.bots.make("heuristic", self.game, seed=seed)
        return self.bots[seat].act(state)
