"""Sales channels of the hub, on which rates and availability may differ."""
