"""Plugins for the whole repository: the doctests of ``samepage`` and ``learner`` and ``tests``."""

pytest_plugins = ("tests.plugins.extras",)
