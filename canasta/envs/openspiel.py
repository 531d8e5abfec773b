"""Canasta as an OpenSpiel game: :func:`register`, then ``pyspiel.load_game("python_canasta")``.

Parameters (all optional): ``variant`` (a bundled name or a variant file, default
``"hoyle-1950"``), ``players`` (0, the default: the variant's usual table), ``episode``
(``"hand"``, the default, or ``"game"``), ``reward`` (``"score"``, the default, or ``"win"``)
and ``max_hands`` (200), with the meanings of :func:`canasta.envs.pettingzoo_env`::

    pyspiel.load_game("python_canasta", {"variant": "bicycle", "reward": "win"})

The players are the seats. Chance: all the randomness of a game is the shuffle of its deck,
fixed by the game's seed, so a game starts with four chance nodes of 256 equally likely
outcomes each, the bytes of a 32-bit seed (the first the lowest); after them the state is
``canasta.new_game(variant, players, seed=seed)`` and every later hand is dealt from the same
seed (:meth:`~canasta.GameState.next_hand`), with no further chance node.

Returns are terminal (``RewardModel.TERMINAL``): the ``"score"`` of every hand played, or the
``"win"`` value, for each player's side; the utility is general-sum (partnerships of unequal
size, as five-player hoyle-1950, do not sum to zero). A hand that reaches the longest length
the game declares (20 decisions per card of the deck, far beyond any hand played) ends the
game with what was scored before it.

Tensors: the observation tensor is :class:`~canasta.ObservationEncoder`'s vector for the
player; the information-state tensor is that vector followed by a summary of the hand's
public history (``discarded``: the cards each seat discarded this hand, per kind (per card of the
encoder's ``card_codes`` in a variant with suits), seats relative to
the player, and ``takes``: how often each took the pile, a retracted take not counted). The
information-state string is perfect recall: the player's dealt hand, every action with its
seat, and the player's own hand and the faced red threes whenever they changed.
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np
import pyspiel

from .._cards import CODE_TOKENS as CARD_TOKENS
from .._state import GameState
from ._common import _RETRACT, _TAKE, Config, cards_text, describe, hand_score_bound, score_values, win_values

__all__ = ["GAME_NAME", "register"]

GAME_NAME = "python_canasta"
"""The name the game is registered under."""

_DEFAULTS: dict[str, Any] = {"variant": "hoyle-1950", "players": 0, "episode": "hand", "reward": "score",
                             "max_hands": 200}
_SEED_BYTES = 4
_OUTCOMES = 256
_DECISIONS_PER_CARD = 20

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Canasta",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=10,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


def register() -> None:
    """Register ``python_canasta`` with OpenSpiel (once; calling again does nothing)."""
    if GAME_NAME not in pyspiel.registered_names():
        pyspiel.register_game(_GAME_TYPE, CanastaGame)


# ------------------------------------------------------------------ the game


class _Table:
    """What every state of one game shares: the checked options and derived numbers."""

    def __init__(self, params: dict[str, Any]) -> None:
        self.params = dict(params)
        players = int(params["players"])
        self.config = cfg = Config(params["variant"], players or None, params["episode"], params["reward"],
                                   int(params["max_hands"]), "raise", -1.0)
        probe = cfg.deal(0)
        deck = sum(probe._rules.deck)
        self.hand_cap = _DECISIONS_PER_CARD * deck
        hands = 1 if cfg.episode == "hand" else cfg.max_hands
        self.max_length = self.hand_cap * hands
        self.bound = 1.0 if cfg.reward == "win" else float(2 * hand_score_bound(probe) * hands)
        self.kinds = cfg.fast.kinds
        self.space = probe.action_space
        p = cfg.players
        self.obs_size = cfg.encoder.size
        self.n_cards = cfg.fast.n_cards  # the card entries of ``discarded`` (15 kinds; 48 codes with suits)
        self.info_size = self.obs_size + p * self.n_cards + p


_TABLES: dict[tuple[tuple[str, Any], ...], _Table] = {}


def _table(params: dict[str, Any]) -> _Table:
    key = tuple(sorted(params.items()))
    table = _TABLES.get(key)
    if table is None:
        table = _TABLES[key] = _Table(params)
    return table


class CanastaGame(pyspiel.Game):
    """The OpenSpiel game (load it with ``pyspiel.load_game("python_canasta", {...})`` after
    :func:`register`)."""

    def __init__(self, params: Optional[dict[str, Any]] = None) -> None:
        full = dict(_DEFAULTS)
        full.update(params or {})
        table = _table(full)
        cfg = table.config
        info = pyspiel.GameInfo(
            num_distinct_actions=cfg.action_size,
            max_chance_outcomes=_OUTCOMES,
            num_players=cfg.players,
            min_utility=-table.bound,
            max_utility=table.bound,
            max_game_length=table.max_length,
        )
        super().__init__(_GAME_TYPE, info, params or {})
        self.table = table

    def new_initial_state(self) -> CanastaState:
        """A game before the deal: four chance nodes choose the seed."""
        return CanastaState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> CanastaObserver:
        """The observer of ``iig_obs_type``: the observation (``perfect_recall=False``) or the
        information state (``perfect_recall=True``) of one player, or (``private_info=NONE``)
        the public part only."""
        return CanastaObserver(self.table, iig_obs_type, params)


class _Data:
    """One position of an OpenSpiel game, immutable (so cloning a state copies nothing).

    ``steps`` links every decision of the game, newest first: ``(previous, seat, action id,
    state after)``, with ``seat = -1`` for a deal.
    """

    __slots__ = ("table", "seed", "state", "steps", "log", "hands", "values", "done", "length")

    def __init__(self, table: _Table, seed: tuple[int, ...], state: Optional[GameState], steps: Any, log: Any,
                 hands: int, values: tuple[float, ...], done: bool, length: int) -> None:
        self.table = table
        self.seed = seed
        self.state = state
        self.steps = steps
        self.log = log
        """Every action applied (chance outcomes too), newest first, as ``(action, previous)``."""
        self.hands = hands
        """Hands finished."""
        self.values = values
        """Per side, what has been scored (``"score"``) or the win value once over."""
        self.done = done
        self.length = length
        """Decisions in the current hand."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Data:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        actions = []
        link = self.log
        while link is not None:
            actions.append(link[0])
            link = link[1]
        actions.reverse()
        return (_replay, (self.table.params, tuple(actions)))

    def apply(self, action: int) -> _Data:
        table = self.table
        log = (action, self.log)
        if self.state is None:
            seed = self.seed + (action,)
            if len(seed) < _SEED_BYTES:
                return _Data(table, seed, None, None, log, 0, self.values, False, 0)
            number = sum(b << (8 * i) for i, b in enumerate(seed))
            st = table.config.deal(number)
            return _Data(table, seed, st, (None, -1, -1, st), log, 0, self.values, False, 0)
        st = self.state
        seat = st.current_player
        nxt = st.apply(action)
        steps = (self.steps, seat, action, nxt)
        cfg = table.config
        if not nxt.is_hand_over:
            length = self.length + 1
            return _Data(table, self.seed, nxt, steps, log, self.hands, self.values, length >= table.hand_cap,
                         length)
        hands = self.hands + 1
        values = self.values
        if cfg.reward == "score":
            values = tuple(a + b for a, b in zip(values, score_values(nxt)))
        end = cfg.episode == "hand" or nxt.is_game_over
        if end or hands >= cfg.max_hands:
            if end and cfg.reward == "win":
                values = win_values(nxt)
            return _Data(table, self.seed, nxt, steps, log, hands, values, True, self.length + 1)
        dealt = nxt.next_hand()
        return _Data(table, self.seed, dealt, (steps, -1, -1, dealt), log, hands, values, False, 0)


