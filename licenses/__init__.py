"""Business and permit license requests submitted to the hub, with the hub's review history."""
