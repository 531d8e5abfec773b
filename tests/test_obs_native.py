"""``ObservationEncoder.encode_into``: the observation vector and the legal-action mask written
straight into a caller's buffer (natively on the native core, ``native/src/obs.rs``).

The reference is the documented layout (``ObservationEncoder``'s table, layout version 2) as
:meth:`ObservationEncoder.encode` makes it from ``state.observation(seat)``, and
``state.legal_action_mask()``: the buffers must hold exactly those numbers, at every step of
seeded playouts of every bundled table (the usual table of each variant in the fast
selection, the others in CI's slow run), for the seat to act at every step and for every seat
at every fifth. No numpy needed: the buffers here
are ``bytearray`` and ``array.array`` (numpy's are tested where it is installed).
"""

from __future__ import annotations

import array
import random
import tracemalloc

import pytest

import canasta
from canasta import ArgumentError, GameState, ObservationEncoder, new_game
from canasta._core import _backend

TABLES = [(name, players) for name in canasta.variant_names()
          for players in sorted(int(p) for p in canasta.load_variant(name).tables)]


def _playout(name: str, players: int, seed: int) -> None:
    enc = ObservationEncoder(name, players)
    st = new_game(name, players, seed=seed)
    if _backend._ext is not None:
        assert st.core == "native"
        assert enc.__dict__.get("_writer") is None
    size = st.action_space.size
    out = array.array("f", bytes(4 * enc.size))
    mask = bytearray(size)
    rng = random.Random(seed)
    step = 0
    while True:
        # the seat to act at every step, every seat at every fifth
        seats = range(players) if step % 5 == 0 or st.current_player is None else (st.current_player,)
        for seat in seats:
            enc.encode_into(st, seat, out, mask)
            want = array.array("f", enc.encode(st.observation(seat)))
            assert out == want, f"{name} {players}, seed {seed}, step {step}, seat {seat}: " + ", ".join(
                seg.name for seg in enc.layout if out[seg.offset: seg.offset + seg.length]
                != want[seg.offset: seg.offset + seg.length])
            # a fresh wrapper of the position asks its legal ids itself (the encoder gives
            # the state the ids it made the mask of, which its next apply uses)
            fresh = GameState(st._c)
            assert bytes(mask) == fresh.legal_action_mask(), f"{name} {players}, step {step}: the mask"
            assert st.legal_action_ids() == fresh.legal_action_ids(), f"{name} {players}, step {step}: the ids"
        ids = st.legal_action_ids()
        if not ids:
            break
        st = st.apply(rng.choice(ids))
        step += 1
    if _backend._ext is not None:
        assert enc._writer.layout is not None, "the native encoder was not used"


@pytest.mark.parametrize("name,players", TABLES, ids=[f"{n}-{p}" for n, p in TABLES])
def test_the_vector_and_mask_are_the_encoders_at_every_step(name: str, players: int) -> None:
    """A seeded hand of every table, at every step (the layout: ObservationEncoder)."""
    _playout(name, players, 7)


def test_a_bytearray_and_numpy_arrays_take_the_same_numbers() -> None:
    """Any writable buffer of the right type and length: raw float32 bytes, numpy arrays
    (float32 vector; int8, uint8 or bool mask), rows of a 2-D array."""
    np = pytest.importorskip("numpy")
    enc = ObservationEncoder("samba", 4)
    st = new_game("samba", 4, seed=2)
    for a in st.legal_action_ids()[:1]:
        st = st.apply(a)
    raw = bytearray(4 * enc.size)
    enc.encode_into(st, 1, raw)
    want = enc.encode_array(st.observation(1))
    assert np.array_equal(np.frombuffer(raw, np.float32), want)
    rows = np.zeros((3, enc.size), np.float32)
    masks = np.zeros((3, st.action_space.size), np.bool_)
    enc.encode_into(st, 1, rows[2], masks[2])
    assert np.array_equal(rows[2], want) and not rows[:2].any()
    assert masks[2].tobytes() == st.legal_action_mask()
    for dtype in (np.int8, np.uint8):
        m = np.zeros(st.action_space.size, dtype)
        enc.encode_into(st, 1, None, m)
        assert m.tobytes() == st.legal_action_mask()


@pytest.mark.parametrize("bad,what", [
    (lambda n, a: bytearray(4 * n - 4), "out"),           # too short
    (lambda n, a: array.array("d", [0.0] * n), "out"),     # float64
    (lambda n, a: bytes(4 * n), "out"),                    # read-only
    (lambda n, a: [0.0] * n, "out"),                       # no buffer
    (lambda n, a: memoryview(bytearray(8 * n))[::2], "out"),  # not contiguous
])
def test_a_wrong_buffer_is_an_argument_error(bad, what) -> None:  # type: ignore[no-untyped-def]
    """A buffer of another type or length, read-only, or none: ArgumentError naming it; the
    process goes on."""
    enc = ObservationEncoder("hoyle-1950", 4)
    st = new_game("hoyle-1950", 4, seed=1)
    with pytest.raises(ArgumentError, match=f"^{what}: expected a writable, contiguous float32 buffer of "
                                            f"{enc.size} numbers"):
        enc.encode_into(st, 0, bad(enc.size, st.action_space.size))


def test_a_wrong_mask_seat_or_state_is_an_argument_error() -> None:
    enc = ObservationEncoder("hoyle-1950", 4)
    st = new_game("hoyle-1950", 4, seed=1)
    out = bytearray(4 * enc.size)
    size = st.action_space.size
    with pytest.raises(ArgumentError, match=f"^mask: expected a writable, contiguous int8 .* of {size} numbers"):
        enc.encode_into(st, 0, out, array.array("h", [0] * size))
    with pytest.raises(ArgumentError, match="^mask: "):
        enc.encode_into(st, 0, out, bytearray(size + 1))
    with pytest.raises(ArgumentError, match="^seat: "):
        enc.encode_into(st, 4, out)
    with pytest.raises(ArgumentError, match="^state: .*samba"):
        enc.encode_into(new_game("samba", 4, seed=1), 0, out)
    with pytest.raises(ArgumentError, match="^state: expected a GameState"):
        enc.encode_into("not a state", 0, out)  # type: ignore[arg-type]


def test_writing_allocates_nothing_per_step() -> None:
    """Once warm, writing a vector and a mask allocates no Python object (and the native heap
    holds no more than before)."""
    enc = ObservationEncoder("hoyle-1950", 4)
    st = new_game("hoyle-1950", 4, seed=5)
    rng = random.Random(5)
    states = [st]
    for _ in range(60):
        st = st.apply(rng.choice(st.legal_action_ids()))
        states.append(st)
    out = bytearray(4 * enc.size)
    mask = bytearray(st.action_space.size)
    for s in states:
        enc.encode_into(s, 0, out, mask)
    heap = _backend._ext.heap() if _backend._ext is not None else 0
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot()
        for _ in range(20):
            for s in states:
                enc.encode_into(s, 0, out, mask)
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    # what canasta's code (and the native calls it makes) allocated: not another thread's
    # (pytest-xdist's messaging runs beside the test)
    only = [tracemalloc.Filter(True, "*canasta*")]
    grew = sum(d.size_diff for d in after.filter_traces(only).compare_to(before.filter_traces(only), "filename"))
    if _backend._ext is not None:
        assert grew < 512, f"{grew} bytes allocated by {20 * len(states)} native writes"
        assert _backend._ext.heap() <= heap
