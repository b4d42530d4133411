"""State-based sync of content to the hub (design section 3): an outbox row per resource, a sender
that PATCHes only what changed since the hub's last acknowledgement, retries and a sweeper."""
