"""The variant schema's sections of the score: card values, canasta bonuses (``[scoring]``),
when the game ends (``[game]``), penalties for irregularities and the settling of a game.

Frozen attrs classes whose attribute docstrings are the settings reference (docs/gen_variants.py
reads them). Built on ``_variant_terms``; ``_variant`` (the schema's root, which resolves these
classes' annotations) is built on it.
"""

from __future__ import annotations

from attrs import field, frozen

from ._variant_terms import MeldName, RankName, _range


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
