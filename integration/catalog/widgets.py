"""The tag picker over the hub's code catalog, for the content forms' tag fields.

It reads without JavaScript; catalog_widgets.js adds searching and click-to-toggle (and, to the refund
policy editor of content.widgets, adding and removing rows).
"""

from typing import cast

from django import forms
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from .selectors import catalog_read

#: The script and styles of the tag picker and of the refund policy editor (content.widgets): one file each.
WIDGET_MEDIA = forms.Media(
    css={"all": ["vendorhub/catalog_widgets.css"]},
    # Django 5.2's Media takes Script objects beside paths; the stubs list paths only.
    js=[forms.Script("vendorhub/catalog_widgets.js", defer=True)],  # type: ignore[list-item]
)


class CatalogTagsWidget(forms.SelectMultiple):
    """A <select multiple> of one catalog group's codes in optgroups, named in the active language.

    Codes of the value that the catalog lacks stay listed (first, marked) and selected, so that saving
    the form never drops them silently; the field's validation names them instead.
    """

    template_name = "vendorhub/widgets/catalog_tags.html"
    unknown_label = _("Not in the hub's catalog")

    def __init__(self, group, attrs=None):
        super().__init__(attrs={"size": 12, "class": "vh-tag-select", **(attrs or {})})
        self.group = group

    @property
    def media(self):
        return WIDGET_MEDIA

    def optgroups(self, name, value, attrs=None):
        # The catalog changes while the process runs, so choices are read at render time.
        catalog = catalog_read()
        known = catalog.codes.get(self.group, frozenset()) if catalog else frozenset()
        unknown = [code for code in value if code and code not in known]
        self.choices = catalog.choices(self.group, get_language()) if catalog else []
        if unknown:
            # The label stays the lazy object itself: get_context finds the unknown group by identity.
            self.choices.insert(0, (cast(str, self.unknown_label), [(code, code) for code in unknown]))
        return super().optgroups(name, value, attrs)

    def get_context(self, name, value, attrs):
        context = super().get_context(name, value, attrs)
        widget = context["widget"]
        # (label, options, unknown?) per optgroup; the unknown codes' group is marked in the page.
        widget["unknown_label"] = self.unknown_label
        widget["groups"] = [(group, options, group is self.unknown_label) for group, options, _i in widget["optgroups"]]
        widget["chosen"] = [
            {"label": option["label"], "known": not unknown}
            for _group, options, unknown in widget["groups"]
            for option in options
            if option["selected"]
        ]
        widget["catalog_empty"] = not any(options for _group, options, unknown in widget["groups"] if not unknown)
        return context
