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
from ._cards import Card
from ._engine import IllegalActionError, new_game
from ._state import GameState, HandResult, HandScore, Phase, ScoreItem, TableMeld, Turn
from ._variant import Problem, Variant, VariantError, load_variant, variant_names
from ._version import __version__

__all__ = [
    "Action", "ActionParseError", "ActionSpace", "Add", "Answer", "Ask", "Card", "Combine",
    "Discard", "Done", "Draw", "GameState", "HandResult", "HandScore", "IllegalActionError",
    "Meld", "Pass", "Phase", "Problem", "Retract", "ScoreItem", "TableMeld", "Take", "Turn",
    "Variant", "VariantError", "__version__", "load_variant", "new_game", "parse_action",
    "variant_names",
]
