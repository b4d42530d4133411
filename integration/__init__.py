"""Properties, their content, rates and availability, the people who manage them, and sync to the hub."""
