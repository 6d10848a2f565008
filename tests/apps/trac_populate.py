"""Fill a new Trac environment with seeded tickets and versioned wiki pages.

Run by Trac's own interpreter (``.venv-trac``, see ``scripts/setup.sh``), not the test
suite's, from the repository root: ``python -m tests.apps.trac_populate ENV_PATH SEED``.
Every date lies in the past and comes from the seed, so two builds of the environment serve
the same pages.
"""

from __future__ import annotations

import random
import sys
from datetime import UTC, datetime, timedelta

from tests.apps.content import sentence

TICKETS = 36
WIKI_PAGES = ("HarbourGuide", "ReleaseNotes", "CodingStyle", "MeetingNotes")
WIKI_VERSIONS = 4
START = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)
STATUSES = ("new", "assigned", "accepted", "reopened", "closed")
OWNERS = ("alice", "bruno", "chiara", "dmitri", "esther")
MILESTONES = ("milestone1", "milestone2", "milestone3", "milestone4")
"""The milestones ``trac-admin initenv`` creates."""


def populate(path: str, seed: int) -> None:
    """Add ``TICKETS`` tickets and ``WIKI_VERSIONS`` versions of each wiki page."""
    # Imported here: the constants above are read by the tests, which do not have Trac.
    from trac.env import Environment
    from trac.ticket.model import Ticket
    from trac.wiki.model import WikiPage

    rng = random.Random(seed)
    env = Environment(path)
    try:
        for number in range(1, TICKETS + 1):
            ticket = Ticket(env)
            ticket["summary"] = sentence(rng, 5).capitalize()
            ticket["description"] = sentence(rng, 30)
            ticket["reporter"] = rng.choice(OWNERS)
            ticket["owner"] = rng.choice(OWNERS)
            ticket["priority"] = rng.choice(("blocker", "critical", "major", "minor", "trivial"))
            ticket["component"] = rng.choice(("component1", "component2"))
            # Nine tickets a milestone: one page of results at ten a page, two at five.
            ticket["milestone"] = MILESTONES[(number - 1) % len(MILESTONES)]
            ticket["type"] = rng.choice(("defect", "enhancement", "task"))
            ticket["status"] = status = rng.choice(STATUSES)
            if status == "closed":
                ticket["resolution"] = rng.choice(("fixed", "wontfix", "duplicate"))
            ticket.insert(when=START + timedelta(hours=7 * number))
        for number, name in enumerate(WIKI_PAGES):
            for version in range(1, WIKI_VERSIONS + 1):
                page = WikiPage(env, name)
                page.text = f"= {name} =\n\nRevision {version}.\n\n{sentence(rng, 60)}\n"
                when = START + timedelta(days=3 * number, hours=version)
                page.save(rng.choice(OWNERS), f"revision {version}", when)
    finally:
        env.shutdown()


if __name__ == "__main__":
    populate(sys.argv[1], int(sys.argv[2]))
