"""A griffe extension for the API pages: Sphinx roles in docstrings become code spans.

The package's docstrings cross-reference with reST roles (``:class:`VariantError```,
``:meth:`apply```), which Markdown would show literally. This rewrites each role to a
Markdown code span (`VariantError`) when the docstrings are collected.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:py:)?(?:class|func|meth|attr|exc|data|mod|obj):`~?([^`]+)`")


class SphinxRoles(griffe.Extension):
    """Replace ``:role:`target``` with `` `target` `` in every docstring."""

    def on_instance(self, *, node: Any, obj: griffe.Object, agent: Any, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = _ROLE.sub(lambda m: f"``{m.group(1)}``", obj.docstring.value)
