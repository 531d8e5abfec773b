"""Public events: what the table sees happen when an action is played, as text and as fields.

:func:`events` (and :meth:`GameState.events_of`) describe one action: the action itself
("Seat 1 took the pile: 7 cards"), then what it set off, in this order: red threes laid down,
canastas completed, the pile frozen, a player going out, the hand's end with its scores, the
game's end. Each :class:`Event` has a ``text`` for people and structured fields for programs
(``kind``, ``seat``, ``side``, ``cards``, ``count``, ``rank``, ``points``).

Events are public: they never name a hidden card. A draw says how many cards were drawn, not
which; a take says how many cards the pile held and its top card (which everyone saw). They
are computed only when asked for, from the states before and after the action, so playing
(:meth:`GameState.apply`) costs nothing more.

Seats are named "seat 0", "seat 1", ... and sides by the variant's table letters ("side A");
pass ``names`` (one name per seat, e.g. ``("North", "East", "South", "West")``) to use your
own (a seat named "you" is spoken to: "you play first"). Hands are counted from 1 in the texts
("Hand 1 is over"), as ``hand_number + 1``.

Built on the states (``_state``), the event values (``_tableevent``) and the public history
(``_public_history``); fills :meth:`GameState.events_of`'s slot.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence, Union

from . import _state
from ._actions import Action, Add, Answer, Ask, Combine, Discard, Done, Draw, Meld, Pass, Retract, Take, TakeWay
from ._cards import CARD_NAMES_PLURAL, N_KINDS, SEQUENCE_RANK, SUIT_NAMES, WILD_RANK, Card
from ._cards import CODE_TOKENS as _TOKENS  # (a card code's token: a kind's, or a suited card's, 7h)
from ._errors import ArgumentError, show
from ._state import GameState
from ._tableevent import Event, EventKind

__all__ = ["deal_events", "events", "hand_events"]


def side_letters(state: GameState) -> list[str]:
    """The letters naming the sides of ``state``'s table, by side number."""
    return sorted(set(state.variant.table(state.players).sides))


def seat_name(state: GameState, seat: int, names: Optional[Sequence[str]] = None) -> str:
    """``seat``'s name: ``names[seat]`` when given, else ``"seat N"``."""
    return names[seat] if names is not None else f"seat {seat}"


def side_name(state: GameState, side: int) -> str:
    """``"side A"``: a side by its table letter."""
    letters = side_letters(state)
    return f"side {letters[side]}" if side < len(letters) else f"side {side}"


def _rank_name(rank: int) -> str:
    if rank >= SEQUENCE_RANK:
        return f"{SUIT_NAMES[rank - SEQUENCE_RANK]} sequences"
    return "wild cards" if rank == WILD_RANK else CARD_NAMES_PLURAL[rank]


def _meld_ref(rank: int, number: int) -> str:
    name = f"{SUIT_NAMES[rank - SEQUENCE_RANK]} sequence" if rank >= SEQUENCE_RANK else _rank_name(rank)
    return f"the {name}" + (f" (meld {number})" if number > 1 else "")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "?", "!", '"')) else ".")


def _check_names(names: Any, players: int) -> Optional[tuple[str, ...]]:
    if names is None:
        return None
    if isinstance(names, (str, bytes)) or not isinstance(names, Sequence):
        raise ArgumentError("names", f"expected one name (a string) per seat, not {show(names)}")
    if len(names) != players or not all(isinstance(n, str) for n in names):
        raise ArgumentError("names", f"expected {players} names (strings), one per seat, not {show(names)}")
    return tuple(names)


