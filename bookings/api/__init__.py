"""The vendor API: the calls the hub makes to us (contract section 3). Where the contract leaves it open,
the decision lives in one place: the error table in errors.py, the input limits in limits.py."""
