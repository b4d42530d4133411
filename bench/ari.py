"""python -m bench.ari (make bench): what rates and availability cost, against baselines of the same run.
Prints a table and writes var/bench/ari.json."""

import json
import os
import platform
from datetime import UTC, datetime

from bench.harness import BENCH_DIR, fresh_database, sandbox_hub, setup_django


def main():
    setup_django()
    from django.urls import reverse

    from bench import ari_cases  # imports models: only once Django is set up

    with fresh_database() as connection, sandbox_hub():
        figures = {
            "when": datetime.now(UTC).isoformat(timespec="seconds"),
            "database": connection.vendor,
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "bulk_edit": ari_cases.bulk_edit(),
            "grid": ari_cases.grid_page(lambda prop: reverse(GRID_URL_NAME, args=[prop.pk])),
        }
    print(report(figures))
    BENCH_DIR.mkdir(parents=True, exist_ok=True)
    (BENCH_DIR / "ari.json").write_text(json.dumps(figures, indent=2) + "\n")
    print(f"\nFigures written to {(BENCH_DIR / 'ari.json').relative_to(BENCH_DIR.parent.parent)}")


GRID_URL_NAME = "admin:integration_property_calendar"


def report(figures):
    """The figures as a table for a terminal."""
    bulk, grid = figures["bulk_edit"], figures["grid"]
    lines = [
        f"Rates and availability benchmark: {figures['database']}, Python {figures['python']}, {figures['cpus']} CPUs",
        "",
        f"(a) bulk edit: {bulk['rate_plans']} rate plans x {bulk['days']} days x {bulk['channels']} channels,"
        f" and availability of {bulk['room_types']} room types ({bulk['cells_written']:,} cells)",
        f"  time to apply the edit (one transaction)   {bulk['apply_seconds']:>10.2f} s",
        f"  hub requests                               {bulk['requests']:>10}   (goal: {bulk['goal_requests']},"
        " one per rate plan and room type)",
        f"  bytes sent                                 {bulk['request_bytes']:>10,}",
        f"  rate bytes, runs vs one entry per day      {bulk['rate_bytes_runs']:>10,} vs"
        f" {bulk['rate_bytes_one_entry_per_day']:,} ({bulk['bytes_ratio']}x smaller)",
        f"  time to drain                              {bulk['push_seconds']:>10.2f} s"
        f"   ({bulk['push_ms_per_request']} ms/request; floor {bulk['floor_ms_per_request']} ms;"
        f" {bulk['vs_floor']}x the floor)",
        f"  of which reading the days and building the rate bodies {bulk['build_seconds_rates']:>6.2f} s",
        "",
        "(b) calendar grid, one month",
        f"  {'':28}{'room types':>11}{'rate plans':>11}{'queries':>9}{'render ms':>11}",
    ]
    for label in ("small", "large"):
        row = grid[label]
        lines.append(
            f"  {label:28}{row['room_types']:>11}{row['rate_plans']:>11}{row['queries']:>9}{row['render_ms']:>11}"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    main()