def events(before: GameState, action: Union[Action, str, int], after: Optional[GameState] = None,
           names: Optional[Sequence[str]] = None) -> tuple[Event, ...]:
    """The public events of playing ``action`` (an action, its notation or its id) in
    ``before``, in order: the action itself (``"Seat 1 took the pile: 7 cards (top 9, with a
    pair of nines)."``; its :class:`EventKind` is named after the action's class), then what it
    set off: red threes laid down (by the player, or by the next player at the start of his
    turn), canastas completed, the pile frozen, a player going out, the hand's end with each
    side's score ("Hand 1 is over ..."), the game's end.

    The events are public: a draw says how many cards were drawn, never which; a take names
    the pile's top card (which everyone saw) and how many cards it held. Nothing is computed
    while playing: events cost only when asked for.

    ``after`` is the state after the action (``before.apply(action)``); when left out it is
    computed. ``names`` gives each seat's name for the texts (default ``"seat 0"``, ...;
    sides are ``"side A"``, ... as the variant's table letters them). Hands are counted from 1
    in the texts (``hand_number + 1``).

    Raises :class:`IllegalActionError` when ``action`` is not legal in ``before`` (like
    :meth:`GameState.apply`), and :class:`ArgumentError` when ``after`` is not the state that
    ``action`` leads to from ``before`` or an argument is of the wrong type.
    """
    from ._state import GameState

    if not isinstance(before, GameState):
        raise ArgumentError("before", f"expected a GameState, not {show(before)}")
    seat = before.current_player
    if seat is None:
        raise ArgumentError("before", "the hand is over: no action is played here (deal the next hand)")
    i = before._id_of(action)
    if i < 0 or i not in before.legal_action_ids():
        before.apply(action)  # raises IllegalActionError naming the rule
    if after is None:
        after = before.apply(i if i >= 0 else action)
    elif not isinstance(after, GameState):
        raise ArgumentError("after", f"expected a GameState, not {show(after)}")
    else:
        link = after._c.history
        if link is None or link[0] != i or link[1] is not before._c.history:
            raise ArgumentError("after", f"is not the state after {action!s} from before "
                                "(give before.apply(action), or leave after out)")
    names = _check_names(names, before.players)
    act = before.action_space.actions[i]
    return tuple(_events(before, act, after, seat, names))


def deal_events(state: GameState, names: Optional[Sequence[str]] = None) -> tuple[Event, ...]:
    """The public events of a hand's deal, for ``state`` as :func:`new_game` or
    :meth:`GameState.next_hand` gave it: the deal itself (``DEAL``: who dealt, the upcard,
    who plays first), the red threes already laid down (``RED_THREES``, per side: where the
    variant lays them at the deal, and the first player's, laid at his first turn), and a pile
    frozen by its upcard (``FROZEN``). ``names`` as for :func:`events`.

    Raises :class:`ArgumentError` for a state in which an action has been played this hand.
    """
    from ._state import GameState

    if not isinstance(state, GameState):
        raise ArgumentError("state", f"expected a GameState, not {show(state)}")
    if state._history is not None:
        raise ArgumentError("state", "actions have been played this hand: give the state as dealt")
    names = _check_names(names, state.players)
    hand = state.hand_number + 1
    dealer = seat_name(state, state.dealer, names)
    out: list[Event] = []
    top = state.pile[-1] if state.pile else None
    first = state.current_player
    text = f"hand {hand}: {dealer} dealt"
    if top is not None:
        text += f"; the upcard is {_TOKENS[top]}"
        buried = state._c.buried
        if buried:  # Italian 2.3 (upcard.buried): the pile starts as a packet under the upcard
            text += f", on {'a card' if buried == 1 else f'{buried} cards'} face down"
    if first is not None:
        player = seat_name(state, first, names)
        text += f"; {player} {'play' if player.lower() == 'you' else 'plays'} first"  # ("you play first")
    out.append(Event(EventKind.DEAL, _sentence(text), seat=state.dealer, side=state.side_of(state.dealer),
                     count=hand, cards=() if top is None else (top,)))
    for side, n in enumerate(state.red_threes):
        if n:
            actor = first if first is not None and state.side_of(first) == side and _only_first(state) else None
            subject = side_name(state, side) if actor is None else seat_name(state, actor, names)
            out.append(Event(EventKind.RED_THREES, _sentence(
                f"{subject} laid down {'a red three' if n == 1 else f'{n} red threes'}"),
                seat=actor, side=side, count=n, cards=(int(Card.RED_THREE),) * n))
    if state.frozen and top is not None:
        out.append(Event(EventKind.FROZEN, _sentence("the pile is frozen"), cards=(top,)))
    return tuple(out)


