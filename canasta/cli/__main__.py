"""``python -m canasta.cli``: the ``canasta`` command."""

import sys

from .parser import main

if __name__ == "__main__":
    sys.exit(main())
