"""The sandbox hub's rates, business days and availability endpoints (operations 14 and 15).

They share HubView's injected faults, token check, JSON handling, {"message"} errors and request log.
"""

from . import ari
from .views import HubView


class RatesView(HubView):
    """POST /gds/vendor/properties/{pid}/roomtypes/{rid}/rateplans/{rpid}/ari: rates and business days."""

    def post(self, request, property_id, roomtype_id, rateplan_id, body):
        accepted = ari.rates_store(property_id=property_id, roomtype_id=roomtype_id, rateplan_id=rateplan_id, body=body)
        return {"accepted": accepted}


class AvailsView(HubView):
    """POST /gds/vendor/properties/{pid}/roomtypes/{rid}/ari/avails: availability per day."""

    def post(self, request, property_id, roomtype_id, body):
        return {"accepted": ari.avails_store(property_id=property_id, roomtype_id=roomtype_id, body=body)}
