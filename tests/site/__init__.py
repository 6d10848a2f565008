"""The multi-site web fixture the learner's tests run against, with its ground truth."""
