"""Settings, declared once: a run's client's choices and the operator's settings."""
