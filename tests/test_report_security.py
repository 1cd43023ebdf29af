"""Malicious model output in a run directory renders as text, never as markup.

The payloads reach every place model text can reach: table cells and headers, Compare
columns and labels, figure titles and axis labels, Text, Metric, section summaries, the
manifest, a failing section's error message, a ``generate`` run's responses and (slow)
a real audit's responses through its own section.
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

from clinaudit.report.base import Compare, Figure, Metric, Section, Table, Text, register_section
from clinaudit.report.render import build_report
from clinaudit.rundir import RunDir

PAYLOADS = ['<script>alert(1)</script>', '<img src=x onerror=alert(1)>', '"><b>']
BAD = " ".join(PAYLOADS)


@register_section("test_malicious")
def _malicious_section(rundir) -> Section:
    from matplotlib.figure import Figure as MplFigure

    fig = MplFigure(figsize=(3, 2))
    ax = fig.add_subplot(1, 1, 1)
    ax.bar([BAD, "ok"], [1, 2], label=BAD)
    ax.set_title(BAD)
    ax.set_xlabel(BAD)
    ax.legend()
    df = rundir.read_table("responses")
    return Section(
        title=f"Malicious {BAD}", audit="test_malicious", summary={BAD: BAD, "parse rate": 0.5},
        blocks=[
            Text(BAD), Text(BAD, kind="warning"),
            Metric(label=BAD, value=BAD, n=3, ci=(0.1, 0.2), test=BAD, p=0.5, p_adj=0.9, family=BAD),
            Table(title=BAD, df=df, caption=BAD, name=BAD),
            Table(title="long", df=pd.DataFrame({BAD: [BAD * 20] * 3})),
            Figure(title=BAD, fig=fig, data=pd.DataFrame({BAD: [BAD]}), caption=BAD, name=BAD),
            Compare(title=BAD, case_id=BAD, variants={BAD: "The patient is fine.", "typo": f"The patient {BAD} fine."},
                    highlight=["<b>", BAD], reference=BAD),
        ],
    )


@register_section("test_malicious_error")
def _malicious_error(rundir) -> Section:
    raise ValueError(BAD)


def make_malicious_runs(base: Path) -> list[Path]:
    """Run directories whose model text is the payloads (fast: no model, one mock ``generate``)."""
    import yaml

    from clinaudit.cli.main import main

    runs = []
    for audit in ("test_malicious", "test_malicious_error"):
        rd = RunDir(base / audit)
        rd.start(spec={"audit": audit, "name": BAD, "models": {"target": BAD}}, models=[{"spec": BAD}], seeds=[0],
                 command=BAD)
        rd.write_table("responses", pd.DataFrame({"case_id": ["c1", "c2"], "response": [BAD, BAD[::-1]],
                                                  BAD: [1.5, 2.5]}))
        rd.finish(usage={}, audit=audit, status="complete", summary={BAD: BAD})
        rd.close()
        runs.append(rd.path)
    rules = base / "rules.yaml"
    rules.write_text(yaml.safe_dump({"rules": [{"match": ".", "response": BAD}]}), encoding="utf-8")
    src = base / "in.csv"
    pd.DataFrame({"id": ["q1", "q2"], "text": ["hello", "there"]}).to_csv(src, index=False)
    assert main(["generate", "--input", str(src), "--id-column", "id", "--text-column", "text", "--model", "mock",
                 "--mock-rules", str(rules), "--samples", "2", "--out", str(base / "generate"), "--no-progress"]) == 0
    assert pd.read_csv(base / "generate" / "responses.csv")["response"].eq(BAD).all()
    runs.append(base / "generate")
    return runs


def assert_inert(html: str) -> None:
    """No payload appears as markup: only the page's own single script tag, no img tag, no raw payload."""
    for p in PAYLOADS:
        assert p not in html, p
    assert html.count("<script") == 1
    assert "<img" not in html.lower()
    assert not re.search(r"<b>", html)
    assert not re.search(r"\son[a-z]+\s*=", re.sub(r"&lt;.*?&gt;", "", html))


def test_malicious_output_is_escaped_everywhere(tmp_path):
    runs = make_malicious_runs(tmp_path / "runs")
    files = build_report(runs, tmp_path / "report.html", title=BAD)
    html = files.html.read_text(encoding="utf-8")
    assert_inert(html)
    # the payload is there, as text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html
    assert "&#34;&gt;&lt;b&gt;" in html
    assert 'data-rendered="section"' in html and html.count("data-rendered=") == 3
    assert "ValueError: &lt;script&gt;" in html  # the failing section's message, escaped
    md = files.markdown.read_text(encoding="utf-8")
    assert "<script" not in md and "<img" not in md


@pytest.mark.slow
def test_malicious_responses_through_a_real_audit_section(tmp_path):
    """A treatment-shift run (mock model answering with the payloads) rendered by its own section."""
    import yaml

    from clinaudit.spec import parse_spec_dict
    from clinaudit.pipeline import run_spec

    spec = yaml.safe_load(Path("examples/treatment_shift-mock.yaml").read_text(encoding="utf-8"))
    spec["backends"]["mock:a"]["rules"] = [{"match": ".", "response": BAD}]
    spec["data"][0]["limit"] = 3
    spec["params"]["seeds"] = [0]
    s, params = parse_spec_dict(spec, "malicious")
    run_spec(s, tmp_path / "ts", params=params, progress=False)
    html = build_report(tmp_path / "ts", tmp_path / "r.html").html.read_text(encoding="utf-8")
    assert_inert(html)
