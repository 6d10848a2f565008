"""What to study: URL logs and plans, targets, patterns and their samples."""
