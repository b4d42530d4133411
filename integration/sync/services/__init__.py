"""The sync engine's writes, by role: the outbox (marking changed, queueing), the sender (one send), the batch
(many sends in this process) and the switch of hub environment."""
