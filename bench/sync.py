"""python -m bench.sync (make bench): what the sync to the hub costs, against baselines of the same run.

(a) ten quick edits of one property through the outbox, against one full-body PATCH per edit;
(b) the initial sync and a full resync of 20 properties with all their content, against the sandbox's
own floor (as many requests with empty bodies). Prints a table and writes var/bench/sync.json.
"""

import json
import os
import platform
from datetime import UTC, datetime

from bench.harness import BENCH_DIR, fresh_database, sandbox_hub, setup_django


def main():
    setup_django()
    from bench import sync_cases  # imports models: only once Django is set up

    with fresh_database() as connection, sandbox_hub():
        figures = {
            "when": datetime.now(UTC).isoformat(timespec="seconds"),
            "database": connection.vendor,
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "ten_quick_edits": sync_cases.ten_quick_edits(),
            "full_resync": sync_cases.full_resync(),
        }
    print(report(figures))
    BENCH_DIR.mkdir(parents=True, exist_ok=True)
    (BENCH_DIR / "sync.json").write_text(json.dumps(figures, indent=2) + "\n")
    print(f"\nFigures written to {(BENCH_DIR / 'sync.json').relative_to(BENCH_DIR.parent.parent)}")


def report(figures):
    """The figures as a table for a terminal."""
    edits, resync = figures["ten_quick_edits"], figures["full_resync"]
    ours, naive, per = edits["outbox"], edits["naive"], resync["per_property"]
    lines = [
        f"Sync benchmark: {figures['database']}, Python {figures['python']}, {figures['cpus']} CPUs",
        "",
        f"(a) {edits['edits']} quick edits of one property",
        f"  {'':34}{'requests':>10}{'bytes':>12}",
        f"  {'outbox, one send after the window':34}{ours['requests']:>10}{ours['request_bytes']:>12,}",
        f"  {'naive: a full PATCH per edit':34}{naive['requests']:>10}{naive['request_bytes']:>12,}",
        f"  {'naive / outbox':34}{edits['ratio_requests']:>9}x{edits['ratio_bytes']:>11}x",
        f"  the one PATCH carried: {', '.join(ours['fields_sent'])}",
        "",
        f"(b) {resync['properties']} properties x ({per['room_types']} room types, {per['rate_plan_models']} rate plan"
        f" models, {per['rate_plans']} rate plans) = {resync['resources']} resources, Korean texts",
        f"  {'':26}{'requests':>10}{'bytes':>13}{'seconds':>10}{'ms/request':>12}{'vs floor':>10}",
    ]
    for label, key in (("initial sync (POST)", "initial_sync"), ("full resync (--all)", "full_resync")):
        phase = resync[key]
        lines.append(
            f"  {label:26}{phase['requests']:>10}{phase['request_bytes']:>13,}{phase['seconds']:>10.2f}"
            f"{phase['ms_per_request']:>12.2f}{phase['vs_floor']:>9}x"
        )
    floor = resync["floor"]
    lines.append(
        f"  {'floor: PATCH {} same session':26}{floor['requests']:>10}{floor['request_bytes']:>13,}"
        f"{floor['seconds']:>10.2f}{floor['ms_per_request']:>12.2f}{'1':>9}x"
    )
    for label, key in (("initial sync", "initial_sync"), ("full resync", "full_resync")):
        outcomes = ", ".join(f"{name} {count}" for name, count in sorted(resync[key]["outcomes"].items()))
        lines.append(f"  {label} outcomes: {outcomes}")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
