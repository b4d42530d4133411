"""The documentation site at /docs/: `make docs` builds it into var/docs-site, and Django serves it where no
proxy does (`make run`). Without the built folder every page is a 404."""

from pathlib import Path

from csp.decorators import csp_exempt
from django.conf import settings
from django.http import Http404, HttpResponseRedirect
from django.utils._os import safe_join
from django.views.static import serve


# The theme's pages run small inline scripts of their own, which the back office's policy refuses; the site
# is our own static build, with no input of anyone's.
@csp_exempt()
def docs_page(request, path=""):
    """A file of the built site; a folder answers with its index.html (after a redirect adding its slash)."""
    root = settings.DOCS_SITE_DIR
    if not root.is_dir():
        raise Http404("The documentation site is not built (make docs).")
    if path == "" or path.endswith("/"):
        path += "index.html"
    elif Path(safe_join(root, path)).is_dir():
        return HttpResponseRedirect(f"{request.path}/")
    return serve(request, path, document_root=str(root))


#: Where each language's pages live in the built site (mkdocs.yml's i18n plugin): English at its root.
SITE_PREFIXES = {"en": "", "ko": "ko/"}


def docs_url(page, language):
    """The URL of a page of the site ("staff/front-desk/") in a language (English for one the site lacks)."""
    return f"/docs/{SITE_PREFIXES.get(language, '')}{page}"
