"""The encoder's numpy forms (``ObservationEncoder.encode_array`` / ``encode_batch``) and the
layout version. They need numpy (the ``rl`` extra): skipped, saying so, where it is missing.
"""

from __future__ import annotations

import random
from typing import Iterator

import pytest

import canasta
from canasta import ObservationEncoder, new_game

RL = "the rl extra is not installed (pip install \"canasta[rl]\")"
np = pytest.importorskip("numpy", reason=f"numpy: {RL}")


def states(name: str, players: int, seeds: range) -> Iterator[canasta.GameState]:
    """Every state of random playouts of one hand."""
    for seed in seeds:
        rng = random.Random(seed)
        st = new_game(name, players, seed=seed)
        while True:
            yield st
            if st.is_hand_over:
                break
            st = st.apply(rng.choice(st.legal_action_ids()))


# ------------------------------------------------------------------ the encoder's numpy forms


def test_encode_array_and_batch_are_the_list_encoding_as_float32() -> None:
    enc = ObservationEncoder("hoyle-1950", 4)
    obs = [st.observation(st.current_player or 0) for st in states("hoyle-1950", 4, range(1))][:40]
    one = enc.encode_array(obs[7])
    assert one.dtype == np.float32 and one.shape == (enc.size,)
    assert np.array_equal(one, np.array(enc.encode(obs[7]), dtype=np.float32))
    batch = enc.encode_batch(obs)
    assert batch.dtype == np.float32 and batch.shape == (len(obs), enc.size)
    for i, o in enumerate(obs):
        assert np.array_equal(batch[i], enc.encode_array(o))
    assert enc.encode_batch([]).shape == (0, enc.size)
    assert enc.encode_batch(iter(obs[:3])).shape == (3, enc.size)


def test_encode_batch_refuses_an_observation_of_another_table() -> None:
    other = new_game("hoyle-1950", 6, seed=1).observation(0)
    enc = ObservationEncoder("hoyle-1950", 4)
    mine = new_game("hoyle-1950", 4, seed=1).observation(0)
    with pytest.raises(ValueError, match="hoyle-1950 with 4 players"):
        enc.encode_batch([mine, other])


# The segments of each layout version, in order. Changing the vector without bumping
# ObservationEncoder.LAYOUT_VERSION (and adding its row here) fails this test.
LAYOUTS = {
    1: ("own_hand", "own_down_size", "other_hand_sizes", "other_down_sizes", "melds", "red_threes", "opened",
        "initial_need", "totals", "pile_size", "pile_top", "pile_discards", "frozen", "stock_size", "phase",
        "current_player", "dealer", "active", "melded", "took_last", "turn", "last_round"),
}


@pytest.mark.parametrize("name", ["hoyle-1950", "new-canasta"])
def test_the_layout_version_names_the_layout(name: str) -> None:
    version = ObservationEncoder.LAYOUT_VERSION
    assert isinstance(version, int) and version >= 1
    enc = ObservationEncoder(name, canasta.load_variant(name).default_players)
    names = tuple(seg.name for seg in enc.layout)
    expected = tuple(n for n in LAYOUTS[version] if enc.down_hands or "down" not in n)
    assert names == expected
    p, s = enc.players, enc.sides
    shapes = {seg.name: seg.shape for seg in enc.layout}
    assert shapes["own_hand"] == (15,) and shapes["other_hand_sizes"] == (p - 1,)
    assert shapes["melds"] == (s, len(enc.meld_ranks), enc.max_melds_per_rank, 4)
    assert shapes["phase"] == (len(canasta.Phase),) and shapes["turn"] == (13,)
