"""What the adapters share: their options, rewards, observing a state (natively, or by the
fast encoder of :mod:`canasta.envs._encode`), spaces, rendering and opponents.

Built on :mod:`canasta.envs._encode` (the vector forms of a state); built upon by the adapters
(:mod:`canasta.envs._pettingzoo`, ``_gymnasium``, ``_vector``, ``_gymvector``,
:mod:`canasta.envs.openspiel`). Private: the public names are re-exported by
:mod:`canasta.envs`.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Callable, Optional, Sequence, Union

import numpy as np

from .._cards import CODE_TOKENS, N_CODES, N_KINDS
from .._core import Core as _PyCore
from .._core._backend import _ext
from .._obs_native import Writer
from .._encoder import ObservationEncoder
from .._state import GameState
from .._newgame import new_game
from .._variant import Variant, VariantError
from .._variant_load import load_variant
from ._encode import Float32Array, Int8Array, StateEncoder, StateLayout, _deck_of, mask_of

if TYPE_CHECKING:
    from gymnasium import spaces

REWARDS = ("score", "win")
"""The reward options: ``"score"`` (each hand's score difference, per side) and ``"win"``
(+1 / -1 when the episode ends)."""

EPISODES = ("hand", "game")
"""The episode options: one hand (the first deal of a new game), or a whole game."""

ILLEGAL = ("raise", "penalty", "terminate")
"""What an illegal action does: raise :class:`~canasta.IllegalActionError`; or cost
``illegal_reward`` and change nothing; or cost ``illegal_reward`` and end the episode."""


class EnvError(ValueError):
    """A bad argument to an environment: the message starts with the argument's name
    (``players: 6 players is not allowed for bicycle; allowed: 4``)."""


class Config:
    """The checked options of an environment (every adapter takes the same ones)."""

    def __init__(self, variant: Union[Variant, str], players: Optional[int], episode: str, reward: str,
                 max_hands: int, illegal: str, illegal_reward: float) -> None:
        if isinstance(variant, Variant):
            v = variant
        elif isinstance(variant, str):
            try:
                v = load_variant(variant)
            except (VariantError, OSError) as e:
                raise EnvError(f"variant: {e}") from e
        else:
            raise EnvError(f"variant: expected a Variant or a name, not {variant!r}")
        if players is None:
            players = v.default_players
        if isinstance(players, bool) or not isinstance(players, int):
            raise EnvError(f"players: expected a number of players, not {players!r}")
        if str(players) not in v.tables:
            allowed = ", ".join(sorted(v.tables, key=int))
            raise EnvError(f"players: {players} players is not allowed for {v.name}; allowed: {allowed}")
        _choose("episode", episode, EPISODES)
        _choose("reward", reward, REWARDS)
        _choose("illegal", illegal, ILLEGAL)
        if isinstance(max_hands, bool) or not isinstance(max_hands, int) or max_hands < 1:
            raise EnvError(f"max_hands: expected a whole number of hands, 1 or more, not {max_hands!r}")
        try:
            illegal_reward = float(illegal_reward)
        except (TypeError, ValueError):
            raise EnvError(f"illegal_reward: expected a number, not {illegal_reward!r}") from None
        self.variant = v
        self.players = players
        self.episode = episode
        self.reward = reward
        self.max_hands = max_hands
        self.illegal = illegal
        self.illegal_reward = illegal_reward
        self.encoder = ObservationEncoder(v, players)
        self.fast = StateEncoder(self.encoder)
        self.native_layout = Writer(self.encoder).layout
        """The native encoder's layout of this table (None: the table plays on the Python core)."""
        self.state_layout = StateLayout(self.encoder)
        probe = new_game(v, players, seed=0)
        self.action_size = probe.action_space.size
        self.side_of = tuple(probe.side_of(s) for s in range(players))
        self.sides = probe.sides

    def deal(self, seed: int) -> GameState:
        """The first hand of the game with ``seed``."""
        return new_game(self.variant, self.players, seed=seed)


def _choose(name: str, value: object, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise EnvError(f"{name}: expected one of {', '.join(repr(a) for a in allowed)}, not {value!r}")


def fresh_seed() -> int:
    """A deal seed from the operating system's entropy (an unseeded first reset)."""
    return random.SystemRandom().getrandbits(31)


# ------------------------------------------------------------------ rewards


def score_values(state: GameState) -> tuple[float, ...]:
    """Per side, the finished hand's score difference: the side's hand score minus the mean
    of the other sides' (with two sides, the plain difference; the values sum to zero)."""
    result = state.result
    assert result is not None
    scores = [s.total for s in result.scores]
    n = len(scores)
    total = sum(scores)
    if n < 2:
        return tuple(float(s) for s in scores)
    return tuple(float(s) - (total - s) / (n - 1) for s in scores)


def hand_score_bound(state: GameState) -> int:
    """A bound on the absolute value of any side's score for one hand at this table: every
    card counted once at its card value, every possible canasta at the largest bonus, the
    largest red-three table entry, red threes held, going out, concealed, the precise draws."""
    R = state._rules
    deck = R.deck
    cards = sum(n * abs(v) for n, v in zip(deck, R.values))
    canastas = (sum(deck) // max(R.cs, 1)) * max(abs(R.nat_bonus), abs(R.mixed_bonus), abs(R.wild_bonus),
                                                 abs(R.b3_bonus), abs(R.r3_canasta),
                                                 *(abs(x) for x in R.rank_bonus_by.values()))
    threes = max([abs(x) for x in list(R.r3_bonus) + list(R.r3_minus_table or ())] or [0])
    threes += deck[2] * abs(R.r3_penalty)
    out = abs(R.out_bonus) + abs(R.conc_bonus) + R.players * abs(R.precise_bonus)
    return int(cards + canastas + threes + out)


def win_values(state: GameState) -> tuple[float, ...]:
    """Per side, +1 for a winning side and -1 for the others (0 for every side when all tie).

    The winners are ``state.winners`` once the game is over, else the sides with the highest
    total (an episode of one hand).
    """
    totals = state.totals
    if state.is_game_over:
        winners = set(state.winners)
    else:
        best = max(totals)
        winners = {s for s, t in enumerate(totals) if t == best}
    if len(winners) == len(totals) or not winners:
        return (0.0,) * len(totals)
    return tuple(1.0 if s in winners else -1.0 for s in range(len(totals)))


# ------------------------------------------------------------------ the vector form of a state


def observe_arrays(config: Config, state: GameState, seat: int, with_mask: bool) -> tuple[Float32Array, Int8Array]:
    """The vector of ``state`` seen from ``seat`` and, if ``with_mask``, its legal-action mask
    (else zeros), as new arrays: the vector written natively where the state is native, else
    by the fast Python encoder."""
    lay = config.native_layout
    c = state._c
    if lay is not None and type(c) is not _PyCore:
        vec = np.empty(config.encoder.size, dtype=np.float32)
        if with_mask:  # both in one native call (the mask written whole)
            mask = np.empty(config.action_size, dtype=np.int8)
            ids = _ext.observe(lay, c, seat, vec, mask)
            if state._ids is None:  # the state keeps its legal ids for the step that follows
                state._ids = ids
            return vec, mask
        _ext.observe(lay, c, seat, vec, None)
        return vec, np.zeros(config.action_size, dtype=np.int8)
    vec = config.fast.encode(state, seat)
    return vec, mask_of(state) if with_mask else np.zeros(config.action_size, dtype=np.int8)


# ------------------------------------------------------------------ spaces


_FLAG_SEGMENTS = frozenset({"opened", "pile_top", "frozen", "phase", "current_player", "dealer", "active",
                            "melded", "took_last"})


def vector_bounds(config: Config) -> tuple[Float32Array, Float32Array]:
    """Low and high bounds of every number of the vector: 0 to 1 for flags and one-hots, 0 to
    the deck's size for counts (and the scaled counts); for the totals / target, as many
    hands as an episode can see times :func:`hand_score_bound`, over the target (one hand
    episode sees one hand, unless seats sit out deals: a learned seat's episode may follow
    hands it sat out)."""
    enc = config.encoder
    probe = new_game(config.variant, config.players, seed=0)
    deck = float(sum(probe._rules.deck))
    everyone_plays = probe._rules.active_n == config.players
    hands = 1 if config.episode == "hand" and everyone_plays else config.max_hands
    totals = float(hands * hand_score_bound(probe) / (config.variant.game.target or 5000))
    low = np.zeros(enc.size, dtype=np.float32)
    high = np.full(enc.size, deck, dtype=np.float32)
    for seg in enc.layout:
        sl = slice(seg.offset, seg.offset + seg.length)
        if seg.name in _FLAG_SEGMENTS:
            high[sl] = 1.0
        elif seg.name == "totals":
            low[sl] = -totals
            high[sl] = totals
    return low, high


def state_space(config: Config) -> spaces.Box:
    """The ``Box`` of the full state (:class:`StateLayout`): each seat's observation bounds,
    and 0 to the deck's size for the card counts (0 to 1 for ``stock_top``)."""
    from gymnasium import spaces

    low, high = vector_bounds(config)
    lay = config.state_layout
    p = config.players
    deck = float(sum(_deck_of(config.encoder)))
    lo = np.zeros(lay.size, dtype=np.float32)
    hi = np.full(lay.size, deck, dtype=np.float32)
    lo[: p * len(low)] = np.tile(low, p)
    hi[: p * len(high)] = np.tile(high, p)
    top = lay.segment("stock_top")
    hi[top.offset: top.offset + top.length] = 1.0
    return spaces.Box(low=lo, high=hi, shape=(lay.size,), dtype=np.float32)


def observation_space(config: Config) -> spaces.Dict:
    """``Dict(observation=Box(float32), action_mask=Box(0, 1, int8))``."""
    from gymnasium import spaces

    low, high = vector_bounds(config)
    return spaces.Dict({
        "observation": spaces.Box(low=low, high=high, shape=(config.encoder.size,), dtype=np.float32),
        "action_mask": spaces.Box(low=0, high=1, shape=(config.action_size,), dtype=np.int8),
    })


# ------------------------------------------------------------------ rendering


def describe(state: GameState) -> str:
    """A few lines of what the whole table sees (no hidden card): for ``render()``."""
    cur = state.current_player
    who = "nobody" if cur is None else f"seat {cur}"
    lines = [f"{state.variant.name}, {state.players} players, hand {state.hand_number + 1}: "
             f"{state.phase.value}, {who} to act"]
    for side in range(state.sides):
        melds = "; ".join(str(m) for m in state.melds[side]) or "-"
        lines.append(f"  side {side}: total {state.totals[side]}, red threes {state.red_threes[side]}, "
                     f"melds {melds}")
    pile = state.pile
    top = "-" if not pile else _card_name(pile[-1])
    lines.append(f"  pile {len(pile)} (top {top}{', frozen' if state.frozen else ''}), "
                 f"stock {len(state.stock)}, hands {' '.join(str(sum(h[:N_KINDS])) for h in state.hands)}")
    if state.history:
        lines.append(f"  last action: {state.history[-1]}")
    result = state.result
    if result is not None:
        lines.append("  hand over: " + ", ".join(f"side {s.side} {s.total:+d}" for s in result.scores))
    return "\n".join(lines)


def _card_name(kind: int) -> str:
    return CODE_TOKENS[kind]


def cards_text(hand: Any) -> str:
    """A hand (counts per kind) as its cards' notation, ``JK 7 7 K`` (``-`` when empty); a
    suited hand (59 counts) by its cards with their suits, ``JK 7h 7s Kc``."""
    if len(hand) == N_CODES:
        return " ".join(CODE_TOKENS[k] for k in range(N_CODES) if not 4 <= k < N_KINDS
                        for _ in range(hand[k])) or "-"
    return " ".join(CODE_TOKENS[k] for k in range(len(hand)) for _ in range(hand[k])) or "-"


# ------------------------------------------------------------------ opponents (Gymnasium)


Policy = Callable[[Any, tuple[int, ...]], Any]
"""A custom opponent: ``f(observation, legal_action_ids) -> action`` (an id, an action or its
notation)."""


def seats_spec(spec: Union[object, Sequence[object]], players: int, seat: int) -> list[object]:
    """One opponent spec per seat (None at the learned seat)."""
    if isinstance(spec, (list, tuple)):
        specs = list(spec)
        if len(specs) != players:
            raise EnvError(f"opponents: give one opponent per seat ({players}, None at seat {seat}), "
                           f"not {len(specs)}")
        if specs[seat] is not None:
            raise EnvError(f"opponents: the entry of the learned seat {seat} must be None")
    else:
        specs = [spec] * players
        specs[seat] = None
    for s, one in enumerate(specs):
        if s == seat:
            continue
        if isinstance(one, str):
            if one not in ("random", "greedy"):
                raise EnvError(f"opponents: unknown bot {one!r}; the built-in bots are 'random' and 'greedy'")
        elif not (isinstance(one, type) or hasattr(one, "choose") or callable(one)):
            raise EnvError(f"opponents: expected 'random', 'greedy', a bot class, a bot or a callable, "
                           f"not {one!r}")
    return specs
