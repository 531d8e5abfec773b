"""The rules core: compact positions (plain ints and tuples) and pure functions over them.

The public, immutable :class:`~canasta.GameState` wraps a :class:`Core`; everything here is
private. The modules, by idea:

- ``_rules``: a variant compiled for one table size, with its dense action space;
- ``_kernel``: the position (:class:`Core`), phases and turn flags;
- ``_deal``: dealing and who plays first;
- ``_canastas``: a side's melds as the planners measure them (room for wild cards, canastas had
  and lacking);
- ``_greedy``: the most points meldable from a hand;
- ``_sequences``: every way to play sequences from a hand;
- ``_meldable``: can every card be melded (rank plans, wild cards, canastas);
- ``_plan``: turn planning (can the initial minimum be met, can the player go out);
- ``_opening``: the initial meld (plays toward it, what it must include, going out after it);
- ``_memo``: a memo bounded by its entries and by what they hold;
- ``_meldrules``: where wild cards may go (a natural opening, the deuce meld);
- ``_finish``, ``_draw``, ``_meld``, ``_discard``, ``_meldphase``: the rule checks of each action,
  each answering with its reason, and the legal-action generators built on them;
- ``_legal``: legal action ids, and the first failing check of any action;
- ``_reasons``: the reasons' words;
- ``_apply``: the next position, and the turn flow;
- ``_score``: scoring a hand.

Imports run one way: ``_rules`` <- ``_kernel`` <- ``_canastas`` <- ``_greedy``/``_sequences``/``_meldable``
<- ``_plan`` <- ``_opening`` <- ``_reasons`` <- ``_finish`` <- ``_draw``/(``_meld`` <- ``_discard``
<- ``_meldphase``) <- ``_legal``, ``_apply`` <- ``_deal``; nothing here imports the public modules
above it.
"""

from ._backend import apply_id, apply_legal, core_name, deal, legal_ids, native_rules, problem, to_native, to_python, why, why_python
from ._deal import active_seats, dealers, first_dealer, first_player, next_dealer
from ._kernel import (FOOT, F_NATURAL, F_ASKED, F_B3, F_DREW, F_HAD_MELDED, F_MELDED, F_MUST_OUT, F_NO, F_NO_TAKE, F_OWN, F_TOOK,
                      F_TOUCHED, F_YES, PH_DRAW, PH_GAME_OVER, PH_HAND_OVER, Core, Deal, Result, pile_cards,
                      pile_of)
from ._notation import text
from ._rules import DISCARD, Rules, find_rules, rules_for
from ._table import side_info

__all__ = [
    "F_ASKED", "F_B3", "F_DREW", "F_HAD_MELDED", "F_MELDED", "F_MUST_OUT", "F_NO", "F_NO_TAKE", "F_OWN", "F_TOOK",
    "F_TOUCHED", "F_YES", "DISCARD", "FOOT", "F_NATURAL", "PH_DRAW", "PH_GAME_OVER", "PH_HAND_OVER", "Core", "Deal", "Result", "Rules",
    "active_seats", "apply_id", "deal", "dealers", "find_rules", "first_dealer", "first_player", "legal_ids",
    "next_dealer", "pile_cards", "pile_of", "problem", "rules_for", "side_info", "text", "why",
    "apply_legal", "core_name", "native_rules", "to_native", "to_python", "why_python",
]
