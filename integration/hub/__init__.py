"""The hub API client: one HTTP session, every path in one table, typed errors."""
