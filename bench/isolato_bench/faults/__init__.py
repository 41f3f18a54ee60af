"""Control-plane faults and the `make run` modes, measured on localkube."""
