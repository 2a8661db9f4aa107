"""Chat models: the factory, the provider guard, tracing, and the offline model."""
