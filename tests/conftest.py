"""Hypothesis profiles and the fast default selection of the test suite.

Plain ``pytest`` (the README's command) runs a fast selection: the tests marked ``slow`` are
left out (``addopts`` in pyproject.toml), and so are the sweeps over every table size beyond
each bundled variant's usual table (and most generic sweeps of the variants with sequences, see
``_SEQUENCE_TABLES``), which this file marks ``slow`` as they are collected. Nothing is
deselected outright: every test runs in CI's full suite.
``.ci/run`` runs that, then everything (``-o addopts="" -n auto``) with ``HYPOTHESIS_PROFILE=ci``.

``HYPOTHESIS_PROFILE=dev`` (the default) runs half the examples, for a quick local run;
``HYPOTHESIS_PROFILE=ci`` keeps the whole suite quick on a small CI machine;
``HYPOTHESIS_PROFILE=thorough`` runs many more examples (for a nightly job or before a release).

Both profiles keep hypothesis's usual example count (100, or 1000 when thorough) for cheap
properties. The seeded playouts of ``test_properties.py`` are expensive, so that file scales its
own example count from the profile (see ``PLAYOUT_EXAMPLES`` there). No test is timed:
``deadline=None``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

import canasta

# The rules tests share tests/helpers.py (``from helpers import ...``); pytest's importlib mode
# (CI) does not put this directory on sys.path by itself.
if str(Path(__file__).parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).parent))

settings.register_profile(
    "dev",
    max_examples=50,
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
        if ident in _EVERY and ident not in _USUAL:
            item.add_marker(slow)  # another table (Bolivia's and Brazilian's 2, 3, 5 and 6 too)
        elif ident in _SEQUENCE_TABLES and not _fast_sequence_sweep(ident, item.nodeid):
            item.add_marker(slow)
        elif spec.params.get("players", 4) != 4 and item.nodeid.startswith(_SEQUENCE_FILES):
            item.add_marker(slow)  # the sequence variants' own sweeps: the usual table first
