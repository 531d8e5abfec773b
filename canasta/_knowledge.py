"""Reading the hand's public history for what a seat knows of where the cards are: the cards
each hand is known to hold (seen taken with the pile and not seen leaving it since), the
cards seen go onto the pile, the hands that may hide a red three (:class:`Reading`,
:func:`knowledge`, :func:`known_cards`). See ``_resample`` for the rules it reads by.

Built on the rules core, the actions and the observation values (``_observation``);
resampling (``_resample``), the encoder's ``known_cards`` segment (``_encoder``), the
environments and the searching bots are built on it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Sequence

from . import _core
from ._actions import Action, Add, Answer, Discard, Done, Draw, Meld, Retract, Take
from ._cards import KIND_OF, N_KINDS, Card
from ._core._rules import SEQ
from ._fields import Phase

if TYPE_CHECKING:
    from ._observation import Observation

__all__ = ["Knowledge", "Reading", "knowledge", "known_cards"]

JK = int(Card.JOKER)
TWO = int(Card.TWO)
_USED = {"joker": JK, "two": TWO}


class Knowledge:
    """(private) What one seat knows of where the cards are, read from its observation.

    ``known[s]`` is the least each other hand must hold of each kind (cards seen taken from
    the pile); ``pile`` and ``pending`` list the cards of the pile and of a pile set aside,
    bottom first, ``None`` for a card not seen; ``red_ok[s]`` says whether seat ``s``'s hand
    may hold a hidden red three; ``taker_left`` counts the cards the player who took the pile
    this turn (``taker``, -1: none or unknown) has since played from his hand (the take's own
    cards included), per kind.

    In a variant with suits every list is per card code (59 entries, the per-kind entries 4-14
    left at 0: a natural is counted only under its suited code), and ``groups`` counts the
    suited naturals the history shows in the table's groups (None: not read, none known).
    """

    __slots__ = ("seat", "known", "pile", "pending", "red_ok", "taker", "taker_left", "groups", "samplers")

    def __init__(self, seat: int, known: list[list[int]], pile: list[Optional[int]],
                 pending: Optional[list[Optional[int]]], red_ok: list[bool], taker: int,
                 taker_left: list[int], groups: Optional[list[int]] = None) -> None:
        self.groups = groups
        self.seat = seat
        self.taker = taker
        self.known = known
        self.pile = pile
        self.pending = pending
        self.red_ok = red_ok
        self.taker_left = taker_left
        self.samplers: Optional[dict[Any, Any]] = None
        """(``_resample.sampler_for``) the native samplers of this knowledge, made when first asked."""


def _complete(obs: Observation) -> bool:
    """Whether the observation's history reaches back to the deal (counts known)."""
    return all(ev.stock_cards is not None and ev.seat is not None for ev in obs.history)


def _drop(hand: list[int], kind: int) -> None:
    if hand[kind] > 0:
        hand[kind] -= 1


