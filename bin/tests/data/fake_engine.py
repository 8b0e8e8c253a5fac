"""A scripted AEI engine for the `tusk match` tests (test data, run with the aei venv's python).

Usage: python fake_engine.py MODE [SECONDS [SALT]]
       python fake_engine.py script LOG DELAYS
       python fake_engine.py once MARKER

MODE is one of:
  det      legal and deterministic: a random-step move seeded by the position and SALT, so the
           same position always gets the same answer (reproducible games); it waits SECONDS
           (default 0) before each answer;
  illegal  plays its setup, then answers its first turn with a move of a piece that is not
           there;
  hang     plays its setup, then never answers `go` again (it keeps reading input);
  crash    plays its setup, then exits with status 3 when asked for its first turn;
  late     plays its setup, then answers its first turn after SECONDS (default 3) seconds;
  stoppable  plays like det, except that on its first turn after the setup it answers only
           when the controller sends `stop`;
  script   plays like det, but waits DELAYS[k] seconds (a comma-separated list, the last
           value repeated) before answering its k-th turn after the setup, and appends
           every line it receives to the file LOG (a transcript to compare controllers by);
  garbage  says "fake engine: garbage mode" on stderr and answers `aei` with a line that is
           not `protocol-version 1` (then keeps reading, never sending `aeiok`);
  exit     says "fake engine: exiting at once" on stderr and exits with status 2 before
           reading anything;
  once     plays like det the first time it is started (it creates the file MARKER), and
           like exit every later time (an engine that crashes on restart).

It sets up with pyrimaa's basic setup, like simple_engine.
"""

import random
import sys
import time

from pyrimaa.board import BASIC_SETUP, BLANK_BOARD, Color, Position

MODE = sys.argv[1] if len(sys.argv) > 1 else "det"
if MODE == "once":
    try:
        open(sys.argv[2], "x").close()
        MODE = "det"
    except FileExistsError:
        MODE = "exit"
    sys.argv[2:] = []
if MODE == "script":
    LOG = open(sys.argv[2], "a")
    DELAYS = [float(x) for x in sys.argv[3].split(",")]
    DELAY, SALT = 0.0, ""
else:
    LOG, DELAYS = None, []
    DELAY = float(sys.argv[2]) if len(sys.argv) > 2 else (0.0 if MODE == "det" else 3.0)
    SALT = sys.argv[3] if len(sys.argv) > 3 else ""


def send(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def setup_text(color):
    return Position(Color.GOLD, 4, BASIC_SETUP).to_placing_move()[color][2:]


def det_move(pos):
    random.seed(SALT + pos.board_to_str("short") + "gs"[pos.color])
    steps, _ = pos.get_rnd_step_move()
    return pos.steps_to_str(steps) if steps else ""


def main():
    if MODE == "exit":
        sys.stderr.write("fake engine: exiting at once\n")
        sys.stderr.flush()
        sys.exit(2)
    if MODE == "garbage":
        sys.stderr.write("fake engine: garbage mode\n")
        sys.stderr.flush()
    pos = Position(Color.GOLD, 4, BLANK_BOARD)
    insetup = True
    turns = 0
    waiting_for_stop = False
    for raw in sys.stdin:
        line = raw.strip()
        if not line:
            continue
        if LOG is not None:
            LOG.write(line + "\n")
            LOG.flush()
        cmd = line.split(None, 1)[0]
        if cmd == "aei" and MODE == "garbage":
            send("hello, I am not an AEI engine")
        elif cmd == "aei":
            send("protocol-version 1")
            send(f"id name fake-{MODE}")
            send("id author tusk tests")
            send("aeiok")
        elif cmd == "isready":
            send("readyok")
        elif cmd == "newgame":
            pos = Position(Color.GOLD, 4, BLANK_BOARD)
            insetup = True
        elif cmd == "makemove":
            pos = pos.do_move_str(line.split(None, 1)[1])
            if insetup and pos.color == Color.GOLD:
                insetup = False
        elif cmd == "go":
            if line.strip() != "go":
                continue
            if insetup:
                send("bestmove " + setup_text(pos.color))
                continue
            if MODE == "det":
                time.sleep(DELAY)
                send("bestmove " + det_move(pos))
            elif MODE == "stoppable":
                if turns == 0:
                    waiting_for_stop = True
                else:
                    send("bestmove " + det_move(pos))
                turns += 1
            elif MODE == "script":
                time.sleep(DELAYS[min(turns, len(DELAYS) - 1)])
                turns += 1
                send("bestmove " + det_move(pos))
            elif MODE == "illegal":
                send("bestmove " + ("Ed4n" if pos.color == Color.GOLD else "ed5s"))
            elif MODE == "hang":
                pass
            elif MODE == "crash":
                sys.exit(3)
            elif MODE == "late":
                time.sleep(DELAY)
                send("bestmove " + det_move(pos))
        elif cmd == "stop":
            if waiting_for_stop:
                waiting_for_stop = False
                send("bestmove " + det_move(pos))
        elif cmd == "quit":
            return


if __name__ == "__main__":
    main()
