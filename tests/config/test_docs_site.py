"""The documentation site: served at /docs/ from its built folder, a Help link on every admin screen to the
page that explains it (in the user's language), and the version in the footer and the deep health check."""

import re
import tomllib
from pathlib import Path

import pytest
import yaml
from django.conf import settings
from django.urls import reverse

from config.help import DEFAULT_HELP_PAGE, HELP_PAGES, help_page

pytestmark = pytest.mark.django_db

BASE_DIR = Path(settings.BASE_DIR)


@pytest.fixture
def site(tmp_path, settings):
    """A built site of three pages, as mkdocs lays it out (English at the root, Korean under ko/)."""
    for page, text in {"index.html": "home", "staff/index.html": "staff", "ko/index.html": "처음"}.items():
        (tmp_path / page).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / page).write_text(text, encoding="utf-8")
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "site.css").write_text("body {}")
    settings.DOCS_SITE_DIR = tmp_path
    return tmp_path


def test_the_site_is_served_with_its_folders_index_pages(client, site):
    assert b"".join(client.get("/docs/").streaming_content) == b"home"
    assert b"".join(client.get("/docs/ko/").streaming_content) == "처음".encode()
    assert b"".join(client.get("/docs/staff/").streaming_content) == b"staff"
    assert client.get("/docs/assets/site.css")["Content-Type"].startswith("text/css")

    folder = client.get("/docs/staff")
    assert folder.status_code == 302
    assert folder["Location"] == "/docs/staff/"
    assert client.get("/docs/nowhere/").status_code == 404
    assert client.get("/docs/../pyproject.toml").status_code in {400, 404}


def test_the_site_runs_its_own_scripts_outside_the_back_offices_policy(client, site):
    assert "Content-Security-Policy" not in client.get("/docs/")
    assert "Content-Security-Policy" in client.get(reverse("admin:login"))


def test_without_the_built_site_every_page_is_a_404(client, settings, tmp_path):
    settings.DOCS_SITE_DIR = tmp_path / "not-built"

    assert client.get("/docs/").status_code == 404


def _source_of(page):
    """The Markdown file of a page of the site: "staff/" is staff/index.md, "staff/owner/" staff/owner.md."""
    page = page.rstrip("/")
    docs = BASE_DIR / "docs"
    return next((path for path in (docs / f"{page}.md", docs / page / "index.md") if path.is_file()), None)


def _nav_files(entries):
    for entry in entries:
        value = next(iter(entry.values())) if isinstance(entry, dict) else entry
        if isinstance(value, list):
            yield from _nav_files(value)
        else:
            yield value


@pytest.mark.parametrize("page", sorted({*HELP_PAGES.values(), DEFAULT_HELP_PAGE}))
def test_every_help_page_exists_in_the_docs_and_their_navigation(page):
    source = _source_of(page)

    assert source is not None, f"docs/ has no page {page} (a Help link leads there)"
    nav = yaml.load((BASE_DIR / "mkdocs.yml").read_text(), Loader=yaml.Loader)["nav"]  # noqa: S506
    assert source.relative_to(BASE_DIR / "docs").as_posix() in set(_nav_files(nav))


@pytest.mark.parametrize(
    ("url_name", "page"),
    [
        ("index", "staff/"),
        ("bookings_booking_changelist", "staff/front-desk/"),
        ("integration_property_calendar", "staff/revenue-manager/"),
        ("integration_property_ari_bulk", "staff/revenue-manager/"),
        ("integration_property_change", "staff/property-manager/"),
        ("integration_propertychannel_open", "staff/owner/"),
        ("integration_rateplanmodel_changelist", "staff/property-manager/"),
        ("integration_rateplan_changelist", "staff/revenue-manager/"),
        ("settlement_reconciliation_progress", "staff/owner/"),
        ("something_new", DEFAULT_HELP_PAGE),
    ],
)
def test_a_screen_finds_its_page_by_the_longest_start_of_its_url_name(url_name, page):
    assert help_page(url_name) == page


@pytest.mark.parametrize(
    ("language", "link"), [("en", "/docs/staff/front-desk/"), ("ko", "/docs/ko/staff/front-desk/")]
)
def test_an_admin_screen_links_its_help_page_in_the_users_language(admin_client, language, link):
    page = admin_client.get(reverse("admin:bookings_booking_changelist"), HTTP_ACCEPT_LANGUAGE=language)

    assert re.search(
        rf'<a href="{re.escape(link)}" class="vendorhub-help"[^>]*>{"도움말" if language == "ko" else "Help"}</a>',
        page.content.decode(),
    )


def test_the_version_is_pyprojects_in_the_footer_and_the_deep_health_check(admin_client, client, settings):
    version = tomllib.loads((BASE_DIR / "pyproject.toml").read_text())["project"]["version"]

    assert (
        f'<p class="vendorhub-version">vendorhub {version}</p>'
        in admin_client.get(reverse("admin:index")).content.decode()
    )
    settings.METRICS_TOKEN = "a-scrapers-token-of-32-characters"
    scraper = {"Authorization": f"Bearer {settings.METRICS_TOKEN}"}
    assert client.get("/healthz?deep=1", headers=scraper).json()["version"] == version
    assert "version" not in client.get("/healthz").json()


def test_the_site_loads_nothing_from_elsewhere():
    config = yaml.load((BASE_DIR / "mkdocs.yml").read_text(), Loader=yaml.Loader)  # noqa: S506

    # The theme fetches Roboto from Google unless told not to, and Mermaid from a CDN unless it is loaded.
    assert config["theme"]["font"] is False
    assert "assets/javascripts/mermaid.min.js" in config["extra_javascript"]
    assert (BASE_DIR / "docs" / "assets" / "javascripts" / "mermaid.min.js").stat().st_size > 1_000_000
