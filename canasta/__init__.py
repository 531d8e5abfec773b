"""canasta: the rules of Canasta, exactly, in every documented variant."""

from ._actions import (
    Action,
    ActionParseError,
    ActionSpace,
    Add,
    Answer,
    Ask,
    Combine,
    Discard,
    Done,
    Draw,
    Meld,
    Pass,
    Retract,
    Take,
    parse_action,
)
from ._bots import GreedyBot, RandomBot, play_game
from ._cards import Card
from ._engine import IllegalActionError, new_game
from ._position import PositionError, load_position, to_position
from ._sheet import ScoreSheet, SheetEntry, settle
from ._state import GameState, HandResult, HandScore, Phase, ScoreItem, TableMeld, Turn
from ._variant import Problem, Variant, VariantError, load_variant, variant_names
from ._version import __version__

__all__ = [
    "Action", "ActionParseError", "ActionSpace", "Add", "Answer", "Ask", "Card", "Combine",
    "Discard", "Done", "Draw", "GameState", "GreedyBot", "HandResult", "HandScore",
    "IllegalActionError", "Meld", "Pass", "Phase", "PositionError", "Problem", "RandomBot",
    "Retract", "ScoreItem", "ScoreSheet", "SheetEntry", "TableMeld", "Take", "Turn", "Variant",
    "VariantError", "__version__", "load_position", "load_variant", "new_game", "parse_action",
    "play_game", "settle", "to_position", "variant_names",
]
