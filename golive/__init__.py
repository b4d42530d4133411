"""Going live: the go-live checklist of a property (computed from what is there) and its health page."""
