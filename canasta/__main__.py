"""``python -m canasta``: the ``canasta`` command (see :func:`canasta._cli.main`)."""

import sys

from ._cli import main

if __name__ == "__main__":
    sys.exit(main())