def hand_events(state: GameState, names: Optional[Sequence[str]] = None) -> tuple[Event, ...]:
    """The public event log of ``state``'s hand so far, oldest first: :func:`deal_events` of
    its deal, then :func:`events` of each action of its history. What a client that joins or
    reconnects in the middle of a hand needs to rebuild the table's log (the same events a
    client present from the deal was sent, one action at a time). ``names`` as for
    :func:`events`.

    It replays the hand from its deal (the state's seed, hand number, dealer and totals), so
    it costs the hand's actions; a server can as well keep each hand's events as it sends
    them. Raises :class:`ArgumentError` for a state whose history does not reach back to its
    deal (a position loaded with :func:`load_position` in the middle of a hand).
    """
    from ._public_history import _deal_of, _public_core
    from ._state import GameState

    if not isinstance(state, GameState):
        raise ArgumentError("state", f"expected a GameState, not {show(state)}")
    names = _check_names(names, state.players)
    st = _deal_of(state)
    bad = ArgumentError("state", "its history does not reach back to the hand's deal (a position loaded "
                        "in the middle of a hand): there is no event log to give")
    if st is None:
        raise bad
    out = list(deal_events(st, names))
    for a in state.history:
        seat = st.current_player
        if seat is None or not st.is_legal(a):
            raise bad
        nxt = st.apply(a)
        out.extend(_events(st, a, nxt, seat, names))
        st = nxt
    if _public_core(st) != _public_core(state):
        raise bad
    return tuple(out)


def _only_first(state: GameState) -> bool:
    """Whether only the first player lays his red threes before play (``first_turn``)."""
    return bool(state.variant.red_threes.dealt == "first_turn")


