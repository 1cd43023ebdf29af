"""Regenerate README's screenshot (docs/img/report.png) from the demo report, in headless Chromium.

    python scripts/report_screenshot.py                     # runs `clinaudit demo` into runs/demo first
    python scripts/report_screenshot.py --report runs/demo/report.html   # an existing demo report
    make screenshot

The page is opened at 1,400 × 900 (the width the browser test holds the tables to), with no network, and its
first screen — the verdicts and findings — is written as a PNG. Needs /usr/bin/chromium (Debian `chromium`).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def screenshot(report: Path, out: Path, width: int = 1400, height: int = 900) -> Path:
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync",
               f"--user-data-dir={tmp}/profile", f"--window-size={width},{height}", "--virtual-time-budget=5000",
               f"--screenshot={out.resolve()}", report.resolve().as_uri()]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if proc.returncode != 0 or not out.is_file():
        raise SystemExit(f"chromium could not take the screenshot: {proc.stderr[-1000:]}")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--report", type=Path, default=None, help="an existing demo report (default: run the demo)")
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "img" / "report.png")
    ap.add_argument("--quick", action="store_true", help="the quick demo (fewer cases) when the demo is run")
    args = ap.parse_args(argv)
    report = args.report
    if report is None:
        out_dir = ROOT / "runs" / ("demo-quick" if args.quick else "demo")
        subprocess.run([sys.executable, "-m", "clinaudit", "demo", "--out", str(out_dir), "--no-progress",
                        *(["--quick"] if args.quick else [])], check=True)
        report = out_dir / "report.html"
    print(f"screenshot: {screenshot(report, args.out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
