"""The learner settings the test suite and the learner benchmark use on the fixture sites.

Small samples and short page limits keep the suite quick; the method is the same. No
politeness delay: the fixture is ours, on 127.0.0.1.
"""

from __future__ import annotations

import json

from learner.config import LearnerConfig, RenderSettings

SUITE_CONFIG = LearnerConfig(
    samples=4,
    min_samples=3,
    delay_s=0.0,
    jitter_s=0.0,
    concurrency=2,
    render=RenderSettings(
        viewport_width=1000,
        viewport_height=700,
        max_page_height=3000,
        page_timeout_s=6.0,
        network_idle_max_s=2.0,
    ),
)


def config_toml(config: LearnerConfig) -> str:
    """``config`` as the TOML file ``--config`` reads (a ``[learner]`` table)."""
    data = config.to_json()
    render = data.pop("render")
    lines = ["[learner]"] + [f"{k} = {json.dumps(v)}" for k, v in data.items()]
    lines += ["[learner.render]"] + [f"{k} = {json.dumps(v)}" for k, v in render.items()]
    return "\n".join(lines) + "\n"
