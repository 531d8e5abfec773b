"""hoyle-1950's optional point penalties and settlement custom, as score-sheet features."""

import random

import pytest

import canasta
from canasta._sheet import PENALTIES, ScoreSheet, settle


def finished_hand(name: str = "hoyle-1950", seed: int = 3) -> canasta.GameState:
    st = canasta.new_game(name, seed=seed)
    rnd = random.Random(seed)
    while not st.is_hand_over:
        st = st.apply(rnd.choice(st.legal_actions()))
    return st


def test_settlement_example_of_the_customs() -> None:
    """hoyle-1950 CANASTA CUSTOMS: "if a side wins by 5,030 to 3,050, it wins the difference
    between 50 and 31, or 19 'points' net" (each total to the nearest hundred, 50 or more as 100)."""
    v = canasta.load_variant("hoyle-1950")
    assert settle((5030, 3050), v) == (19, -19)
    assert settle((3050, 5030), v) == (-19, 19)


def test_settlement_without_the_custom_is_the_exact_difference() -> None:
    """bicycle: "the margin of victory is the difference of the final totals" (no rounding)."""
    assert settle((5030, 3050), canasta.load_variant("bicycle")) == (1980, -1980)


@pytest.mark.parametrize(
    "name, points",
    [("irregular_draw", 50), ("draw_out_of_turn", 100), ("draw_out_of_turn_kept", 100),
     ("cannot_go_out_after_yes", 100), ("meld_in_opponents_turn", 100), ("meld_in_partners_turn", 200),
     ("illegal_pile_take", 200), ("undeclared_red_three", 500)],
)
def test_point_penalties_of_hoyle(name: str, points: int) -> None:
    """hoyle-1950 POINT PENALTIES: "For an irregular draw, 50. ... drawing out of turn, 100; plus an
    additional 100 ... inability to go out, after asking and receiving the answer yes, 100. ...
    melding in an opponent's turn, 100; in partner's turn, 200. ... taking the discard pile into
    the hand illegally, 200." and rule 56 (red trey not declared) 500."""
    sheet = ScoreSheet.for_game(canasta.new_game("hoyle-1950"))
    sheet = sheet.penalize(1, name)
    assert sheet.totals == (0, -points)
    assert name in PENALTIES


def test_penalty_a_variant_does_not_state_is_refused() -> None:
    """bicycle states no point penalties: recording one is an error naming the setting."""
    sheet = ScoreSheet.for_game(canasta.new_game("bicycle"))
    with pytest.raises(ValueError, match="penalties.irregular_draw"):
        sheet.penalize(0, "irregular_draw")
    with pytest.raises(ValueError, match="unknown penalty"):
        sheet.penalize(0, "cheating")


def test_sheet_records_hands_and_penalties_carry_into_the_next_minimum() -> None:
    """hoyle-1950 rule 59: "the record should show each net deal score together with the cumulative
    total ... (Minimum count for the initial meld is fixed by this cumulative total.)"."""
    st = finished_hand()
    sheet = ScoreSheet.for_game(st).record_hand(st)
    assert sheet.totals == st.totals
    sheet = sheet.penalize(0, "undeclared_red_three", hand_number=st.hand_number)
    adj = sheet.adjustments(st.hand_number)
    assert adj == (-500, 0)
    nxt = st.next_hand(adjustments=adj)
    assert nxt.totals == sheet.totals
    assert nxt.initial_need(0) == nxt.variant.initial_need(sheet.totals[0])


def test_recording_an_unfinished_hand_is_an_error() -> None:
    st = canasta.new_game("hoyle-1950")
    with pytest.raises(ValueError, match="not over"):
        ScoreSheet.for_game(st).record_hand(st)


def test_negative_penalty_in_a_house_file_is_refused(tmp_path) -> None:
    path = tmp_path / "house.toml"
    path.write_text('extends = "hoyle-1950"\n[penalties]\nirregular_draw = -5\n')
    with pytest.raises(canasta.VariantError, match="penalties.irregular_draw"):
        canasta.load_variant(str(path))


def test_penalty_and_settlement_types_are_checked_by_key(tmp_path) -> None:
    """A house file's penalties and settlement are checked like every other setting: each
    problem names its key (DEVELOPERS.md: errors flattened to ``key.path: message`` lines)."""
    path = tmp_path / "house.toml"
    path.write_text('extends = "hoyle-1950"\n[penalties]\nirregular_draw = "x"\n[settlement]\nround_to = true\n')
    with pytest.raises(canasta.VariantError) as err:
        canasta.load_variant(str(path))
    keys = {p.key for p in err.value.problems}
    assert keys == {"penalties.irregular_draw", "settlement.round_to"}
