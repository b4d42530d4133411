"""Admin helpers every app shares: mixins, the audit of admin saves, date drill-down, paging of huge
lists and how exchange logs are shown."""
