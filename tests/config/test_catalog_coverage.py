"""Every string our templates and code translate has a Korean entry, found as makemessages finds them:
Django's templatize for `{% translate %}` / `{% blocktranslate %}` (counts and contexts included), xgettext
with Django's keywords for gettext calls. An entry may come from any catalog Korean pages read (a word an
installed Django app already says in Korean needs no copy of ours; admindocs' "Field" does not count)."""

import shutil
import subprocess
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.utils.translation import templatize, trans_real

pytestmark = pytest.mark.subprocess

BASE = Path(settings.BASE_DIR)
#: Folders whose files are not the product's (tests assert on words, benchmarks print figures).
NOT_OURS = {".venv", "var", "tests", "bench", "node_modules", ".git"}
#: makemessages' options for Python sources (django/core/management/commands/makemessages.py).
XGETTEXT = [
    "xgettext",
    "--language=Python",
    "--from-code=UTF-8",
    "--keyword=gettext_noop",
    "--keyword=gettext_lazy",
    "--keyword=ngettext_lazy:1,2",
    "--keyword=pgettext:1c,2",
    "--keyword=npgettext:1c,2,3",
    "--keyword=pgettext_lazy:1c,2",
    "--keyword=npgettext_lazy:1c,2,3",
    "--no-wrap",
]


def _sources(suffix):
    for path in sorted(BASE.rglob(f"*{suffix}")):
        if not NOT_OURS & set(path.relative_to(BASE).parts):
            yield path


def _messages(workdir):
    """The entries makemessages would write for our templates and Python files."""
    files = []
    for template in _sources(".html"):
        copy = workdir / (str(template.relative_to(BASE)).replace("/", "__") + ".py")
        copy.write_text(templatize(template.read_text(), origin=str(template)))
        files.append(copy)
    files.extend(_sources(".py"))
    pot = workdir / "found.pot"
    subprocess.run([*XGETTEXT, f"--output={pot}", *map(str, files)], check=True, capture_output=True)
    return polib.pofile(str(pot))


def _korean_keys():
    """The keys ("context\\x04msgid" or msgid, and whether plural) that Korean pages find translated: Django's
    merged catalog (ours, the sandbox's, the installed apps' and Django's own). A plural string needs a plural
    entry (ngettext never reads a singular one)."""
    catalog = trans_real.translation("ko")._catalog
    return {(key[0], True) if isinstance(key, tuple) else (key, False) for key, value in catalog.items() if value}


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="GNU gettext's xgettext is not installed")
def test_every_string_we_translate_has_a_korean_entry(tmp_path):
    korean = _korean_keys()
    missing = []
    for entry in _messages(tmp_path):
        key = f"{entry.msgctxt}\x04{entry.msgid}" if entry.msgctxt else entry.msgid
        if entry.msgid and (key, bool(entry.msgid_plural)) not in korean:
            where = ", ".join(f"{Path(path).name}:{line}" for path, line in entry.occurrences[:2])
            missing.append(f"{entry.msgctxt + ' | ' if entry.msgctxt else ''}{entry.msgid!r} ({where})")
    assert missing == []
