"""Access: property memberships, the staff and manager roles, and the property-scoped admin."""