class Reading:
    """(private) The public history of a hand read so far, one action at a time: what every
    seat is known to hold (``known``, per seat, per kind or card code: cards seen taken from
    the pile and not seen leaving the hand since), the cards seen go onto the pile, and what
    a later action needs of the earlier ones. :func:`knowledge` reads an observation's history
    with it; the environments' encoders read a state's history with it, one action per step,
    so both give the same ``known`` (the ``known_cards`` segment of the encoder)."""

    __slots__ = ("R", "n", "side_of", "known", "taker_left", "groups", "seen_pile", "dealt_below", "snap",
                 "take_rest", "last_taker", "taker", "has_meld", "begun", "version", "versions")

    def __init__(self, R: _core.Rules, side_of: Sequence[int], upcards: Optional[Sequence[int]] = None) -> None:
        n = R.hand_len
        players = len(side_of)
        self.R = R
        self.n = n
        self.side_of = side_of
        self.known = [[0] * n for _ in range(players)]
        self.taker_left = [0] * n
        self.groups: Optional[list[int]] = [0] * n if R.suited else None
        self.seen_pile: list[int] = list(upcards) if upcards is not None else []
        # unseen dealt cards lie under ``seen_pile``: all of them, or the packet buried face down
        # under the upcard (upcard.buried, Italian 2.3)
        self.dealt_below = upcards is None or bool(R.buried)
        self.snap: Optional[tuple[int, list[int], list[int], bool, bool, Optional[list[int]]]] = None
        self.take_rest: list[int] = []
        self.last_taker = -1
        self.taker = -1
        self.has_meld = [False] * (max(side_of) + 1)
        self.begun: set[int] = set()
        self.version = 0
        """Bumped whenever ``known`` changes."""
        self.versions = [0] * players
        """Per seat, bumped whenever ``known[seat]`` changes."""

    def copy(self) -> Reading:
        """An independent copy (to read on along another line of play)."""
        r = Reading.__new__(Reading)
        r.R = self.R
        r.n = self.n
        r.side_of = self.side_of
        r.known = [list(k) for k in self.known]
        r.taker_left = list(self.taker_left)
        r.groups = None if self.groups is None else list(self.groups)
        r.seen_pile = list(self.seen_pile)
        r.dealt_below = self.dealt_below
        r.snap = self.snap
        r.take_rest = list(self.take_rest)
        r.last_taker = self.last_taker
        r.taker = self.taker
        r.has_meld = list(self.has_meld)
        r.begun = set(self.begun)
        r.version = self.version
        r.versions = list(self.versions)
        return r

    def read(self, s: int, a: Action) -> None:
        """One more action of the history: ``a``, played by seat ``s``."""
        kind = type(a)
        if kind is Draw:  # (the most frequent: nothing seen moves)
            self.begun.add(s)
            return
        known = self.known
        groups = self.groups
        taker = self.taker
        if kind is not Answer:
            self.begun.add(s)
        if kind is Discard:
            card = a.card  # type: ignore[attr-defined]
            if known[s][card]:
                known[s][card] -= 1
                self._changed(s)
            self.seen_pile.append(card)
            self.taker = -1
        elif kind is Meld:
            cards = a.cards  # type: ignore[attr-defined]
            for k in cards:
                if known[s][k]:
                    known[s][k] -= 1
                    self._changed(s)
                if s == taker:
                    self.taker_left[k] += 1
            if groups is not None and len({KIND_OF[k] for k in cards if k >= N_KINDS}) == 1:
                for k in cards:  # a group's naturals, with their suits (not a sequence)
                    if k >= N_KINDS:
                        groups[k] += 1
            self.has_meld[self.side_of[s]] = True
        elif kind is Add:
            card = a.card  # type: ignore[attr-defined]
            if known[s][card]:
                known[s][card] -= 1
                self._changed(s)
            if s == taker:
                self.taker_left[card] += 1
            if groups is not None and card >= N_KINDS and a.rank < SEQ:  # type: ignore[attr-defined]
                groups[card] += 1
        elif kind is Take:
            self._take(s, a)  # type: ignore[arg-type]
        elif kind is Retract:
            if self.snap is not None:
                s0, hand0, pile0, below0, melded0, groups0 = self.snap
                known[s0] = hand0
                self.groups = groups0
                self.seen_pile = pile0
                self.dealt_below = below0
                self.has_meld[self.side_of[s0]] = melded0
                self.snap = None
                self._changed(s0)
            self.taker = -1
        elif kind is Done:  # combine, ask, answer, pass: nothing seen moves
            self.taker = -1

    def _changed(self, s: int) -> None:
        """``known[s]`` changed."""
        self.version += 1
        self.versions[s] += 1

    def _take(self, s: int, a: Take) -> None:
        R = self.R
        n = self.n
        known = self.known
        groups = self.groups
        seen_pile = self.seen_pile
        side = self.side_of[s]
        self.snap = (s, list(known[s]), list(seen_pile), self.dealt_below, self.has_meld[side],
                     None if groups is None else list(groups))
        top = a.rank
        if R.suited:  # the top card's code, if it was seen (-1: dealt, unseen)
            top = seen_pile[-1] if seen_pile else -1
        left: list[int] = []
        if R.take_top and len(seen_pile) > R.take_top:
            # hand-and-foot 3.2: only the top cards come; the rest of the pile stays
            left = seen_pile[:-R.take_top]
            seen_pile = seen_pile[-R.take_top:]
        if seen_pile:
            rest = seen_pile[:-1]
        else:  # the whole pile was dealt: only its top was seen
            rest = []
        taker_left = [0] * n
        self.taker = self.last_taker = s
        if R.pair_melded or not self.has_meld[side]:
            # the top card and the cards shown are melded; the rest comes up
            if R.suited:
                used = tuple(a.cards)
                if groups is not None and a.rank < SEQ:
                    for k in used + (top,):
                        if k >= N_KINDS:
                            groups[k] += 1
            else:
                used = (top, top) if a.way == "pair" else ((top, _USED[a.way]) if a.way in _USED else ())
            for k in used:
                _drop(known[s], k)
                taker_left[k] += 1
            self.has_meld[side] = True
            arriving = rest
        else:  # new-canasta, a side that has melded: the whole pile comes up
            arriving = rest + ([top] if top >= 0 else [])
        aside = R.from_pile_aside
        for k in arriving:
            if k not in aside:
                known[s][k] += 1
        self.taker_left = taker_left
        self.take_rest = rest
        if left or (R.take_top and self.dealt_below):
            self.seen_pile = left  # cards of the pile below the ones taken stay
        else:
            self.seen_pile = []
            self.dealt_below = False
        self._changed(s)

    def known_now(self, pending: bool) -> list[list[int]]:
        """``known`` as it stands (shared: do not change it), the cards of a pile set aside for
        an initial meld (``pending``: some are, or the phase is the initial take) not yet in
        the taker's hand."""
        if not pending or self.last_taker < 0 or not self.take_rest:
            return self.known
        out = list(self.known)
        hand = out[self.last_taker] = list(out[self.last_taker])
        aside = self.R.from_pile_aside
        for k in self.take_rest:  # set aside: not in the taker's hand yet
            if k not in aside:
                _drop(hand, k)
        return out


