"""Print the lines the tests ran, per app and in all, from the .coverage file `pytest --cov` wrote:
`make test` runs it after the tests (pyproject.toml's [tool.coverage.run] says what is measured)."""

from collections import Counter
from pathlib import Path

import coverage


def lines_by_app(cov):
    """{app: (statements, statements run)}, an app being the top-level folder a measured file is in."""
    statements, run = Counter(), Counter()
    root = Path.cwd()
    for filename in cov.get_data().measured_files():
        app = Path(filename).relative_to(root).parts[0]
        _, lines, _, missing, _ = cov.analysis2(filename)
        statements[app] += len(lines)
        run[app] += len(lines) - len(missing)
    return {app: (statements[app], run[app]) for app in sorted(statements)}


def main():
    cov = coverage.Coverage()
    cov.load()
    apps = lines_by_app(cov)
    apps["all"] = tuple(map(sum, zip(*apps.values(), strict=True)))
    print("Lines the tests ran, per app:")
    for app, (statements, run) in apps.items():
        print(f"  {app:<12} {run:>6} / {statements:<6} {100 * run / statements:5.1f} %")


if __name__ == "__main__":
    main()
