"""Game states: the public, immutable, hashable positions.

A :class:`GameState` wraps the rules core's compact position (plain ints and tuples) and
builds its public fields (:class:`TableMeld`, :class:`Turn`, :class:`HandResult`, the history)
on first access; nothing about a state changes after it is made.

Built on the rules core, the actions and the values of a state's fields (``_fields``). The
modules that work on states are built on it: dealing (``_newgame``), observations
(``_observe``), resampling, events, the table view, records and positions; the methods of
:class:`GameState` that do their work reach it through slots those modules fill (see the end
of this module).
"""

from __future__ import annotations

import numbers
import random
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Optional, Union

from . import _core
from ._actions import Action, ActionSpace, names_natural_without_suit, parse_action, space_of, spec_of, unsuited
from ._core import Core, Deal, Rules
from ._core._apply import apply_id as _apply_id
from ._core._legal import legal_ids as _legal_ids
from ._core._kernel import PH_HAND_OVER as _PH_HAND_OVER
from ._errors import ArgumentError, integer, show
from ._fields import _BUILD, _PHASE_NUMBER, _PHASES, HandResult, Phase, TableMeld, Turn, _core_result, _flags_of, meld_tuple
from ._fields import HandScore, ScoreItem  # noqa: F401 (their home before ``_fields``: older pickles name them here)
from ._hand_suits import _hand_cards, _with_suits_from_hand

if TYPE_CHECKING:
    from ._observation import Observation
    from ._tableevent import Event
    from ._variant import Variant


class IllegalActionError(ValueError):
    """An action that the rules do not allow here; ``reason`` says which rule, ``action`` what."""

    action: Any
    """The action refused, as it was given (an :class:`Action`, its notation or its id)."""
    reason: str
    """Why the rules refuse it here, in a player's words (as :meth:`GameState.why_illegal`)."""

    def __init__(self, action: Any, reason: str) -> None:
        self.action = action
        self.reason = reason
        super().__init__(f"illegal action {str(action)!r}: {reason}")

    def __reduce__(self) -> tuple[Any, ...]:
        # (as ArgumentError's: the fields, not the message)
        return (type(self), (self.action, self.reason))


