"""The packaged de-identification measurement (``src/clinaudit/data/deid_reach.json``, :mod:`clinaudit.deid_reach`)
from a held-out table of ``bench_deid_origin.py``.

``bench_deid_origin.py --write-reach PATH`` calls :func:`reach_document` on the *after* held-out table it measured
(origin -> ``{"cased": [names, left], "lower": [names, left]}``) and :func:`write_reach`. A table already printed
(the Markdown table ``print_origins`` prints) can be turned into the same file without running anything::

    python benchmarks/deid_reach_write.py --from-table TABLE.md --revision REV --date YYYY-MM-DD PATH

:func:`parse_table` reads the printed rows back into counts: a row gives each style's names and its percentage
removed to one decimal, so the names left are the one whole number that prints as that percentage (checked: one
only, and the row's "all" percentage must print again the same, else it is refused).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCHMARK = "benchmarks/bench_deid_origin.py, held-out half (16 forms, the held-out names of deid_names.py)"

_ROW = re.compile(r"^\|\s*(?P<o>[^|]+?)\s*\|\s*(?P<nc>\d+)\s*/\s*(?P<nl>\d+)\s*\|\s*(?P<pc>[\d.]+) %\s*\|"
                  r"\s*(?P<pl>[\d.]+) %\s*\|\s*(?P<pa>[\d.]+) %\s*\|\s*$")


def _pct(names: int, removed: int) -> float:
    return 100.0 * removed / max(1, names)


def reach_document(table: dict[str, dict[str, list[int]]], revision: str, date: str, source: str = "") -> dict:
    """The measurement of a held-out table (origin -> style -> [names, left]), in :mod:`clinaudit.deid_reach`'s
    schema, checked by its :func:`~clinaudit.deid_reach.check_measurement`."""
    from clinaudit.deid_reach import SCHEMA, STYLES, TARGET_PCT, check_measurement, lowest_origins

    styles = {}
    for style in STYLES:
        by = {o: {"names": c[style][0], "removed": c[style][0] - c[style][1],
                  "removed_pct": round(_pct(c[style][0], c[style][0] - c[style][1]), 1)} for o, c in table.items()}
        names, removed = sum(c["names"] for c in by.values()), sum(c["removed"] for c in by.values())
        vals = [c["removed_pct"] for c in by.values()]
        styles[style] = {"names": names, "removed": removed, "removed_pct": round(_pct(names, removed), 1),
                         "lowest": lowest_origins(by, TARGET_PCT), "highest_pct": max(vals),
                         "spread_pp": round(max(vals) - min(vals), 1), "by_origin": by}
    doc = {"schema": SCHEMA, "benchmark": BENCHMARK, "revision": revision, "date": date, "origins": len(table),
           "target_pct": TARGET_PCT, "source": source or "bench_deid_origin.py --write-reach", "styles": styles}
    return check_measurement(doc)


def parse_table(text: str) -> dict[str, dict[str, list[int]]]:
    """The rows of a printed held-out table (``| origin | names (cased / lower) | removed, cased | removed, lower
    case | removed, all |``) as origin -> style -> [names, left]; a ValueError when a row's percentages cannot come
    from whole counts."""
    table: dict[str, dict[str, list[int]]] = {}
    for line in text.splitlines():
        m = _ROW.match(line.strip())
        if not m:
            continue
        cell = {}
        for style, n, p in (("cased", int(m["nc"]), m["pc"]), ("lower", int(m["nl"]), m["pl"])):
            left = [k for k in range(n + 1) if f"{_pct(n, n - k):.1f}" == p]
            if len(left) != 1:
                raise ValueError(f"{m['o']}: {p} % of {n} names is {'no' if not left else 'more than one'} whole count")
            cell[style] = [n, left[0]]
        both = cell["cased"][0] + cell["lower"][0]
        if f"{_pct(both, both - cell['cased'][1] - cell['lower'][1]):.1f}" != m["pa"]:
            raise ValueError(f"{m['o']}: the counts read back do not give its 'all' column ({m['pa']} %)")
        table[m["o"]] = cell
    if not table:
        raise ValueError("no row of a held-out table found")
    return table


def code_revision(src: str | Path) -> str:
    """The short commit of the tree holding ``src``, with ``+changes`` when its files differ from the commit."""
    import subprocess

    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(src), *args], capture_output=True, text=True, check=True).stdout.strip()

    try:
        rev = git("rev-parse", "--short", "HEAD")
        return rev + ("+changes" if git("status", "--porcelain", "--", ".") else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def write_reach(path: str | Path, doc: dict) -> Path:
    path = Path(path)
    path.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--from-table", required=True, help="a file holding a printed held-out table")
    ap.add_argument("--revision", required=True, help="the code revision the table measured")
    ap.add_argument("--date", required=True, help="the day it was measured (YYYY-MM-DD)")
    a = ap.parse_args()
    sys.path.insert(0, str(ROOT / "src"))
    doc = reach_document(parse_table(Path(a.from_table).read_text(encoding="utf-8")), a.revision, a.date,
                         source=f"parsed from the printed held-out table of {a.revision} (deid_reach_write.py)")
    print(f"wrote {write_reach(a.out, doc)}")


if __name__ == "__main__":
    main()
