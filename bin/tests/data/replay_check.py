"""Replays every game of a `tusk match` JSON-lines file in pyrimaa.board (the independent
reference) and checks that it ends with the recorded winner and reason.

Usage: python replay_check.py GAMES.jsonl
Prints one line per game and `checked N games`; exits 1 listing every disagreement.

What is checked, per reason (pyrimaa's Game ends a game the same ways):
  every move   parses and is legal in pyrimaa (setups strictly), changes the board, and does
               not create a position (board and side to move) for the third time; no
               position before the last is an end state;
  g, e         the final position is a goal / elimination win for the recorded winner;
  m            the side to move has no legal step, or every one of its legal moves repeats
               a position a third time (the rules count that as no legal move); the other
               side wins;
  i            the recorded illegal move is rejected by pyrimaa (illegal, no change, or third
               repetition); the side to move loses;
  t, r         the game had not ended; the side to move loses (a time loss before both
               setups were played is accepted as it is);
  s            the game had not ended; the side with more pieces wins, silver on equal counts.
"""

import json
import sys

from pyrimaa.board import BLANK_BOARD, Color, IllegalMove, Position


def key(pos):
    return (pos.color, pos.bitBoards)


def pieces(pos, color):
    text = pos.board_to_str("short")
    return sum(text.count(c) for c in ("EMHDCR" if color == Color.GOLD else "emhdcr"))


def check(g):
    pos = Position(Color.GOLD, 4, BLANK_BOARD)
    seen = {}
    moves = g["moves"]
    for i, line in enumerate(moves):
        label, text = line.split(" ", 1)
        want = f"{i // 2 + 1}{'gs'[i % 2]}"
        if label != want:
            return f"move {i}: label {label}, expected {want}"
        if i >= 2 and pos.is_end_state():
            return f"the game was over before {label}"
        try:
            new = pos.do_move_str(text, strict_checks=True)
        except (IllegalMove, ValueError) as e:
            return f"{label} {text}: pyrimaa rejects it: {e}"
        if i >= 2 and new.bitBoards == pos.bitBoards:
            return f"{label} {text}: does not change the board"
        seen[key(new)] = seen.get(key(new), 0) + 1
        if i >= 1 and seen[key(new)] > 2:
            return f"{label} {text}: third repetition"
        pos = new
    winner = "gs".index(g["winner"])
    to_move = pos.color
    reason = g["reason"]
    if reason in "ge":
        value = pos.is_goal() if reason == "g" else (not pos.is_goal() and pos.is_rabbit_loss())
        if value not in (1, -1):
            return f"reason {reason} but pyrimaa sees no {reason} end"
        if (0 if value == 1 else 1) != winner:
            return f"pyrimaa gives the {reason} win to {'gs'[0 if value == 1 else 1]}"
        return None
    if reason == "m":
        if pos.is_goal() or pos.is_rabbit_loss():
            return "reason m but the position is a goal or elimination end"
        if len(pos.get_steps()) != 0:
            moves_left = pos.get_moves()
            if any(seen.get(key(p), 0) < 2 for p in moves_left):
                return "reason m but the side to move has a legal, non-repeating move"
        if winner != 1 - to_move:
            return "reason m but the side to move is the winner"
        return None
    if reason == "t" and len(moves) < 2:
        # An engine failed before the setups were done (it did not start, or did not set
        # up in time): nothing to replay.
        return None
    if pos.is_end_state():
        return f"reason {reason} but the game had already ended in pyrimaa"
    if reason in "itr":
        if winner != 1 - to_move:
            return f"reason {reason} but the side to move ({'gs'[to_move]}) is the winner"
        if reason == "i":
            text = g.get("illegal_move")
            if text is None:
                return "reason i without illegal_move"
            try:
                new = pos.do_move_str(text, strict_checks=True)
            except (IllegalMove, ValueError):
                return None
            if new.bitBoards == pos.bitBoards or seen.get(key(new), 0) >= 2:
                return None
            return f"pyrimaa accepts the 'illegal' move {text}"
        return None
    if reason == "s":
        gp, sp = pieces(pos, Color.GOLD), pieces(pos, Color.SILVER)
        if winner != (0 if gp > sp else 1):
            return f"reason s with pieces {gp}-{sp} but winner {g['winner']}"
        return None
    return f"unknown reason {reason}"


def main():
    bad = []
    n = 0
    with open(sys.argv[1]) as f:
        for line in f:
            if not line.strip():
                continue
            g = json.loads(line)
            n += 1
            err = check(g)
            print(f"game {g['id']}: {g['winner']} {g['reason']} {'ok' if err is None else err}")
            if err is not None:
                bad.append(f"game {g['id']}: {err}")
    print(f"checked {n} games")
    if bad:
        print("\n".join(bad))
        sys.exit(1)


if __name__ == "__main__":
    main()
