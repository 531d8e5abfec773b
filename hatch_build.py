"""Build hook: with ``CANASTA_COMPILE=1``, compile ``canasta/_core`` with mypyc into the wheel.

    pip install .                      # pure Python (this hook does nothing, needs nothing)
    CANASTA_COMPILE=1 pip install .    # the same package with canasta/_core compiled by mypyc

The work is mypyc's own (``mypyc.build.mypycify`` and a setuptools ``build_ext``); this hook
only decides whether to run it and where. It compiles a copy of the package in a temporary
directory, never in the source tree, and adds the extension modules to the wheel beside the
``.py`` files (Python imports an extension module before a source file of the same name), with
mypyc's shared library of the group (``<hash>__mypyc.*.so``) at the top of site-packages, where
mypyc puts it by default. So a compiled build leaves nothing behind that an editable install or a
later pure build could pick up, and the project's pyproject.toml is never read by setuptools.
``debug_level="0"``: no C debug information, which halves the shared library and changes
neither speed nor Python tracebacks.

Why not the hatch-mypyc plugin: tried (0.16.0, its last release, February 2023), it works, but
it compiles in place, leaving ``canasta/_core/*.so`` and ``<hash>__mypyc.*.so`` in the checkout
after the build (an editable install then imports them instead of the edited ``.py`` files, and
a later pure build ships them without the shared library, tagged ``py3-none-any``), and it
renames pyproject.toml while it runs so that setuptools does not read it. It offers no switch
of its own other than hatch's ``HATCH_BUILD_HOOK_ENABLE_MYPYC``.

The compile requirements (``compile-requires`` in this hook's table of pyproject.toml, plus
the project's dependencies, which mypy reads for the modules that ``canasta/_core`` imports)
are asked of the build frontend only when the switch is on: a plain install needs hatchling
alone. With the switch on, a missing C compiler or a mypyc error fails the build with mypyc's
output: nothing falls back to pure Python silently.
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

SWITCH = "CANASTA_COMPILE"
PACKAGE = "canasta"
COMPILED = "canasta/_core"  # every .py file of this directory is compiled

_SCRIPT = """\
import sys
from setuptools import setup  # first, so that mypyc builds with setuptools
from mypyc.build import mypycify

paths, out = sys.argv[1:-1], sys.argv[-1]
setup(
    name="canasta-core",
    ext_modules=mypycify(paths, opt_level="3", debug_level="0"),
    script_args=["build_ext", "--build-lib", out, "--build-temp", "build/temp"],
)
"""


def compile_wanted() -> bool:
    value = os.environ.get(SWITCH, "").strip().lower()
    if value in ("", "0", "false", "no", "off"):
        return False
    if value in ("1", "true", "yes", "on"):
        return True
    raise ValueError(f"{SWITCH}={os.environ[SWITCH]!r}: expected 1 (compile with mypyc) or 0 (pure Python)")


class CompileHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def dependencies(self) -> list[str]:
        if not compile_wanted():
            return []
        requires = self.config.get("compile-requires", [])
        return [*requires, *self.metadata.core.dependencies]

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or not compile_wanted():
            return
        if version == "editable":
            raise RuntimeError(f"{SWITCH}=1 builds a regular install; an editable one runs the .py files")
        work = Path(tempfile.mkdtemp(prefix="canasta-mypyc-"))
        self._work = work
        shutil.copytree(Path(self.root) / PACKAGE, work / PACKAGE,
                        ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", "*.pyc"))
        # mypyc type-checks what canasta/_core imports with the project's mypy settings (the
        # optional extras taken as Any: the build environment has none of them)
        shutil.copy2(Path(self.root) / "pyproject.toml", work / "pyproject.toml")
        sources = sorted(p.relative_to(work).as_posix() for p in (work / COMPILED).glob("*.py"))
        out = work / "out"
        self.app.display_info(f"{SWITCH}=1: compiling {len(sources)} modules of {COMPILED} with mypyc")
        done = subprocess.run([sys.executable, "-c", _SCRIPT, *sources, str(out)], cwd=work,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if done.returncode:
            raise RuntimeError(f"{SWITCH}=1: mypyc failed (exit {done.returncode}); unset {SWITCH} "
                               f"for the pure-Python package.\n{done.stdout}")
        built = sorted(p for p in out.rglob("*") if p.suffix in (".so", ".pyd"))
        modules = {p.relative_to(out).as_posix().split(".")[0] for p in built}
        missing = [s for s in sources if s[:-3] not in modules]
        if missing:
            raise RuntimeError(f"{SWITCH}=1: mypyc built no extension for {', '.join(missing)}\n{done.stdout}")
        for path in built:
            build_data["force_include"][str(path)] = path.relative_to(out).as_posix()
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        work = getattr(self, "_work", None)
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)
