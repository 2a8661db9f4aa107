"""Durability tests: real processes, real SIGKILLs, real databases (DESIGN.md section 5)."""
