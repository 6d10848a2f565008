"""Rendering a page in Chromium: finding the browser, loading, readiness, capture."""
