"""The ``canasta`` command: play against bots, watch bots play, inspect and compare variants.

Run ``canasta --help`` (or ``python -m canasta --help``) for the commands. Each lives in its
own module here, which adds its arguments to the one parser (:mod:`.parser`) and runs it:

* ``demo`` (:mod:`.demo`): watch bots play a complete game, move by move;
* ``play`` (:mod:`.play`): play a game in the terminal against bots; its game loop and prompt
  are :mod:`.game`, what it shows :mod:`.view`, ``help`` and ``hint`` :mod:`.hint`, the save
  file :mod:`.save`, the bots it knows :mod:`.bots`;
* ``simulate`` (:mod:`.simulate`): bots play many deals; statistics of how the deals went;
* ``variants``, ``show``, ``validate``, ``diff``: list, print, check and compare rule sets;
* ``replay`` (:mod:`.replay`): print a saved game record move by move.

The command line is the interface; these modules are not API (only :func:`main` is kept).
"""

from __future__ import annotations

from .parser import build_parser, main

__all__ = ["build_parser", "main"]