def _replay(params: dict[str, Any], actions: tuple[int, ...]) -> _Data:
    table = _table(params)
    data = _Data(table, (), None, None, None, 0, (0.0,) * table.config.sides, False, 0)
    for a in actions:
        data = data.apply(a)
    return data


class CanastaState(pyspiel.State):
    """A state of the OpenSpiel game (see the module documentation)."""

    def __init__(self, game: CanastaGame) -> None:
        super().__init__(game)
        table = game.table
        self._d = _Data(table, (), None, None, None, 0, (0.0,) * table.config.sides, False, 0)

    @property
    def game_state(self) -> Optional[GameState]:
        """The :class:`~canasta.GameState` (None before the deal's chance nodes are done)."""
        return self._d.state

    def current_player(self) -> int:
        """The seat to act, ``PlayerId.CHANCE`` while the seed is chosen, or ``TERMINAL``."""
        d = self._d
        if d.done:
            return int(pyspiel.PlayerId.TERMINAL)
        if d.state is None:
            return int(pyspiel.PlayerId.CHANCE)
        cur = d.state.current_player
        assert cur is not None
        return cur

    def _legal_actions(self, player: int) -> list[int]:
        d = self._d
        if d.done or d.state is None or d.state.current_player != player:
            return []
        return sorted(d.state.legal_action_ids())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The 256 values of the seed's next byte, equally likely."""
        p = 1.0 / _OUTCOMES
        return [(i, p) for i in range(_OUTCOMES)]

    def _apply_action(self, action: int) -> None:
        self._d = self._d.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed byte {action}"
        return str(self._d.table.space.decode(action))

    def is_terminal(self) -> bool:
        """Whether the episode is over."""
        return self._d.done

    def returns(self) -> list[float]:
        """Each player's side's total, once the game is over (0 before)."""
        d = self._d
        if not d.done:
            return [0.0] * d.table.config.players
        side_of = d.table.config.side_of
        return [d.values[side_of[s]] for s in range(len(side_of))]

    def rewards(self) -> list[float]:
        """The returns at the terminal state, 0 before (terminal rewards)."""
        return self.returns()

    def __str__(self) -> str:
        d = self._d
        st = d.state
        if st is None:
            return f"dealing: seed bytes {list(d.seed)}"
        hands = "; ".join(f"{s}: {cards_text(h)}" for s, h in enumerate(st.hands))
        return (f"seed {sum(b << (8 * i) for i, b in enumerate(d.seed))}, hands finished {d.hands}, "
                f"scored {list(d.values)}\n{describe(st)}\n  hands {hands}\n  stock {list(st.stock)}")




