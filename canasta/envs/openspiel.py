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
``"win"`` value, for each player's side. Each loaded game declares the utility its returns
have: ``ZERO_SUM`` (with ``utility_sum`` 0) where they always sum to zero
(sides of one size, and ``"score"``, or ``"win"`` with two sides: every partnership table),
else ``GENERAL_SUM`` (five-player hoyle-1950 and three-pack, sides of two and three; ``"win"``
with three sides or more). A hand that reaches the longest length the game declares (20
decisions per card of the deck, far beyond any hand played) ends the game with what was
scored before it.

Imperfect information: :meth:`CanastaState.resample_from_infostate` deals again the cards a
player has not seen (the engine's :meth:`~canasta.GameState.resample`), so OpenSpiel's
``ISMCTSBot`` searches this game out of the box; ``clone()`` (which ``MCTSBot`` uses) copies
the state with every hidden card, so ``MCTSBot`` sees them (see the guide page "Canasta for AI
research").

Tensors: the observation tensor is :class:`~canasta.ObservationEncoder`'s vector for the
player; the information-state tensor is that vector followed by a summary of the hand's
public history (``discarded``: the cards each seat discarded this hand, per kind (per card of the
encoder's ``card_codes`` in a variant with suits), seats relative to
the player, and ``takes``: how often each took the pile, a retracted take not counted). The
information-state string is perfect recall: the player's dealt hand, every action with its
seat, and the player's own hand and the faced red threes whenever they changed.
"""

from __future__ import annotations

import random
from typing import Any, Optional

import numpy as np
import pyspiel

from .._cards import CODE_TOKENS as CARD_TOKENS
from .._core import deal, next_dealer
from .._state import GameState
from ._common import Config, cards_text, describe, hand_score_bound, score_values, win_values
from ._encode import _RETRACT, _TAKE

__all__ = ["GAME_NAME", "register"]

GAME_NAME = "python_canasta"
"""The name the game is registered under."""

_DEFAULTS: dict[str, Any] = {"variant": "hoyle-1950", "players": 0, "episode": "hand", "reward": "score",
                             "max_hands": 200}
_SEED_BYTES = 4
_OUTCOMES = 256
_DECISIONS_PER_CARD = 20



def _game_type(utility: Any) -> Any:
    return pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="Python Canasta",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=10,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_DEFAULTS,
    )


_GAME_TYPE = _game_type(pyspiel.GameType.Utility.GENERAL_SUM)
"""The type registered under :data:`GAME_NAME` (general-sum, as some tables are); each loaded
game declares its own utility (``ZERO_SUM`` where the returns always sum to zero)."""
_ZERO_SUM_TYPE = _game_type(pyspiel.GameType.Utility.ZERO_SUM)


def _zero_sum(config: Config) -> bool:
    """Whether every terminal return of the table sums to zero over the players: the sides are
    of one size (each player gets his side's value), and the side values sum to zero, which
    ``"score"`` values always do (a side's hand score minus the mean of the others') and
    ``"win"`` values do with two sides (+1 and -1, or 0 and 0). Not so five-player hoyle-1950
    and three-pack (sides of two and three players), nor ``"win"`` with three or more sides
    (one side's +1 against the others' -1 each)."""
    sizes = {config.side_of.count(side) for side in range(config.sides)}
    return len(sizes) == 1 and (config.reward == "score" or config.sides == 2)


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
        self.zero_sum = _zero_sum(cfg)


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
            **({"utility_sum": 0.0} if table.zero_sum else {}),
        )
        super().__init__(_ZERO_SUM_TYPE if table.zero_sum else _GAME_TYPE, info, params or {})
        self.table = table

    def new_initial_state(self) -> CanastaState:
        """A game before the deal: four chance nodes choose the seed."""
        return CanastaState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> CanastaObserver:
        """The observer of ``iig_obs_type``: the observation (``perfect_recall=False``) or the
        information state (``perfect_recall=True``) of one player, or (``private_info=NONE``)
        the public part only."""
        return CanastaObserver(self.table, iig_obs_type, params)


class _Origin:
    """Where a resampled position left the game actually played (see
    :meth:`CanastaState.resample_from_infostate`)."""

    __slots__ = ("prefix", "player", "state", "reseed", "head", "seed")

    def __init__(self, prefix: int, player: int, state: Optional[GameState], reseed: int, head: Any,
                 seed: tuple[int, ...] = ()) -> None:
        self.seed = seed
        """(before the deal) The seed's bytes chosen so far, sampled."""
        self.prefix = prefix
        """How many actions of the log were played before the resampling."""
        self.player = player
        """The player whose information state was kept."""
        self.state = state
        """The sampled position (None before the deal)."""
        self.reseed = reseed
        """The seed later hands are dealt from (the played seed deals them no more: the
        player does not know it)."""
        self.head = head
        """The ``steps`` link of the sampled position: the steps below it are the game
        actually played, whose private parts only ``player``'s strings show."""


class _Data:
    """One position of an OpenSpiel game, immutable (so cloning a state copies nothing).

    ``steps`` links every decision of the game, newest first: ``(previous, seat, action id,
    state after)``, with ``seat = -1`` for a deal.
    """

    __slots__ = ("table", "seed", "state", "steps", "log", "hands", "values", "done", "length", "origin")

    def __init__(self, table: _Table, seed: tuple[int, ...], state: Optional[GameState], steps: Any, log: Any,
                 hands: int, values: tuple[float, ...], done: bool, length: int,
                 origin: Optional[_Origin] = None) -> None:
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
        self.origin = origin
        """None for a position of the game played; for a resampled one, where it left it."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Data:
        return self

    def actions(self) -> list[int]:
        """Every action applied, oldest first."""
        out = []
        link = self.log
        while link is not None:
            out.append(link[0])
            link = link[1]
        out.reverse()
        return out

    def __reduce__(self) -> tuple[Any, ...]:
        actions = tuple(self.actions())
        o = self.origin
        if o is None:
            return (_replay, (self.table.params, actions))
        return (_replay_resampled, (self.table.params, actions[: o.prefix], o.player, o.state, o.reseed,
                                    actions[o.prefix:], o.seed))

    def apply(self, action: int) -> _Data:
        table = self.table
        log = (action, self.log)
        o = self.origin
        if self.state is None:
            seed = self.seed + (action,)
            if len(seed) < _SEED_BYTES:
                return _Data(table, seed, None, None, log, 0, self.values, False, 0, o)
            number = sum(b << (8 * i) for i, b in enumerate(seed))
            st = table.config.deal(number)
            return _Data(table, seed, st, (None, -1, -1, st), log, 0, self.values, False, 0, o)
        st = self.state
        seat = st.current_player
        nxt = st.apply(action)
        steps = (self.steps, seat, action, nxt)
        cfg = table.config
        if not nxt.is_hand_over:
            length = self.length + 1
            return _Data(table, self.seed, nxt, steps, log, self.hands, self.values, length >= table.hand_cap,
                         length, o)
        hands = self.hands + 1
        values = self.values
        if cfg.reward == "score":
            values = tuple(a + b for a, b in zip(values, score_values(nxt)))
        end = cfg.episode == "hand" or nxt.is_game_over
        if end or hands >= cfg.max_hands:
            if end and cfg.reward == "win":
                values = win_values(nxt)
            return _Data(table, self.seed, nxt, steps, log, hands, values, True, self.length + 1, o)
        dealt = nxt.next_hand() if o is None else _deal_next(nxt, o.reseed)
        return _Data(table, self.seed, dealt, (steps, -1, -1, dealt), log, hands, values, False, 0, o)

    def resampled(self, player: int, rng: random.Random) -> _Data:
        """A position ``player`` cannot tell from this one, the cards he has not seen dealt
        again with ``rng`` (:meth:`GameState.resample`), and later hands dealt from a new seed."""
        table = self.table
        reseed = rng.getrandbits(32)
        prefix = len(self.actions())
        if self.state is None:  # the seed is being chosen: nobody has seen any of it
            seed = tuple(rng.randrange(_OUTCOMES) for _ in self.seed)
            o = _Origin(prefix, player, None, reseed, None, seed)
            return _Data(table, seed, None, None, self.log, 0, self.values, self.done, 0, o)
        st = self.state.resample(player, rng)
        prev = self.steps[0] if self.steps is not None else None
        head = (prev, self.steps[1], self.steps[2], st)
        o = _Origin(prefix, player, st, reseed, head)
        return _Data(table, self.seed, st, head, self.log, self.hands, self.values, self.done, self.length, o)


def _deal_next(st: GameState, seed: int) -> GameState:
    """The hand after ``st``, dealt as :meth:`GameState.next_hand` deals it but from ``seed``
    instead of the game's seed."""
    c = st._c
    d = c.d
    return GameState(deal(d.R, seed, d.hand_number + 1, next_dealer(d.R, d.dealer), c.totals, None))


def _replay(params: dict[str, Any], actions: tuple[int, ...]) -> _Data:
    table = _table(params)
    data = _Data(table, (), None, None, None, 0, (0.0,) * table.config.sides, False, 0)
    for a in actions:
        data = data.apply(a)
    return data


def _replay_resampled(params: dict[str, Any], prefix: tuple[int, ...], player: int, state: Optional[GameState],
                      reseed: int, suffix: tuple[int, ...], seed: tuple[int, ...] = ()) -> _Data:
    """A resampled position again: the game played up to the resampling, the sampled position
    put in its place, and the actions played since."""
    data = _replay(params, prefix)
    if state is None:
        o = _Origin(len(prefix), player, None, reseed, None, seed)
        data = _Data(data.table, seed, None, None, data.log, 0, data.values, data.done, 0, o)
    else:
        prev = data.steps[0] if data.steps is not None else None
        head = (prev, data.steps[1], data.steps[2], state)
        o = _Origin(len(prefix), player, state, reseed, head)
        data = _Data(data.table, data.seed, state, head, data.log, data.hands, data.values, data.done,
                     data.length, o)
    for a in suffix:
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

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CanastaState:
        """A state ``player_id`` cannot tell from this one: the same information state (string
        and tensor), the cards he has not seen dealt again at random (the engine's
        :meth:`~canasta.GameState.resample`: uniformly among the placements his observation and
        the hand's public history allow), and the hands after this one dealt from a new seed.
        Before the deal, the seed's bytes chosen so far are drawn again.

        ``probability_sampler`` is called for random numbers in [0, 1) (OpenSpiel's
        ``UniformProbabilitySampler``, as ISMCTS passes it); they seed the sample, so the same
        numbers give the same state. The new state plays on like any other: OpenSpiel's
        ``ISMCTSBot`` searches over such samples.
        """
        bits = 0
        for _ in range(4):
            bits = (bits << 16) | min(int(float(probability_sampler()) * 65536), 65535)
        rng = random.Random(bits)
        clone = self.clone()
        clone._d = self._d.resampled(int(player_id), rng)
        return clone

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
        self._strings: dict[tuple[int, int, bool, int], tuple[Any, str, Any, Any]] = {}
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
        o = d.origin
        if o is not None and o.player != player and self.private and o.head is not None:
            # a resampled position: the game played up to the resampling shows only its public
            # part to the players whose cards were dealt again (their hands there were not these)
            return self._history(d.steps, player, True, o.head[0])
        return self._history(d.steps, player, self.private, None)

    def _history(self, link: Any, player: int, private: bool, public_from: Any) -> str:
        """The text of the decisions up to ``link``; the player's hand shown where ``private``,
        except at ``public_from`` and below it. The text up to each decision is kept (by the
        decision's link), so a game's strings cost one line each however often asked for."""
        memo = self._strings
        nodes = []
        start: Optional[tuple[str, Any, Any]] = None
        while link is not None:
            if link is public_from:
                start = self._history_public(link, player)
                break
            hit = memo.get((id(link), player, private, id(public_from)))
            if hit is not None and hit[0] is link:
                start = (hit[1], hit[2], hit[3])
                break
            nodes.append(link)
            link = link[0]
        text, hand, red = start if start is not None else (f"p{player}", None, None)
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
            if private and c.hands[player] != hand:
                hand = c.hands[player]
                line += f" | hand {cards_text(hand)}"
            if c.red != red:
                red = c.red
                line += f" | red threes {list(red)}"
            text = f"{text}\n{line}"
            memo[(id(node), player, private, id(public_from))] = (node, text, hand, red)
        return text

    def _history_public(self, link: Any, player: int) -> tuple[str, Any, Any]:
        """(text, hand, red threes) of the decisions up to ``link``, without any hand."""
        self._history(link, player, False, None)
        hit = self._strings[(id(link), player, False, id(None))]
        return hit[1], None, hit[3]


def _top(st: GameState) -> str:
    pile = st.pile
    return CARD_TOKENS[pile[-1]] if pile else "-"
