"""The variant schema: every rule difference between the sources is a setting here.

A variant is a tree of frozen attrs classes grouped by topic: :class:`Variant`, its tables and
the sections of the play here, the sections of the score in ``_variant_scoring``, the names and
bounds they use in ``_variant_terms``; :class:`Problem` and :class:`VariantError` say what is
wrong with a file. A variant is read from TOML by ``_variant_load`` (unknown keys are errors, a
file may ``extends`` another) and checked for contradictions by ``_variant_checks`` when it is
loaded, never in play.

The value module: built on ``_variant_terms`` and ``_variant_scoring`` only; the loader, the
checks and every module that plays a variant are built on it.
"""

from __future__ import annotations

from typing import Any, Literal

import attrs
from attrs import field, frozen

from ._variant_scoring import (
    CanastaSet,
    CardValues,
    Game,
    HeldPenalty,
    Penalties,
    RankPoints,
    Scoring,
    Settlement,
    ShortSequence,
    WildCanasta,
)
from ._variant_terms import (
    ALL_COUNTED,
    BlockClass,
    CanastaKind,
    CountedKind,
    DiscardClass,
    MeldName,
    RankName,
    RankOrNone,
    TakeWay,
    WildClass,
    _range,
    is_player_count,
)


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


class _Tables(dict[str, Any]):
    """``Variant.tables``: keyed by the player count as a string, as in the file
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

    def __reduce__(self) -> tuple[Any, ...]:
        # (pickle rebuilds an exception from ``args``, the message alone: give it the problems)
        return (type(self), (list(self.problems),))


_SCHEMA = (Variant, Table, Deck, Deal, Upcard, RedThrees, Melds, Sequences, BlackThrees, Step, InitialMeld,
           DiscardBan, RankCount, Pile, Concealed, CanastaKinds, GoingOut, StockExhausted, CardValues, WildCanasta,
           RankPoints, HeldPenalty, ShortSequence, CanastaSet, Scoring, Game, Penalties,
           Settlement)
for _cls in _SCHEMA:
    attrs.resolve_types(_cls, globals(), locals())


def _key(a: attrs.Attribute[Any]) -> str:
    """The TOML key of an attribute."""
    return str(a.metadata.get("key", a.name))
