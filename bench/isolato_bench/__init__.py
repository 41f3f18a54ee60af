"""isolato-bench: Isolato's benchmarks on localkube, one command (see __main__.py)."""
