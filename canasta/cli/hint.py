"""``help`` and ``hint`` at the prompt of ``canasta play``: the notation with examples from the
position, and a bot's choice with the reason for it."""

from __future__ import annotations

from .._actions import Action, Add, Answer, Ask, Combine, Discard, Done, Draw, Meld, Pass, Retract, Take
from .._bots import GreedyBot, _ask
from .._cards import CARD_NAMES, Card
from .._state import GameState, Phase
from .._view import canasta_kind
from .common import plural


_HELP_ROWS: tuple[tuple[type, str, str], ...] = (
    (Draw, "draw", "draw the top card of the stock"),
    (Take, "take 7 7 | take 7 JK | take onto 7", "take the pile: its top card with a natural pair, "
                                                  "with a natural card and a wild card, or onto your meld"),
    (Meld, "meld 7 7 7 | meld 7 7 JK", "lay down a new meld from your hand"),
    (Add, "add 7 | add JK to 7 | add 2 to 7#2", "add a card to a meld of your side (7#2: the second 7s)"),
    (Combine, "combine 7#1 7#2", "join two melds of one rank"),
    (Discard, "discard 7", "discard a card, ending your turn"),
    (Ask, "ask", "ask your partner: may I go out?"),
    (Answer, "yes | no", "answer your partner (the answer binds)"),
    (Pass, "pass", "the stock is used up: do not take the pile"),
    (Done, "done", "end the turn without a discard (the last card was a red three)"),
    (Retract, "retract", "give back a pile taken for an initial meld you cannot reach"),
)


def help_text(st: GameState) -> list[str]:
    """The notation, each kind of action with examples from the legal actions here."""
    acts = st.legal_actions()
    lines = ["Type an action's number from the list, or the action in notation (cards: JK 2 3r 3b "
             "4 5 6 7 8 9 10 J Q K A; case does not matter):"]
    for kind, form, meaning in _HELP_ROWS:
        now = [str(a) for a in acts if isinstance(a, kind)]
        lines.append(f"  {form:<36} {meaning}")
        if now:
            more = f" (and {len(now) - 3} more)" if len(now) > 3 else ""
            lines.append(f"  {'':<36}   now: {', '.join(repr(t) for t in now[:3])}{more}")
    lines.append("Commands: 'hint' (what the greedy bot would play, and why), 'undo' (back to your "
                 "previous decision), 'help', 'quit' (end the game, with the score so far).")
    return lines


def hint_for(st: GameState, seed: int) -> tuple[Action, str]:
    """The greedy bot's choice for the player to act, and why it plays it."""
    action = _ask(GreedyBot(seed), st)  # a fresh bot: the same hint every time in a position
    return action, reason(st, action)


def _goes_out_after(st: GameState, seat: int) -> bool:
    """Whether the greedy bot, playing on for ``seat`` in ``st``, goes out before its turn ends."""
    bot = GreedyBot(0)
    for _ in range(100):
        if st.is_hand_over:
            return st.result is not None and st.result.went_out == seat
        if st.current_player != seat:
            return False
        st = st.apply(_ask(bot, st))
    return False


def reason(st: GameState, action: Action) -> str:
    """Why the greedy bot plays ``action`` here, in the words of its policy (see GreedyBot)."""
    seat = st.current_player
    assert seat is not None
    side = st.side_of(seat)
    acts = st.legal_actions()
    after = st.apply(action)
    if after.is_hand_over and after.result is not None and after.result.went_out == seat:
        return "it goes out"
    if isinstance(action, Take):
        return f"taking the pile brings {plural(len(st.pile), 'card')}"
    if isinstance(action, Draw):
        takes = [a for a in acts if isinstance(a, Take)]
        if not takes:
            return "the pile cannot be taken now"
        return (f"the pile ({plural(len(st.pile), 'card')}) could be taken only with a wild card, "
                "which the greedy bot spends only on a pile of three cards or more")
    if isinstance(action, Answer):
        standing = "ahead" if action.yes else "not ahead"
        return f"your side is {standing} (game total plus the table), so {'yes' if action.yes else 'no'}"
    if isinstance(action, Ask):
        return "you can go out this turn and your side is ahead, so your partner should say yes"
    if isinstance(action, Pass):
        return "the stock is used up and the pile cannot be taken"
    if isinstance(action, Done):
        return "nothing more is worth melding"
    if isinstance(action, Retract):
        return "the initial meld cannot be reached with this pile"
    if isinstance(action, (Meld, Add, Combine, Discard)) and _goes_out_after(after, seat):
        return "it begins going out this turn (the greedy bot goes out whenever it can)"
    if isinstance(action, (Meld, Add, Combine)):
        v = st.variant
        before_c = sum(1 for m in st.melds[side] if canasta_kind(m, v))
        after_c = sum(1 for m in after.melds[side] if canasta_kind(m, v))
        if after_c > before_c or (isinstance(action, Add) and action.card == Card.RED_THREE):
            return "it completes a canasta"
        if not st.opened[side] and after.opened[side]:
            return "it makes your side's initial meld"
        if not st.opened[side]:
            return f"toward your side's initial meld ({st.initial_need(side)} points)"
        if st.phase is Phase.FINAL_MELD or len(st.stock) <= 2 * len(st.active):
            return "the stock is nearly out: meld everything you can"
        return "natural cards are melded as soon as they can be (completing canastas first, then the most points)"
    if isinstance(action, Discard):
        card = action.card
        if card == Card.BLACK_THREE:
            return "a black three blocks the next player from taking the pile"
        if card == Card.RED_THREE:
            return "a red three kept in hand costs points at the end of the hand"
        why = []
        if st.hands[seat][card] == 1:
            why.append("you hold no pair of it")
        if not any(m.rank == card for s in range(st.sides) if s != side for m in st.melds[s]):
            why.append("the opponents have no meld to add it to")
        because = f" ({'; '.join(why)})" if why else ""
        return f"the card least worth keeping: {'an' if CARD_NAMES[card][0] in 'aeiou' else 'a'} " \
               f"{CARD_NAMES[card]}{because}"
    return "the greedy bot's choice"