def knowledge(obs: Observation, R: _core.Rules, upcards: Optional[Sequence[int]] = None,
              pile_seen: Optional[Sequence[Optional[int]]] = None,
              pending_seen: Optional[Sequence[int]] = None) -> Knowledge:
    """(private) What ``obs.seat`` knows, from its observation.

    ``upcards``: the cards dealt to the pile (bottom first), when known. ``pile_seen`` and
    ``pending_seen``: the whole pile and pile set aside, to keep as they are when the history
    does not reach back to the deal (a position loaded mid-hand, or a fresh deal).
    """
    players = obs.players
    seat = obs.seat
    keep = R.keep_r3
    suited = R.suited
    n_codes = R.hand_len
    known = [[0] * n_codes for _ in range(players)]
    taker_left = [0] * n_codes
    groups: Optional[list[int]] = [0] * n_codes if suited else None
    pile: list[Optional[int]]
    pending: Optional[list[Optional[int]]] = None
    begun: set[int] = set()
    taker = -1
    history = obs.history
    if _complete(obs) and pile_seen is None:
        reading = Reading(R, obs.side_of, upcards)
        for ev in history:
            assert ev.seat is not None
            reading.read(ev.seat, ev.action)
        known = reading.known
        taker_left = reading.taker_left
        groups = reading.groups
        taker = reading.taker
        begun = reading.begun
        seen_pile = reading.seen_pile
        take_rest = reading.take_rest
        n = obs.pile_size
        if len(seen_pile) > n or (seen_pile and seen_pile[-1] != obs.pile_top):
            raise ValueError("observation: its history does not match its pile "
                             f"({len(seen_pile)} cards seen go onto a pile of {n})")
        if not reading.dealt_below and len(seen_pile) != n:
            raise ValueError(f"observation: its history gives a pile of {len(seen_pile)} cards, not {n}")
        pile = [None] * (n - len(seen_pile)) + list(seen_pile)
        if n and pile[-1] is None:
            pile[-1] = obs.pile_top  # the top card is always seen
        if obs.turn.pending_size or obs.phase is Phase.INITIAL_TAKE:
            size = obs.turn.pending_size
            if reading.last_taker < 0 or len(take_rest) > size:
                raise ValueError("observation: a pile set aside that its history does not explain")
            pending = [None] * (size - len(take_rest)) + list(take_rest)
            known = reading.known_now(True)
    else:
        n = obs.pile_size
        if pile_seen is not None:
            pile = list(pile_seen)
        else:
            pile = [None] * n
            if n:
                pile[-1] = obs.pile_top
        if obs.turn.pending_size or obs.phase is Phase.INITIAL_TAKE:
            if pending_seen is not None:
                pending = list(pending_seen)
            else:
                pending = [None] * obs.turn.pending_size
        for ev in history:
            if ev.seat is not None and not isinstance(ev.action, Answer):
                begun.add(ev.seat)
    cur = obs.current_player
    if cur is not None and obs.phase is not Phase.ANSWER:
        begun.add(cur)
    over = obs.phase in (Phase.HAND_OVER, Phase.GAME_OVER)
    if keep:
        red_ok = [True] * players
    elif R.r3_at_deal or over:
        red_ok = [False] * players
    else:
        red_ok = [s not in begun for s in range(players)]
    known = list(known)
    known[seat] = _codes(obs.hand) if suited else list(obs.hand)
    return Knowledge(seat, known, pile, pending, red_ok, taker, taker_left, groups)


def known_cards(obs: Observation, R: _core.Rules) -> list[list[int]]:
    """(private) Per seat, the cards it is known to hold from the observation's public history
    (the ``known`` of :func:`knowledge`; all 0 where the history does not reach back to the
    deal), the observer's own entry included as read (not his hand)."""
    n = R.hand_len
    if not (obs.history and _complete(obs)):
        return [[0] * n for _ in range(obs.players)]
    reading = Reading(R, obs.side_of)
    for ev in obs.history:
        assert ev.seat is not None
        reading.read(ev.seat, ev.action)
    return reading.known_now(bool(obs.turn.pending_size) or obs.phase is Phase.INITIAL_TAKE)


def _codes(hand: Sequence[int]) -> list[int]:
    """A suited hand's counts per card code only (the per-kind totals 4-14 set to 0)."""
    out = list(hand)
    out[4:N_KINDS] = [0] * (N_KINDS - 4)
    return out
