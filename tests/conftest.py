"""Hypothesis profiles for the test suite.

``HYPOTHESIS_PROFILE=ci`` (the default) keeps the whole suite quick on a small CI machine;
``HYPOTHESIS_PROFILE=thorough`` runs many more examples (for a nightly job or before a release).

Both profiles keep hypothesis's usual example count (100, or 1000 when thorough) for cheap
properties. The seeded playouts of ``test_properties.py`` are expensive, so that file scales its
own example count from the profile (see ``PLAYOUT_EXAMPLES`` there). No test is timed:
``deadline=None``.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

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
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
