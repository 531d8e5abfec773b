"""Build the native core into the source tree, for development: ``python native/build.py``.

It runs ``cargo build --release`` and copies the library to ``canasta/_native.abi3.so``, where
``import canasta`` finds it from a checkout (or an editable install). ``--remove`` deletes it
again, so that the checkout runs the Python core. A wheel (``pip install .``) builds its own
copy and never reads this one.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
TARGET = HERE.parent / "canasta" / ("_native.pyd" if sys.platform == "win32" else "_native.abi3.so")
LIBRARY = {"linux": "libcanasta_native.so", "darwin": "libcanasta_native.dylib", "win32": "canasta_native.dll"}


def main() -> int:
    if "--remove" in sys.argv[1:]:
        TARGET.unlink(missing_ok=True)
        print(f"removed {TARGET}")
        return 0
    subprocess.run(["cargo", "build", "--release", "--offline", "--manifest-path", str(HERE / "Cargo.toml")], check=True)
    built = HERE / "target" / "release" / LIBRARY.get(sys.platform, LIBRARY["linux"])
    # copied beside, then renamed over the old one: a process that has the old library loaded
    # keeps its copy (overwriting it in place would crash that process)
    tmp = TARGET.with_name(TARGET.name + ".tmp")
    shutil.copy2(built, tmp)
    tmp.replace(TARGET)
    print(f"built {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
