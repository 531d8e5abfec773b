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
    TakeWay,
    parse_action,
)
from ._bots import Bot, GreedyBot, RandomBot, play_game
from ._bundled import bundled_variant
from ._cards import Card, Suit, SuitedCard, card_token
from ._coreinfo import CoreInfo, core_info
from ._errors import ArgumentError
from ._events import deal_events, events, hand_events
from ._tableevent import Event, EventKind
from ._state import IllegalActionError
from ._newgame import new_game
from ._observation import Observation, PublicEvent, PublicTurn
from ._encoder import ObservationEncoder, Segment
from ._observe import observation
from ._position import PositionError, load_position, to_position
from ._files.log import dump_log, load_log
from ._files.record_text import dump_record, load_record
from ._files.recorder import GameRecorder, record_game
from ._files.records import GameRecord, RecordError
from ._files.replay import ReplayResult, replay, replay_lenient, replay_states
from ._files.saves import StateError, state_from_json, state_to_json
from ._resample import sample_state
from ._ismcts import ISMCTSBot
from ._search import SearchBot
from ._sheet import ScoreSheet, SheetEntry, settle
from ._simulate import Estimate, Simulation, SimulationError, SimulationRow, SimulationSummary, simulate
from ._state import GameState
from ._fields import HandResult, HandScore, Phase, ScoreItem, TableMeld, Turn
from . import _view  # noqa: F401 (fills GameState.__str__'s slot: see the end of _state)
from ._variant import Problem, Variant, VariantError
from ._variant_load import load_variant, variant_names
from ._version import __version__

__all__ = [
    "Action", "ActionParseError", "ActionSpace", "Add", "Answer", "ArgumentError", "Ask", "Bot", "Card",
    "Combine", "CoreInfo",
    "Discard", "Done", "Draw", "Estimate", "Event", "EventKind", "GameRecord", "GameRecorder", "GameState", "GreedyBot",
    "HandResult", "HandScore", "ISMCTSBot", "IllegalActionError", "Meld", "Observation", "ObservationEncoder",
    "Pass", "Phase", "PositionError", "Problem", "PublicEvent", "PublicTurn", "RandomBot",
    "RecordError", "ReplayResult", "Retract", "ScoreItem", "ScoreSheet", "SearchBot", "Segment",
    "SheetEntry", "Simulation", "SimulationError", "SimulationRow", "SimulationSummary",
    "StateError", "Suit", "SuitedCard", "TableMeld", "Take", "TakeWay", "Turn", "Variant", "VariantError", "__version__",
    "core_info", "deal_events", "dump_record", "events", "load_position", "load_record", "load_variant", "new_game", "observation",
    "parse_action", "play_game", "record_game", "replay", "replay_lenient", "replay_states",
    "sample_state", "settle", "simulate", "state_from_json", "state_to_json", "to_position",
    "variant_names",
    # for game servers: a variant by name alone, card tokens, the append-only log, a hand's events
    "bundled_variant", "card_token", "dump_log", "hand_events", "load_log",
]
