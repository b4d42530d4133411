"""The vendor API: the calls the hub makes to us (decision 0010). Where the spec leaves it open,
the decision lives in one place: the error table in errors.py, the input limits in limits.py."""
