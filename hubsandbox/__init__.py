"""The hub simulator: a faithful stand-in for the hub's API, mounted at /sandbox/ only when enabled."""
