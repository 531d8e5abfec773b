"""Hypothesis profiles and the fast default selection of the test suite.

Plain ``pytest`` (the README's command) runs a fast selection: the tests marked ``slow`` are
left out (``addopts`` in pyproject.toml), and so are the sweeps over every table size beyond
each bundled variant's usual table (and most generic sweeps of the variants with sequences, see
``_SEQUENCE_TABLES``), which this file marks ``slow`` as they are collected. Nothing is
deselected outright: every test runs in CI's full suite.
``.ci/run`` runs that, then the rest (``-o addopts="" -n auto -m "slow or hypothesis"``: the slow
tests, and every hypothesis test again) with ``HYPOTHESIS_PROFILE=ci``.

``HYPOTHESIS_PROFILE=dev`` (the default) runs 20% of the examples, for a quick local run (CI
runs every hypothesis test again with ``ci``);
``HYPOTHESIS_PROFILE=ci`` keeps the whole suite quick on a small CI machine;
``HYPOTHESIS_PROFILE=thorough`` runs many more examples (for a nightly job or before a release).

The rules tests (``_BOTH_CORES``) run on both cores where the native core is built: each test
once natively and once on the Python core (the ``core`` fixture, ``[native]`` and ``[python]`` in
the test ids), so that a bug in either core fails a local ``pytest`` (issue 28: the Python
reference core was guarded only through the differential test's few random deals).

Both profiles keep hypothesis's usual example count (100, or 1000 when thorough) for cheap
properties. The seeded playouts of ``test_properties.py`` are expensive, so that file scales its
own example count from the profile (see ``PLAYOUT_EXAMPLES`` there). No test is timed:
``deadline=None``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Iterator

import pytest
from hypothesis import HealthCheck, settings

import canasta
from canasta._core import _backend, _rules

# The rules tests share tests/helpers.py (``from helpers import ...``); pytest's importlib mode
# (CI) does not put this directory on sys.path by itself.
if str(Path(__file__).parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).parent))

settings.register_profile(
    "dev",
    max_examples=20,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "ci",
    max_examples=100,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough",
    max_examples=1000,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


def _tables() -> tuple[set[str], set[str]]:
    """Every bundled table as ``variant-players``, and the usual one of each variant."""
    every: set[str] = set()
    usual: set[str] = set()
    for name in canasta.variant_names():
        v = canasta.load_variant(name)
        every.update(f"{name}-{p}" for p in v.tables)
        usual.add(f"{name}-{v.default_players}")
    return every, usual


_EVERY, _USUAL = _tables()
_SEQUENCE_TABLES = {"samba-4", "bolivia-4", "brazilian-4"}
"""The variants with sequences are swept in the fast selection by their own files
(tests/test_core_sequences.py, tests/test_suits_*.py, tests/test_rules_samba.py, ...) and by
Samba's random playouts in tests/test_properties.py; the other generic sweeps of them run in CI."""
_SEQUENCE_FILES = ("tests/test_core_sequences.py", "tests/test_suits_")
"""Files whose sweeps over the tables of the sequence variants run in the fast selection at the
usual table (4 players) only."""
_FAST_SEQUENCE_SWEEPS = {
    "tests/test_properties.py::test_random": {"samba-4"},
    "tests/test_golden.py::test_action_space": _SEQUENCE_TABLES,
    "tests/test_golden.py::test_replay_first_hands": _SEQUENCE_TABLES,
}
"""The generic sweeps that play the sequence variants' usual tables in the fast selection anyway:
Samba's random playouts, and the golden traces' action spaces and first hands of samba, bolivia
and brazilian at four players."""


_HEAVY_TABLES = {"pennies-from-heaven-6"}
"""Usual tables whose generic sweeps (property playouts, observations, resampling, saves) run in
CI's slow run only, but for ``_FAST_HEAVY_SWEEPS``: six hands of 24 cards each make them seconds
apiece, and the variant's own rules file (both cores) and the differential test guard it in the
fast selection (issue 27: the README's pytest stays under a minute)."""
_FAST_HEAVY_SWEEPS = ("tests/test_golden.py::test_action_space", "tests/test_golden.py::test_replay_first_hands",
                      "tests/test_native.py::test_both_cores_agree_on_seeded_playouts")
