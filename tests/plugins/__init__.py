"""Pytest fixture plugins shared by the test suite."""
