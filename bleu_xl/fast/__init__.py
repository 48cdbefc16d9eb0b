"""Fast paths outside the core: the same results as the core's plain code, with a numeric library (numpy)."""
