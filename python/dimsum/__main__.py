"""``python -m dimsum [COMMAND] ...``: the command line (see dimsum.cli)."""

import sys

from dimsum.cli import main

if __name__ == "__main__":
    sys.exit(main())
