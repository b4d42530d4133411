"""License requests as a kind of hub resource for the sync engine (integration.sync): each is POSTed once.

The sender (integration.sync.services.sender) makes the call, records the attempt with the file redacted, and
handles retries, backoff and failures as for any resource; on success, on_done stores the hub's id,
status, reason and times. Once the hub knows a request there is nothing more to send: the review is
read back with the hub client (services.license_requests_refresh).
"""

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from integration.hub import endpoints
from integration.hub.payloads import build_license_body
from integration.models import ResourceKind
from integration.sync.resources import Call, Plan, PlanError, Resource

from .files import license_file_base64
from .models import LicenseRequest

#: One rank below the property, the request's only parent; the property's first sync queues waiting
#: requests along with its room types and rate plan models.
LICENSE_RANK = 1


@dataclass(frozen=True)
class LicenseResource(Resource):
    """A license request: POST the submission once; known to the hub afterwards, it plans no call."""

    def parents(self, obj):
        return [(ResourceKind.PROPERTY, obj.property)]

    def children(self, state):
        return None  # nothing waits for it

    def plan(self, state, obj, *, full):
        if state.known_to_hub or obj.hub_id is not None:
            return Plan([])
        try:
            file_base64 = license_file_base64(obj.file, obj.file_format)
        except (FileNotFoundError, ValueError) as missing:
            raise PlanError(_("The license file is missing from storage; upload it again.")) from missing
        except ValidationError as refused:
            # Only files that pass the check reach the hub, whenever they were stored.
            raise PlanError(" ".join(refused.messages)) from refused
        body = build_license_body(obj, file_base64=file_base64)
        call = Call(endpoints.LICENSE_SUBMIT, {"pid": obj.property.vendor_id}, body)

        def on_done(responses):
            from .services import license_request_record_submission

            license_request_record_submission(
                license_request_id=obj.pk, answer=responses[0].data, environment=state.environment
            )

        # The hub's copy is not kept: it would hold the file, and nothing is ever diffed against it.
        return Plan([call], acked_body=None, on_done=on_done)


LICENSE_RESOURCE = LicenseResource(
    kind=ResourceKind.LICENSE,
    model=LicenseRequest,
    rank=LICENSE_RANK,
    related=("property",),
    # A request the old hub received stays its own (hub id, review); the new hub gets new submissions.
    follows_switch=False,
)
