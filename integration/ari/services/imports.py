"""A rates and availability CSV import as durable jobs on the bulk queue: the upload records the file
(AriImport) and queues its check; the check marks every row (integration.ari.services.csv_import's dry run) with
its progress on the row, and keeps the lines with errors or changes (AriImportLine) for the paged lists
and the error file; the apply writes the rows that change, without the rows with errors, in one
transaction. A large file (8 MB, some 165,000 rows) thus never holds a request, and a bad row no longer
blocks the others."""

import json
import time
from collections.abc import Callable
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from core.background.jobs import job_queue

from ...content.models import Property
from ..csv_parse import ARI_CSV_COLUMNS, AriCsvRow, AriRowStatus, ari_csv_read
from ..models import AriImport, AriImportLine, AriImportStatus
from .csv_import import AriCsvPlan, ari_csv_apply, ari_csv_plan
from .edits import User

CHECK_TASK = "integration.ari.tasks.ari_import_check_task"
APPLY_TASK = "integration.ari.tasks.ari_import_apply_task"
#: Lines stored per statement.
LINES_BATCH = 2000
#: The least time between two progress steps written (a step costs a statement).
PROGRESS_SECONDS = 0.5


def ari_import_start(*, property: Property, user: User | None, file_name: str, text: str, language: str) -> AriImport:
    """Record the uploaded file (its text, already read without error as a whole) and queue its check,
    in the caller's transaction. Returns the AriImport."""
    with transaction.atomic():
        ari_import = AriImport.objects.create(
            property=property, user=user, file_name=file_name[:255], content=text, language=language
        )
        job_queue(CHECK_TASK, ari_import.pk)
    return ari_import


def _progress_save(import_id: int, **fields: Any) -> None:
    # Outside the job's work, committed at once: the page reads it while the job goes on.
    AriImport.objects.filter(pk=import_id).update(**fields)


def ari_import_check(*, import_id: int) -> AriImport:
    """The check job: every row of the file marked change, unchanged or error, with its progress recorded
    as it goes (reading the file, checking the rows, keeping the listed lines); the counts, the lines with
    errors or changes and the fingerprint of the rows without errors are kept. A file unusable as a whole
    fails the import with the reason. Runs again from the start when its job runs again."""
    ari_import = AriImport.objects.select_related("property").get(pk=import_id)
    if ari_import.status not in (AriImportStatus.QUEUED, AriImportStatus.CHECKING):
        return ari_import  # checked, applied or failed meanwhile: a message delivered late
    with translation.override(ari_import.language):
        try:
            return _check(ari_import)
        except ValidationError as error:
            _progress_save(import_id, status=AriImportStatus.FAILED, note=" ".join(error.messages))
        except Exception:
            # Cut at its time limit or failed: the page says so rather than showing progress for ever.
            _progress_save(
                import_id, status=AriImportStatus.FAILED, note=_("The check stopped: upload the file again.")
            )
            raise
    return ari_import


#: The share of the check's progress each part takes: reading the file, checking the rows, keeping the
#: listed lines (measured with bench.ari_import).
READ_SHARE, PLAN_SHARE = 0.15, 0.55


def _reporter(pk: int) -> Callable[[float], None]:
    """progress(share from 0 to 1): written at most every PROGRESS_SECONDS."""
    last = [time.monotonic()]

    def progress(share: float) -> None:
        if time.monotonic() - last[0] >= PROGRESS_SECONDS:
            last[0] = time.monotonic()
            _progress_save(pk, permille=int(1000 * share))

    return progress


