"""Small helpers every app uses (no app logic; imports no app): queueing work after a commit by task name,
durable jobs, the processes' heartbeats."""
