"""The complexity gate of `make lint`: fails, naming them, when a product function (not tests/, bench/ or
migrations) has a cyclomatic complexity (radon's) above MAX_COMPLEXITY. A function past that decides too
many things at once: split it by what it decides."""

import sys
from pathlib import Path

from radon.complexity import cc_visit
from radon.visitors import Class, Function

MAX_COMPLEXITY = 15
ROOT = Path(__file__).resolve().parent.parent
#: Not product code: the tests, the benchmarks, the generated migrations, the environment.
SKIPPED = {"tests", "bench", "migrations", ".venv", "var", ".git"}


def product_files():
    """The product's Python files, relative to the checkout."""
    for path in sorted(ROOT.rglob("*.py")):
        relative = path.relative_to(ROOT)
        if not SKIPPED.intersection(relative.parts):
            yield relative


def _blocks(blocks, prefix=""):
    """(qualified name, complexity) of every function, method and closure in radon's blocks."""
    for block in blocks:
        if isinstance(block, Class):
            yield from _blocks([*block.methods, *block.inner_classes], f"{prefix}{block.name}.")
        elif isinstance(block, Function):
            yield f"{prefix}{block.name}", block.complexity
            yield from _blocks(block.closures, f"{prefix}{block.name}.")


def too_complex():
    """{"path:function": complexity} of every product function above MAX_COMPLEXITY."""
    found = {}
    for relative in product_files():
        blocks = cc_visit((ROOT / relative).read_text(encoding="utf-8"))
        for name, complexity in _blocks(blocks):
            if complexity > MAX_COMPLEXITY:
                found[f"{relative.as_posix()}:{name}"] = complexity
    return found


def main():
    over = too_complex()
    if over:
        print(f"complexity: these functions are above {MAX_COMPLEXITY} (radon cc); split them by what they decide:")
        for name, complexity in sorted(over.items()):
            print(f"  {name} ({complexity})")
        sys.exit(1)


if __name__ == "__main__":
    main()
