"""Talking to sites: plain fetches, robots.txt and politeness, name overrides, discovery."""
