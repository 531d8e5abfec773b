"""The variant a record, a log or a save names: a bundled variant by its name (and settings
hash), or every setting, read by the variant loader (an equal earlier one reused).

Built on ``reading`` and the variant loader; built upon by ``log``, ``record_text`` and ``saves``.
"""

from __future__ import annotations

import json
from typing import Any, Callable

from .._bundled import bundled_by_hash
from .._variant import Variant, VariantError
from .._variant_load import variant_from_dict, variant_names
from .reading import _show


_CACHE: dict[str, Variant] = {}


def _variant_from_settings(data: dict[str, Any], path: str, error: Callable[[str, str], Exception]) -> Variant:
    """A variant from full settings, reusing an equal earlier one (one compiled rule set)."""
    try:
        key = json.dumps(data, sort_keys=True, default=str)
    except (TypeError, ValueError):  # pragma: no cover - TOML and JSON data always serialise
        key = ""
    hit = _CACHE.get(key) if key else None
    if hit is not None:
        return hit
    try:
        v = variant_from_dict(data, f"[{path}]")
    except VariantError as e:
        first = e.problems[0]
        more = "".join(f"\n{path}.{p.key}: {p.message}" for p in e.problems[1:])
        raise error(f"{path}.{first.key}", first.message + more) from None
    if key:
        if len(_CACHE) > 32:
            _CACHE.clear()
        _CACHE[key] = v
    return v


def _read_variant_ref(raw_v: Any, digest: Any, table: str, error: Callable[..., Exception]) -> Variant:
    """The variant a record, log or save names: a bundled variant's name (with its settings
    hash, checked, when given; never a path) or every setting (``table``, as a reader calls it)."""
    if isinstance(raw_v, str):
        if raw_v not in variant_names():
            raise error("variant", f"unknown variant {raw_v!r}: give a bundled variant name "
                        f"({', '.join(variant_names())}) or {table}")
        try:
            return bundled_by_hash(raw_v, digest)
        except LookupError as e:
            raise error("variant_hash", str(e).strip("'\"")) from None
        except TypeError as e:
            raise error("variant_hash", str(e)) from None
    if digest is not None:
        raise error("variant_hash", f"is given only with a bundled variant's name, not with {table}")
    if isinstance(raw_v, dict):
        return _variant_from_settings(raw_v, "variant", error)
    raise error("variant", f"expected {table} or a bundled variant's name, got {_show(raw_v)}")
