"""Database helpers: plain SQL where the ORM costs too much, and transactions retried on conflict."""
