"""The variant schema: every rule difference between the sources is a setting here.

A variant is a tree of frozen attrs classes grouped by topic. It is read from TOML with
cattrs (unknown keys are errors), may ``extends`` another variant, and is checked for
contradictions when it is loaded, never in play.
"""

from __future__ import annotations

import difflib
import importlib.resources
import os
import tomllib
from pathlib import Path
from typing import Any, Callable, Literal, Optional, get_args, get_origin

import attrs
import cattrs
from attrs import field, frozen

WildClass = Literal["wild", "red_three", "black_three"]
RankName = Literal["four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace"]
"""A natural rank by name, as variant files write it."""
MeldName = Literal["four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace", "wild"]
"""A natural rank by name, or ``wild`` for melds of wild cards only."""
DiscardClass = Literal["four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace",
                       "wild", "dead"]
"""A natural rank by name, ``wild`` (jokers and deuces) or ``dead`` (a rank made dead, ``melds.dead_ranks``)."""
RANK_OF: dict[str, int] = {name: 4 + i for i, name in enumerate(
    ("four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace"))}
"""The card kind of each rank name."""
RankOrNone = Literal["none", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace"]
"""A natural rank by name, or ``none``."""
TakeWay = Literal["natural_pair", "natural_and_wild", "add_to_meld", "wild_pair"]
BlockClass = Literal["wild", "red_three", "black_three", "four", "five", "six", "seven", "eight", "nine", "ten",
                     "jack", "queen", "king", "ace"]
"""A card class (``wild``, ``red_three``, ``black_three``) or a natural rank by name."""
CanastaKind = Literal["natural", "mixed", "wild", "sequence"]
CountedKind = Literal["natural", "mixed", "wild", "sequence", "rank"]
"""A kind of canasta that counts toward ``going_out.canastas`` (``rank``: a canasta of a rank with
a bonus of its own, where the schema has one)."""
ALL_COUNTED: tuple[CountedKind, ...] = ("natural", "mixed", "wild", "sequence", "rank")
"""A kind of canasta: of naturals only, of naturals and wild cards, of wild cards only, a sequence."""

MIN_PLAYERS = 2
MAX_PLAYERS = 12
"""The player counts a table may have (``[tables.2]`` to ``[tables.12]``)."""
MAX_PACKS = 24
"""Most packs of 52 in the deck of any table (``packs + packs_per_player * players``)."""
MAX_FILE_BYTES = 1 << 20
"""The largest variant file read (1 MiB; the bundled files are about 10 KB)."""


def _range(low: float, high: float, items: int | None = None, why: str = "") -> dict[str, Any]:
    """The metadata of a numeric setting: its bounds (inclusive), checked when a file is
    loaded and shown in the settings reference; for a list, the bounds of each item and the
    most items it may have; ``why`` the reason for the lower bound, for the message."""
    meta: dict[str, Any] = {"range": (low, high)}
    if items is not None:
        meta["items"] = items
    if why:
        meta["why"] = why
    return meta


@frozen
class Table:
    """How a given number of players sit and are dealt.

    ``sides`` gives each seat's side as a letter, in seat (clockwise) order: ``"ABAB"`` is
    two partnerships sitting opposite, ``"AB"`` two players each for himself.
    """

    sides: str
    """Each seat's side as a letter, in seat (clockwise) order; one letter per player."""
    hand_size: int = field(default=11, metadata=_range(1, 100))
    """Cards dealt to each seat that plays the deal."""
    down_hand_size: int = field(default=0, metadata=_range(0, 100))
    """(new-canasta) Cards dealt face down to each playing seat, taken up when the player has no other
    card left; 0 means none.
    """
    draw: int = field(default=1, metadata=_range(1, 10))
    """Cards a player draws from the stock in his turn."""
    active: int = field(default=0, metadata=_range(0, 12))
    """Seats playing each deal; 0 means all. With fewer, the largest side sits one out, rotating."""


@frozen
class Deck:
    """The cards: ``packs + packs_per_player * players`` packs of 52 plus their jokers; at most
    24 packs at any table."""

    packs: int = field(default=2, metadata=_range(0, 24))
    """Packs of 52 cards, whatever the number of players."""
    packs_per_player: int = field(default=0, metadata=_range(0, 4))
    """Packs added for each player, on top of ``packs``."""
    jokers_per_pack: int = field(default=2, metadata=_range(0, 4))
    """Jokers added with each pack."""


@frozen
class Deal:
    """Who deals first and deal extras."""

    first_dealer: Literal["right_of_first_player", "random"] = "right_of_first_player"
    """Who deals the first hand: the seat to the right of the first player (the last seat, so seat 0
    plays first), or a seat drawn from the game's seed.
    """
    score_keeper: bool = False
    """One seat (the last) keeps score: it never deals and never plays first."""
    precise_draw_bonus: int = field(default=0, metadata=_range(0, 10000))
    """Bonus to a dealer who draws exactly the cards the deal needs (new-canasta)."""
    precise_draw_probability: float = field(default=0.0, metadata=_range(0.0, 1.0))
    """In simulations, the chance each dealer earns ``precise_draw_bonus``."""
    talon: tuple[int, ...] = field(default=(), metadata=_range(0, 50, items=12))
    """Bonus cards drawn from the stock by the player who makes his side's initial meld, after his
    discard: the first entry for the first side to meld, the next for the next (modern-american:
    ``[4, 3]``); none when the meld came with the pile or the stock holds ``turn_card`` cards or
    fewer. Empty: no talon."""
    talon_set_aside: bool = False
    """(with ``talon``) The talon is set aside at the deal in packets of ``talon``'s sizes
    (modern-american A2, the older practice: "bonus piles"): the first side to make its initial
    meld takes the first packet after its discard, the next side the next, however it melded and
    whatever the stock holds (``turn_card`` does not apply). Packets not yet taken are counted as
    the stock's last cards, which nobody draws: the stock is exhausted when only they remain."""
    turn_card: int = field(default=0, metadata=_range(0, 200))
    """(with ``talon``) The stock's marker: once it holds this many cards or fewer, no talon is drawn
    (modern-american: 8)."""
    talon_when: Literal["after_discard", "at_once"] = "after_discard"
    """(with ``talon``) When the talon is drawn: ``after_discard``, after the discard of the turn the
    side made its initial meld (modern-american 2.5); ``at_once``, the moment the initial meld reaches
    its minimum, in that turn and before its discard, so the cards may be melded at once (mexicana
    4.2: the opener "immediately" draws thirteen). A short stock gives what it holds."""
    talon_after_pile: bool = False
    """(with ``talon``) An initial meld made by taking the pile also draws the talon (mexicana A5);
    false: only an initial meld from the hand does (modern-american)."""
    down_hand_up: Literal["empty_hand", "own_canasta", "side_canasta"] = "empty_hand"
    """(with ``tables.N.down_hand_size``) When a player's down hand comes into his hand:
    ``empty_hand``, when he has no other card left (hand-and-foot, new-canasta); ``own_canasta``, at
    once when he himself completes a canasta, going on with his turn (pennies-from-heaven A2: "the
    player" who completes a canasta takes up his packet), or earlier if his hand is empty;
    ``side_canasta``, at once for every player of the side when the side completes its first
    canasta (pennies-from-heaven A2's other reading), or earlier if his hand is empty."""


@frozen
class Upcard:
    """The first card turned from the stock to start the pile."""

    turned: bool = True
    """A card is turned from the stock to start the pile; false: the pile starts empty
    (modern-american)."""
    cover: tuple[WildClass, ...] = ("red_three", "wild")
    """Upcards of these classes are covered by another card from the stock."""
    repeat: bool = True
    """Keep covering until an uncovered class shows; otherwise cover once only."""
    freezes: tuple[WildClass, ...] = ("red_three", "wild")
    """Upcards of these classes freeze the pile."""
    buried: Literal["none", "rank_number", "point_value"] = "none"
    """The starting pile is a packet: after the upcard is turned, as many cards as its number
    (``rank_number``: four to ten their number, jack 11, queen 12, king 13, ace 14) or its point
    value (``point_value``, ``scoring.card_values``) are counted off the stock face down, and the
    upcard is put face up on them (Italian 2.3: Rummy-Games "Italian Canasta", rank number;
    HowStuffWorks "Italian Canasta", point value; digest A2). A wild card or a three turned up goes
    to the bottom of the stock and the next card is turned (A2, after solitariocarte.com). The
    buried cards are part of the pile: counted in its size and taken with it, never seen by
    anyone until a player takes them into his hand (not even where ``pile.examine`` lets the
    pile be looked through). With fewer cards in the stock, all of them. ``none``: no packet."""


@frozen
class RedThrees:
    """Red threes: bonus cards faced and replaced, or (new-canasta) kept in hand."""

    handling: Literal["bonus", "keep"] = "bonus"
    """``bonus``: red threes are faced, replaced from the stock and scored by ``bonus``; ``keep``
    (new-canasta): they stay in play (see ``in_hand_penalty`` and ``canasta_bonus``).
    """
    dealt: Literal["first_turn", "at_deal"] = "first_turn"
    """When dealt red threes are faced and replaced."""
    bonus: tuple[int, ...] = field(default=(0, 100, 200, 300, 800), metadata=_range(0, 10000, items=100))
    """Bonus by the number a side holds (index = count)."""
    minus_without_meld: bool = True
    """A side with no meld has its red-three bonus deducted instead."""
    minus: tuple[int, ...] = field(default=(), metadata=_range(0, 10000, items=100))
    """Points deducted by count when the side has no meld; empty means the same as ``bonus``."""
    in_hand_penalty: int = field(default=0, metadata=_range(0, 10000))
    """Points lost for each red three caught in hand (``keep``), or (``bonus``) still in a hand or in
    a down hand never picked up when the hand ends (hand-and-foot), instead of counting for the
    side."""
    canasta_bonus: int = field(default=0, metadata=_range(0, 10000))
    """(keep) Value of a natural canasta topped with a red three, instead of the natural bonus."""
    sign_by_canastas: tuple[int, ...] = field(default=(), metadata=_range(-1, 1, items=20))
    """How the red threes count by the side's completed canastas (index = canastas, the last entry
    for more): -1 deducted, 0 nothing, 1 added; e.g. ``[-1, 1]`` (cuban: plus with one canasta).
    Empty: by ``minus_without_meld`` instead."""
    minus_without_canasta_of: RankOrNone = "none"
    """(bonus) The red threes of a side without a canasta of this rank (natural or mixed) count
    minus (pennies-from-heaven 8.2: sevens); ``none``: no such rule."""


@frozen
class Sequences:
    """Sequence melds: natural cards of one suit in consecutive ranks (samba 4.3). A variant with
    sequences deals cards with their suits; every other variant counts cards by rank only."""

    allowed: bool = False
    """Sequences may be melded (samba, bolivia, brazilian)."""
    min_size: int = field(default=3, metadata=_range(3, 11))
    """Fewest cards in a sequence."""
    max_size: int = field(default=7, metadata=_range(3, 11))
    """Most cards in a sequence: a sequence this long is a canasta (a samba) and takes no more
    cards (samba 4.4)."""
    lowest: RankName = "four"
    """The lowest rank a sequence may hold (samba 4.3: four)."""
    highest: RankName = "ace"
    """The highest rank a sequence may hold (samba 4.3: ace, which is never low)."""
    past_max_going_out: bool = False
    """In the turn he goes out, a player may add cards to either end of a sequence of
    ``max_size`` (brazilian 4.2); he must then go out in that turn."""


@frozen
class Melds:
    """What a meld may contain."""

    min_size: int = field(default=3, metadata=_range(3, 20, why="a meld needs at least 3 cards"))
    """Fewest cards in a meld."""
    min_naturals: int = field(default=2, metadata=_range(1, 20))
    """Fewest natural cards in a meld of a natural rank."""
    max_wild: int = field(default=3, metadata=_range(0, 100))
    """Most wild cards in a meld (see also ``wild_ratio`` and ``unlimited_wild_on_canasta``)."""
    wild_ratio: Literal["any", "at_most_naturals", "fewer_than_naturals", "at_most_half_naturals"] = "any"
    """A further limit on a meld's wild cards: ``any`` (none beyond ``max_wild``), ``at_most_naturals``
    (no more wild cards than naturals), ``fewer_than_naturals`` (fewer wild cards than naturals) or
    ``at_most_half_naturals`` (at least twice as many naturals as wild cards: hand-and-foot).
    """
    unlimited_wild_on_canasta: bool = False
    """Any number of wild cards may be added to a completed canasta."""
    canasta_size: int = field(default=7, metadata=_range(3, 30))
    """Cards that make a meld a canasta."""
    canasta_min_naturals: int = field(default=0, metadata=_range(0, 30))
    """Fewest natural cards in a canasta (a meld of wild cards only excepted); 0 adds no condition."""
    canasta_closed: bool = False
    """A canasta is exactly ``canasta_size`` cards and takes no more."""
    past_closed_going_out: bool = False
    """(with ``canasta_closed``) In the turn he goes out, a player may add a card to a closed canasta
    of his side, past ``canasta_size``, as his last play before going out (modern-american A5:
    Wikipedia's "common exception" for a player going out); the meld's limits on wild cards still
    hold. False: never past ``canasta_size``."""
    multiple_per_rank: bool = False
    """A side may hold two melds of one rank."""
    new_after_canasta: bool = False
    """(with ``multiple_per_rank = false`` and ``canasta_closed``) A side may start another meld of a rank
    once its meld of that rank is a closed canasta (hand-and-foot, digest A11)."""
    combine: bool = False
    """A side may combine two of its melds of one rank."""
    wild_melds: bool = False
    """A meld of wild cards only is allowed."""
    wild_meld_max: int = field(default=0, metadata=_range(0, 100))
    """(with ``wild_melds``) Most cards in a meld of wild cards only; 0: no limit of its own (it
    grows like any meld, to a canasta of wild cards)."""
    natural_only: tuple[RankName, ...] = ()
    """Ranks whose melds never hold a wild card (modern-american: sevens)."""
    stay_natural: tuple[RankName, ...] = ()
    """Ranks whose melds laid without a wild card never take one (modern-american: aces; a meld of
    them laid with a wild card is an ordinary meld)."""
    wild_min_naturals: int = field(default=0, metadata=_range(0, 30))
    """After the turn of a side's initial meld, a wild card joins one of its melds only when that
    meld holds at least this many naturals, and a new meld has none (modern-american: 5); 0: no
    such rule."""
    wild_meld_exclusive: bool = False
    """While a side has a meld of wild cards only that is not a canasta, it puts no wild card in
    its other melds (modern-american)."""
    deuce_melds: bool = False
    """Deuces may also be melded as a rank of their own (italian 4.3, digest A6): the deuces are that
    meld's natural cards and jokers its wild cards, under the limits of any meld (``min_naturals``,
    ``max_wild``, ``wild_ratio``); no meld of jokers only. A side holds at most one such meld; it is
    closed at ``canasta_size`` cards, and its canasta is a canasta of wild cards, priced by
    ``scoring.wild_canastas`` and ``scoring.wild_canasta``. It takes the place of ``wild_melds``
    (the two are refused together)."""
    deuce_meld_exclusive: bool = False
    """(with ``deuce_melds``) While the side's meld of deuces is not a canasta, the side uses no deuce
    as a wild card in another meld (italian 4.4; jokers still may: the sources name deuces)."""
    dead_ranks: bool = False
    """A closed canasta makes its rank dead for every side: nobody melds it, adds it or takes the
    pile with it on top (modern-american)."""
    wild_on_canasta: bool = True
    """A wild card may be added to a meld that is already a canasta (within ``max_wild``); false:
    never (samba 4.7, the Official Canasta Laws)."""
    sequences: Sequences = Sequences()
    """Sequence melds (samba 4.3-4.5)."""
    initial_canasta: Literal["always", "after_minimum", "never"] = "always"
    """Whether a meld may reach canasta size in the turn of a side's initial meld: ``always``;
    ``after_minimum``, only once the melds of the turn have met the minimum; ``never``, nowhere
    in that turn."""


@frozen
class BlackThrees:
    """Black threes: melded only when going out."""

    meld: Literal["never", "going_out_turn", "last_meld", "last_cards"] = "going_out_turn"
    """When black threes may be melded: ``never``; ``going_out_turn``, only in the turn the player goes
    out; ``last_meld``, only as his last meld before going out (a discard may follow);
    ``last_cards``, only as the last cards of his hand, the play that goes out (nothing follows).
    """
    min: int = field(default=3, metadata=_range(3, 48, why="a meld needs at least 3 cards"))
    """Fewest black threes in a meld of them."""
    max: int = field(default=4, metadata=_range(3, 48))
    """Most black threes in a meld of them."""
    canasta_bonus: int = field(default=0, metadata=_range(0, 10000))
    """Bonus for a canasta of black threes (where ``min`` reaches canasta size)."""
    faced: bool = False
    """Black threes are bonus cards like red ones: faced when they come into the hand and replaced
    from the stock, counted as set aside and scored by ``set_aside_bonus`` (modern-american)."""
    sign_by_canastas: tuple[int, ...] = field(default=(), metadata=_range(-1, 1, items=20))
    """How the set-aside or faced black threes count by the side's canastas, as
    ``red_threes.sign_by_canastas``; empty: always added."""
    in_hand_penalty: int = field(default=0, metadata=_range(0, 10000))
    """Points lost for each black three still in a hand when the hand ends, instead of its card
    value (modern-american, with ``faced``: 100; bolivia 7.3: 100, while a melded one counts
    its card value, 5)."""
    from_pile: Literal["hand", "set_aside"] = "hand"
    """Where black threes in a taken pile go: into the hand, or ``set_aside`` out of play and scored
    for the taking side by ``set_aside_bonus`` (cuban)."""
    set_aside_bonus: tuple[int, ...] = field(default=(), metadata=_range(0, 10000, items=100))
    """(with ``from_pile = "set_aside"``) Points by the number of black threes a side set aside in the
    hand (index = count, one entry for each count the deck allows)."""


@frozen
class Step:
    """From a cumulative score (inclusive), the initial meld needs ``need`` (and, where ``canasta``
    lists kinds, a canasta of one of them)."""

    from_score: int = field(metadata={"key": "from", **_range(0, 1_000_000)})
    """Written ``from`` in TOML (a Python keyword, so not the attribute name)."""
    need: int = field(metadata=_range(0, 10000))
    """The initial-meld minimum count from that score on."""
    canasta: tuple[CanastaKind, ...] = ()
    """The initial meld must also include a canasta of one of these kinds, checked on the turn's
    melds as a whole when the player finishes melding (brazilian 7.2: from 7,000 any canasta,
    ``["natural", "mixed", "wild", "sequence"]``; from 9,000 a natural canasta "or better",
    ``["natural", "wild", "sequence"]``, digest A4, or ``["natural"]`` as Rummy-Games reads it);
    empty: no canasta is needed."""


@frozen
class InitialMeld:
    """The minimum count of a side's first meld, by its cumulative score."""

    below_zero: int = field(default=15, metadata=_range(0, 10000))
    """The minimum count for a side whose cumulative score is below zero."""
    steps: tuple[Step, ...] = field(default=(Step(0, 50), Step(1500, 90), Step(3000, 120)),
                                    metadata={"items": 20})
    """The minimum count by cumulative score: each step applies from its ``from`` score up to the next
    step's; the first step is from 0.
    """
    by_hand: tuple[int, ...] = field(default=(), metadata=_range(0, 10000, items=100))
    """The minimum count by hand number instead of by score: the first hand's first, the last entry
    for every later hand (hand-and-foot: ``[50, 90, 120, 150]``); empty: by ``below_zero`` and
    ``steps``."""
    canasta_worth: Literal["meld", "canasta"] = "meld"
    """(with a step's ``canasta``) What that step's ``need`` counts: the card values of the whole
    initial meld (``meld``: brazilian 7.2 from 8,000, "a canasta and 200", as Rummy-Games reads it,
    digest A1), or those of the required canasta's own cards (``canasta``, as Bicycle reads it)."""
    no_wild: bool = False
    """No wild card in any meld of the turn of a side's initial meld, nor a meld of deuces
    (``melds.deuce_melds``): the melds, additions and takes of that whole turn are natural
    (italian 4.5, digest A4)."""
    natural_meld_first: bool = False
    """The initial meld includes a meld of three or more naturals without a wild card
    (modern-american 4.9), checked on the turn's melds as a whole when the player finishes
    melding: they may be laid in any order, and a wild card may not join the only such meld."""
    initial_count_includes_pile: Literal["top_card"] = "top_card"
    """Which cards taken from the pile count toward the initial-meld minimum: only the top card."""


@frozen
class DiscardBan:
    """A rank barred from the discard pile until canastas of it are on the table."""

    rank: RankName
    """The rank by name."""
    whose: Literal["each_side", "own_side"] = "each_side"
    """Until every side has a canasta of the rank, or until the player's own side has one."""


@frozen
class RankCount:
    """A number of canastas of a rank."""

    rank: RankName
    """The rank by name."""
    count: int = field(default=1, metadata=_range(1, 10))
    """How many canastas of it."""


@frozen
class Pile:
    """Freezing, blocking and taking the discard pile."""

    frozen_until_initial_meld: bool = True
    """The pile is frozen for a side until it has made its initial meld."""
    freeze_on_discard: tuple[WildClass, ...] = ("wild",)
    """Discards of these classes freeze the pile."""
    blocked_by: tuple[BlockClass, ...] = ("wild", "black_three")
    """The pile cannot be taken while a card of these classes, or of these natural ranks (mexicana
    3.3: ``"seven"``), is on top (as the source states it).

    A wild card or a three on top can never be taken in any case: no take way can make the
    meld of natural cards that taking the pile requires, so the engine refuses it whatever this
    lists; the setting records the source's rule and is shown in the docs and observations."""
    blocked_scope: Literal["top", "upcard"] = "top"
    """When a natural rank of ``blocked_by`` blocks the pile: ``top``, whenever such a card is on top;
    ``upcard``, only while the card turned to start the pile is still on top, that is until the
    first turn of the hand ends (mexicana A3's other reading: "an upcard Seven cannot be taken")."""
    take_unfrozen: tuple[TakeWay, ...] = ("natural_pair", "natural_and_wild", "add_to_meld")
    """Ways to take an unfrozen pile: ``natural_pair`` (with two natural cards of the top card's rank
    from the hand), ``natural_and_wild`` (with one natural card and a wild card), ``add_to_meld`` (the
    top card onto one of the side's melds), ``wild_pair`` (a wild card on top, with two of the same
    wild card, into a meld of wild cards only: hand-and-foot 3.3; needs ``melds.wild_melds``).
    """
    take_frozen: tuple[TakeWay, ...] = ("natural_pair",)
    """Ways to take a frozen pile (each also in ``take_unfrozen``)."""
    pair_melded: bool = True
    """The cards that entitle the take are melded with the top card (else only shown)."""
    take_top: int = field(default=0, metadata=_range(0, 1000))
    """A take brings only this many cards of the pile, the top card included, and the rest of the
    pile stays (hand-and-foot: 7); 0: the whole pile."""
    one_card_hand_one_card_pile: Literal["allowed", "unless_forced", "forbidden"] = "allowed"
    """Whether a player holding one card may take a pile of one card: ``allowed``; ``unless_forced``,
    only once the stock is exhausted; ``forbidden``.
    """
    consecutive_takes: bool = True
    """A player may take the pile in two turns running."""
    failed_initial_take: Literal["forbidden", "undo"] = "forbidden"
    """A take for the initial meld that cannot reach the minimum: never offered, or undone."""
    no_discard_on_empty: tuple[DiscardClass, ...] = ()
    """Cards of these classes may not be discarded onto an empty pile (modern-american: sevens, aces,
    wild and dead cards), unless every card the player holds is one of them."""
    no_discard_first_turn: tuple[WildClass, ...] = ()
    """Cards of these classes may not be discarded in a player's first turn of the hand (cuban: black
    threes), unless every card he holds is one of them."""
    no_discard_until_canasta: tuple[DiscardBan, ...] = field(default=(), metadata={"items": 11})
    """Ranks that may not be discarded until a canasta of that rank (natural or mixed) is on the
    table: ``{ rank = "seven", whose = "each_side" }``, until every side has one
    (pennies-from-heaven 3.4), or ``whose = "own_side"``, until the player's side has one; unless
    every card the player holds is of a barred rank (a turn can always end with a discard)."""
    open_from_hand: bool = False
    """A side makes its initial meld from its hand alone: it may take the pile only once it has
    melded (brazilian 3.1)."""
    onto_canasta: bool = True
    """(``add_to_meld``) The top card may go onto a meld that is already a canasta; false: only onto
    a meld that is not yet one (samba 3.5, 3.6)."""
    examine: Literal["never", "first_turn", "always"] = "never"
    """When a player may look through the whole discard pile (his observation then lists it):
    ``never`` (its top card only, and what he remembers of the discards), ``first_turn`` (during
    his first turn of the hand, before discarding), ``always``."""


@frozen
class Concealed:
    """Going out concealed: a whole hand melded in one turn."""

    basis: Literal["player", "side"] = "player"
    """No earlier meld by this player this hand, or none by the side."""
    no_partner_melds: bool = True
    """He may not add to his partner's melds in that turn."""
    own_canasta: bool = True
    """He must meld a complete canasta himself."""
    minimum: Literal["waived", "waived_if_stock", "required"] = "waived"
    """Whether the initial-meld minimum applies to a concealed going out."""
    bonus: int = field(default=100, metadata=_range(0, 10000))
    """Extra to the going-out bonus."""


@frozen
class CanastaKinds:
    """Canastas a side needs of each kind (0: none of that kind needed)."""

    natural: int = field(default=0, metadata=_range(0, 10))
    """Natural canastas (no wild card)."""
    mixed: int = field(default=0, metadata=_range(0, 10))
    """Mixed canastas (natural and wild cards)."""
    wild: int = field(default=0, metadata=_range(0, 10))
    """Canastas of wild cards only."""
    sequence: int = field(default=0, metadata=_range(0, 10))
    """Canastas that are sequences (``melds.sequences``; bolivia 6.1: one escalera)."""


@frozen
class GoingOut:
    """Going out and asking permission."""

    canastas: int = field(default=1, metadata=_range(0, 10))
    """Canastas a side needs before a player may go out."""
    canastas_by_kind: CanastaKinds = CanastaKinds()
    """Canastas of each kind a side needs besides (hand-and-foot: two natural, two mixed, one wild)."""
    canastas_by_rank: tuple[RankCount, ...] = field(default=(), metadata={"items": 11})
    """Canastas of these ranks (natural or mixed) a side needs besides, e.g. ``{ rank = "seven",
    count = 1 }`` (pennies-from-heaven 7.1: a canasta of sevens)."""
    counted_kinds: tuple[CountedKind, ...] = field(default=ALL_COUNTED, metadata={"items": 5})
    """The kinds of canasta that count toward ``canastas`` (italian 6.1: a canasta of wild cards
    does not, ``["natural", "mixed", "sequence", "rank"]``); default every kind."""
    by_discard: bool = False
    """A player goes out only by discarding his last card, never by melding it (modern-american)."""
    no_final_discard: tuple[RankName, ...] = field(default=(), metadata={"items": 11})
    """Ranks that may not be the discard with which a player goes out (pennies-from-heaven 3.5:
    sevens); a player whose only way out is such a discard may not go out that way."""
    no_unfinished: tuple[MeldName, ...] = ()
    """A side may not go out while it has a meld of these ranks without wild cards (or, ``wild``, of
    wild cards only) that is not a canasta (modern-american: sevens, aces, wild)."""
    red_threes_per_canasta: int = field(default=0, metadata=_range(0, 10))
    """A side may go out only with at least this many faced red threes for each canasta it has
    (counting every canasta, those completed in the going-out turn too; mexicana 6.2: 1); 0: no
    such condition."""
    partner_down_hand: bool = False
    """A player may go out only when every partner has picked up his down hand (hand-and-foot: the
    partner is already playing from his foot)."""
    bonus: int = field(default=100, metadata=_range(0, 10000))
    """Bonus for going out."""
    permission: bool = True
    """A player may ask a partner "may I go out?"; the answer binds."""
    permission_required: bool = False
    """(with ``permission``) A player goes out only after asking and hearing yes (brazilian 6.1)."""
    ask_after_take: bool = False
    """A player may also ask permission after taking the pile, not only before drawing or after drawing
    from the stock.
    """
    concealed: Concealed = Concealed()


@frozen
class StockExhausted:
    """What happens when the stock runs out."""

    mode: Literal["forcing", "last_round", "ends"] = "forcing"
    """``forcing``: play goes on while each player in turn can take the discard pile, and ends when he
    cannot or does not; ``last_round``: each playing seat has one last turn, with no draw, then the
    hand ends; ``ends``: the hand ends when the player in turn finds the stock empty, nobody taking
    the pile or scoring for going out (hand-and-foot 7.4; the player who drew the last card plays
    his turn out).
    """
    must_take: Literal["add_to_meld", "any_legal", "never"] = "add_to_meld"
    """With ``forcing``, when the player in turn must take the pile: ``add_to_meld``, when he can add the
    top card to one of his side's melds; ``any_legal``, whenever he can take it; ``never``.
    """
    last_red_three: Literal["meld_then_end", "end"] = "meld_then_end"
    """When the last card of the stock is a red three: ``meld_then_end``, the player may meld but not
    discard, then the hand ends; ``end``, the hand ends at once.
    """
    last_three_minus: int = field(default=0, metadata=_range(0, 10000))
    """(with ``last_red_three = "end"``) A three drawn as the stock's last card counts this many points
    minus for the drawer's side instead of as a bonus card (modern-american: 5); 0: as usual."""


@frozen
class CardValues:
    """Point value of each card kind, melded (plus) or left in hand (minus)."""

    joker: int = field(default=50, metadata=_range(0, 1000))
    """Points for a joker."""
    two: int = field(default=20, metadata=_range(0, 1000))
    """Points for a two."""
    ace: int = field(default=20, metadata=_range(0, 1000))
    """Points for an ace."""
    king: int = field(default=10, metadata=_range(0, 1000))
    """Points for a king."""
    queen: int = field(default=10, metadata=_range(0, 1000))
    """Points for a queen."""
    jack: int = field(default=10, metadata=_range(0, 1000))
    """Points for a jack."""
    ten: int = field(default=10, metadata=_range(0, 1000))
    """Points for a ten."""
    nine: int = field(default=10, metadata=_range(0, 1000))
    """Points for a nine."""
    eight: int = field(default=10, metadata=_range(0, 1000))
    """Points for an eight."""
    seven: int = field(default=5, metadata=_range(0, 1000))
    """Points for a seven."""
    six: int = field(default=5, metadata=_range(0, 1000))
    """Points for a six."""
    five: int = field(default=5, metadata=_range(0, 1000))
    """Points for a five."""
    four: int = field(default=5, metadata=_range(0, 1000))
    """Points for a four."""
    black_three: int = field(default=5, metadata=_range(0, 1000))
    """Points for a black three."""


@frozen
class WildCanasta:
    """A canasta of wild cards only, by its cards, and its bonus."""

    jokers: int = field(default=0, metadata=_range(0, 100))
    """Jokers in the canasta."""
    twos: int = field(default=0, metadata=_range(0, 100))
    """Deuces in the canasta."""
    bonus: int = field(default=0, metadata=_range(0, 10000))
    """Its bonus, instead of ``scoring.wild_canasta``."""


@frozen
class RankPoints:
    """Points for a rank (or ``wild``)."""

    rank: MeldName
    """The rank by name, or ``wild``."""
    points: int = field(metadata=_range(0, 100000))
    """The points."""


@frozen
class HeldPenalty:
    """Points lost for holding many cards of a rank when the hand ends."""

    rank: RankName
    """The rank by name."""
    count: int = field(metadata=_range(1, 100))
    """From this many cards held (in the side's hands)."""
    points: int = field(metadata=_range(0, 100000))
    """Points lost, once per player holding them."""


@frozen
class ShortSequence:
    """A penalty for short sequences (``melds.sequences``)."""

    below: int = field(default=0, metadata=_range(0, 11))
    """Sequences with fewer cards than this are penalised; 0: none."""
    points: int = field(default=0, metadata=_range(0, 100000))
    """Points lost per such sequence."""


@frozen
class CanastaSet:
    """(``scoring.canasta_sets``) A bonus for a side's collection of canastas: scored when the
    side has at least each count given (0: any number)."""

    natural: int = field(default=0, metadata=_range(0, 100))
    """Natural canastas the side needs at least (natural canastas of any rank)."""
    mixed: int = field(default=0, metadata=_range(0, 100))
    """Mixed canastas the side needs at least."""
    wild: int = field(default=0, metadata=_range(0, 100))
    """Canastas of wild cards only the side needs at least."""
    any: int = field(default=0, metadata=_range(0, 100))
    """Canastas of every kind together the side needs at least."""
    bonus: int = field(default=0, metadata=_range(0, 100000))
    """The bonus."""


@frozen
class Scoring:
    """Bonuses and card values."""

    card_values: CardValues = CardValues()
    natural_canasta: int = field(default=500, metadata=_range(0, 10000))
    """Bonus for a canasta without wild cards."""
    mixed_canasta: int = field(default=300, metadata=_range(0, 10000))
    """Bonus for a canasta with natural and wild cards."""
    wild_canasta: int = field(default=300, metadata=_range(0, 10000))
    """Bonus for a canasta of wild cards only (see ``melds.wild_melds``), unless ``wild_canastas``
    lists its cards."""
    natural_canastas: tuple[RankPoints, ...] = field(default=(), metadata={"items": 12})
    """Natural canastas of these ranks score these points instead of ``natural_canasta``
    (modern-american: sevens and aces 2,500)."""
    rank_canastas: tuple[RankPoints, ...] = field(default=(), metadata={"items": 12})
    """Canastas of these natural ranks, natural or mixed, score these points instead of
    ``natural_canasta`` or ``mixed_canasta`` (mexicana: sevens 1,000), and are a kind of canasta
    of their own (``rank``): they never count as the natural or mixed canastas
    ``going_out.canastas_by_kind`` asks for, though they count toward ``going_out.canastas`` and
    ``red_threes.sign_by_canastas``. A rank may not be in ``natural_canastas`` too."""
    unfinished_melds: tuple[RankPoints, ...] = field(default=(), metadata={"items": 12})
    """Points lost for each meld of these ranks without wild cards (or of wild cards only) that is
    not a canasta when the hand ends (modern-american: sevens, aces 2,500; wild 2,000)."""
    held: tuple[HeldPenalty, ...] = field(default=(), metadata={"items": 12})
    """Points lost by a player holding many cards of a rank at the end (modern-american: three or
    more aces, or sevens, 1,500)."""
    no_canasta_all_minus: bool = False
    """A side without a canasta counts its melded cards minus too (modern-american)."""
    sequence_canasta: int = field(default=1500, metadata=_range(0, 10000))
    """Bonus for a canasta that is a sequence (``melds.sequences``; samba 5.1: 1,500)."""
    short_sequence: ShortSequence = ShortSequence()
    """Points lost for each sequence shorter than ``below`` cards on the table when the hand ends
    (brazilian 7.3: under five cards, 1,000)."""
    wild_canastas: tuple[WildCanasta, ...] = field(default=(), metadata={"items": 20})
    """Bonuses of wild canastas by their cards, e.g. ``{ twos = 7, bonus = 4000 }``: the first entry
    whose jokers and deuces match exactly; any other wild canasta scores ``wild_canasta``."""
    wild_canasta_going_out_only: bool = False
    """The bonuses of canastas of wild cards only (``wild_canasta``, ``wild_canastas``) are scored
    only by the side that goes out; another side scores such a canasta's cards at their values,
    with no bonus, and still counts it as a canasta for every other rule (Italian 5.3: Parlett,
    The Penguin Book of Card Games, "Canasta family", the deuce canastas "count only for the
    side that goes out"). False: every side scores them."""
    canasta_sets: tuple[CanastaSet, ...] = field(default=(), metadata={"items": 20})
    """Bonuses for sets of canastas, each line scored by every side that has at least its counts,
    every line met adding up (Italian 5.4, Rummy-Games "Italian Canasta" and HowStuffWorks
    "Italian Canasta": ``[{ natural = 5, bonus = 2000 }, { natural = 4, mixed = 1, bonus = 1000 },
    { any = 10, bonus = 2000 }]``; its digest A8: whether or not the side went out). Empty: none."""


@frozen
class Game:
    """When the game ends."""

    target: int = field(default=5000, metadata=_range(0, 1000000))
    """The game ends after the hand in which a side's cumulative score reaches this; the highest total
    wins. 0: no target (with ``hands``).
    """
    hands: int = field(default=0, metadata=_range(0, 1000))
    """The game is this many hands (deals), the highest total winning (hand-and-foot: 4); 0: no such
    limit, the game is played to ``target``."""


@frozen
class Penalties:
    """Optional point penalties for irregularities, for a table's score sheet.

    The engine never lets these irregularities happen; a table app records them with
    :class:`ScoreSheet`. 0 means the variant states no such penalty.
    """

    irregular_draw: int = field(default=0, metadata=_range(0, 10000))
    """For an irregular draw."""
    draw_out_of_turn: int = field(default=0, metadata=_range(0, 10000))
    """For drawing out of turn."""
    draw_out_of_turn_kept: int = field(default=0, metadata=_range(0, 10000))
    """Added to ``draw_out_of_turn`` when the offender keeps the card in his hand."""
    cannot_go_out_after_yes: int = field(default=0, metadata=_range(0, 10000))
    """For being unable to go out after asking permission and receiving the answer yes."""
    meld_in_opponents_turn: int = field(default=0, metadata=_range(0, 10000))
    """For melding in an opponent's turn."""
    meld_in_partners_turn: int = field(default=0, metadata=_range(0, 10000))
    """For melding in the partner's turn."""
    illegal_pile_take: int = field(default=0, metadata=_range(0, 10000))
    """For taking the discard pile into the hand illegally."""
    undeclared_red_three: int = field(default=0, metadata=_range(0, 10000))
    """For a red three dealt or drawn and not declared before the play of the deal ends (to the side)."""


@frozen
class Settlement:
    """How a finished game is settled between sides."""

    round_to: int = field(default=0, metadata=_range(0, 10000))
    """Round each final total to the nearest multiple (half rounds up); 0 settles exactly."""


class _Tables(dict[str, Any]):
    """(issue 23) ``Variant.tables``: keyed by the player count as a string, as in the file
    (``[tables.4]``), listed in numeric order, and also found by the count as an integer
    (``tables[4]``, ``4 in tables``), which is the form to use: the keys will become integers."""

    def __getitem__(self, key: Any) -> Any:
        return dict.__getitem__(self, str(key) if type(key) is int else key)

    def __contains__(self, key: object) -> bool:
        return dict.__contains__(self, str(key) if type(key) is int else key)

    def get(self, key: Any, default: Any = None) -> Any:
        return dict.get(self, str(key) if type(key) is int else key, default)


def _tables(value: Any) -> Any:
    """The tables in numeric order of their player counts, findable by an integer count."""
    if not isinstance(value, dict):
        return value  # (check_variant reports it)
    return _Tables(sorted(value.items(), key=lambda kv: (not is_player_count(kv[0]),
                                                          int(kv[0]) if is_player_count(kv[0]) else 0)))


@frozen
class Variant:
    """A complete, resolved set of rules."""

    name: str
    """The variant's name; a file without one is named by its file name."""
    description: str = ""
    """What the variant is, in a line (free text)."""
    source: str = ""
    """Where its rules come from: ``"Title — URL"``, several separated by `` ; `` (the docs link
    each title to its address)."""
    tables: dict[str, Table] = field(factory=lambda: {"4": Table(sides="ABAB")}, hash=False, converter=_tables)
    """The table for each number of players allowed, keyed by that number (``[tables.4]``),
    in numeric order. Find one by the number of players as an integer, ``tables[4]`` (the keys
    are still the strings of the file, ``"4"``: they will become integers, so use integers,
    or :attr:`player_counts`)."""
    default_players: int = field(default=4, metadata=_range(2, 12))
    """The number of players of a game created without one; must have a table."""
    deck: Deck = Deck()
    """How many packs and jokers the deck has."""
    deal: Deal = Deal()
    """Who deals first, and new-canasta's score keeper and precise dealer draw."""
    upcard: Upcard = Upcard()
    """The first card turned to start the pile."""
    red_threes: RedThrees = RedThrees()
    """Red threes: bonus cards or (new-canasta) kept in hand, and how they score."""
    melds: Melds = Melds()
    """What a meld may contain, canastas, and melds of wild cards only."""
    black_threes: BlackThrees = BlackThrees()
    """When black threes may be melded, and (cuban) black threes set aside from taken piles."""
    initial_meld: InitialMeld = InitialMeld()
    """The minimum count of a side's first meld."""
    pile: Pile = Pile()
    """Freezing, blocking and taking the discard pile; discards it bars."""
    going_out: GoingOut = GoingOut()
    """Going out, asking permission, and going out concealed."""
    stock_exhausted: StockExhausted = StockExhausted()
    """What happens when the stock runs out."""
    scoring: Scoring = Scoring()
    """Canasta bonuses and card values."""
    game: Game = Game()
    """When the game ends."""
    penalties: Penalties = Penalties()
    """Optional penalties for irregularities, for a table's score sheet."""
    settlement: Settlement = Settlement()
    """How a finished game is settled."""

    @property
    def player_counts(self) -> tuple[int, ...]:
        """The numbers of players the variant has a table for, smallest first (``(2, 3, ...,
        10)``, not the string keys' order)."""
        return tuple(sorted(int(k) for k in self.tables if is_player_count(k)))

    def table(self, players: int) -> Table:
        """The table for ``players`` players, or a :class:`VariantError` if not allowed."""
        t = self.tables.get(str(players))
        if t is None:
            allowed = ", ".join(sorted((k for k in self.tables if is_player_count(k)), key=int))
            raise VariantError(
                [Problem(self.name, "tables", f"{players} players is not allowed; allowed: {allowed}")]
            )
        return t

    def initial_need(self, score: int, hand: int = 0) -> int:
        """The initial-meld minimum for a side with cumulative ``score``, in hand number ``hand``
        (counted from 0; it matters only where the minimum goes by hand, ``initial_meld.by_hand``)."""
        by = self.initial_meld.by_hand
        if by:
            return by[hand] if hand < len(by) else by[-1]
        if score < 0:
            return self.initial_meld.below_zero
        need = 0
        for step in self.initial_meld.steps:
            if score >= step.from_score:
                # a step whose need is the worth of its canasta asks no count of the whole meld
                need = 0 if step.canasta and self.initial_meld.canasta_worth == "canasta" else step.need
        return need


@frozen
class Problem:
    """One problem in a variant file: where, which key, what is wrong and what is allowed."""

    file: str
    """The file at fault (a path as given, or a bundled variant's file name)."""
    key: str
    """The dotted key path of the setting (``melds.max_wild``), or ``(file)``, ``(syntax)``,
    ``(name)`` or ``(root)`` for the file as a whole."""
    message: str
    """What is wrong and what would be allowed."""

    def __str__(self) -> str:
        if self.key.startswith("("):  # the file as a whole: no key to name (``nope.toml: no such file``)
            return f"{self.file}: {self.message}"
        return f"{self.file}: {self.key}: {self.message}"


class VariantError(ValueError):
    """A variant could not be loaded; ``problems`` lists every problem found."""

    problems: tuple[Problem, ...]
    """Every problem found, in the order of the file."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(str(p) for p in problems))


# ---------------------------------------------------------------- loading
#
# A file is first checked against the schema as raw TOML data (every problem collected with
# its dotted key path), then merged onto the variant it extends, then structured with cattrs
# (which cannot fail by then) and finally checked for contradictions by check_variant.

# A BaseConverter structures by introspection, without generating code: the raw check above
# has already reported every problem (unknown keys included) by key path, and the first load
# of a variant is several milliseconds faster than with a code-generating Converter.
_converter = cattrs.BaseConverter()
_converter.register_structure_hook(Step, lambda d, _: Step(d["from"], d["need"], tuple(d.get("canasta", ()))))
_converter.register_unstructure_hook(Step, lambda s: {"from": s.from_score, "need": s.need,
                                                      **({"canasta": list(s.canasta)} if s.canasta else {})})

_SCHEMA = (Variant, Table, Deck, Deal, Upcard, RedThrees, Melds, Sequences, BlackThrees, Step, InitialMeld,
           DiscardBan, RankCount, Pile, Concealed, CanastaKinds, GoingOut, StockExhausted, CardValues, WildCanasta,
           RankPoints, HeldPenalty, ShortSequence, CanastaSet, Scoring, Game, Penalties,
           Settlement)
for _cls in _SCHEMA:
    attrs.resolve_types(_cls, globals(), locals())


def _key(a: attrs.Attribute[Any]) -> str:
    """The TOML key of an attribute."""
    return str(a.metadata.get("key", a.name))


def _keys(cls: type) -> list[str]:
    return [_key(a) for a in attrs.fields(cls)]


def _describe(tp: Any) -> str:
    """A type as a user reads it."""
    origin, args = get_origin(tp), get_args(tp)
    if attrs.has(tp):
        if tp is Step:
            return "a table like {from = 0, need = 50} (with, optionally, canasta = [\"natural\"])"
        return f"a table with keys {', '.join(_keys(tp))}"
    if origin is Literal:
        return "one of " + ", ".join(repr(a) for a in args)
    if origin is tuple:
        return f"a list of {_describe(args[0]).removeprefix('a ').removeprefix('an ')}s" \
            if get_origin(args[0]) is not Literal and not attrs.has(args[0]) \
            else f"a list, each item {_describe(args[0])}"
    if origin is dict:
        return "a table keyed by player count, such as [tables.4]"
    return {bool: "true or false", int: "an integer", float: "a number", str: "a string"}.get(tp, str(tp))


def _show(value: Any) -> str:
    """A TOML value as the user wrote it, with its TOML type."""
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, int):
        return f"the integer {_number(value)}"
    if isinstance(value, float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the string {value!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    return type(value).__name__


def _number(value: int | float) -> str:
    """A number for a message; an integer of more than 18 digits is shortened to its first
    digits and its length (a file may hold thousands of digits)."""
    if isinstance(value, int) and not -10 ** 18 < value < 10 ** 18:
        sign = "-" if value < 0 else ""
        try:
            text = str(abs(value))
        except ValueError:  # more digits than Python converts (sys.get_int_max_str_digits())
            return f"{sign}an integer of about {int(value.bit_length() * 0.30103) + 1} digits"
        return f"{sign}{text[:6]}... ({len(text)} digits)"
    return str(value)


def _bounds_text(meta: Any, value: float | None = None) -> str:
    """The bounds of a numeric setting as a message writes them (with the reason for the lower
    bound, where there is one and ``value`` is below it)."""
    low, high = meta["range"]
    if value is not None and value < low and meta.get("why"):
        return f"{meta['why']} ({_number(low)} to {_number(high)})"
    return f"must be {_number(low)} to {_number(high)}"


def is_player_count(key: str) -> bool:
    """Whether ``key`` names a table: a player count from 2 to 12 written in plain ASCII
    digits, without a leading zero (``"4"``; not ``"04"``, ``"٤"``, ``"４"`` or ``"²"``)."""
    return (isinstance(key, str) and key.isascii() and key.isdigit() and not key.startswith("0")
            and len(key) <= 3 and MIN_PLAYERS <= int(key) <= MAX_PLAYERS)


def _table_key_problem(key: str) -> str:
    return (f"the key {key!r} is not a player count: write the number of players, {MIN_PLAYERS} "
            f"to {MAX_PLAYERS}, in plain digits without a leading zero, such as [tables.4]")


def _check_value(value: Any, tp: Any, path: str, out: list[tuple[str, str]], partial: bool,
                 meta: Any = None) -> None:
    """Append ``(key.path, message)`` for every way ``value`` does not fit type ``tp`` (and
    the bounds in ``meta``, the field's metadata, for a number or a list of numbers)."""
    origin, args = get_origin(tp), get_args(tp)
    meta = meta or {}
    if attrs.has(tp):
        if not isinstance(value, dict):
            out.append((path, f"expected {_describe(tp)}, got {_show(value)}"))
        else:
            _check_table(value, tp, path, out, partial)
    elif origin is Literal:
        if not isinstance(value, str) or value not in args:
            allowed = ", ".join(repr(a) for a in args)
            hint = _closest(value, [str(a) for a in args]) if isinstance(value, str) else ""
            out.append((path, f"{_show(value)} is not allowed{hint}; allowed: {allowed}"))
    elif origin is tuple:
        if not isinstance(value, list):
            out.append((path, f"expected {_describe(tp)}, got {_show(value)}"))
        elif "items" in meta and len(value) > meta["items"]:
            out.append((path, f"lists {len(value)} items; at most {meta['items']} are allowed"))
        else:
            item_meta = {"range": meta["range"]} if "range" in meta else None
            for i, item in enumerate(value):
                _check_value(item, args[0], f"{path}.{i}", out, partial=False, meta=item_meta)
    elif origin is dict:
        if not isinstance(value, dict):
            out.append((path, f"expected {_describe(tp)}, got {_show(value)}"))
        else:
            for k, item in value.items():
                if not is_player_count(k):
                    out.append((f"{path}.{k}", _table_key_problem(k)))
                else:
                    _check_value(item, args[1], f"{path}.{k}", out, partial)
    elif tp is bool:
        if not isinstance(value, bool):
            out.append((path, f"expected true or false, got {_show(value)}"))
    elif tp is int or tp is float:
        if isinstance(value, bool) or not isinstance(value, int if tp is int else (int, float)):
            out.append((path, f"expected {'an integer' if tp is int else 'a number'}, got {_show(value)}"))
        elif "range" in meta and not meta["range"][0] <= value <= meta["range"][1]:
            out.append((path, f"is {_number(value)}; {_bounds_text(meta, value)}"))
    elif tp is str:
        if not isinstance(value, str):
            out.append((path, f"expected a string, got {_show(value)}"))


def _check_table(data: dict[str, Any], cls: type, path: str, out: list[tuple[str, str]], partial: bool) -> None:
    fields = {_key(a): a for a in attrs.fields(cls)}
    where = (lambda k: f"{path}.{k}") if path else (lambda k: k)
    for k, value in data.items():
        a = fields.get(k)
        if a is None:
            names = list(fields) if path else ["extends", *fields]  # (a file may name the variant it extends)
            # a key that is exactly another table's name (scoring.going_out) points there first,
            # before a key of this table that merely looks like it (wild_canasta_going_out_only)
            other = _elsewhere(k, path)
            near = other if other.startswith(" (did you mean a key of") else (_closest(k, names) or other)
            out.append((where(k), f"unknown key{near}; "
                        f"allowed {'here' if path else 'at the top level'}: {', '.join(names)}"))
        else:
            _check_value(value, a.type, where(k), out, partial, a.metadata)
    # A partial table (a file that extends another) may leave out anything its parent gives;
    # a new entry of a keyed table (tables.N) may not, since nothing is merged into it.
    if not partial:
        for k, a in fields.items():
            if a.default is attrs.NOTHING and k not in data:
                out.append((where(k), f"required key is missing: expected {_describe(a.type)}"))


def _variants_dir() -> Path:
    here = Path(__file__).resolve().parent
    if (here / "_variants").is_dir():  # an installed package
        return here / "_variants"
    if (here.parent / "variants").is_dir() and (here.parent / "pyproject.toml").is_file():
        return here.parent / "variants"  # the source tree
    bundled = importlib.resources.files("canasta") / "_variants"  # pragma: no cover - not on disk
    return Path(str(bundled))  # pragma: no cover


_NAMES: list[tuple[str, ...]] = []


def variant_names() -> tuple[str, ...]:
    """The names of the bundled variants, sorted."""
    if not _NAMES:
        _NAMES.append(tuple(sorted(p.stem for p in _variants_dir().glob("*.toml"))))
    return _NAMES[0]


_BUNDLED: dict[str, Variant] = {}


def _bundled(name: str) -> Variant:
    """The bundled variant ``name`` (one of :func:`variant_names`), read and checked once per
    process: the bundled files do not change and a :class:`Variant` is immutable, so every
    load of it by name shares one object (a game started by name costs no reading). Raises
    :class:`VariantError` for a name that is not bundled."""
    hit = _BUNDLED.get(name)
    if hit is not None:
        return hit
    if name not in variant_names():
        raise VariantError([Problem(_short(name), "(name)", _unknown_name(name))])
    path, label = _variants_dir() / f"{name}.toml", f"{name}.toml"
    problems: list[Problem] = []
    raw = _read_chain(path, label, (), problems, partial=True)
    if raw is None or any(pr.key in ("extends", "(syntax)", "(file)") for pr in problems):
        raise VariantError(problems)
    raw.setdefault("name", name)
    variant = _BUNDLED[name] = _build(raw, label, problems)
    return variant


def _closest(word: str, options: list[str] | tuple[str, ...]) -> str:
    found = difflib.get_close_matches(word, list(options), n=1, cutoff=0.5)
    return f" (did you mean {found[0]!r}?)" if found else ""


def _schema_tables(cls: Optional[type] = None, path: str = "") -> list[tuple[str, list[str]]]:
    """Every table of the schema: (its dotted path, its keys), the top level first."""
    cls = cls or Variant
    out = [(path, _keys(cls))]
    for a in attrs.fields(cls):
        if isinstance(a.type, type) and attrs.has(a.type):
            out += _schema_tables(a.type, f"{path}.{_key(a)}" if path else _key(a))
    return out


def _elsewhere(word: str, path: str) -> str:
    """A pointer to the table where an unknown key ``word`` (of the table ``path``) belongs, when
    it names a setting of another table (``scoring.going_out`` for the ``[going_out]`` table's
    ``bonus``): " (did you mean [going_out]: canastas, bonus, ...?)", or ''."""
    tables = _schema_tables()
    for table, keys in tables:  # a table of that name elsewhere: its keys
        if table and table != path and table.rsplit(".", 1)[-1] == word:
            return f" (did you mean a key of the [{table}] table: {', '.join(keys)}?)"
    homes = [f"[{table}]" if table else "the top level" for table, keys in tables if table != path and word in keys]
    if homes:  # that very key in other tables
        return f" (did you mean {word!r} in {' or '.join(homes)}?)"
    return ""


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """``over`` on top of ``base``: tables merge key by key (also ``tables.N``), lists replace."""
    out = dict(base)
    for k, v in over.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = _merge(out[k], v)
        else:
            out[k] = v
    return out


def _looks_like_path(ref: str) -> bool:
    return ref.endswith(".toml") or "/" in ref or "\\" in ref


def _unknown_name(name: str) -> str:
    names = variant_names()
    return f"unknown variant {name!r}{_closest(name, names)}; bundled variants: {', '.join(names)}"


def _read_toml(path: Path, label: str, problems: list[Problem]) -> dict[str, Any] | None:
    """The TOML data of one file, or None after adding the reason it cannot be read to
    ``problems``: a file that cannot be opened, too large, not UTF-8 text, not TOML, or nested
    too deeply to parse."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as e:
        problems.append(Problem(label, "(file)", f"cannot read: {e.strerror or e}"))
        return None
    if len(data) > MAX_FILE_BYTES:
        problems.append(Problem(label, "(file)", f"larger than {MAX_FILE_BYTES // 1024} KiB: a variant file "
                                "gives a few dozen settings (the bundled files are about 10 KB)"))
        return None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        problems.append(Problem(label, "(file)", f"not UTF-8 text: byte 0x{data[e.start]:02x} at line {line} "
                                f"(byte {e.start}); TOML files are UTF-8: save the file as UTF-8"))
        return None
    try:
        raw: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        problems.append(Problem(label, "(syntax)", f"not valid TOML: {e}"))
        return None
    except RecursionError:
        problems.append(Problem(label, "(syntax)", "lists or inline tables are nested too deeply to read; "
                                "no setting is nested more than two levels"))
        return None
    except ValueError as e:  # an integer of more than 4,300 digits (sys.int_info.str_digits_check_threshold)
        problems.append(Problem(label, "(syntax)", f"a value cannot be read: {e}"))
        return None
    return raw


def _read_chain(path: Path, label: str, seen: tuple[Path, ...], problems: list[Problem],
                partial: bool) -> dict[str, Any] | None:
    """The raw TOML of ``path`` merged onto everything it extends; problems are collected.

    Returns None when the file could not be read at all.
    """
    raw = _read_toml(path, label, problems)
    if raw is None:
        return None
    parent = raw.pop("extends", None)
    found: list[tuple[str, str]] = []
    _check_table(raw, Variant, "", found, partial=True)
    problems.extend(Problem(label, k, m) for k, m in found)
    if parent is None:
        return raw
    if not isinstance(parent, str):
        problems.append(Problem(label, "extends", f"expected a variant name or a path to a .toml file, "
                                f"got {_show(parent)}"))
        return raw
    if _looks_like_path(parent):
        if "\0" in parent:
            problems.append(Problem(label, "extends", "a path holds no NUL character"))
            return raw
        ppath = Path(parent) if Path(parent).is_absolute() else path.parent / parent
        plabel = _short(str(ppath))
        try:
            is_file = ppath.is_file()
            resolved = ppath.resolve()
        except (OSError, RuntimeError) as e:  # a name too long for the file system, a symlink loop
            problems.append(Problem(label, "extends", f"cannot read {plabel}: "
                                    f"{getattr(e, 'strerror', None) or e}"))
            return raw
        if not is_file:
            problems.append(Problem(label, "extends", f"no such file: {plabel} (a path is relative to "
                                    "the file that extends it)"))
            return raw
    elif parent in variant_names():
        ppath, plabel = _variants_dir() / f"{parent}.toml", f"{parent}.toml"
    else:
        problems.append(Problem(label, "extends", _unknown_name(parent)))
        return raw
    resolved = ppath.resolve()
    if resolved in seen + (path.resolve(),):
        chain = " -> ".join(p.name for p in seen + (path.resolve(), resolved))
        problems.append(Problem(label, "extends", f"extends itself in a loop: {chain}"))
        return raw
    base = _read_chain(ppath, plabel, seen + (path.resolve(),), problems, partial=True)
    if base is None:
        return raw
    base.pop("name", None)  # each file is named by its own name or its file name
    return _merge(base, raw)


def load_variant(source: str | os.PathLike[str]) -> Variant:
    """Load a bundled variant by name (``"bicycle"``) or a TOML file by path.

    A file may say ``extends = "NAME"`` (a bundled variant) or ``extends = "other.toml"`` (a
    path relative to the file) and give only the settings that differ. Every problem found, in
    the file and in the files it extends, is reported at once in a :class:`VariantError`. A
    bundled variant is read once per process: every load of it returns the same object.
    """
    if isinstance(source, str):
        hit = _BUNDLED.get(source)
        if hit is not None and not os.path.isfile(source):
            return hit  # a bundled variant by name, read before
    ref = source if isinstance(source, str) else os.fspath(source) if isinstance(source, os.PathLike) else None
    if not isinstance(ref, str):
        raise VariantError([Problem(repr(source)[:60], "(name)", "expected a bundled variant name or a path "
                                    f"to a .toml file (a str or a path), got {type(source).__name__}")])
    if not ref or "\0" in ref:
        raise VariantError([Problem(repr(ref)[:60], "(name)", "expected a bundled variant name or a path to "
                                    f"a .toml file; bundled variants: {', '.join(variant_names())}")])
    path = Path(ref)
    try:
        is_file = path.is_file()
    except OSError as e:  # a name too long for the file system, ...
        raise VariantError([Problem(_short(ref), "(file)", f"cannot read: {e.strerror or e}")]) from None
    if is_file:
        label = ref
        if path.resolve().parent == _variants_dir().resolve() and path.stem in variant_names():
            return _bundled(path.stem)  # the bundled file itself, by its path
    elif ref in variant_names():
        return _bundled(ref)
    elif _looks_like_path(ref):
        raise VariantError([Problem(_short(ref), "(file)", "no such file")])
    else:
        raise VariantError([Problem(_short(ref), "(name)", _unknown_name(ref))])
    problems: list[Problem] = []
    raw = _read_chain(path, label, (), problems, partial=True)
    if raw is None or any(pr.key in ("extends", "(syntax)", "(file)") for pr in problems):
        raise VariantError(problems)
    raw.setdefault("name", path.stem)
    variant = _build(raw, label, problems)
    for check in _FILE_CHECKS:  # the bundled variants are played by the test suite
        found = check(variant, label)
        if found:
            raise VariantError(found)
    return variant


def _short(text: str) -> str:
    """A file name or variant name for a message: at most 100 characters."""
    return text if len(text) <= 100 else f"{text[:60]}...{text[-30:]} ({len(text)} characters)"


def _build(raw: dict[str, Any], label: str, problems: list[Problem]) -> Variant:
    """Structure checked raw data; report ``problems`` and every further one at once.

    Settings already found wrong are left out (their defaults stand in) so that the
    contradiction checks still run on the rest of the file.
    """
    found: list[tuple[str, str]] = []
    _check_table(raw, Variant, "", found, partial=False)
    reported = {pr.key for pr in problems}
    problems = problems + [Problem(label, k, m) for k, m in found if k not in reported]
    for key in dict.fromkeys(pr.key for pr in problems):
        _drop(raw, key.split("."))
    try:
        variant = _converter.structure(_plain(raw), Variant)
    except Exception as e:  # noqa: BLE001 - the raw check should make this unreachable
        if problems:
            raise VariantError(problems) from None
        raise VariantError([Problem(label, "(root)", f"{type(e).__name__}: {e}")]) from None
    reported = {pr.key for pr in problems}
    problems += [pr for pr in check_variant(variant, label) if pr.key not in reported]
    if problems:
        raise VariantError(problems)
    return variant


def _drop(raw: dict[str, Any], parts: list[str]) -> None:
    """Remove the setting at a problem's key path (or the table holding a missing key)."""
    node: Any = raw
    trail: list[tuple[dict[str, Any], str]] = []
    for part in parts:
        if not isinstance(node, dict) or part not in node:
            break
        trail.append((node, part))
        node = node[part]
    if trail:
        container, key = trail[-1]
        del container[key]


def variant_to_dict(variant: Variant) -> dict[str, Any]:
    """The fully resolved settings as plain data (TOML-ready: lists, tables and scalars)."""
    plain: dict[str, Any] = _plain(_converter.unstructure(variant))
    return plain


def _plain(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _plain(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [_plain(v) for v in data]
    return data


def variant_from_dict(data: dict[str, Any], label: str = "(data)") -> Variant:
    """A variant from plain data such as :func:`variant_to_dict` gives, fully checked."""
    try:
        return _build(_plain(data), label, [])
    except RecursionError:
        raise VariantError([Problem(label, "(root)", "tables or lists are nested too deeply to read; no "
                                    "setting is nested more than three levels")]) from None


def _out_of_bounds(obj: Any, cls: type, path: str) -> list[tuple[str, str]]:
    """``(key.path, message)`` for every numeric setting of a structured ``obj`` outside the
    bounds in its field's metadata (also in the tables and the items of lists)."""
    out: list[tuple[str, str]] = []
    for a in attrs.fields(cls):
        value = getattr(obj, a.name)
        key = f"{path}{_key(a)}"
        if attrs.has(type(value)):
            out += _out_of_bounds(value, type(value), key + ".")
        elif isinstance(value, dict):
            for k, t in value.items():
                if attrs.has(type(t)):
                    out += _out_of_bounds(t, type(t), f"{key}.{k}.")
        elif isinstance(value, tuple):
            if "items" in a.metadata and len(value) > a.metadata["items"]:
                out.append((key, f"lists {len(value)} items; at most {a.metadata['items']} are allowed"))
            for i, item in enumerate(value):
                if attrs.has(type(item)):
                    out += _out_of_bounds(item, type(item), f"{key}.{i}.")
                elif "range" in a.metadata and not a.metadata["range"][0] <= item <= a.metadata["range"][1]:
                    out.append((f"{key}.{i}", f"is {_number(item)}; {_bounds_text(a.metadata, item)}"))
        elif "range" in a.metadata and isinstance(value, (int, float)) and \
                not a.metadata["range"][0] <= value <= a.metadata["range"][1]:
            out.append((key, f"is {_number(value)}; {_bounds_text(a.metadata, value)}"))
    return out


def check_variant(v: Variant, label: str) -> list[Problem]:
    """Contradictions between settings, and values out of range, found at load time.

    Each problem names the dotted key at fault, what is wrong and what would be allowed.
    """
    bounds = [Problem(label, k, m) for k, m in _out_of_bounds(v, Variant, "")]
    p: list[Problem] = []

    def bad(key: str, msg: str) -> None:
        p.append(Problem(label, key, msg))

    def at_least(key: str, value: int, low: int = 0) -> None:
        if value < low:
            bad(key, f"is {value}; must be {low} or more")

    # ---- the table, the deck and the deal
    if not v.tables:
        bad("tables", "no table: give at least one player count, such as [tables.4] sides = \"ABAB\"")
    for n_key in ("packs", "packs_per_player", "jokers_per_pack"):
        at_least(f"deck.{n_key}", getattr(v.deck, n_key))
    largest_packs = 0
    for key, t in v.tables.items():
        where = f"tables.{key}"
        if not is_player_count(key):
            bad(where, _table_key_problem(key))
            continue
        n = int(key)
        if len(t.sides) != n or not t.sides.isalpha() or not t.sides.isupper():
            bad(f"{where}.sides", f"is {t.sides!r}; must give each of the {n} seats a side as a capital "
                "letter, in seat order (\"ABAB\" is two partnerships sitting opposite)")
        elif len(set(t.sides)) < 2:
            bad(f"{where}.sides", f"is {t.sides!r}; needs at least two sides")
        at_least(f"{where}.hand_size", t.hand_size, 1)
        at_least(f"{where}.down_hand_size", t.down_hand_size)
        at_least(f"{where}.draw", t.draw, 1)
        active = t.active or n
        if t.active < 0 or active > n or active < 2:
            bad(f"{where}.active", f"is {t.active}; must be 0 (all seats play) or 2 to {n}")
            active = n
        packs = v.deck.packs + v.deck.packs_per_player * n
        largest_packs = max(largest_packs, packs)
        if packs > MAX_PACKS:
            bad("deck", f"gives {packs} packs at the table of {n} (deck.packs + deck.packs_per_player x {n}); "
                f"at most {MAX_PACKS} are allowed")
            continue
        deck = packs * (52 + v.deck.jokers_per_pack)
        dealt = t.hand_size + t.down_hand_size
        need = active * dealt + 2
        if deck < need:
            bad(where, f"the deck has {deck} cards, too few to deal {active} hands of {dealt} cards "
                f"and start a pile and a stock (at least {need}); raise deck.packs or lower "
                f"{where}.hand_size")
    if str(v.default_players) not in v.tables:
        allowed = ", ".join(sorted((k for k in v.tables if is_player_count(k)), key=int))
        bad("default_players", f"is {v.default_players}, which has no table; tables exist for: {allowed}")
    at_least("deal.precise_draw_bonus", v.deal.precise_draw_bonus)
    if not 0.0 <= v.deal.precise_draw_probability <= 1.0:
        bad("deal.precise_draw_probability", f"is {v.deal.precise_draw_probability}; must be between 0 and 1")

    if v.deal.talon_set_aside and not any(v.deal.talon):
        bad("deal.talon_set_aside", "applies only with deal.talon (the packets' sizes)")
    if v.deal.talon_when != "after_discard":
        if not any(v.deal.talon):
            bad("deal.talon_when", "applies only with deal.talon (the cards the side's opener draws)")
        elif v.deal.talon_set_aside:
            bad("deal.talon_when", f"is {v.deal.talon_when!r}, which contradicts deal.talon_set_aside = true "
                "(a packet set aside at the deal is taken after the discard)")
    if v.deal.talon_after_pile:
        if not any(v.deal.talon):
            bad("deal.talon_after_pile", "applies only with deal.talon (the cards the side's opener draws)")
        elif v.deal.talon_set_aside:
            bad("deal.talon_after_pile", "is redundant with deal.talon_set_aside = true (a packet set aside "
                "is taken however the side melded): leave one of them out")
    if v.pile.blocked_scope == "upcard":
        if not any(x in RANK_OF for x in v.pile.blocked_by):
            bad("pile.blocked_scope", "is 'upcard', which applies only where pile.blocked_by lists a natural "
                "rank (wild cards and threes on top are never taken anyway)")
        elif not v.upcard.turned:
            bad("pile.blocked_scope", "is 'upcard', but upcard.turned = false: no card is turned to start "
                "the pile")
    if v.going_out.red_threes_per_canasta and v.red_threes.handling != "bonus":
        bad("going_out.red_threes_per_canasta", "applies only with red_threes.handling = \"bonus\" (red "
            "threes faced as bonus cards)")
    if v.deal.down_hand_up != "empty_hand" and not any(t.down_hand_size for t in v.tables.values()):
        bad("deal.down_hand_up", f"is {v.deal.down_hand_up!r}, which applies only with a down hand: set "
            "tables.N.down_hand_size at some table")
    if v.deal.down_hand_up != "empty_hand" and v.pile.failed_initial_take == "undo":
        bad("deal.down_hand_up", f"is {v.deal.down_hand_up!r}, which contradicts pile.failed_initial_take = "
            "\"undo\": a down hand brought up by a canasta of a take cannot go back down when the take is undone")

    # ---- lists of card classes: no repeats
    for key, values in (("upcard.cover", v.upcard.cover), ("upcard.freezes", v.upcard.freezes),
                        ("pile.freeze_on_discard", v.pile.freeze_on_discard),
                        ("pile.blocked_by", v.pile.blocked_by), ("pile.take_unfrozen", v.pile.take_unfrozen),
                        ("pile.take_frozen", v.pile.take_frozen),
                        ("pile.no_discard_first_turn", v.pile.no_discard_first_turn)):
        repeated = sorted({x for x in values if values.count(x) > 1})
        if repeated:
            bad(key, f"lists {', '.join(repr(x) for x in repeated)} more than once")

    # ---- red threes
    r = v.red_threes
    if len(r.bonus) < 1 or any(x < 0 for x in r.bonus) or (r.bonus and r.bonus[0] != 0):
        bad("red_threes.bonus", "must list the bonus for 0, 1, 2, ... red threes, starting at 0, none negative")
    red_in_deck = 2 * largest_packs
    if r.handling == "bonus" and 0 < len(r.bonus) < red_in_deck + 1:
        bad("red_threes.bonus", f"lists bonuses for up to {len(r.bonus) - 1} red threes, but the deck "
            f"holds {red_in_deck}: list one bonus for each count from 0 to {red_in_deck}")
    if r.minus and (len(r.minus) != len(r.bonus) or r.minus[0] != 0 or any(x < 0 for x in r.minus)):
        bad("red_threes.minus", f"must list, like red_threes.bonus, {len(r.bonus)} non-negative "
            "deductions for 0, 1, 2, ... red threes, starting at 0 (or be left out to deduct the bonus)")
    at_least("red_threes.in_hand_penalty", r.in_hand_penalty)
    at_least("red_threes.canasta_bonus", r.canasta_bonus)
    if r.handling == "bonus" and r.canasta_bonus:
        bad("red_threes.canasta_bonus", "applies only with red_threes.handling = \"keep\" "
            "(as bonus cards red threes are never placed on a canasta)")

    # ---- melds
    m = v.melds
    if m.min_size < 3:
        bad("melds.min_size", f"is {m.min_size}; a meld needs at least 3 cards")
    if m.min_naturals < 1 or m.min_naturals > m.min_size:
        bad("melds.min_naturals", f"is {m.min_naturals}; must be 1 to melds.min_size ({m.min_size})")
    at_least("melds.max_wild", m.max_wild)
    if m.canasta_size < m.min_size:
        bad("melds.min_size", f"is {m.min_size}, larger than melds.canasta_size ({m.canasta_size}); "
            "a canasta must be at least a meld")
    if m.canasta_min_naturals < 0 or m.canasta_min_naturals > m.canasta_size:
        bad("melds.canasta_min_naturals", f"is {m.canasta_min_naturals}; must be 0 to melds.canasta_size "
            f"({m.canasta_size})")
    if m.new_after_canasta and (m.multiple_per_rank or not m.canasta_closed):
        bad("melds.new_after_canasta", "applies only with melds.multiple_per_rank = false (one meld of a rank "
            "at a time) and melds.canasta_closed = true (a canasta that takes no more cards)")
    if m.past_closed_going_out and not m.canasta_closed:
        bad("melds.past_closed_going_out", "applies only with melds.canasta_closed = true (an open canasta takes "
            "more cards anyway)")
    if m.combine and not m.multiple_per_rank:
        bad("melds.combine", "needs melds.multiple_per_rank = true (there is nothing to combine)")
    if m.canasta_closed and m.unlimited_wild_on_canasta:
        bad("melds.unlimited_wild_on_canasta", "contradicts melds.canasta_closed = true "
            "(a closed canasta takes no more cards)")
    if m.wild_meld_max < 0:
        bad("melds.wild_meld_max", f"is {m.wild_meld_max}; use 0 for no limit, or a number of cards")
    elif m.wild_meld_max and m.wild_meld_max < m.min_size:
        bad("melds.wild_meld_max", f"is {m.wild_meld_max}, less than melds.min_size ({m.min_size}): "
            "no meld of wild cards could be laid")

    q = m.sequences
    if q.allowed:
        low, high = RANK_OF[q.lowest], RANK_OF[q.highest]
        if q.max_size < q.min_size:
            bad("melds.sequences.max_size", f"is {q.max_size}, less than melds.sequences.min_size "
                f"({q.min_size})")
        if high - low + 1 < q.min_size:
            bad("melds.sequences.highest", f"is {q.highest!r}: from {q.lowest!r} to {q.highest!r} there are "
                f"{max(0, high - low + 1)} ranks, fewer than a sequence's {q.min_size} cards")
    if v.going_out.permission_required and not v.going_out.permission:
        bad("going_out.permission_required", "needs going_out.permission = true (a player asks before going out)")
    if v.scoring.short_sequence.below and not q.allowed:
        bad("scoring.short_sequence", "applies only with melds.sequences.allowed = true")
    if not m.wild_on_canasta and m.unlimited_wild_on_canasta:
        bad("melds.wild_on_canasta", "is false, which contradicts melds.unlimited_wild_on_canasta = true")

    if v.upcard.buried != "none":
        up = v.upcard
        for key, clash, why in (
                ("upcard.cover", bool(up.cover), "a wild card or three turned up goes to the bottom of the stock "
                 "instead of being covered: use upcard.cover = []"),
                ("upcard.turned", not up.turned, "the packet is built under a turned upcard: use upcard.turned = true"),
                ("pile.take_top", bool(v.pile.take_top), "the whole pile, the buried cards included, is taken with "
                 "the upcard: use pile.take_top = 0"),
                ("pile.failed_initial_take", v.pile.failed_initial_take == "undo",
                 "a take undone would put the buried cards back face up: use pile.failed_initial_take = \"forbidden\"")):
            if clash:
                bad("upcard.buried", f"is {up.buried!r}, which does not work with {key}: {why}")
    for i, line in enumerate(v.scoring.canasta_sets):
        if not (line.natural or line.mixed or line.wild or line.any):
            bad(f"scoring.canasta_sets.{i}", "asks for no canasta: give at least one of natural, mixed, wild "
                "or any (e.g. { natural = 5, bonus = 2000 })")
    if v.red_threes.handling == "keep":
        for key, used in (("scoring.canasta_sets", bool(v.scoring.canasta_sets)),
                          ("scoring.wild_canasta_going_out_only", v.scoring.wild_canasta_going_out_only)):
            if used:
                bad(key, "applies only with red_threes.handling = \"bonus\" (red_threes.handling = \"keep\" "
                    "scores canastas its own way, new-canasta's)")
    if m.deuce_melds:
        # italian 4.3: the meld of deuces takes the place of a meld of wild cards only
        if m.wild_melds:
            bad("melds.deuce_melds", "cannot be used with melds.wild_melds = true: a meld of deuces and a meld "
                "of wild cards only would be the same meld; choose one")
        if m.wild_meld_exclusive:
            bad("melds.wild_meld_exclusive", "applies to a meld of wild cards only (melds.wild_melds); with "
                "melds.deuce_melds = true use melds.deuce_meld_exclusive")
        if m.wild_meld_max:
            bad("melds.wild_meld_max", "applies to a meld of wild cards only (melds.wild_melds); a meld of "
                "deuces (melds.deuce_melds) is closed at melds.canasta_size")
        if largest_packs and m.min_naturals > 4 * largest_packs:
            bad("melds.deuce_melds", f"needs melds.min_naturals ({m.min_naturals}) deuces, more than the "
                f"deck holds ({4 * largest_packs})")
    elif m.deuce_meld_exclusive:
        bad("melds.deuce_meld_exclusive", "applies only with melds.deuce_melds = true (there is no meld of deuces)")
    counted = v.going_out.counted_kinds
    twice = sorted({x for x in counted if counted.count(x) > 1})
    if twice:
        bad("going_out.counted_kinds", f"lists {', '.join(repr(x) for x in twice)} more than once")
    if not counted and v.going_out.canastas:
        bad("going_out.counted_kinds", f"is empty, so no canasta counts toward going_out.canastas "
            f"({v.going_out.canastas}): nobody could go out")

    for i, w in enumerate(v.scoring.wild_canastas):
        where = f"scoring.wild_canastas.{i}"
        if not (m.wild_melds or m.deuce_melds):
            bad(where, "applies only with melds.wild_melds = true or melds.deuce_melds = true (there are no "
                "wild canastas)")
            break
        size = w.jokers + w.twos
        top = m.wild_meld_max or (m.canasta_size if m.canasta_closed or m.deuce_melds else 0)
        if m.deuce_melds and w.twos < max(m.min_naturals, m.canasta_size - m.max_wild):
            bad(where, f"has {w.twos} deuces, which no canasta of deuces can hold (melds.deuce_melds: at least "
                f"{max(m.min_naturals, m.canasta_size - m.max_wild)} deuces, melds.max_wild = {m.max_wild})")
        if size < m.canasta_size or (top and size > top):
            allowed = f"{m.canasta_size}" if top == m.canasta_size else f"{m.canasta_size} or more"
            bad(where, f"has {size} cards (jokers + twos), which no wild canasta can hold: a wild canasta "
                f"has {allowed}{f' and at most {top}' if top and top != m.canasta_size else ''} cards")
        if w.jokers > largest_packs * v.deck.jokers_per_pack:
            bad(f"{where}.jokers", f"is {w.jokers}, more jokers than the deck holds "
                f"({largest_packs * v.deck.jokers_per_pack})")
    if v.stock_exhausted.last_three_minus and v.stock_exhausted.last_red_three != "end":
        bad("stock_exhausted.last_three_minus", "applies only with stock_exhausted.last_red_three = \"end\"")
    natural_ranks = {x.rank for x in v.scoring.natural_canastas}
    rank_seen: set[str] = set()
    for i, x in enumerate(v.scoring.rank_canastas):
        where = f"scoring.rank_canastas.{i}.rank"
        if x.rank == "wild":
            bad(where, "is 'wild'; a rank canasta is of a natural rank (four to ace): a canasta of wild "
                "cards is priced by scoring.wild_canasta and scoring.wild_canastas")
        elif x.rank in rank_seen:
            bad(where, f"is {x.rank!r}, listed more than once")
        elif x.rank in natural_ranks:
            bad(where, f"is {x.rank!r}, which scoring.natural_canastas also prices: a canasta of that "
                "rank is priced by one of scoring.rank_canastas and scoring.natural_canastas, not both")
        rank_seen.add(x.rank)
    r_sign = v.red_threes.sign_by_canastas
    if r_sign and v.red_threes.handling != "bonus":
        bad("red_threes.sign_by_canastas", "applies only with red_threes.handling = \"bonus\"")
    if v.red_threes.minus_without_canasta_of != "none" and v.red_threes.handling != "bonus":
        bad("red_threes.minus_without_canasta_of", "applies only with red_threes.handling = \"bonus\"")

    # ---- black threes
    b = v.black_threes
    if b.meld != "never":
        if b.min < 3:
            bad("black_threes.min", f"is {b.min}; a meld needs at least 3 cards")
        if b.max < b.min:
            bad("black_threes.max", f"is {b.max}, less than black_threes.min ({b.min})")
        black_in_deck = 2 * largest_packs
        if largest_packs and b.min > black_in_deck:
            bad("black_threes.min", f"is {b.min}, but the largest deck holds only {black_in_deck} black threes")
        if m.canasta_closed and b.max > m.canasta_size:
            bad("black_threes.max", f"is {b.max}, larger than a closed canasta ({m.canasta_size} cards)")
    at_least("black_threes.canasta_bonus", b.canasta_bonus)
    aside = b.set_aside_bonus
    if b.faced and b.meld != "never":
        bad("black_threes.faced", "needs black_threes.meld = \"never\" (a faced black three is never in a meld)")
    if b.from_pile == "hand" and not b.faced and aside:
        bad("black_threes.set_aside_bonus", "applies only with black_threes.from_pile = \"set_aside\" or "
            "black_threes.faced = true")
    elif b.from_pile == "set_aside" or b.faced:
        black_in_deck = 2 * largest_packs
        if len(aside) != black_in_deck + 1 or aside[0] != 0:
            bad("black_threes.set_aside_bonus", f"must list the points for 0, 1, ..., {black_in_deck} black "
                f"threes set aside (the deck holds {black_in_deck}), starting at 0")
    if b.canasta_bonus and b.max < m.canasta_size:
        bad("black_threes.canasta_bonus", f"can never be earned: black_threes.max ({b.max}) is below "
            f"melds.canasta_size ({m.canasta_size})")

    # ---- initial meld
    im = v.initial_meld
    at_least("initial_meld.below_zero", im.below_zero)
    last_from, last_need = None, -1
    for i, s in enumerate(im.steps):
        if s.need < 0:
            bad(f"initial_meld.steps.{i}.need", f"is {s.need}; must be 0 or more")
        if last_from is not None and s.from_score <= last_from:
            bad(f"initial_meld.steps.{i}.from", f"{s.from_score} is not above the previous step's {last_from}: "
                "list the steps in increasing score order")
        elif s.need < last_need and not s.canasta:
            bad(f"initial_meld.steps.{i}.need", f"{s.need} is less than the previous step's {last_need}: "
                "the minimum must not fall as the score rises (unless the step asks for a canasta)")
        last_from = s.from_score
        if not s.canasta:
            last_need = s.need
        _check_step_canasta(v, i, s, bad)
    if im.canasta_worth == "canasta" and not any(s.canasta for s in im.steps):
        bad("initial_meld.canasta_worth", "applies only where a step of initial_meld.steps lists canasta kinds")
    if im.steps and im.steps[0].from_score != 0:
        bad("initial_meld.steps.0.from", f"is {im.steps[0].from_score}; must be 0 "
            "(initial_meld.below_zero covers negative scores)")

    # ---- the pile
    if "wild_pair" in v.pile.take_unfrozen + v.pile.take_frozen and not v.melds.wild_melds:
        bad("pile.take_unfrozen", "lists 'wild_pair', which needs melds.wild_melds = true (the three wild "
            "cards make a meld of wild cards only)")
    if v.pile.take_frozen and not set(v.pile.take_frozen) <= set(v.pile.take_unfrozen):
        extra = ", ".join(repr(x) for x in v.pile.take_frozen if x not in v.pile.take_unfrozen)
        bad("pile.take_frozen", f"allows {extra}, a way to take a frozen pile that pile.take_unfrozen "
            "does not allow for an unfrozen one")

    # ---- discard bans and canastas of a rank (pennies-from-heaven 3.4, 3.5, 7.1)
    for key, ranks in (("pile.no_discard_until_canasta", [b.rank for b in v.pile.no_discard_until_canasta]),
                       ("going_out.canastas_by_rank", [x.rank for x in v.going_out.canastas_by_rank]),
                       ("going_out.no_final_discard", list(v.going_out.no_final_discard))):
        repeated = sorted({x for x in ranks if ranks.count(x) > 1})
        if repeated:
            bad(key, f"lists {', '.join(repr(x) for x in repeated)} more than once")
    one_per_rank = not m.multiple_per_rank and not (m.new_after_canasta and m.canasta_closed)
    for i, by_rank in enumerate(v.going_out.canastas_by_rank):
        if by_rank.count > 1 and one_per_rank:
            bad(f"going_out.canastas_by_rank.{i}.count", f"is {by_rank.count}, but with melds.multiple_per_rank = false "
                "(and no melds.new_after_canasta) a side holds one meld of a rank, so one canasta of it at most")

    # ---- going out, scoring, game
    at_least("going_out.canastas", v.going_out.canastas)
    at_least("going_out.bonus", v.going_out.bonus)
    at_least("going_out.concealed.bonus", v.going_out.concealed.bonus)
    for a in attrs.fields(Scoring):
        if a.type is int:
            at_least(f"scoring.{a.name}", getattr(v.scoring, a.name))
    for a in attrs.fields(CardValues):
        at_least(f"scoring.card_values.{a.name}", getattr(v.scoring.card_values, a.name))
    if v.game.target <= 0 and v.game.hands <= 0:
        bad("game.target", f"is {v.game.target}; must be more than 0, or game.hands must set a number of hands")
    for name in attrs.fields_dict(Penalties):
        value = getattr(v.penalties, name)
        if value < 0:
            bad(f"penalties.{name}", f"is {value}; must be 0 or more (points deducted from the offender)")
    if v.settlement.round_to < 0:
        bad("settlement.round_to", f"is {v.settlement.round_to}; must be 0 (exact) or a positive multiple")
    out_of_bounds = {pr.key for pr in bounds}
    return bounds + [pr for pr in p if pr.key not in out_of_bounds]


# ---------------------------------------------------------------- checks of the layers above

FileCheck = Callable[[Variant, str], list[Problem]]
"""A check of a variant file that loaded (its ``Variant`` and its label), answering problems."""

_FILE_CHECKS: list[FileCheck] = []


def add_file_check(check: FileCheck) -> None:
    """Run ``check`` on every variant file :func:`load_variant` loads that is not bundled, once
    its settings have passed the schema: the playing check of ``canasta._playable`` ("what
    validates, plays") registers itself here, so that the schema knows no game."""
    if check not in _FILE_CHECKS:
        _FILE_CHECKS.append(check)


def _check_step_canasta(v: Variant, i: int, s: Step, bad: Any) -> None:
    """The canasta a step of the initial meld asks for (brazilian 7.2) must be one the settings
    let a side lay in its initial meld."""
    if not s.canasta:
        return
    key = f"initial_meld.steps.{i}.canasta"
    m = v.melds
    repeated = sorted({x for x in s.canasta if s.canasta.count(x) > 1})
    if repeated:
        bad(key, f"lists {', '.join(repr(x) for x in repeated)} more than once")
    if v.initial_meld.by_hand:
        bad(key, "applies only without initial_meld.by_hand (a minimum by hand number replaces the steps)")
    if m.initial_canasta != "always":
        bad(key, f"asks for a canasta in the initial meld, which melds.initial_canasta = {m.initial_canasta!r} "
            "forbids: set melds.initial_canasta = \"always\"")
    if "wild" in s.canasta and m.deuce_melds:
        bad(key, "lists 'wild', which melds.deuce_melds does not allow: a meld of deuces is never part of an "
            "initial meld's plans (set melds.deuce_melds = false, or drop 'wild')")
    elif "wild" in s.canasta and (not m.wild_melds or (m.wild_meld_max and m.wild_meld_max < m.canasta_size)):
        bad(key, "lists 'wild', but no canasta of wild cards can be laid: it needs melds.wild_melds = true and "
            "melds.wild_meld_max 0 or at least melds.canasta_size")
    if "sequence" in s.canasta and (not m.sequences.allowed or m.sequences.max_size < m.canasta_size):
        bad(key, "lists 'sequence', but no sequence can be a canasta: it needs melds.sequences.allowed = true "
            "and melds.sequences.max_size at least melds.canasta_size")


