"""The hub's code catalog (GET /meta): fetching it, checking its shape, and storing it as a snapshot."""

from typing import Any

from django.utils.translation import gettext as _

from ...hub.client import HubClient, HubError, get_hub_client
from ...hub.endpoints import CATALOG
from ...hub.selectors import hub_environment_active
from ..choices import CatalogGroup
from ..models import CatalogSnapshot
from ..selectors import SNAPSHOT_LOCALE, Catalog, catalog_remember

#: The Celery task that fetches the catalog (catalog.tasks), queued by name.
REFRESH_TASK = "integration.catalog.tasks.catalog_refresh_task"


class CatalogInvalid(HubError):
    """The hub answered GET /meta with 2xx but not with the spec's catalog shape."""


def _problem_in_nodes(nodes: Any, path: str) -> str | None:
    """The first shape problem in a group's node tree, or None. Walks with a stack, not recursion, so
    that no nesting depth can exhaust the interpreter's stack."""
    if not isinstance(nodes, list):
        return _("%(path)s must be a list of nodes") % {"path": path}
    stack = [(nodes, path)]
    while stack:
        siblings, where = stack.pop()
        for index, node in enumerate(siblings):
            here = f"{where}[{index}]"
            if not isinstance(node, dict):
                return _("%(path)s must be an object with code and name") % {"path": here}
            if not isinstance(node.get("code"), str) or not node["code"].strip():
                return _("%(path)s must be a non-empty string") % {"path": f"{here}.code"}
            if not isinstance(node.get("name"), str):
                return _("%(path)s must be a string") % {"path": f"{here}.name"}
            children = node.get("children")
            if children is not None:
                if not isinstance(children, list):
                    return _("%(path)s must be a list of nodes") % {"path": f"{here}.children"}
                stack.append((children, f"{here}.children"))
    return None


def _validated_data(answer: Any) -> dict[str, Any]:
    """The "data" object of a GET /meta answer; raises CatalogInvalid naming the first shape problem."""
    problem: str | None
    if not isinstance(answer, dict) or not isinstance(answer.get("data"), dict):
        problem = _('the answer is not an object with a "data" object')
    else:
        data = answer["data"]
        missing = [group for group in CatalogGroup.values if group not in data]
        if missing:
            problem = _("data has no %(groups)s") % {"groups": ", ".join(missing)}
        else:
            problem = next(
                (
                    found
                    for group in CatalogGroup.values
                    if (found := _problem_in_nodes(data[group], f"data.{group}")) is not None
                ),
                None,
            )
    if problem:
        raise CatalogInvalid(_("The hub's code catalog is malformed: %(problem)s.") % {"problem": problem})
    return answer["data"]


def catalog_refresh(*, client: HubClient | None = None) -> CatalogSnapshot:
    """Fetch the catalog (one GET /meta, as the spec has it: no parameters) and store it as a new
    CatalogSnapshot. Its names are the hub's, in every language of our screens.

    Raises HubError (CatalogInvalid for a malformed answer); then nothing is stored.
    """
    environment = hub_environment_active()
    client = client or get_hub_client(environment)
    data = _validated_data(client.call(CATALOG).data)
    # The call is done: the insert is the only write, so no transaction spans the network.
    snapshot = CatalogSnapshot.objects.create(data={SNAPSHOT_LOCALE: data}, environment=environment)
    catalog_remember(Catalog(snapshot))
    return snapshot
