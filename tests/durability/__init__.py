"""Durability tests: real processes, real SIGKILLs, real databases (docs/architecture.md, "The
durability promises")."""