class GameState:
    """A complete game position. Immutable: :meth:`apply` returns a new state.

    Seats are numbered clockwise from 0; ``side_of(seat)`` gives a seat's side. Hands are
    counts per card kind (see :class:`Card`; in a variant with sequences, 59 counts: per kind,
    then per :class:`SuitedCard`). Create one with :func:`new_game`,
    :func:`load_position` or :func:`state_from_json`. States compare equal when every public
    field is equal (the history aside), and are hashable.
    """

    __slots__ = ("_c", "_ids", "_acts", "_memo", "_view")

    _c: Core
    _ids: Optional[tuple[int, ...]]
    """The legal ids, once asked (one copy shared by the states that have the same)."""
    _acts: Optional[tuple[Action, ...]]
    """Their actions, once asked (shared likewise)."""
    _memo: Optional[dict[Any, Any]]
    _view: Any
    """(``_observe``) the public part of this state's observations, once one is asked."""

    def __init__(self, core: Core) -> None:
        """(private) Wrap a core position; use :func:`new_game` to start a game."""
        self._c = core
        self._ids = None
        self._acts = None
        self._memo = None
        self._view = None

    def _cached(self, key: str) -> Any:
        memo = self._memo
        if memo is None:
            memo = self._memo = {}
        if key in memo:
            return memo[key]
        value = memo[key] = _BUILD[key](self._c)
        return value

    # ------------------------------------------------------------ the public fields

    @property
    def variant(self) -> Variant:
        """The variant played."""
        return self._c.d.R.variant

    @property
    def players(self) -> int:
        """Seats at the table."""
        return self._c.d.R.players

    @property
    def seed(self) -> int:
        """The game's seed: the same seed deals the same game.

        It decides every later deal of the game (and so every card still to come): keep it
        from the players. A server never sends it, or a state, a save or a record holding it,
        to a client (send :meth:`observation` instead)."""
        return self._c.d.seed

    @property
    def hand_number(self) -> int:
        """The hand being played, counted from 0: the first hand is hand number 0.

        This is the number in data (saves, positions, records, observations, JSON), where it
        seeds the deal. Text for people counts from 1 and says so with the word "Hand": the
        CLI, ``str(state)``, the event texts and ``repr``
        show hand number 0 as "Hand 1" (``state.hand_number + 1``).
        """
        return self._c.d.hand_number

    @property
    def dealer(self) -> int:
        """The seat that dealt this hand."""
        return self._c.d.dealer

    @property
    def totals(self) -> tuple[int, ...]:
        """Each side's game score so far (this hand included once it is over)."""
        return self._c.totals

    @property
    def hands(self) -> tuple[tuple[int, ...], ...]:
        """Each seat's hand, as counts per card kind: 15 counts (index by :class:`Card`).

        In a variant with sequences (suited cards) 59 counts: per kind (all suits together),
        then per suited card (index by :class:`SuitedCard`); ``hand[Card.SEVEN]`` is the sum of
        the four sevens' counts."""
        h: tuple[tuple[int, ...], ...] = self._cached("hands")
        return h

    @property
    def down_hands(self) -> tuple[tuple[int, ...], ...]:
        """(new-canasta) each seat's down hand, as counts per card kind (empty elsewhere; 59
        counts in a variant with suited cards, as :attr:`hands`)."""
        h: tuple[tuple[int, ...], ...] = self._cached("downs")
        return h

    @property
    def melds(self) -> tuple[tuple[TableMeld, ...], ...]:
        """Each side's melds on the table, in the order they were made."""
        m: tuple[tuple[TableMeld, ...], ...] = self._cached("melds")
        return m

    @property
    def red_threes(self) -> tuple[int, ...]:
        """Red threes faced by each side."""
        return self._c.red

    @property
    def black_threes_aside(self) -> tuple[int, ...]:
        """Black threes each side has set aside from piles it took (cuban 3.5: out of play,
        scored by ``black_threes.set_aside_bonus``); zeros in other variants."""
        return self._c.aside

    @property
    def opened(self) -> tuple[bool, ...]:
        """Per side: it has made its initial meld."""
        return self._c.opened

    @property
    def melded(self) -> tuple[bool, ...]:
        """Per seat: he has melded this hand."""
        return self._c.melded

    @property
    def stock(self) -> tuple[int, ...]:
        """The stock, top card last: card kinds (card codes in a variant with suited cards:
        :class:`SuitedCard` for a natural)."""
        s: tuple[int, ...] = self._cached("stock")
        return s

    @property
    def pile(self) -> tuple[int, ...]:
        """The discard pile, top card last: card kinds (card codes in a variant with suited
        cards: :class:`SuitedCard` for a natural)."""
        p: tuple[int, ...] = self._cached("pile")
        return p

    @property
    def pile_buried(self) -> int:
        """How many cards at the bottom of :attr:`pile` are still face down: the packet dealt
        under the upcard where the variant buries one (``upcard.buried``, Italian 2.3), until
        the pile is taken; 0 in other variants. Nobody sees them, so observations never list
        them (the pile's size counts them)."""
        return self._c.buried

    @property
    def frozen(self) -> bool:
        """The pile is frozen (for every side)."""
        return self._c.frozen

    @property
    def current_player(self) -> Optional[int]:
        """The seat to act, or None when nobody is (the hand is over)."""
        p = self._c.player
        return None if p < 0 else p

    @property
    def phase(self) -> Phase:
        """Where the turn stands."""
        return _PHASES[self._c.phase]

    @property
    def turn(self) -> Turn:
        """What has happened so far in the current turn."""
        t: Turn = self._cached("turn")
        return t

    @property
    def took_last(self) -> tuple[bool, ...]:
        """Per seat: he took the pile in his last turn."""
        return self._c.took_last

    @property
    def last_turns(self) -> int:
        """(last-round stock exhaustion) turns left; -1 while the stock lasts."""
        return self._c.last_turns

    @property
    def active(self) -> tuple[int, ...]:
        """The seats playing this deal, in turn order."""
        return self._c.d.active

    @property
    def precise(self) -> tuple[int, ...]:
        """(new-canasta) dealers' seats credited with a precise dealer draw this hand."""
        return self._c.d.precise

    @property
    def result(self) -> Optional[HandResult]:
        """How the hand ended, once it is over."""
        r: Optional[HandResult] = self._cached("result")
        return r

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning sides, once the game is over."""
        return self._c.winners

    # ------------------------------------------------------------ queries

    @property
    def _rules(self) -> Rules:
        return self._c.d.R

    @property
    def _history(self) -> Any:
        return self._c.history

    def side_of(self, seat: int) -> int:
        """The side (0, 1, ...) that ``seat`` plays for (:class:`ArgumentError` for a seat not
        at the table)."""
        side_of = self._c.d.R.side_of
        if type(seat) is int and 0 <= seat < len(side_of):
            return side_of[seat]
        return side_of[integer(seat, "seat", 0, len(side_of) - 1)]

    @property
    def sides(self) -> int:
        """Number of sides."""
        return self._c.d.R.n_sides

    @property
    def is_hand_over(self) -> bool:
        """True when the hand has ended (also when the game has)."""
        return self._c.phase >= _PH_HAND_OVER

    @property
    def is_game_over(self) -> bool:
        """True when a side has reached the target and the game is decided."""
        return self._c.phase == _core.PH_GAME_OVER

    @property
    def core(self) -> str:
        """``"native"`` or ``"python"``: the rules core this state runs on (see
        :func:`core_info`)."""
        return "python" if type(self._c) is Core else "native"

    @property
    def action_space(self) -> ActionSpace:
        """The dense action ids of this variant and table size."""
        return space_of(self._c.d.R)

    @property
    def history(self) -> tuple[Action, ...]:
        """The actions applied since this hand was dealt, oldest first."""
        h: tuple[Action, ...] = self._cached("history")
        return h

    def initial_need(self, side: int) -> int:
        """The initial-meld minimum for ``side`` this hand (0 once it has melded;
        :class:`ArgumentError` for a side not at the table)."""
        c = self._c
        if type(side) is not int or not 0 <= side < len(c.opened):
            side = integer(side, "side", 0, len(c.opened) - 1)
        if c.opened[side]:
            return 0
        return c.d.R.initial_need(c.totals[side], c.d.hand_number)

    def legal_action_ids(self) -> tuple[int, ...]:
        """The dense ids of :meth:`legal_actions`, in the same order."""
        ids = self._ids
        if ids is None:
            c = self._c
            if type(c) is Core:
                ids = space_of(c.d.R)._shared_ids(tuple(_legal_ids(c)))
            else:
                native: Any = c  # the native core's state (its methods are not Core's)
                ids = native.legal_ids()  # the native core shares equal tuples itself
            self._ids = ids
        return ids

    def legal_action_mask(self) -> bytes:
        """A mask over the action space: byte ``i`` is 1 when id ``i`` is legal here, else 0.

        ``numpy.frombuffer(state.legal_action_mask(), dtype=numpy.int8)`` views it as an array
        without copying. Masks are shared between states with the same legal actions.
        """
        c = self._c
        return space_of(c.d.R)._mask_of(self.legal_action_ids())

    def legal_actions(self) -> tuple[Action, ...]:
        """Every legal action, in a fixed order, without duplicates in effect.

        Empty only when nobody is to act (hand or game over).
        """
        acts = self._acts
        if acts is None:
            acts = self._acts = space_of(self._c.d.R)._actions_of(self.legal_action_ids())
        return acts

    def _id_of(self, action: Union[Action, str, int]) -> int:
        """The id of ``action`` (an action, its notation or its id); -1 if the variant has none.

        Raises :class:`ActionParseError` for text that is not an action, :class:`ArgumentError`
        for an id out of range or a value of another type."""
        space = space_of(self._c.d.R)
        i = space._ident.get(id(action), -1)
        if i >= 0 and space.actions[i] is action:
            return i
        if isinstance(action, str):
            action = parse_action(action)
        elif isinstance(action, numbers.Integral) and not isinstance(action, bool):
            i = int(action)
            if not 0 <= i < space.size:
                raise ArgumentError("action", f"action id {show(action)} is out of range 0..{space.size - 1}")
            return i
        if not isinstance(action, Action):
            raise ArgumentError("action", f"expected an action, its notation or its id, not {show(action)}")
        i = space._ids.get(action, -1)
        if i < 0 and self._c.d.R.suited and names_natural_without_suit(action):
            same = self._same_but_suits(action)
            if len(same) == 1:  # the suits leave no choice: the one legal action it names
                return same[0]
        return i

    def _same_but_suits(self, action: Action) -> list[int]:
        """The legal actions' ids that ``action``, written without suits, names (variants with
        sequences): ``meld A A A`` names ``meld Ah Ad Ad`` and ``meld As Ad Ad`` where both are
        legal. A group's suits matter only through the cards they leave in the hand (the table
        keeps none for a group), so one such action is one choice; several are a real choice."""
        space = space_of(self._c.d.R)
        return [i for i in self.legal_action_ids() if unsuited(space.actions[i]) == action]

    def is_legal(self, action: Union[Action, str, int]) -> bool:
        """Whether ``action`` (an action, its notation or its id) is legal here.

        Raises :class:`ActionParseError` for text that is not an action, :class:`ArgumentError`
        for an id out of range or a value of another type."""
        i = self._id_of(action)
        return i >= 0 and i in self.legal_action_ids()

    def why_illegal(self, action: Union[Action, str, int]) -> Optional[str]:
        """The rule that forbids ``action`` here in a player's words, or None if legal.

        Raises like :meth:`is_legal` for an input that is not an action."""
        i = self._id_of(action)
        a = space_of(self._c.d.R).actions[i] if i >= 0 else _as_action(action)
        if i < 0 and self._c.d.R.suited and names_natural_without_suit(a):
            return self._why_without_suits(a)
        return _core.why(self._c, spec_of(a))

    def _why_without_suits(self, action: Action) -> str:
        """Why ``action``, naming natural cards without their suits in a variant with suits,
        is not played: it names several legal actions (the suits are a choice: which cards stay
        in the hand), or none (the rule that refuses it with the suits of the hand's cards)."""
        space = space_of(self._c.d.R)
        same = [space.actions[i] for i in self._same_but_suits(action)]
        if same:
            listed = ", ".join(f"'{a}'" for a in same[:-1]) + f" or '{same[-1]}'"
            return (f"'{action}' could be {listed}: name the cards with their suits (the cards kept in "
                    "your hand differ, and their suits matter for sequences)")
        from ._core._reasons import held_words

        hand = self.hands[self.current_player] if self.current_player is not None else ()
        suited = _with_suits_from_hand(action, hand)
        reason = _core.why(self._c, spec_of(suited)) if suited is not None else None
        if reason is None:
            return str(_core.why(self._c, spec_of(action)))
        named = _hand_cards(action)
        if reason.startswith("you hold") and any(hand[k] < named.count(k) for k in set(named)):
            return held_words(bytes(hand), tuple(named))  # by rank, as the action names them
        return reason

    def apply(self, action: Union[Action, str, int], seat: Optional[int] = None) -> GameState:
        """The state after ``action`` (an action, its notation, or its id: any integer but a
        ``bool``, numpy integers included).

        ``seat``: the seat that sends the action (a server passes the seat of the client it
        came from). When given, an action from any seat but the one to act (``current_player``;
        the partner answering "may I go out?" is to act then) is refused with
        :class:`IllegalActionError` ("it is seat 2's turn, not seat 1's"), before the action is
        even read.

        Raises :class:`IllegalActionError` naming the broken rule; this state is unchanged.
        Raises :class:`ActionParseError` for text that is not an action, :class:`ArgumentError`
        for an id out of range or a value of another type (``seat`` too: a seat not at the
        table).
        """
        c = self._c
        if seat is not None and seat != c.player:
            self._wrong_seat(action, seat)
        ids = self._ids
        if type(action) is int and ids is not None and action in ids:
            # the id path, its legal ids known: nothing else to check
            if type(c) is Core:
                return GameState(_apply_id(c, action))
            native: Any = c  # the native core's state
            return GameState(native.apply_legal(action))
        space = space_of(c.d.R)
        if type(action) is int and 0 <= action < space.size:
            i = action
        else:
            i = space._ident.get(id(action), -1)
            if i < 0 or space.actions[i] is not action:
                i = self._id_of(action)
        if ids is None:
            ids = self.legal_action_ids()
        if i < 0 or i not in ids:
            a = space.actions[i] if i >= 0 else _as_action(action)
            if i < 0 and c.d.R.suited and names_natural_without_suit(a):
                raise IllegalActionError(a, self._why_without_suits(a))
            raise IllegalActionError(a, _core.why(c, spec_of(a)) or "not legal here")
        if type(c) is Core:
            return GameState(_apply_id(c, i))
        native = c
        return GameState(native.apply_legal(i))

    def _wrong_seat(self, action: Any, seat: Any) -> None:
        """Refuse ``action`` sent by ``seat``, who is not to act (or check ``seat``)."""
        seat = integer(seat, "seat", 0, self.players - 1)
        p = self._c.player
        if p == seat:
            return
        who = "nobody is to act (the hand is over)" if p < 0 else f"it is seat {p}'s turn, not seat {seat}'s"
        raise IllegalActionError(action, who)

    def next_hand(self, precise_draws: Optional[tuple[int, ...]] = None,
                  adjustments: Optional[tuple[int, ...]] = None) -> GameState:
        """Deal the next hand (the deal rotates); only when the hand is over and the game is not.

        ``precise_draws`` records new-canasta's precise dealer draws (see :func:`new_game`);
        ``adjustments`` adds points per side to the totals first (penalties from a
        :class:`ScoreSheet`), so the next initial-meld minimum counts them.
        """
        c = self._c
        if c.phase != _core.PH_HAND_OVER:
            if c.phase == _core.PH_GAME_OVER:
                raise ValueError("the game is over: no next hand")
            raise ValueError("the hand is not over yet")
        R = c.d.R
        totals = c.totals
        if adjustments is not None:
            if isinstance(adjustments, (str, bytes)) or not isinstance(adjustments, Iterable):
                raise ArgumentError("adjustments", f"expected one integer per side, not {show(adjustments)}")
            adjust = [integer(a, "adjustments", -(1 << 31), 1 << 31) for a in adjustments]
            if len(adjust) != len(totals):
                raise ArgumentError("adjustments", f"give one number per side ({len(totals)}), not {len(adjust)}")
            totals = tuple(t + a for t, a in zip(totals, adjust))
        d = c.d
        given = _check_seats(precise_draws, "precise_draws", R.players)
        try:
            return GameState(_core.deal(R, d.seed, d.hand_number + 1, _core.next_dealer(R, d.dealer), totals,
                                        given))
        except ValueError as e:
            raise ArgumentError("precise_draws", str(e).removeprefix("precise_draws: ")) from None

    def observation(self, player: int) -> Observation:
        """What ``player`` (a seat) may know of this state: see :class:`Observation`."""
        return _OBSERVATION(self, player)

    def resample(self, player: int, rng: random.Random) -> GameState:
        """A state consistent with everything ``player`` (a seat) has observed, the hidden
        cards dealt again with ``rng`` (a ``random.Random``): an information-set sample, the
        basis of a search that must not see hidden cards.

        Kept: every public field (so ``player``'s observation is unchanged, and when he is to
        act his legal actions are too), his own hand, the whole pile and a pile set aside (the
        upcards were turned face up and every discard was seen), and in each other hand the
        cards it was seen to take from the pile and has not melded or discarded since.
        Shuffled uniformly among the unseen places: the rest of the other hands, every down
        hand, the stock and its order; a red three is never hidden in a hand that would have
        faced it. The ``seed`` and ``history`` are kept (the hand's public history is replayed
        from them). The result depends only on what ``player`` observed and on ``rng``.
        See :func:`sample_state` for the same from an :class:`Observation` alone.

        Raises ``ValueError`` for a seat not at the table, ``TypeError`` when ``rng`` is not a
        ``random.Random``.
        """
        return _RESAMPLE(self, player, rng)

    def hand_of(self, seat: int) -> tuple[int, ...]:
        """``seat``'s hand as counts per card kind (:class:`ArgumentError` for a seat not at
        the table)."""
        return self.hands[integer(seat, "seat", 0, self.players - 1)]

    # ------------------------------------------------------------ value semantics

    def _key(self) -> tuple[object, ...]:
        key: tuple[object, ...] = self._cached("key")
        return key

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return self is other or self._key() == other._key()

    def __ne__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return not self == other

    def __hash__(self) -> int:
        h: int = self._cached("hash")
        return h

    def __repr__(self) -> str:
        c = self._c
        who = "nobody" if c.player < 0 else f"seat {c.player}"
        return (f"<GameState {c.d.R.variant.name} {c.d.R.players} players, seed {c.d.seed}, "
                f"hand {c.d.hand_number + 1}, {_PHASES[c.phase].value}, {who} to act, totals {c.totals}>")

    def __str__(self) -> str:
        """A short table view for people (well under 1,500 characters): the melds, red
        threes, the pile's top card and whether it is frozen, the stock, hand sizes, scores,
        whose turn it is. It shows no hidden card (no hand's contents)."""
        return _TABLE_VIEW(self)

    def events_of(self, action: Union[Action, str, int]) -> tuple[Event, ...]:
        """What the table sees happen when ``action`` is played here: see :func:`events`.

        Applies the action (raising like :meth:`apply` when it is illegal); call
        :func:`events` with the state after to avoid applying it twice.
        """
        return _EVENTS(self, action)

    def __iter__(self) -> Iterator[Any]:  # pragma: no cover - a state is not a sequence
        raise TypeError("GameState is not iterable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (_unpickle, (_fields_of(self),))


def _as_action(action: Union[Action, str, int]) -> Action:
    """``action`` as an :class:`Action` (``_id_of`` has checked it: an id is in range)."""
    if isinstance(action, Action):
        return action
    if isinstance(action, str):
        return parse_action(action)
    raise ArgumentError("action", f"expected an action, its notation or its id, not {show(action)}")



# =============================================================== building states


FIELDS = ("variant", "players", "seed", "hand_number", "dealer", "totals", "hands", "down_hands", "melds",
          "red_threes", "opened", "melded", "stock", "pile", "frozen", "current_player", "phase", "turn",
          "took_last", "last_turns", "active", "precise", "result", "winners")
"""The public fields of a state, in order."""


def _fields_of(state: GameState) -> dict[str, Any]:
    out = {name: getattr(state, name) for name in FIELDS}
    out["history"] = state.history
    out["history_seats"] = _history_seats(state)
    out["black_threes_aside"] = state._c.aside
    out["pile_buried"] = state._c.buried
    out["turns_done"] = tuple(bool((state._c.turned >> s) & 1) for s in range(state.players))
    out["playing_down"] = tuple(bool((state._c.turned >> (_core.FOOT + s)) & 1) for s in range(state.players))
    return out


def _history_seats(state: GameState) -> tuple[int, ...]:
    """(private) The seat that played each action of ``state.history``, oldest first (-1
    where not known: a history loaded without its seats)."""
    out: list[int] = []
    link: Any = state._c.history
    while link is not None:
        out.append(link[2])
        link = link[1]
    out.reverse()
    return tuple(out)


def _from_fields(variant: Variant, players: int, seed: int, hand_number: int, dealer: int,
                 totals: tuple[int, ...], hands: tuple[tuple[int, ...], ...],
                 down_hands: tuple[tuple[int, ...], ...], melds: tuple[tuple[TableMeld, ...], ...],
                 red_threes: tuple[int, ...], opened: tuple[bool, ...], melded: tuple[bool, ...],
                 stock: tuple[int, ...], pile: tuple[int, ...], frozen: bool, current_player: Optional[int],
                 phase: Phase, turn: Turn, took_last: tuple[bool, ...], last_turns: int,
                 active: tuple[int, ...], precise: tuple[int, ...] = (), result: Optional[HandResult] = None,
                 winners: tuple[int, ...] = (), history: tuple[Action, ...] = (),
                 rules: Optional[Rules] = None, history_seats: tuple[int, ...] = (),
                 black_threes_aside: tuple[int, ...] = (), turns_done: tuple[bool, ...] = (),
                 playing_down: tuple[Optional[bool], ...] = (), pile_buried: int = 0) -> GameState:
    """(private) A state from its public fields, as positions and saves give them. The
    caller has checked every value; ``history_seats`` (one seat per action of ``history``,
    -1 for not known) may be left out, and then no seat is known."""
    R = rules if rules is not None else _core.rules_for(variant, players)
    c = Core.__new__(Core)
    c.d = Deal(R, seed, hand_number, dealer, tuple(active), tuple(precise), tuple(stock))
    c.hands = tuple(bytes(h) for h in hands)
    c.downs = tuple(bytes(h) for h in down_hands)
    c.melds = tuple(tuple(meld_tuple(m) for m in side) for side in melds)
    c.info = tuple(_core.side_info(R, side) for side in c.melds)
    c.red = tuple(red_threes)
    c.aside = tuple(black_threes_aside) if black_threes_aside else (0,) * R.n_sides
    c.opened = tuple(bool(x) for x in opened)
    c.melded = tuple(bool(x) for x in melded)
    c.stock_n = len(stock)
    c.pile = _core.pile_of(tuple(pile))
    c.pile_n = len(pile)
    c.buried = pile_buried
    c.frozen = bool(frozen)
    c.player = -1 if current_player is None else current_player
    c.phase = _PHASE_NUMBER[phase]
    c.flags = _flags_of(turn)
    c.count = turn.count
    c.melds_before = turn.melds_before
    c.pending = tuple(turn.pending)
    c.pending_top = turn.pending_top
    c.start_hand = bytes(turn.start_hand)
    c.took_last = tuple(bool(x) for x in took_last)
    c.last_turns = last_turns
    c.totals = tuple(totals)
    c.result = None if result is None else _core_result(result)
    c.winners = tuple(winners)
    link: Any = None
    space = space_of(R)
    seats = history_seats if len(history_seats) == len(history) else (-1,) * len(history)
    for a, seat in zip(history, seats):
        link = (space.encode(a), link, seat)
    c.history = link
    # the seats that have finished a turn this hand (kept only where a rule asks it,
    # pile.no_discard_first_turn): as given, or those with a discard in its history
    c.turned = 0
    walk: Any = link if R.track_turns and not turns_done else None
    if R.track_turns:
        for s, done in enumerate(turns_done):
            if done:
                c.turned |= 1 << s
    while walk is not None:
        if walk[2] >= 0 and R.specs[walk[0]][0] == _core.DISCARD:
            c.turned |= 1 << walk[2]
        walk = walk[1]
    if R.partner_down:
        # who plays from his down hand (going_out.partner_down_hand): as given, else every seat
        # whose down hand is picked up
        for s in range(players):
            given = playing_down[s] if s < len(playing_down) else None
            if given if given is not None else not any(c.downs[s]):
                c.turned |= 1 << (_core.FOOT + s)
    return GameState(_core.to_native(c))


def _unpickle(fields: dict[str, Any]) -> GameState:
    return _from_fields(**fields)


def _replace(state: GameState, **changes: Any) -> GameState:
    """(private, for tests and loaders) ``state`` with some public fields replaced."""
    fields = _fields_of(state)
    unknown = set(changes) - set(fields)
    if unknown:
        raise TypeError(f"not fields of a state: {', '.join(sorted(unknown))}")
    fields.update(changes)
    return _from_fields(**fields)


def _check_seats(value: object, argument: str, players: int) -> Optional[tuple[int, ...]]:
    """``value`` (None or a sequence of seats) as a tuple of ints, checked."""
    if value is None:
        return None
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise ArgumentError(argument, f"expected a sequence of seats, not {show(value)}")
    return tuple(integer(x, argument, 0, players - 1) for x in value)


# =============================================================== methods whose work lives above

# GameState's convenience methods whose work belongs to modules built on this one (a seat's
# observation, a resample, the events of an action, the table view) call that work through
# these slots, so that this module imports none of those modules. Each such module fills its
# slot when it is imported; ``canasta/__init__.py`` imports them all, and Python always runs a
# package's ``__init__`` before any of its submodules, so the slots are filled before any state
# can exist.


def _unfilled(method: str, module: str) -> Callable[..., Any]:
    """A slot's value until ``module`` fills it: a call raises a RuntimeError naming it."""

    def unfilled(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(f"GameState.{method} needs canasta.{module}, which fills it when imported "
                           "(import canasta: it imports every module)")

    return unfilled


_OBSERVATION: Callable[[GameState, int], Observation] = _unfilled("observation", "_observe")
""":func:`observation` (filled by ``_observe``)."""
_RESAMPLE: Callable[[GameState, int, random.Random], GameState] = _unfilled("resample", "_resample")
"""``_resample.resample`` (filled by ``_resample``)."""
_EVENTS: Callable[[GameState, Union[Action, str, int]], tuple[Event, ...]] = _unfilled("events_of", "_events")
""":func:`events` (filled by ``_events``)."""
_TABLE_VIEW: Callable[[GameState], str] = _unfilled("__str__", "_view")
"""``_view.table_view`` (filled by ``_view``)."""
