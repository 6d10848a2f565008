"""``python -m samepage``: the command line."""

import sys

from samepage.cli import main

sys.exit(main())
