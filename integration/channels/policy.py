"""How we sell on a channel, where the hub's spec is silent (OURS (decision 0009)): the business decisions the channel
models, the channel services and the vendor API's booking create apply. The hub's paths and bodies are
integration.hub.payloads' (decision 0001)."""

#: A cms channel sells a rate plan only once both it and its room type have a channel code in the mapping
#: (the channel cannot name them otherwise).
CMS_SELLS_MAPPED_ONLY = True
#: A cms channel's bookings are confirmed by the channel itself, which the property runs: the vendor API's
#: create answers them `confirmed` at once (no hold waiting for the hub's confirm, which stays harmless); a
#: hub channel's bookings are created `pending` and confirmed by the hub.
CMS_BOOKINGS_CONFIRMED_ON_CREATE = True
#: The hub selling on a channel is news that the channel is open there. A booking from a channel we hold as
#: requested for the property, or do not know for it yet (None: no status read, or a channel not in our
#: list), first reads the property's statuses from the hub (operation 23, the read-back's own read, outside
#: the booking's transaction, with the client's timeouts), and is decided on what it read: a channel found
#: open opens as after any read-back. A hub that cannot be read leaves what we hold (refused). Open, closed
#: and rejected are decided on what we hold, without a read: a create on an open channel never waits for
#: the hub, and the usual refusals cost the hub no call.
CHANNEL_STATUSES_READ_BEFORE_BOOKING = frozenset({"requested", None})
