"""The child process of ``test_fuzz_saves.py``: loads each case it is given and says what came
of it, on the core the environment picks (``CANASTA_CORE``).

Reads a JSON list of cases from the file named by its argument; a case is
``{"kind": "save" | "position", "text": ..., "steps": n}``. For each it writes one line to
stdout, flushed before the next case begins (so a crash names its case by the lines before it):
``["ok", [sha256 of state_to_json after loading and after each of n applied actions (and
next_hand where the hand is over)]]`` or ``["error", class name, message]``.
"""

from __future__ import annotations

import hashlib
import json
import sys
from typing import Any

import canasta


def _digest(state: canasta.GameState) -> str:
    text = canasta.state_to_json(state)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:20]


def _one(case: dict[str, Any]) -> list[Any]:
    try:
        if case["kind"] == "save":
            state = canasta.state_from_json(case["text"])
        else:
            state = canasta.load_position(case["text"])
        seen = [_digest(state)]
        for i in range(case["steps"]):
            if state.is_game_over:
                break
            if state.is_hand_over:
                state = state.next_hand()
            else:
                ids = state.legal_action_ids()
                state = state.apply(ids[(i * 7919 + 3) % len(ids)])
            seen.append(_digest(state))
        return ["ok", seen]
    except Exception as e:  # noqa: BLE001 - the outcome is compared, whatever it is
        return ["error", type(e).__name__, str(e)[:300]]


def main() -> None:
    with open(sys.argv[1], encoding="utf-8", errors="surrogatepass") as f:
        cases = json.load(f)
    out = sys.stdout
    for case in cases:
        out.write(json.dumps(_one(case)) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
