"""Bundled variants only: loading by name without ever reading a path, and the settings hash
that compact saves name a bundled variant by.

A game server takes variant names from its clients. :func:`load_variant` and
:func:`new_game` also take paths to variant files, so a name from a client passed to them
could make the server read a file of its disk. :func:`bundled_variant` takes only the name of
a variant bundled with canasta, loads it once per process and gives the same :class:`Variant`
object every time (so games of it share one compiled rule set: ``new_game(bundled_variant(n))``
costs what ``new_game(variant)`` does).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from ._variant import Problem, Variant, VariantError
from ._variant_load import load_variant, variant_names, variant_to_dict

__all__ = ["bundled_variant"]

_NAMES: list[tuple[str, ...]] = []
_LOADED: dict[str, Variant] = {}
_HASHES: dict[int, tuple[Variant, str]] = {}
_NOT_RULES = ("description", "source")
"""Settings that are text for readers, not rules: left out of the settings hash."""


def _names() -> tuple[str, ...]:
    """The bundled variants' names, read once (the package's files do not change)."""
    if not _NAMES:
        _NAMES.append(variant_names())
    return _NAMES[0]


def bundled_variant(name: str) -> Variant:
    """The bundled variant called ``name`` (one of :func:`variant_names`), never a file.

    Unlike :func:`load_variant`, a name that is not a bundled variant is refused even when a
    file of that name exists, so a server may pass it names its clients send. Each variant
    is loaded once per process and the same :class:`Variant` object returned after, so games
    share its compiled rules (``new_game(bundled_variant("samba"))`` costs a deal, not a load).

    Raises :class:`VariantError` for anything but a bundled variant's name (the problem names
    the bundled variants).
    """
    v = _LOADED.get(name) if isinstance(name, str) else None
    if v is not None:
        return v
    if not isinstance(name, str):
        raise VariantError([Problem(repr(name)[:60], "(name)", "expected the name of a bundled variant (a str), "
                                    f"not {type(name).__name__}")])
    if name not in _names():
        shown = name if len(name) <= 60 else name[:60] + "..."
        raise VariantError([Problem(shown, "(name)", f"not a bundled variant (only bundled variants are loaded "
                                    f"here, never a file); bundled variants: {', '.join(_names())}")])
    v = _LOADED[name] = load_variant(name)
    return v


def settings_hash(variant: Variant) -> str:
    """(private) A short hash of ``variant``'s rules: every setting but its free texts
    (``description``, ``source``), as :func:`variant_to_dict` gives them. Equal settings give
    the same hash on any machine and in any process."""
    hit = _HASHES.get(id(variant))
    if hit is not None and hit[0] is variant:
        return hit[1]
    data: dict[str, Any] = {k: v for k, v in variant_to_dict(variant).items() if k not in _NOT_RULES}
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True, default=str)
    digest = hashlib.sha256(text.encode("ascii")).hexdigest()[:16]
    if len(_HASHES) > 256:
        _HASHES.clear()
    _HASHES[id(variant)] = (variant, digest)
    return digest


def bundled_name(variant: Variant) -> str | None:
    """(private) ``variant``'s name when it is a bundled variant with the rules it is bundled
    with (same settings hash), else None (a house rule, or a bundled name with other rules)."""
    name = variant.name
    if name not in _names():
        return None
    return name if settings_hash(variant) == settings_hash(bundled_variant(name)) else None


def bundled_by_hash(name: str, digest: Any) -> Variant:
    """(private) The bundled variant ``name`` when its settings hash is ``digest`` (None: not
    checked). Raises ``LookupError`` with the reason (an unknown name, another hash)."""
    if name not in _names():
        raise LookupError(f"unknown variant {name!r}: a compact save names a bundled variant "
                          f"({', '.join(_names())})")
    v = bundled_variant(name)
    if digest is not None:
        if not isinstance(digest, str):
            raise TypeError(f"expected the settings hash as a string, not {type(digest).__name__}")
        mine = settings_hash(v)
        if digest != mine:
            raise LookupError(f"unknown settings hash {digest!r} for {name}: the save was written with rules of "
                              f"{name} that this version of canasta does not bundle (its {name} has hash {mine}); "
                              "load it with the canasta that wrote it, or save with every setting "
                              "(compact=False)")
    return v
