"""The domain: plan, rounds, review, report rendering, synthesis, relevance."""