def _check(ari_import: AriImport) -> AriImport:
    pk = ari_import.pk
    progress = _reporter(pk)
    _progress_save(pk, status=AriImportStatus.CHECKING, permille=0, rows=0)
    AriImportLine.objects.filter(ari_import=ari_import).delete()
    rows = ari_csv_read(ari_import.content, progress=lambda share: progress(READ_SHARE * share))
    _progress_save(pk, rows=len(rows), permille=int(1000 * READ_SHARE))
    plan = ari_csv_plan(ari_import.property, rows, progress=lambda share: progress(READ_SHARE + PLAN_SHARE * share))
    listed = [row for row in plan.rows if row.status != AriRowStatus.UNCHANGED]
    for start in range(0, len(listed), LINES_BATCH):
        AriImportLine.objects.bulk_create(
            AriImportLine(
                ari_import=ari_import,
                line=row.line,
                error=row.status == AriRowStatus.ERROR,
                cells=json.dumps([getattr(row, column) for column in ARI_CSV_COLUMNS], ensure_ascii=False),
                details="\n".join(
                    str(text) for text in (row.problems if row.status == AriRowStatus.ERROR else row.changes)
                ),
            )
            for row in listed[start : start + LINES_BATCH]
        )
        kept = min(start + LINES_BATCH, len(listed))  # the last batch may be short
        progress(READ_SHARE + PLAN_SHARE + (1 - READ_SHARE - PLAN_SHARE) * kept / len(listed))
    counts = plan.counts
    _progress_save(
        pk,
        status=AriImportStatus.CHECKED,
        permille=1000,
        change_count=counts[AriRowStatus.CHANGE],
        unchanged_count=counts[AriRowStatus.UNCHANGED],
        error_count=counts[AriRowStatus.ERROR],
        fingerprint=_fingerprint(plan.rows),
        finished_at=timezone.now(),
    )
    ari_import.refresh_from_db()
    return ari_import


def _fingerprint(rows: list[AriCsvRow]) -> str:
    """What the check showed of the rows without errors: the apply compares what they show then."""
    return AriCsvPlan(rows=[row for row in rows if row.status != AriRowStatus.ERROR]).fingerprint()


def ari_import_apply_start(*, ari_import: AriImport) -> bool:
    """Queue the apply of a checked import whose rows change something. Returns False when it is not
    (any more) such an import: applied meanwhile, or being checked again."""
    with transaction.atomic():
        taken = AriImport.objects.filter(pk=ari_import.pk, status=AriImportStatus.CHECKED, change_count__gt=0).update(
            status=AriImportStatus.APPLYING, note=""
        )
        if taken:
            job_queue(APPLY_TASK, ari_import.pk)
    return bool(taken)


def ari_import_apply(*, import_id: int) -> AriImport:
    """The apply job: the rows that change, without the rows with errors, written in one transaction as
    one change (a CSV import of the file by its uploader). When those rows read otherwise than at the
    check (someone changed those days since, or a row has an error now), nothing is written: the import
    is checked again, saying why."""
    language = AriImport.objects.values_list("language", flat=True).get(pk=import_id)
    with translation.override(language):
        try:
            return _apply(import_id)
        except Exception:
            # Cut at its time limit or failed: the transaction wrote nothing, and the page says so.
            AriImport.objects.filter(pk=import_id, status=AriImportStatus.APPLYING).update(
                status=AriImportStatus.FAILED, note=_("The import stopped before it finished: nothing was written.")
            )
            raise


def _apply(import_id: int) -> AriImport:
    with transaction.atomic():
        ari_import = (
            AriImport.objects.select_for_update(of=("self",)).select_related("property", "user").get(pk=import_id)
        )
        if ari_import.status != AriImportStatus.APPLYING:
            return ari_import  # applied already: a message delivered twice
        bad_lines = set(ari_import.lines.filter(error=True).values_list("line", flat=True))
        rows = [row for row in ari_csv_read(ari_import.content) if row.line not in bad_lines]
        plan = ari_csv_apply(
            ari_import.property,
            rows,
            user=ari_import.user,
            file_name=ari_import.file_name,
            expected=ari_import.fingerprint,
        )
        if not plan.applied:
            ari_import.status = AriImportStatus.QUEUED
            ari_import.note = plan.error or _(
                "Nothing was imported: these days changed since the check, so the file is checked again."
            )
            ari_import.save(update_fields=["status", "note"])
            job_queue(CHECK_TASK, ari_import.pk)
            return ari_import
        ari_import.status = AriImportStatus.APPLIED
        ari_import.change_set = plan.change_set
        ari_import.content = ""  # nothing reads it any more
        ari_import.finished_at = timezone.now()
        ari_import.save(update_fields=["status", "change_set", "content", "finished_at"])
    return ari_import
