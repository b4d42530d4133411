"""The vendor API: the calls the hub makes to us (contract section 3)."""
