"""manage.py sandbox_sell: the sandbox sells one room through our vendor API, as the hub would."""

import datetime
import json

from django.core.management.base import BaseCommand, CommandError

from hubsandbox.sales import THEN_CHOICES, SaleImpossible, sell


class Command(BaseCommand):
    help = (
        "Sells a room as the hub would (refund policy, signed create, confirm; optionally modify or cancel) "
        "against HUB_SANDBOX_VENDOR_URL, printing each step; exits non-zero on a refusal, or when a step "
        "answers other than the hub expects."
    )

    def add_arguments(self, parser):
        parser.add_argument("--property", help="vendor property id (default: the first the sandbox can sell)")
        parser.add_argument("--roomtype", help="vendor room type id")
        parser.add_argument("--rateplan", help="vendor rate plan id")
        parser.add_argument("--checkin", type=datetime.date.fromisoformat, help="YYYY-MM-DD (default: tomorrow)")
        parser.add_argument("--nights", type=int, default=1)
        parser.add_argument("--adults", type=int, default=2)
        parser.add_argument("--then", choices=THEN_CHOICES, default="confirm")
        parser.add_argument(
            "--unmapped", action="store_true", help="a booking with no mapping: the create without rateplan_id"
        )
        parser.add_argument(
            "--repeat",
            action="store_true",
            help="send the create again with the same channel booking number (the vendor must answer 400), "
            "then check with type=channel_booking_number",
        )

    def handle(self, *args, **options):
        try:
            result = sell(
                property_id=options["property"],
                roomtype_id=options["roomtype"],
                rateplan_id=options["rateplan"],
                checkin=options["checkin"],
                nights=options["nights"],
                adults=options["adults"],
                then=options["then"],
                unmapped=options["unmapped"],
                repeat=options["repeat"],
            )
        except SaleImpossible as error:
            raise CommandError(str(error)) from error
        for step in result.steps:
            self.stdout.write(f"{step.name}: {step.status}")
            self.stdout.write(json.dumps(step.answer, ensure_ascii=False, indent=2))
        refusal = result.refusal
        if refusal is not None and (refusal.expected != 200 or refusal.status == 200):
            expects = " ".join(str(value) for value in (refusal.expected, *refusal.want.values()))
            raise CommandError(f"{refusal.name}: answered {refusal.status}, the hub expects {expects}")
        if refusal is not None:
            code, message = refusal.answer.get("code", "-"), refusal.answer.get("error", "")
            raise CommandError(f"{refusal.name} refused: {code} {message}")
        sale = result.sale
        assert sale is not None  # every call succeeded: the create stored it
        self.stdout.write(self.style.SUCCESS(f"sold {sale.vendor_booking_number} ({sale.status})"))
