"""Task plumbing: queueing after commit, durable jobs, leases, periodic runs, the broker's view, heartbeats
and retention purges."""
