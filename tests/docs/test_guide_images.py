"""The guide's pictures: every image a page of docs/ shows exists, every English screenshot has its Korean
one, and the screenshot script (tools.docs_screens, `make docs-screens`) makes exactly the screens the guide
shows (it is too slow for CI: it starts the app and drives chromium; this checks its list)."""

import re
from pathlib import Path

from tools.docs_screens import LANGUAGES, OUTPUT, SCREENS

DOCS = Path(__file__).resolve().parents[2] / "docs"
#: Markdown images, ![alt](path "title"), and HTML ones, <img src="path">.
IMAGE = re.compile(r"!\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)|<img\s[^>]*src=[\"']([^\"']+)[\"']")


def images(page):
    """The local images page refers to, as paths resolved from the page's folder."""
    text = page.read_text(encoding="utf-8")
    found = [first or second for first, second in IMAGE.findall(text)]
    return [(page.parent / ref.split("#")[0]).resolve() for ref in found if not re.match(r"[a-z]+:", ref)]


def pages():
    return sorted(DOCS.rglob("*.md"))


def test_every_image_a_page_refers_to_exists():
    missing = [f"{page.relative_to(DOCS)}: {image}" for page in pages() for image in images(page) if not image.exists()]

    assert missing == []


def test_the_image_pattern_finds_markdown_and_html_images(tmp_path):
    page = tmp_path / "page.md"
    page.write_text('![Dash](a/one.png) ![x](<b/two.png> "t") <img alt="" src="three.png"> [link](four.png)\n')

    assert [image.name for image in images(page)] == ["one.png", "two.png", "three.png"]


def test_every_english_screenshot_has_a_korean_one():
    english = {path.name for path in (OUTPUT / "en").glob("*.png")}
    korean = {path.name for path in (OUTPUT / "ko").glob("*.png")}

    assert english, "no screenshots in docs/assets/screens/en"
    assert english - korean == set()
    assert korean - english == set()


def test_the_script_makes_the_screens_the_guide_shows():
    shown = {image for page in pages() for image in images(page) if image.parent.parent == OUTPUT.resolve()}

    assert {image.stem for image in shown} == {screen.name for screen in SCREENS}
    assert {image.parent.name for image in shown} == set(LANGUAGES)


def test_the_dashboard_comes_first():
    """The README's screenshot is docs/assets/screens/en/dashboard.png."""
    assert SCREENS[0].name == "dashboard"
