"""Which rules core runs: the native one (Rust, built with the package where a toolchain was
found) or the Python one (the reference, always there)."""

from __future__ import annotations

from typing import Optional

from attrs import frozen

from ._core import _backend

__all__ = ["CoreInfo", "core_info"]


@frozen
class CoreInfo:
    """What :func:`core_info` reports."""

    name: str
    """``"native"`` when new games run on the native core, else ``"python"``."""
    native_built: bool
    """The native core is built into this installation (``CANASTA_CORE=python`` may still turn it
    off)."""
    reason: str
    """Why the Python core runs ('' when the native one does)."""
    native_version: Optional[str]
    """The native core's version, where it is built."""

    def __str__(self) -> str:
        if self.name == "native":
            return f"native core {self.native_version}"
        return f"Python core: {self.reason}"


def core_info() -> CoreInfo:
    """Which rules core plays new games in this process.

    The native core plays every table of every bundled variant, and any house-rules file whose
    settings it supports (a table it does not support runs on the Python core, with a
    ``RuntimeWarning`` saying why; :attr:`GameState.core` tells per state). Set the environment
    variable ``CANASTA_CORE=python`` before importing canasta to use the Python core everywhere.
    """
    ext = _backend._ext
    built = ext is not None
    if not built:
        try:
            import importlib.util

            built = importlib.util.find_spec("canasta._native") is not None
        except (ImportError, ValueError):  # pragma: no cover
            built = False
    version = getattr(ext, "__version__", None)
    if ext is None:
        reason = _backend._why_not
        if not built:
            reason = _source_tree_reason() or reason
        return CoreInfo("python", built, reason, None)
    return CoreInfo("native", True, "", version)


def _source_tree_reason() -> Optional[str]:
    """Why the native core is missing when canasta is imported from its source tree (a checkout
    with ``native/``, e.g. ``python -c "import canasta"`` at its root) and not built there: the
    fix, or None for an installed package."""
    import os

    root = _package_parent()
    if not os.path.isfile(os.path.join(root, "native", "build.py")):
        return None
    return (f"canasta is imported from its source tree ({root}), where the native core is not built: "
            "run 'python native/build.py' there (needs Rust's cargo), or install the package "
            "(pip install .)")


def _package_parent() -> str:
    """The folder that holds the imported ``canasta`` package (a checkout's root, or
    site-packages)."""
    import os

    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
