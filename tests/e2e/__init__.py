"""End-to-end tests: the CLI in a subprocess, as a user runs it."""
