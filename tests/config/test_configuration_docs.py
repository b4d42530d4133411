"""Every environment variable the settings read is in the operator's reference table
(docs/operator/configuration.md), found by reading the settings' source as Python, not by running it."""

import ast
import re
from pathlib import Path

from django.conf import settings

BASE_DIR = Path(settings.BASE_DIR)
TABLE = BASE_DIR / "docs" / "operator" / "configuration.md"


def _is_environment(node):
    """Whether an expression is the environment: django-environ's `env`, `os.environ`, `environ`."""
    if isinstance(node, ast.Name):
        return node.id in {"env", "environ"}
    return isinstance(node, ast.Attribute) and node.attr == "environ"


def _reader_of(call):
    """Whether a call reads the environment with its first argument: env(...), env.str(...),
    os.environ.get(...), os.getenv(...)."""
    func = call.func
    if _is_environment(func):
        return True
    return isinstance(func, ast.Attribute) and (_is_environment(func.value) or func.attr == "getenv")


def _variables_read(path):
    """The names of the variables a module reads: by the readers above, by os.environ[...], and through a
    function of the module that hands its first parameter to a reader (the settings' _required_in_production)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)]
    helpers = {
        function.name
        for function in ast.walk(tree)
        if isinstance(function, ast.FunctionDef)
        and function.args.args
        and any(
            isinstance(call, ast.Call)
            and _reader_of(call)
            and call.args
            and isinstance(call.args[0], ast.Name)
            and call.args[0].id == function.args.args[0].arg
            for call in ast.walk(function)
        )
    }
    names = set()
    for call in calls:
        by_helper = isinstance(call.func, ast.Name) and call.func.id in helpers
        if (by_helper or _reader_of(call)) and call.args and isinstance(call.args[0], ast.Constant):
            names.add(call.args[0].value)
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and _is_environment(node.value) and isinstance(node.slice, ast.Constant):
            names.add(node.slice.value)
    return {name for name in names if isinstance(name, str)}


def _settings_modules():
    """config/settings.py and the modules of ours it imports (relative, or from config)."""
    source = BASE_DIR / "config" / "settings.py"
    modules = [source]
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("config")):
            module = (node.module or "").removeprefix("config.")
            modules.append(BASE_DIR / "config" / f"{module.replace('.', '/')}.py")
    return [module for module in modules if module.is_file()]


def _table_variables():
    """The names in the first column of the reference table (a row may name several, each in backticks)."""
    rows = [line for line in TABLE.read_text(encoding="utf-8").splitlines() if line.startswith("| `")]
    return {name for row in rows for name in re.findall(r"`([A-Z][A-Z0-9_]*)`", row.split("|")[1])}


def test_the_reader_finds_each_way_of_reading(tmp_path):
    module = tmp_path / "sample.py"
    module.write_text(
        "import os\n"
        "def _required(name, default):\n"
        "    return env.str(name, default='') or default\n"
        "A = env('A_VAR')\nB = env.bool('B_VAR', default=False)\nC = os.environ.get('C_VAR')\n"
        "D = os.environ['D_VAR']\nE = os.getenv('E_VAR')\nF = _required('F_VAR', 1)\n"
        "G = f\"{env.int('G_VAR', default=1)}\"\nH = env.cache_url_config(_required('H_VAR', 'x'))\n"
    )

    assert _variables_read(module) == {f"{letter}_VAR" for letter in "ABCDEFGH"}


def test_every_variable_the_settings_read_is_in_the_reference_table():
    modules = _settings_modules()
    read = set().union(*(_variables_read(module) for module in modules))

    assert BASE_DIR / "config" / "sentry.py" in modules
    assert {"DJANGO_SECRET_KEY", "DATABASE_URL", "CACHE_URL", "PORT"} <= read
    missing = sorted(read - _table_variables())
    assert missing == [], f"docs/operator/configuration.md does not list {missing}"