def _events(before: GameState, a: Action, after: GameState, seat: int,
            names: Optional[tuple[str, ...]]) -> list[Event]:
    who = seat_name(before, seat, names)
    side = before.side_of(seat)
    out: list[Event] = []

    def add(kind: EventKind, text: str, **fields: Any) -> None:
        fields.setdefault("seat", seat)
        fields.setdefault("side", side)
        out.append(Event(kind, _sentence(text), action=a, **fields))

    if isinstance(a, Draw):
        n = len(before.stock) - len(after.stock)
        add(EventKind.DRAW, f"{who} drew {_plural(n, 'card')} from the stock", count=n)
    elif isinstance(a, Take):
        n = len(before.pile) - len(after.pile)  # (a variant may take only the top cards)
        top = before.pile[-1]
        if a.way is TakeWay.ONTO:
            how = f"adding the {_TOKENS[top]} to {_meld_ref(a.rank, a.meld)}"
        elif a.way is TakeWay.PAIR:
            how = f"with a pair of {CARD_NAMES_PLURAL[a.rank]}"
        else:
            how = f"with a {_TOKENS[a.rank]} and a {'joker' if a.way is TakeWay.JOKER else 'two'}"
        if a.cards:
            how += f" ({' '.join(_TOKENS[c] for c in a.cards)})"
        if after.pile:
            text = (f"{who} took {_plural(n, 'card')} from the top of the pile ({len(after.pile)} left; "
                    f"top {_TOKENS[top]}, {how})")
        else:
            text = f"{who} took the pile: {_plural(n, 'card')} (top {_TOKENS[top]}, {how})"
        add(EventKind.TAKE, text,
            count=n, cards=(top,), rank=a.rank, meld=a.meld if a.way is TakeWay.ONTO else 0)
    elif isinstance(a, Meld):
        add(EventKind.MELD, f"{who} melded {a}".replace("meld ", "", 1), cards=a.cards, rank=a.rank)
    elif isinstance(a, Add):
        if a.card == Card.RED_THREE:
            text = f"{who} placed a red three on {_meld_ref(a.rank, a.meld)}"
        else:
            text = f"{who} added {_TOKENS[a.card]} to {_meld_ref(a.rank, a.meld)}"
        add(EventKind.ADD, text, cards=(a.card,), rank=a.rank, meld=a.meld)
    elif isinstance(a, Combine):
        add(EventKind.COMBINE, f"{who} combined melds {a.first} and {a.second} of {_rank_name(a.rank)}",
            rank=a.rank, meld=a.first)
    elif isinstance(a, Discard):
        add(EventKind.DISCARD, f"{who} discarded {_TOKENS[a.card]}", cards=(a.card,))
    elif isinstance(a, Ask):
        add(EventKind.ASK, f'{who} asked: "Partner, may I go out?"')
    elif isinstance(a, Answer):
        add(EventKind.ANSWER, f"{who} answered {'yes' if a.yes else 'no'}", count=int(a.yes), natural=a.yes)
    elif isinstance(a, Pass):
        add(EventKind.PASS, f"{who} passed: the pile is not taken")
    elif isinstance(a, Done):
        add(EventKind.DONE, f"{who} finished melding (no discard)")
    elif isinstance(a, Retract):
        n = len(after.pile) - len(before.pile)
        add(EventKind.RETRACT, f"{who} gave the pile back ({_plural(n, 'card')}): the initial meld "
            "could not be reached", count=n)

    # mexicana 4.2: the talon drawn at once by the side's opener, within a meld or a take
    if isinstance(a, (Meld, Add, Take)) and len(after.stock) < len(before.stock):
        n = len(before.stock) - len(after.stock)
        add(EventKind.TALON, f"{who} made the side's initial meld and drew {_plural(n, 'card')} from the stock",
            count=n)

    # a down hand (the foot) picked up: it was there before and is gone, the hand not over
    over = after.result is not None and before.result is None
    if not over:
        for s, (down, now) in enumerate(zip(before.down_hands, after.down_hands)):
            n = sum(down[:N_KINDS])
            if n and not any(now[:N_KINDS]):
                add(EventKind.DOWN_HAND, f"{seat_name(before, s, names)} picked up the down hand (foot): "
                    f"{_plural(n, 'card')}", seat=s, side=before.side_of(s), count=n)

    # red threes laid down, by side
    for s, (b, c) in enumerate(zip(before.red_threes, after.red_threes)):
        if c > b:
            if over and s != side:
                actor: Optional[int] = None
            elif s == side:
                actor = seat
            else:
                nxt = after.current_player
                actor = nxt if nxt is not None and after.side_of(nxt) == s else None
            subject = side_name(before, s) if actor is None else seat_name(before, actor, names)
            add(EventKind.RED_THREES, f"{subject} laid down {'a red three' if c - b == 1 else f'{c - b} red threes'}",
                seat=actor, side=s, count=c - b, cards=(int(Card.RED_THREE),) * (c - b))

    # canastas completed
    size = before.variant.melds.canasta_size
    for s in range(before.sides):
        was = _canastas(before.melds[s], size)
        for rank, made in _canastas(after.melds[s], size).items():
            for m in made[len(was.get(rank, ())):]:
                kind = "natural" if m.wilds == 0 else ("wild" if rank == WILD_RANK else "mixed")
                of = _rank_name(rank)
                if rank >= SEQUENCE_RANK:
                    kind, of = "sequence", f"{SUIT_NAMES[rank - SEQUENCE_RANK]}, {m}"
                add(EventKind.CANASTA, f"{side_name(before, s)} completed a {kind} canasta of {of} "
                    f"({m.size} cards)", seat=seat if s == side else None, side=s, rank=rank, count=m.size,
                    natural=m.wilds == 0)

    if after.frozen and not before.frozen:
        froze = after.pile[-1] if after.pile else None
        add(EventKind.FROZEN, "the pile is frozen" + ("" if froze is None else f" ({_TOKENS[froze]} on it)"),
            cards=() if froze is None else (froze,))

    if over:
        r = after.result
        assert r is not None
        if r.went_out is not None:
            out_seat = r.went_out
            add(EventKind.GO_OUT, f"{seat_name(before, out_seat, names)} went out" + (" concealed" if r.concealed else ""),
                seat=out_seat, side=before.side_of(out_seat), natural=r.concealed)
        scores = tuple(h.total for h in r.scores)
        parts = ", ".join(f"{side_name(before, s)} {p:+,}" for s, p in enumerate(scores))
        totals = ", ".join(f"{side_name(before, s)} {t:,}" for s, t in enumerate(after.totals))
        add(EventKind.HAND_END, f"hand {before.hand_number + 1} is over ({r.reason}): {parts}; totals {totals}",
            seat=None, side=None, points=scores, count=before.hand_number + 1)
        if after.is_game_over:
            won = " and ".join(side_name(before, s) for s in after.winners)
            add(EventKind.GAME_END, f"the game is over: {won} {'wins' if len(after.winners) == 1 else 'win'}",
                seat=None, side=None, points=after.totals, sides=after.winners)
    return out


def _canastas(melds: Any, size: int) -> dict[int, list[Any]]:
    """The canastas among ``melds``, by rank, in the order they were made."""
    out: dict[int, list[Any]] = {}
    for m in melds:
        if m.size >= size:
            out.setdefault(m.rank, []).append(m)
    return out


_state._EVENTS = events  # GameState.events_of (see the slots at the end of _state)
