"""{% load vendorhub_ari %}: the rates and availability grid's filters, which live in their area
(integration.ari.templatetags); Django finds template libraries only here."""

from integration.ari.templatetags import register

__all__ = ["register"]
