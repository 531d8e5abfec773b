"""The notation as ``canasta play`` teaches it: the banner's examples and ``help`` at the prompt,
both written for the variant being played (its cards with or without suits, its sequences, the
actions it has), with examples from the position."""

from __future__ import annotations

from typing import Optional

from .._actions import (Action, Add, Answer, Ask, Combine, Discard, Done, Draw, Meld, Pass, Retract, Take,
                        TakeWay)
from .._cards import CARD_NAMES_PLURAL, KIND_OF, SEQUENCE_RANK
from .._variant_terms import RANK_OF
from .._state import GameState
from .bots import DEFAULT_BOT


def _suited(st: GameState) -> bool:
    """Whether the variant names natural cards with their suits (``melds.sequences``)."""
    return bool(st.variant.melds.sequences.allowed)


def examples(st: GameState) -> str:
    """A few actions in the variant's notation, for the banner: ``'draw', 'meld 7 7 7',
    'discard 5'``, or with suits ``'draw', 'meld 7s 7h 7d', 'meld 5h 6h 7h', 'discard 5c'``."""
    if _suited(st):
        return "'draw', 'meld 7s 7h 7d', 'meld 5h 6h 7h', 'add 8h to hearts', 'discard 5c'"
    return "'draw', 'meld 7 7 7', 'add JK to 7', 'discard 5'"


def _rows(st: GameState) -> list[tuple[type, str, str]]:
    """Each kind of action the variant has: its forms in the notation and what it does."""
    space = st.action_space.actions
    has = {type(a) for a in space}
    suited = _suited(st)
    takes = [a for a in space if isinstance(a, Take)]
    ways = {a.way for a in takes}
    forms: list[str] = []
    if TakeWay.PAIR in ways:
        forms.append("take 7h 7s" if suited else "take 7 7")
    if TakeWay.JOKER in ways or TakeWay.TWO in ways:
        forms.append("take 7h JK" if suited else "take 7 JK")
    if TakeWay.ONTO in ways:
        forms.append("take onto 7")
        if any(a.rank >= SEQUENCE_RANK for a in takes):
            forms.append("take onto hearts")
    draw = st.action_space.draw_count
    rows: list[tuple[type, str, str]] = [
        (Draw, "draw", f"draw the top {'card' if draw == 1 else f'{draw} cards'} of the stock"),
        (Take, " | ".join(forms), "take the pile: its top card with cards from your hand"
         + (", or onto a meld" if TakeWay.ONTO in ways else "")),
    ]
    if suited:
        rows += [
            (Meld, "meld 7s 7h 7d | meld 7s 7h JK", "a new group: three or more cards of one rank (suits as you hold them)"),
            (Meld, "meld 5h 6h 7h", "a new sequence: three cards of one suit in a row"),
            (Add, "add 7d | add JK to 7 | add 8h to hearts", "add a card to a group, or at either end of a sequence"),
            (Discard, "discard 7h", "discard a card, ending your turn"),
        ]
    elif st.variant.melds.wild_melds:  # melds of wild cards only (cuban, uruguayan RG/BK)
        rows += [
            (Meld, "meld 7 7 7 | meld 7 7 JK | meld JK 2 2", "lay down a new meld from your hand (JK 2 2: of wild "
             "cards only)"),
            (Add, "add 7 | add JK to 7 | add 2 to wild", "add a card to a meld of your side (wild: your meld of "
             "wild cards)"),
            (Discard, "discard 7", "discard a card, ending your turn"),
        ]
    else:
        rows += [
            (Meld, "meld 7 7 7 | meld 7 7 JK", "lay down a new meld from your hand"),
            (Add, "add 7 | add JK to 7 | add 2 to 7#2", "add a card to a meld of your side (7#2: the second 7s)"),
            (Discard, "discard 7", "discard a card, ending your turn"),
        ]
    if st.variant.melds.deuce_melds:
        rows.append((Meld, "meld 2 2 2 | meld JK 2 2 | add 2 to wild",
                     "a meld of deuces: deuces as a rank of their own, jokers its wild cards, closed at seven"))
    rows += [
        (Combine, "combine 7#1 7#2", "join two melds of one rank"),
        (Ask, "ask", "ask your partner: may I go out?"),
        (Answer, "yes | no", "answer your partner (the answer binds)"),
        (Pass, "pass", "the stock is used up: do not take the pile"),
        (Done, "done", "end the turn without a discard (the last card was a red three)"),
        (Retract, "retract", "give back a pile taken for an initial meld you cannot reach"),
    ]
    legal = {type(a) for a in st.legal_actions()}
    situational = {Pass, Done}  # (shown when they are legal: a used-up stock, a red three drawn last)
    if not st._rules.undo_take:
        has.discard(Retract)
    return [r for r in rows if r[0] in has and r[1] and (r[0] not in situational or r[0] in legal)]


