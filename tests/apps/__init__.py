"""Real third-party web applications the learner is tested and benchmarked on.

Each module serves one application on 127.0.0.1 with generated, seeded content, spells an
observed-URL log for it and states the verdict every studied parameter must get, with the
reason found in the application's own code or documentation.
"""
