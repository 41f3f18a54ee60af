"""Isolato's experiment runner: definitions (defs/*.yaml) run on localkube through the REST API."""
