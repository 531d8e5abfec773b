"""``python -m canasta``: the ``canasta`` command (see :func:`canasta.cli.main`)."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
