'''Game records (TOML), game logs and full-state saves (JSON).

A **game record** is the deal and every move of a game: enough to replay it exactly. It names
the variant *and* carries all of its settings, so a record still replays after a variant file
is edited. A **state save** is one :class:`GameState` in full, with the current hand's action
history, for stopping a game and going on later; loading it gives an equal state.

Recording and replaying a game:

```python
from canasta import GameRecorder, dump_record, load_record, new_game, replay

rec = GameRecorder(new_game("hoyle-1950", 4, seed=7))
rec.apply("draw")                    # returns the new state, also at rec.state
...
rec.next_hand()                      # when a hand is over
text = dump_record(rec.record(names=("Ann", "Bob", "Cy", "Di")))
final = replay(load_record(text))    # equal to rec.state
```

:class:`GameRecorder` also has an ``on_action`` hook for :func:`play_game`
(``play_game(..., on_action=rec.on_action)``), and :func:`record_game` makes a record from
states already played (the last state of each hand: its ``history`` holds the hand's moves).

The record format is documented in :mod:`canasta._files.record_text`, the state save format in
:mod:`canasta._files.saves`. The public names are ``canasta``'s; the modules here, each built
on those listed before it:

- ``reading``: structured reading of a parsed document (cattrs), in the words the readers share.
- ``variant_ref``: the variant a file names: a bundled variant's name (and settings hash), or
  every setting.
- ``suited``: suited cards as text, in the files of a variant with sequences.
- ``table_checks``: the melds and the turn of a table read from a file, checked against the
  variant's rules.
- ``records``: :class:`GameRecord`, a game as its deal and its moves, and :class:`RecordError`.
- ``replay``: replaying a record (:func:`replay`, :func:`replay_states`, :func:`replay_lenient`).
- ``log``: the append-only game log (:func:`dump_log`, :func:`load_log`).
- ``recorder``: making records: :class:`GameRecorder` and :func:`record_game`.
- ``record_text``: the record format (TOML): :func:`dump_record`, :func:`load_record`.
- ``saves``: the state save format (JSON): :func:`state_to_json`, :func:`state_from_json`,
  :class:`StateError`.

Positions (``canasta._position``) are built on ``reading``, ``suited`` and ``table_checks``.
'''
