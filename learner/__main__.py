"""``python -m learner``: the learner's command line."""

import sys

from learner.cli import main

sys.exit(main())
