"""factory_boy factories and helpers for license requests."""

import datetime

import factory
from django.core.files.base import ContentFile

from licenses.choices import BusinessType, LicenseType, PermitType
from licenses.files import license_file_name
from licenses.models import LicenseRequest
from licenses.services import license_request_submit
from tests.factories import PropertyFactory

from .files import pdf_bytes

#: A real business registration number (its check digit holds).
BUSINESS_NUMBER = "2208162517"


class LicenseRequestFactory(factory.django.DjangoModelFactory):
    """A permit request row with a small PDF, not sent anywhere (no outbox row)."""

    class Meta:
        model = LicenseRequest
        skip_postgeneration_save = True  # the file hook saves the row

    property = factory.SubFactory(PropertyFactory)
    type = LicenseType.PERMIT
    permit_type = PermitType.HANOK_EXPERIENCE
    permit_number = factory.Sequence(lambda n: f"제2024-{n:04d}호")
    permit_date = datetime.date(2024, 3, 1)
    file_name = "permit.pdf"
    file_size = len(pdf_bytes())
    file_format = "pdf"
    # A request with a hub id was received by a hub: the staging one, active until a switch.
    hub_environment = factory.LazyAttribute(lambda request: "staging" if getattr(request, "hub_id", None) else "")

    @factory.post_generation
    def file(obj, create, content, **kwargs):
        """The file, stored as the product stores it: under the row's id (a PDF unless content is given)."""
        if create:
            obj.file.save(license_file_name(obj), ContentFile(pdf_bytes() if content is None else content))


class BusinessLicenseRequestFactory(LicenseRequestFactory):
    """A business registration request of a sole proprietor."""

    type = LicenseType.BUSINESS
    permit_type = ""
    permit_number = ""
    permit_date = None
    business_type = BusinessType.PERSONAL
    business_number = BUSINESS_NUMBER
    owner_name = "김민수"
    open_date = datetime.date(2020, 5, 4)


PERMIT_FIELDS = {
    "permit_type": PermitType.HANOK_EXPERIENCE,
    "permit_number": "제2024-0001호",
    "permit_date": datetime.date(2024, 3, 1),
    "comment": "",
}


def submit_permit(prop, *, user=None, content=None, name="permit.pdf", **fields):
    """A permit request made the way the product makes one (license_request_submit): stored and marked
    for the hub."""
    return license_request_submit(
        property=prop,
        type=LicenseType.PERMIT,
        fields={**PERMIT_FIELDS, **fields},
        file=ContentFile(content if content is not None else pdf_bytes(), name=name),
        user=user,
    )
