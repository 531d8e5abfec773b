"""Build hook: build the native rules core (``native/``, Rust) into the wheel when it can.

    pip install .                    # native core when cargo is there, else pure Python, silently
    CANASTA_NATIVE=0 pip install .   # pure Python: the build is skipped
    CANASTA_NATIVE=1 pip install .   # native core required: a failed build fails the install

The work is cargo's own (``cargo build --release --offline``: the crate has no dependencies, so
it builds without a network). The hook builds in a temporary target directory, never in the
source tree, and adds the shared library to the wheel as ``canasta/_native.abi3.so`` (the
extension module is written against CPython's stable ABI), tagging the wheel for the platform.
An editable install (``pip install -e .``) stays pure Python: its package is the source tree,
which holds no build; ``python native/build.py`` builds one into the tree for development.

Without cargo, or when the build fails, the package is the pure-Python one and runs every
variant on the Python core; ``canasta.core_info()`` and ``canasta --version`` say which core
runs.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

SWITCH = "CANASTA_NATIVE"
TARGET = "canasta/_native.abi3.so" if os.name != "nt" else "canasta/_native.pyd"
LIBRARY = {"linux": "libcanasta_native.so", "darwin": "libcanasta_native.dylib", "win32": "canasta_native.dll"}


def native_wanted() -> str:
    """'off', 'auto' (build if possible) or 'required', from ``CANASTA_NATIVE``."""
    value = os.environ.get(SWITCH, "").strip().lower()
    if value in ("0", "false", "no", "off"):
        return "off"
    if value in ("", "auto"):
        return "auto"
    if value in ("1", "true", "yes", "on"):
        return "required"
    raise ValueError(f"{SWITCH}={os.environ[SWITCH]!r}: expected 1 (require the native core), 0 (pure Python) "
                     "or auto (build it where cargo is, the default)")


class NativeHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        want = native_wanted()
        if self.target_name != "wheel" or version == "editable" or want == "off":
            return
        try:
            library = self._build()
        except Exception as e:  # noqa: BLE001 - any failure falls back to pure Python unless required
            if want == "required":
                raise RuntimeError(f"{SWITCH}=1: the native core did not build: {e}") from None
            self.app.display_warning(f"canasta: the native core did not build ({e}); installing pure Python")
            return
        build_data["force_include"][str(library)] = TARGET
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def _build(self) -> Path:
        cargo = shutil.which("cargo")
        if cargo is None:
            raise RuntimeError("cargo is not on PATH")
        name = LIBRARY.get(sys.platform, LIBRARY["linux"])
        work = Path(tempfile.mkdtemp(prefix="canasta-native-"))
        self._work = work
        manifest = Path(self.root) / "native" / "Cargo.toml"
        self.app.display_info("canasta: building the native core (cargo build --release)")
        done = subprocess.run([cargo, "build", "--release", "--offline", "--manifest-path", str(manifest),
                               "--target-dir", str(work)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if done.returncode:
            raise RuntimeError(f"cargo failed (exit {done.returncode}):\n{done.stdout[-4000:]}")
        library = work / "release" / name
        if not library.is_file():
            raise RuntimeError(f"cargo built no {name}")
        return library

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        work = getattr(self, "_work", None)
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)
