"""The report's glossary, its hover titles, empty charts and the one significance rule (fast, no models)."""

from __future__ import annotations

import html as htmllib
import re
import sys
from pathlib import Path

import pandas as pd

from clinaudit.report.base import Section, Table, register_section
from clinaudit.report.glossary import ABBREVIATION, GLOSSARY, abbr, terms_in
from clinaudit.report.render import render_report
from clinaudit.report.views import all_zero_effects

sys.path.insert(0, str(Path(__file__).parent))
from test_report_render import make_run  # noqa: E402


def header_abbreviations(page: str) -> set[str]:
    """Abbreviation-like tokens (:data:`ABBREVIATION`, or a glossary term) of every table header of ``page``."""
    found: set[str] = set()
    for th in re.findall(r"<th\b[^>]*>(.*?)</th>", page, re.S):
        label = htmllib.unescape(re.sub(r"<[^>]+>", "", th))
        for tok in re.split(r"[\s·/(),\[\]:;=]+", label):
            for part in ([tok] if tok in GLOSSARY else tok.split("_")):  # maxΔBL_p_adj: maxΔBL and p_adj
                if part and ABBREVIATION.match(part) and not re.fullmatch(r"\d+%|%|\[?95%", part):
                    found.add(part)
    return found


def test_the_issues_jargon_is_explained():
    for term in ("p_adj", "fdr_bh", "ΔCF", "cochrans_q", "TSR", "RCR", "RCER", "BL%", "ΔBL", "maxΔBL", "%dlg",
                 "%Δ", "Maj.%", "CI", "H0", "bonferroni", "holm"):
        assert term in GLOSSARY and len(GLOSSARY[term]) > 10, term


def test_terms_in_and_abbr():
    assert terms_in("maxΔBL_p_adj") == ["maxΔBL", "p_adj"]
    assert terms_in("TSR MANAGE") == ["TSR", "MANAGE"]
    assert terms_in("embedded · BL%") == ["BL%"]
    assert terms_in("difference [95% CI]") == ["CI"]
    assert terms_in("model") == []
    out = str(abbr("ΔCF_p"))
    assert out.startswith('<abbr title="ΔCF: range of incidence') and "; p: p-value" in out and out.endswith(">ΔCF_p</abbr>")
    assert str(abbr("<b>x</b>")) == "&lt;b&gt;x&lt;/b&gt;"  # no term: escaped only
    assert "&lt;i&gt;" in str(abbr("TSR <i>"))  # a term: the label is still escaped


@register_section("glossary_test")
def _glossary_section(rundir) -> Section:
    return Section(title="Glossary test", audit="glossary_test", blocks=[
        Table(title="Results", df=rundir.table_or_empty("results"))])


def test_every_header_abbreviation_has_an_entry_and_a_hover_title(tmp_path):
    df = pd.DataFrame({"model": ["m"], "TSR": [0.1], "ΔCF": [2.0], "maxΔBL_p_adj": [0.03], "BL%": [40.0],
                       "family": ["fdr_bh"], "test": ["cochrans_q"]})
    run = make_run(tmp_path / "r", "glossary_test", {"results": df})
    page = render_report(run).read_text(encoding="utf-8")
    found = header_abbreviations(page)
    assert {"TSR", "ΔCF", "maxΔBL", "BL%"} <= found
    assert not found - set(GLOSSARY), found - set(GLOSSARY)
    for term in ("TSR", "ΔCF", "BL%"):
        assert re.search(r'<th><abbr title="' + re.escape(term) + r': [^"]+">' + re.escape(term) + "</abbr></th>", page)
    assert '<abbr title="fdr_bh: Benjamini' in page and '<abbr title="cochrans_q: Cochran' in page  # cells too
    glossary = page.split('<section id="glossary"', 1)[1].split("</section>", 1)[0]
    assert 'href="#glossary"' in page and "<strong>Direction.</strong>" in glossary
    for term in GLOSSARY:
        assert f">{htmllib.escape(term, quote=False)}</abbr></dt>" in glossary, term


def test_all_zero_effects():
    zero = pd.DataFrame({"metric": ["TSR", "RCR"], "n": [4, 4], "value": [0.0, 0.0], "ci_low": [0.0, -1e-17],
                         "ci_high": [0.0, None], "p": [1.0, 1.0], "p_adj": [1.0, 1.0], "n_pairs": [2, 2]})
    assert all_zero_effects(zero)
    assert not all_zero_effects(zero.assign(value=[0.0, 0.02]))
    assert not all_zero_effects(pd.DataFrame({"group": ["a"], "n": [3]}))  # nothing plotted that is a number
    assert not all_zero_effects(zero.iloc[:0])


def _association_run(path: Path) -> Path:
    """An association run whose summary says 'not significant at the spec's alpha 0.01' for PSYCH while its
    verdict (alpha 0.05, results.csv) is bias: the report must use the verdict."""
    cats = ["CARDIO", "PAINMED", "PSYCH"]
    p, p_adj = [0.063, 0.151, 0.0093], [0.189, 0.452, 0.028]
    summary = pd.DataFrame({
        "model": "m", "category": cats, "mean_male": [-2.8, -9.3, 0.22], "mean_female": [-3.1, -9.0, -0.15],
        "comparison": "female vs male", "difference": [-0.24, 0.36, -0.37], "ci_low": [-0.49, -0.1, -0.6],
        "ci_high": [0.02, 0.8, -0.1], "n_pairs": 64, "test": "wilcoxon", "p": p, "p_adj": p_adj,
        "correction": "bonferroni", "family": "categories:m", "significant_adj": False, "n_sentences": 128,
        "n_templates": 4, "sample_template": "The [TARGET] patient has [ATTR].", "ci_method": "percentile bootstrap",
        "null_hypothesis": "the paired differences are symmetric about 0"})
    results = pd.DataFrame({
        "audit": "association", "metric": "log_prob_bias_score", "group": "female", "reference": "male",
        "value": summary["difference"], "n": 64, "ci_low": summary["ci_low"], "ci_high": summary["ci_high"],
        "test": "wilcoxon", "p": p, "p_adj": p_adj, "family": "categories:m", "model": "m", "category": cats,
        "verdict": ["inconclusive", "inconclusive", "bias"]})
    return make_run(path, "association", {"summary": summary, "results": results})


def test_association_counts_significance_by_the_verdicts(tmp_path):
    page = render_report(_association_run(tmp_path / "assoc")).read_text(encoding="utf-8")
    section = page.split('data-section="association"', 1)[1]
    text = htmllib.unescape(re.sub(r"<[^>]+>", "", section))
    assert "m: 1 of 3 category comparisons significant (verdict 'bias found'" in text, text[:3000]
    assert "0 of 3" not in text
    # the table's star marks the same row
    rows = re.findall(r"<tr>(.*?)</tr>", section, re.S)
    starred = [r for r in rows if re.search(r"<td>\*</td>", r)]
    assert len(starred) == 1 and "PSYCH" in starred[0]
