"""Small helpers every app uses (no app logic; imports no app), grouped by role: admin/ (admin helpers),
background/ (task plumbing: queueing by task name, durable jobs, leases, periodic runs, heartbeats,
retention), db/ (plain SQL, transactions retried on conflict), files/ (storage, CSV); beside them the audit
trail, Korea dates, e-mail, metrics and the request id."""
