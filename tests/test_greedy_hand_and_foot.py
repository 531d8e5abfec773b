"""GreedyBot in hand-and-foot (issue 30): going out there needs "two clean piles, two dirty piles
and one wild pile" (Pagat, Hand and Foot, going out: ``going_out.canastas_by_kind``), and the
greedy policy spent its wild cards only to complete mixed canastas or to open, so no side ever
made the wild canasta: every deal ended with the stock exhausted (seeds 0 to 7: 0 of 8 went
out), the foot often never reached. The policy now melds wild cards together while its side
lacks the wild canasta going out needs, in both cores alike."""

from __future__ import annotations

import canasta
from canasta import GreedyBot
from canasta._bots import _ask
from canasta._cards import WILD_RANK


def test_greedy_sides_make_the_wild_canasta_and_go_out() -> None:
    sim = canasta.simulate("hand-and-foot", deals=6, seed=0)
    went_out = [r for r in sim.rows if r.ending.startswith("went out")]
    assert len(went_out) >= 2, [r.ending for r in sim.rows]


def test_greedy_never_ends_a_turn_able_to_build_the_wild_canasta() -> None:
    """While its side lacks the wild canasta, the bot does not discard while it could still lay a
    meld of wild cards or add a wild card to one (the old policy did, turn after turn); once
    the side has it, wild cards go back to completing canastas only."""
    v = canasta.load_variant("hand-and-foot")
    seen = 0
    for seed in range(3):
        st = canasta.new_game(v, seed=seed)
        bots = [GreedyBot(seed * 1000 + s) for s in range(st.players)]
        while not st.is_hand_over:
            seat = st.current_player
            choice = _ask(bots[seat], st)
            side = st.side_of(seat)
            lacking = not any(m.rank == WILD_RANK and m.size >= v.melds.canasta_size for m in st.melds[side])
            wild = [a for a in st.legal_actions() if isinstance(a, (canasta.Meld, canasta.Add)) and a.rank == WILD_RANK]
            if isinstance(choice, canasta.Discard) and wild:
                assert not lacking, (seed, str(choice), [str(a) for a in wild])
            seen += bool(wild) and lacking
            st = st.apply(choice)
    assert seen > 0


def test_both_cores_play_it_alike() -> None:
    """The native core's greedy playout (``simulate``) and the Python policy, decision for
    decision: the same actions and scores, deal by deal."""
    sim = canasta.simulate("hand-and-foot", deals=3, seed=0)
    for row in sim.rows:
        st = canasta.new_game("hand-and-foot", seed=row.seed)
        bots = [GreedyBot(row.seed * 1000 + s) for s in range(st.players)]
        count = 0
        while not st.is_hand_over:
            st = st.apply(_ask(bots[st.current_player], st))
            count += 1
        scores = tuple(sc.total for sc in sorted(st.result.scores, key=lambda sc: sc.side))
        assert (row.actions, row.scores) == (count, scores), row.seed