# ------------------------------------------------------------------ observations


class CanastaObserver:
    """An OpenSpiel observer: ``tensor`` (and its named views in ``dict``) is filled by
    :meth:`set_from`; :meth:`string_from` gives the text form."""

    def __init__(self, table: _Table, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"python_canasta observers take no parameters, not {params!r}")
        self.table = table
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        if not iig_obs_type.public_info or iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("python_canasta observes with public information and the private "
                             "information of the observing player or of nobody")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        p = table.config.players
        size = table.info_size if self.perfect_recall else table.obs_size
        self.tensor = np.zeros(size, dtype=np.float32)
        """The observation as one ``float32`` vector."""
        self.dict: dict[str, np.ndarray] = {}
        """Named views of ``tensor``: the encoder's segments (and ``discarded``, ``takes``)."""
        for seg in table.config.encoder.layout:
            self.dict[seg.name] = self.tensor[seg.offset: seg.offset + seg.length].reshape(seg.shape)
        if self.perfect_recall:
            at = table.obs_size
            nc = table.n_cards
            self.dict["discarded"] = self.tensor[at: at + p * nc].reshape(p, nc)
            self.dict["takes"] = self.tensor[at + p * nc: at + p * (nc + 1)]
        self._strings: dict[tuple[int, int], tuple[Any, str, Any, Any]] = {}
        self._private = [seg for seg in table.config.encoder.layout if seg.name in ("own_hand", "own_down_size")]

    def set_from(self, state: CanastaState, player: int) -> None:
        """Fill ``tensor`` with ``state`` as ``player`` sees it (all 0 before the deal)."""
        d = state._d
        st = d.state
        table = self.table
        tensor = self.tensor
        if st is None:
            tensor.fill(0.0)
            return
        tensor[: table.obs_size] = table.config.fast.encode(st, player)
        if not self.private:
            for seg in self._private:
                tensor[seg.offset: seg.offset + seg.length] = 0.0
        if self.perfect_recall:
            p = table.config.players
            discarded = np.zeros((p, table.n_cards), dtype=np.float32)
            takes = np.zeros(p, dtype=np.float32)
            kinds = table.kinds
            link = d.steps
            while link is not None and link[1] >= 0:
                rel = (link[1] - player) % p
                k = kinds[link[2]]
                if k >= 0:
                    discarded[rel, k] += 1
                elif k == _TAKE:
                    takes[rel] += 1
                elif k == _RETRACT:
                    takes[rel] -= 1
                link = link[0]
            self.dict["discarded"][:] = discarded
            self.dict["takes"][:] = takes

    def string_from(self, state: CanastaState, player: int) -> str:
        """The observation as text; with perfect recall, the player's whole history."""
        d = state._d
        st = d.state
        if st is None:
            return f"p{player}: dealing"
        if not self.perfect_recall:
            text = f"p{player}\n{describe(st)}"
            if self.private:
                text += f"\n  hand {cards_text(st.hands[player])}"
            return text
        # the text up to each decision is kept (by the decision's link), so a game's strings
        # cost one line each however often they are asked for
        memo = self._strings
        nodes = []
        text, hand, red = f"p{player}", None, None
        link = d.steps
        while link is not None:
            hit = memo.get((id(link), player))
            if hit is not None and hit[0] is link:
                text, hand, red = hit[1], hit[2], hit[3]
                break
            nodes.append(link)
            link = link[0]
        if len(memo) > 100000:
            memo.clear()
        decode = self.table.space.decode
        for node in reversed(nodes):
            _, seat, aid, after = node
            if seat < 0:
                line = f"hand {after.hand_number + 1}: pile top {_top(after)}"
            else:
                line = f"{seat}: {decode(aid)}"
            c = after._c
            if self.private and c.hands[player] != hand:
                hand = c.hands[player]
                line += f" | hand {cards_text(hand)}"
            if c.red != red:
                red = c.red
                line += f" | red threes {list(red)}"
            text = f"{text}\n{line}"
            memo[(id(node), player)] = (node, text, hand, red)
        return text


def _top(st: GameState) -> str:
    pile = st.pile
    return CARD_TOKENS[pile[-1]] if pile else "-"