_SECOND_WAVE_TABLES = {"italian-4", "mexicana-4", "uruguayan-4"}
"""Usual tables of issue 27's variants whose generic sweeps run in CI's full suite, but for those of
``_FAST_SECOND_WAVE_SWEEPS``: the fast selection guards them through their own rules files, the
random playouts, the differential playouts, positions and the golden traces' first hands."""
_FAST_SECOND_WAVE_SWEEPS = ("tests/test_properties.py::test_random_playout_invariants",
                            "tests/test_native.py::test_both_cores_agree_on_seeded_playouts",
                            "tests/test_position.py::test_round_trip_random_playout",
                            "tests/test_golden.py::test_replay_first_hands",
                            "tests/test_golden.py::test_action_space")


def _fast_sequence_sweep(ident: str, nodeid: str) -> bool:
    return any(nodeid.startswith(prefix) and ident in tables for prefix, tables in _FAST_SEQUENCE_SWEEPS.items())


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A test parametrized by a table that is not its variant's usual one is ``slow``: the
    fast selection sweeps each variant at its usual table, CI's full suite sweeps them all. No
    test is deselected: what the fast selection leaves out is marked ``slow``, and CI runs it."""
    slow = pytest.mark.slow
    for item in items:
        spec = getattr(item, "callspec", None)
        if spec is None:
            continue
        ident = spec.id
        if spec.params.get("core") == "python" and item.nodeid.startswith(_SLOW_ON_PYTHON):
            item.add_marker(slow)  # (the rules files guard the Python core in the fast run)
            continue
        if "core" in spec.params:  # the table's id without the core's (``native-samba-5``)
            parts = ident.split("-")
            parts.remove(spec.params["core"])
            ident = "-".join(parts)
        if ident in _EVERY and ident not in _USUAL:
            item.add_marker(slow)  # another table (Bolivia's and Brazilian's 2, 3, 5 and 6 too)
        elif ident in _SEQUENCE_TABLES and not _fast_sequence_sweep(ident, item.nodeid):
            item.add_marker(slow)
        elif ident in _HEAVY_TABLES and not item.nodeid.startswith(_FAST_HEAVY_SWEEPS):
            item.add_marker(slow)
        elif ident in _SECOND_WAVE_TABLES and not item.nodeid.startswith(_FAST_SECOND_WAVE_SWEEPS):
            item.add_marker(slow)  # (its own tests/test_rules_*.py file runs in the fast selection)
        elif spec.params.get("players", 4) != 4 and item.nodeid.startswith(_SEQUENCE_FILES):
            item.add_marker(slow)  # the sequence variants' own sweeps: the usual table first


_BOTH_CORES = ("tests/test_rules_", "tests/test_core_sequences.py", "tests/test_golden.py")
"""Test files (node id prefixes) run on both cores: the rules tests, the sequence variants' core
tests and the golden traces."""
_SLOW_ON_PYTHON = ("tests/test_golden.py", "tests/test_core_sequences.py")
"""Of ``_BOTH_CORES``, the files whose Python-core runs are left to CI's slow run (seeded games
and whole traces: seconds of CPU; the fast run keeps their native runs)."""
CORES = ("native", "python") if _backend._ext is not None else ("python",)
"""The cores the rules tests run on: the Python core, and the native core where it is built."""


def pytest_collectstart(collector: pytest.Collector) -> None:
    """The modules of ``_BOTH_CORES`` use the ``core`` fixture in every test."""
    if isinstance(collector, pytest.Module) and collector.nodeid.startswith(_BOTH_CORES):
        collector.add_marker(pytest.mark.usefixtures("core"))


@pytest.fixture(scope="module", params=CORES)
def core(request: pytest.FixtureRequest) -> Iterator[str]:
    """The core the test's games run on: ``"native"`` (as the installation chooses), or
    ``"python"``: for the module's tests no table runs natively (as with ``CANASTA_CORE=python``),
    the compiled rules of every table made afresh, so none is shared with the other core."""
    if request.param == "native" or _backend._ext is None:
        yield request.param
        return
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_backend, "_ext", None)
        mp.setattr(_backend, "_why_not", "the tests' core fixture runs the Python core")
        mp.setattr(_rules, "_RULES", {})
        yield request.param