def _is_sequence(a: Action) -> bool:
    return isinstance(a, Meld) and len({c for c in a.cards}) == len(a.cards) and a.cards[0] < a.cards[-1]


def help_text(st: GameState, hint_bot: str = DEFAULT_BOT) -> list[str]:
    """The notation of the variant, each kind of action with examples from the legal actions
    here; ``hint_bot``: the bot that ``hint`` asks (``--hint-bot``)."""
    acts = st.legal_actions()
    if _suited(st):
        cards = ("cards: JK, 2, 3r, 3b, and the naturals 4 to A with their suits, c d h s (7h, 10s or Ts, "
                 "Ac); case does not matter")
    else:
        cards = "cards: JK 2 3r 3b 4 5 6 7 8 9 10 J Q K A; case does not matter"
    lines = [f"Type an action's number from the list, or the action in notation ({cards}):"]
    rows = _rows(st)
    width = max(len(form) for _, form, _ in rows)
    for kind, form, meaning in rows:
        if kind is Meld and _suited(st):
            sequence = "sequence" in meaning
            now = [str(a) for a in acts if isinstance(a, Meld) and _is_sequence(a) == sequence]
        else:
            now = [str(a) for a in acts if isinstance(a, kind)]
        lines.append(f"  {form:<{width}}  {meaning}")
        if now:
            more = f" (and {len(now) - 3} more)" if len(now) > 3 else ""
            lines.append(f"  {'':<{width}}    now: {', '.join(repr(t) for t in now[:3])}{more}")
    if _suited(st):
        lines.append("A group's cards may be named without their suits ('meld 7 7 7', 'take 7 7', 'add 7') "
                     "where your hand leaves no choice; where it does, you are asked which cards (those you "
                     "keep matter for sequences).")
    lines += rule_notes(st)
    lines.append(f"Commands: 'hint' (what the {hint_bot} bot would play, and why), 'undo' (back to your "
                 "previous decision), 'help', 'quit' (end the game, with the score so far).")
    return lines


def rule_notes(st: GameState) -> list[str]:
    """Lines on this variant's less usual rules a player needs while typing actions (the talon
    drawn at once, natural ranks that block the pile, rank canastas, red threes per
    canasta), read from its settings."""
    v = st.variant
    R = st._rules
    out: list[str] = []
    if R.talon_now:
        sizes = sorted({n for n in v.deal.talon if n})
        size = " or ".join(str(n) for n in sizes)
        how = "from the hand or with the pile" if v.deal.talon_after_pile else "from the hand"
        out.append(f"  The player whose meld makes his side's initial meld ({how}) at once draws {size} cards "
                   "from the stock, and may meld them in the same turn (deal.talon).")
    ranks = [x for x in v.pile.blocked_by if x not in ("wild", "red_three", "black_three")]
    if ranks:
        names = " or ".join(CARD_NAMES_PLURAL[RANK_OF[x]] for x in ranks)
        when = ("while the card turned to start it is on top" if R.block_upcard else "while one is on top")
        out.append(f"  A card of these ranks blocks the pile, {when}: {names} (pile.blocked_by).")
    for x in v.scoring.rank_canastas:
        out.append(f"  A canasta of {CARD_NAMES_PLURAL[RANK_OF[x.rank]]}, natural or mixed, scores {x.points:,} (scoring.rank_canastas).")
    if R.r3_per:
        per = "a red three" if R.r3_per == 1 else f"{R.r3_per} red threes"
        out.append(f"  Your side goes out only with {per} faced for each of its canastas "
                   "(going_out.red_threes_per_canasta).")
    if out:
        out.insert(0, "This variant:")
    return out


def never_legal(st: GameState, action: Action) -> Optional[str]:
    """Why ``action`` can never be played in this variant, whatever the phase, where the rules'
    answer would name the phase first: ``meld 5h 6h 7h`` before the draw in hoyle-1950 has no
    sequences to be, rather than "draw first"; None otherwise."""
    if action in st.action_space or not isinstance(action, Meld) or st.variant.melds.sequences.allowed:
        return None
    kinds = {KIND_OF[c] for c in action.cards if KIND_OF[c] >= 4}
    if len(kinds) > 1:
        return "this variant has no sequences: a meld is of one rank (melds.sequences)"
    return None
