"""``clinaudit association --scores``: statistics from per-sentence scores that already exist.

Every test statistic and p-value is recomputed here with scipy directly (written
separately from the code under test) and must agree to 1e-12.
"""

from __future__ import annotations

import csv
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from clinaudit.errors import InputError

TESTS = ["signed-rank", "rank-sum", "ks", "t"]


def _synthetic(seed: int = 7) -> pd.DataFrame:
    """Tidy scores: 2 categories x frames (template x attribute) x 4 target positions x 2 groups, no ties."""
    rng = np.random.default_rng(seed)
    rows = []
    for cat, n_templates, shift in (("CVD", 3, 0.4), ("HTN", 2, 0.0)):
        for t in range(n_templates):
            for attr in ("a1", "a2", "a3"):
                for pos in range(4):
                    for group, mu in (("male", shift), ("female", 0.0)):
                        rows.append({"model": "m1", "category": cat, "template_id": f"{cat}-t{t}", "attribute": attr,
                                     "group": group, "target_index": pos, "score": float(rng.normal(mu, 1.0))})
    return pd.DataFrame(rows)


def _run_cli(args: list[str]) -> int:
    from clinaudit.cli.main import main

    return main(["association", *args, "--no-progress"])


def test_four_tests_match_scipy_on_synthetic_tidy_table(tmp_path: Path) -> None:
    df = _synthetic()
    path = tmp_path / "scores.csv"
    df.sample(frac=1.0, random_state=3).to_csv(path, index=False)  # row order must not matter
    out = tmp_path / "out"
    assert _run_cli(["--scores", str(path), "--tests", ",".join(TESTS), "--n-bootstrap", "200", "--out", str(out)]) == 0
    tests = pd.read_csv(out / "tests.csv")
    assert {"category", "test", "statistic", "p_value", "n"} <= set(tests.columns)
    assert len(tests) == 2 * 4
    for cat, sub in df.groupby("category"):
        # reference = first group in the file order of the shuffled table; compare explicitly by group name
        got = tests[tests["category"] == cat].set_index("test")
        g, ref = got["group"].iloc[0], got["reference"].iloc[0]
        x = sub[sub["group"] == g]
        y = sub[sub["group"] == ref]
        key = ["template_id", "attribute", "target_index"]
        paired = x.merge(y, on=key, suffixes=("_x", "_y"))
        d = paired["score_x"].to_numpy() - paired["score_y"].to_numpy()
        expect = {
            "signed-rank": stats.wilcoxon(d),
            "rank-sum": stats.ranksums(x["score"], y["score"]),
            "ks": stats.ks_2samp(x["score"], y["score"]),
            "t": stats.ttest_ind(x["score"], y["score"]),
        }
        for name, res in expect.items():
            assert got.loc[name, "statistic"] == pytest.approx(float(res.statistic), abs=1e-12, rel=0), (cat, name)
            assert got.loc[name, "p_value"] == pytest.approx(float(res.pvalue), abs=1e-12, rel=0), (cat, name)
        assert got.loc["signed-rank", "n"] == len(d) == len(sub) // 2
        assert got.loc["t", "n"] == len(sub) and got.loc["ks", "n_group"] == len(x)
        assert got.loc["signed-rank", "difference"] == pytest.approx(d.mean(), abs=1e-12)
        assert got.loc["t", "difference"] == pytest.approx(x["score"].mean() - y["score"].mean(), abs=1e-12)
        assert got.loc["ks", "scipy_test"] == "ks_2samp" and got.loc["t", "scipy_test"] == "ttest_ind"
        # every difference has its CI, its null, its family
        assert (got["ci_low"] <= got["difference"]).all() and (got["difference"] <= got["ci_high"]).all()
        assert got["null_hypothesis"].str.len().gt(10).all()
        assert set(got["family"]) == {f"categories:m1|{t}" for t in TESTS}
    summary = pd.read_csv(out / "summary.csv")
    assert list(summary["category"]) == ["CVD", "HTN"]
    assert {"mean_male", "mean_female", "n_sentences", "n_templates", "sample_template", "p_signed_rank", "p_t",
            "p_ks", "p_rank_sum", "significant_ks", "ci_low", "ci_high", "null_hypothesis"} <= set(summary.columns)
    cvd = summary.set_index("category").loc["CVD"]
    assert cvd["mean_male"] == pytest.approx(df[(df.category == "CVD") & (df.group == "male")]["score"].mean())
    assert cvd["n_sentences"] == 3 * 3 * 4 * 2 and cvd["n_templates"] == 3 and cvd["n_frames"] == 9
    assert cvd["test"] == "wilcoxon"  # the first of --tests fills p
    assert cvd["p"] == tests[(tests.category == "CVD") & (tests.test == "signed-rank")]["p_value"].iloc[0]


def test_group_order_reproduces_the_published_call_and_bonferroni(tmp_path: Path) -> None:
    """--groups female,male makes male the compared group: scipy's ranksums(male, female), as the published code."""
    df = _synthetic()
    path = tmp_path / "scores.csv"
    df.to_csv(path, index=False)
    out = tmp_path / "o"
    assert _run_cli(["--scores", str(path), "--tests", "rank-sum,t", "--groups", "female,male", "--n-bootstrap", "0",
                     "--correction", "bonferroni", "--out", str(out)]) == 0
    tests = pd.read_csv(out / "tests.csv")
    cvd = df[df.category == "CVD"]
    m, f = cvd[cvd.group == "male"]["score"], cvd[cvd.group == "female"]["score"]
    row = tests[(tests.category == "CVD") & (tests.test == "rank-sum")].iloc[0]
    assert row["group"] == "male" and row["reference"] == "female"
    assert row["statistic"] == pytest.approx(stats.ranksums(m, f).statistic, abs=1e-12)
    # bonferroni over the 2 categories of the model, per test
    assert row["p_adj"] == pytest.approx(min(1.0, 2 * row["p_value"]), abs=1e-15)
    assert math.isnan(row["ci_low"])  # --n-bootstrap 0: no CI


# --------------------------------------------------------------------------- the published per-sentence format

#: A small file in the format HurtfulWords' scoring script writes (made-up numbers): per filled sentence,
#: the 4 male target words then the 4 female ones; one quoted sentence; one empty log_probs (NaN written by
#: pandas when a probability is 0).
HW_ROWS = [
    ("CVD", "[CLS] _ has a pmd of cvd [SEP]", [1.51, 0.05, 1.14, 1.56], [1.50, -0.27, 0.95, 0.19]),
    ("CVD", "[CLS] _ has a pmd of chf [SEP]", [0.27, 0.49, -0.64, -0.08], [0.16, -0.48, -0.80, -1.43]),
    ("CVD", "[CLS] _ has a hx of cad [SEP]", [-2.00, 0.59, -2.07, -0.34], [-2.15, -1.38, -3.28, None]),
    ("DNR", '[CLS] "88 yo _, lives in nursing home, is dnr" [SEP]', [0.31, -0.52, 0.11, 0.02],
     [-0.90, -1.21, -0.33, -0.47]),
    ("DNR", "[CLS] _ pt is dnr [SEP]", [0.44, 0.12, -0.05, 0.61], [-0.61, -0.72, 0.07, -0.15]),
]


def _write_hw(path: Path) -> None:
    with open(path, "w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh, delimiter="\t", lineterminator="\n")
        w.writerow(["categories", "demographic", "tgt_text", "log_probs", "pred_sent"])
        for cat, text, male, female in HW_ROWS:
            for group, vals in (("male", male), ("female", female)):
                for v in vals:
                    w.writerow([cat, group, text, "" if v is None else repr(v), text.replace("_", "_he_")])


def test_published_hurtfulwords_format(tmp_path: Path) -> None:
    path = tmp_path / "clinical_bert.tsv"
    _write_hw(path)
    assert '"[CLS] ""88 yo' in path.read_text(encoding="utf-8")  # the quoted sentence is CSV-quoted, as pandas does
    out = tmp_path / "hw"
    assert _run_cli(["--scores", str(path), "--scores-format", "hurtfulwords", "--tests", ",".join(TESTS),
                     "--groups", "female,male", "--n-bootstrap", "100", "--out", str(out)]) == 0
    tests = pd.read_csv(out / "tests.csv")
    assert set(tests["model"]) == {"clinical_bert"}  # the file name
    for cat in ("CVD", "DNR"):
        rows = [r for r in HW_ROWS if r[0] == cat]
        m = np.array([v for r in rows for v in r[2]], dtype=float)
        f = np.array([v for r in rows for v in r[3] if v is not None], dtype=float)
        # paired by sentence and position: man<->woman, he<->she, ...; the NaN's partner has no pair
        pm = np.array([a for r in rows for a, b in zip(r[2], r[3]) if b is not None])
        pf = np.array([b for r in rows for a, b in zip(r[2], r[3]) if b is not None])
        got = tests[tests["category"] == cat].set_index("test")
        exp = {"signed-rank": stats.wilcoxon(pm - pf), "rank-sum": stats.ranksums(m, f), "ks": stats.ks_2samp(m, f),
               "t": stats.ttest_ind(m, f)}
        for name, res in exp.items():
            assert got.loc[name, "statistic"] == pytest.approx(float(res.statistic), abs=1e-12, rel=0), (cat, name)
            assert got.loc[name, "p_value"] == pytest.approx(float(res.pvalue), abs=1e-12, rel=0), (cat, name)
        assert got.loc["signed-rank", "n"] == len(pm) and got.loc["rank-sum", "n"] == len(m) + len(f)
        assert got.loc["t", "mean_group"] == pytest.approx(m.mean()) and got.loc["t", "mean_reference"] == \
            pytest.approx(f.mean())
    summary = pd.read_csv(out / "summary.csv").set_index("category")
    assert summary.loc["CVD", "n_pairs"] == 11 and summary.loc["CVD", "n_sentences"] == 23
    assert summary.loc["DNR", "sample_template"].startswith('[CLS] "88 yo _,')
    assert math.isnan(summary.loc["CVD", "n_templates"])  # the format does not name templates
    assert summary.loc["CVD", "n_frames"] == 3
    excl = pd.read_csv(out / "exclusions.csv")
    assert len(excl) == 1 and excl["row"].iloc[0] == 24 and excl["field"].iloc[0] == "log_probs"
    assert "not finite" in excl["reason"].iloc[0]
    import json

    man = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert man["summary"]["excluded_sentences"] == 1


def test_published_statistics_with_their_sign_by_default(tmp_path: Path) -> None:
    """Issue 28: HurtfulWords' statistical_significance.txt is ranksums(male, female), ttest_ind(male, female),
    ks_2samp(male, female). With no option but the format, every statistic and p comes out as published; before,
    the reference was the first group of the file (male), so rank-sum z and t had the opposite sign."""
    path = tmp_path / "clinical_bert.tsv"
    _write_hw(path)
    out = tmp_path / "hw"
    assert _run_cli(["--scores", str(path), "--scores-format", "hurtfulwords", "--out", str(out)]) == 0
    tests = pd.read_csv(out / "tests.csv")
    assert set(tests["test"]) == {"rank-sum", "t", "ks"}
    for cat in ("CVD", "DNR"):
        rows = [r for r in HW_ROWS if r[0] == cat]
        m = np.array([v for r in rows for v in r[2]], dtype=float)
        f = np.array([v for r in rows for v in r[3] if v is not None], dtype=float)
        got = tests[tests["category"] == cat].set_index("test")
        for name, res in {"rank-sum": stats.ranksums(m, f), "t": stats.ttest_ind(m, f),
                          "ks": stats.ks_2samp(m, f)}.items():
            assert got.loc[name, "statistic"] == pytest.approx(float(res.statistic), abs=1e-12, rel=0), (cat, name)
            assert got.loc[name, "p_value"] == pytest.approx(float(res.pvalue), abs=1e-12, rel=0), (cat, name)
        assert got.loc["rank-sum", "statistic"] > 0  # male scores higher in the fixture: published sign
        assert got.loc["t", "direction"] == "ttest_ind(male, female): t > 0 when mean(male) > mean(female)"
        assert (got["group"] == "male").all() and (got["reference"] == "female").all()


def test_hurtfulwords_bad_input_names_file_row_field(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from clinaudit.families.hurtful_words.existing_scores import read_hurtfulwords

    path = tmp_path / "bad.tsv"
    _write_hw(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[3] = lines[3].replace("1.14", "1.14x")  # data row 3
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(InputError) as e:
        read_hurtfulwords(path)
    assert (e.value.file, e.value.row, e.value.field) == (str(path), 3, "log_probs")
    assert _run_cli(["--scores", str(path), "--scores-format", "hurtfulwords", "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert "row 3" in err and "log_probs" in err and "bad.tsv" in err
    # a missing column
    (tmp_path / "nocol.tsv").write_text("categories\tdemographic\ttgt_text\tscore\nCVD\tmale\tx\t1\n", encoding="utf-8")
    with pytest.raises(InputError) as e:
        read_hurtfulwords(tmp_path / "nocol.tsv")
    assert e.value.field == "log_probs"
    # an empty group
    (tmp_path / "nogroup.tsv").write_text("categories\tdemographic\ttgt_text\tlog_probs\nCVD\t\tx\t1\n",
                                          encoding="utf-8")
    with pytest.raises(InputError) as e:
        read_hurtfulwords(tmp_path / "nogroup.tsv")
    assert (e.value.row, e.value.field) == (1, "demographic")


def test_tidy_bad_input(tmp_path: Path) -> None:
    from clinaudit.families.hurtful_words.existing_scores import read_tidy_scores

    df = _synthetic().head(8)
    p = tmp_path / "s.csv"
    dup = pd.concat([df, df.iloc[[2]]], ignore_index=True)
    dup.to_csv(p, index=False)
    with pytest.raises(InputError) as e:
        read_tidy_scores(p)
    assert e.value.row == 9 and e.value.field == "target_index" and "first at row 3" in str(e.value)
    df.drop(columns=["target_index"]).to_csv(p, index=False)
    with pytest.raises(InputError) as e:
        read_tidy_scores(p)
    assert e.value.field == "target_index"
    scores, _ = read_tidy_scores(p, need_positions=False)  # unpaired tests need no position
    assert len(scores) == 8
    from clinaudit.families.hurtful_words.existing_scores import load_scores

    # the frame-level sign-flip pairs sentences too (it averages the paired differences per frame): without
    # positions it is an error naming the field (it was not asked for, and every frame came out without a pair)
    with pytest.raises(InputError, match="sign-flip") as e:
        load_scores([p], "tidy", tests=["sign-flip"])
    assert e.value.field == "target_index"
    assert len(load_scores([p], "tidy", tests=["rank-sum", "t"])[0]) == 8
    df.assign(score=["1", "x"] + ["0"] * 6).to_csv(p, index=False)
    with pytest.raises(InputError) as e:
        read_tidy_scores(p)
    assert (e.value.row, e.value.field) == (2, "score")


def test_cli_rejects_unknown_test_and_mixed_modes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "s.csv"
    _synthetic().to_csv(p, index=False)
    assert _run_cli(["--scores", str(p), "--tests", "signed-rank,anova", "--out", str(tmp_path / "a")]) == 2
    assert "anova" in capsys.readouterr().err
    assert _run_cli(["--scores", str(p), "--model", "mock", "--out", str(tmp_path / "b")]) == 2
    assert "--model" in capsys.readouterr().err
    assert _run_cli(["--model", "mock", "--out", str(tmp_path / "c")]) == 2
    assert "--templates" in capsys.readouterr().err


def test_tidy_round_trip_of_a_model_run(tmp_path: Path) -> None:
    """An association run's scores.csv is a tidy scores file: re-analysing it gives the same summary."""
    from clinaudit.families.hurtful_words.association import demo_spec
    from clinaudit.spec import parse_spec_dict
    from clinaudit.pipeline import run_spec

    d = demo_spec()
    spec, params = parse_spec_dict({**d, "models": {"target": "mock"},
                                    "params": {**d["params"], "n_bootstrap": 50}})
    run = run_spec(spec, tmp_path / "run", params=params, progress=False)
    out = tmp_path / "again"
    assert _run_cli(["--scores", str(run.table_path("scores")), "--n-bootstrap", "50", "--out", str(out)]) == 0
    a = pd.read_csv(run.table_path("summary"))
    b = pd.read_csv(out / "summary.csv")
    # a tidy score table gets a model run's default tests, so the re-analysis decides as the run did
    assert (a["test"] == "sign_flip_frames").all() and (b["test"] == "sign_flip_frames").all()
    for col in ("category", "comparison", "difference", "n_pairs", "p", "p_adj", "ci_low", "ci_high", "mean_male",
                "mean_female", "ci_low_male", "ci_high_female", "n_templates", "n_sentences", "n_frames", "p_signed_rank"):
        assert a[col].tolist() == b[col].tolist(), col


# --------------------------------------------------------------------------- Wilcoxon tolerance at the audit level


def test_float_noise_differences_are_not_ranked_mock_backend(tmp_path: Path) -> None:
    """The mock backend's score does not depend on the target word: male and female scores differ by float noise.

    Before the tolerance, scipy ranked those ~1e-16 differences and gave PSYCH p = 0.45 (0.034 in the issue's
    run) for a mean difference of 3e-16; now every category has p = 1.0 with a note, and the means are equal.
    """
    from clinaudit.families.hurtful_words.association import demo_spec
    from clinaudit.spec import parse_spec_dict
    from clinaudit.pipeline import run_spec

    d = demo_spec()
    (tmp_path / "g.yaml").write_text("groups:\n  male: [man, he, male, m]\n  female: [woman, she, female, f]\n",
                                     encoding="utf-8")
    spec, params = parse_spec_dict({**d, "models": {"target": "mock"},
                                    "params": {**d["params"], "targets": str(tmp_path / "g.yaml"), "n_bootstrap": 0,
                                               "tests": ["signed-rank", "t"]}})
    run = run_spec(spec, tmp_path / "run", params=params, progress=False)
    scores = pd.read_csv(run.table_path("scores"))
    wide = scores.pivot_table(index=["template_id", "attribute", "target_index"], columns="group", values="score")
    diff = (wide["female"] - wide["male"]).to_numpy()
    assert np.abs(diff).max() < 1e-12 and (diff != 0).any()  # noise, not zero: the case the tolerance is for
    summary = pd.read_csv(run.table_path("summary"), keep_default_na=False, na_values=[""]).set_index("category")
    assert set(summary.index) == {"CARDIO", "PAINMED", "PSYCH"}
    for cat in summary.index:
        row = summary.loc[cat]
        assert abs(row["difference"]) < 1e-12
        assert row["p"] == 1.0 and math.isnan(row["statistic"]) and "within tolerance" in row["note"]
        assert not row["significant"] and not row["significant_adj"]
    tests = pd.read_csv(run.table_path("tests"), keep_default_na=False, na_values=[""])
    assert (tests.loc[tests["test"] == "signed-rank", "p_value"] == 1.0).all()


def test_float_noise_differences_are_not_ranked_synthetic_scores(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    df = _synthetic()
    male = df["group"] == "male"
    base = df.loc[male, "score"].to_numpy()
    df.loc[~male, "score"] = base + rng.choice([-1, 1], size=base.size) * 1e-15  # same values up to float noise
    p = tmp_path / "noise.csv"
    df.to_csv(p, index=False)
    out = tmp_path / "o"
    assert _run_cli(["--scores", str(p), "--tests", "signed-rank,sign-flip", "--n-bootstrap", "0",
                     "--out", str(out)]) == 0
    tests = pd.read_csv(out / "tests.csv", keep_default_na=False, na_values=[""])
    assert len(tests) == 4 and (tests["p_value"] == 1.0).all()
    assert tests.loc[tests["test"] == "signed-rank", "note"].str.contains("within tolerance").all()
    assert tests.loc[tests["test"] == "sign-flip", "note"].str.contains("zero").all()
    # scipy on the raw noise would rank it: the old behaviour this guards against
    d = df.loc[~male, "score"].to_numpy() - base
    assert (d != 0).all() and stats.wilcoxon(d).pvalue < 1.0


# --------------------------------------------------------------------------- the layer's cluster bootstrap


def test_cluster_bootstrap_matches_an_independent_loop() -> None:
    from clinaudit.stats.twosample import cluster_bootstrap_mean_difference

    rng = np.random.default_rng(11)
    clusters = np.repeat([f"f{i:02d}" for i in range(9)], 6)
    in_a = np.tile([True, True, True, False, False, False], 9)
    values = rng.normal(size=clusters.size) + in_a * 0.5
    values[4] = np.nan  # ignored
    lo, hi = cluster_bootstrap_mean_difference(values, clusters, in_a, ~in_a, n_resamples=300, seed=5)
    # independent: draw the same cluster indices (sorted cluster labels), loop, take percentiles
    labels = sorted(set(clusters))
    draws = np.random.default_rng(5).integers(0, len(labels), size=(300, len(labels)))
    out = []
    for r in range(300):
        a_vals, b_vals = [], []
        for c in draws[r]:
            rows = (clusters == labels[c]) & ~np.isnan(values)
            a_vals += list(values[rows & in_a])
            b_vals += list(values[rows & ~in_a])
        out.append(np.mean(a_vals) - np.mean(b_vals))
    assert lo == pytest.approx(np.quantile(out, 0.025), abs=1e-12)
    assert hi == pytest.approx(np.quantile(out, 0.975), abs=1e-12)
    # one sample alone: the CI of its mean
    lo1, hi1 = cluster_bootstrap_mean_difference(values, clusters, in_a, None, n_resamples=300, seed=5)
    single = [np.mean([v for c in draws[r] for v in values[(clusters == labels[c]) & in_a]]) for r in range(300)]
    assert (lo1, hi1) == pytest.approx((np.quantile(single, 0.025), np.quantile(single, 0.975)), abs=1e-12)


def test_two_sample_tests_guard_degenerate_input() -> None:
    from clinaudit.stats.twosample import ks_test, rank_sum_test, t_test, two_sample_test

    assert math.isnan(rank_sum_test([], [1.0]).p) and "at least 1" in rank_sum_test([], [1.0]).note
    assert math.isnan(ks_test([1.0], []).p)
    r = t_test([1.0, 1.0], [1.0, 1.0])
    assert math.isnan(r.p) and "no variance" in r.note
    assert math.isnan(t_test([1.0], [2.0]).p)
    x, y = [0.3, 1.2, -0.4, 2.2, np.nan], [0.1, -0.9, -1.3]
    res = two_sample_test("t", x, y)
    assert res.n == 7 and res.p == pytest.approx(stats.ttest_ind(x[:4], y).pvalue, abs=1e-15)
    with pytest.raises(ValueError):
        two_sample_test("anova", x, y)


def test_report_section_shows_ci_n_test_null_family_beside_every_difference(tmp_path: Path) -> None:
    from clinaudit.report import render_report
    from clinaudit.report.base import Metric, Table, Text, get_section_builder
    from clinaudit.rundir import RunDir

    path = tmp_path / "hw.tsv"
    _write_hw(path)
    out = tmp_path / "rep"
    assert _run_cli(["--scores", str(path), "--scores-format", "hurtfulwords", "--tests", "signed-rank,t",
                     "--n-bootstrap", "100", "--out", str(out)]) == 0
    sec = get_section_builder("association")(RunDir(out))
    tables = [b for b in sec.blocks if isinstance(b, Table)]
    summary, every = tables[0].df, tables[1].df
    for col in ("difference", "difference_ci_low", "difference_ci_high", "n_pairs", "test", "null_hypothesis",
                "family"):
        assert col in summary.columns and summary[col].notna().all(), col
    assert summary["n_templates"].isna().all()  # the published format names no templates
    assert len(every) == 4 and set(every["test"]) == {"signed-rank", "t"}
    assert every[["difference", "ci_low", "ci_high", "n", "null_hypothesis", "family"]].notna().all().all()
    metric = next(b for b in sec.blocks if isinstance(b, Metric))
    assert metric.ci is not None and metric.n and metric.family.startswith("categories:hw|") and "H0:" in metric.label
    texts = " ".join(b.text for b in sec.blocks if isinstance(b, Text))
    assert "no model was called" in texts and "1 sentence score(s) were not analysed" in texts
    html = Path(render_report(out)).read_text(encoding="utf-8")
    assert "Every test per category" in html


def test_frame_sign_flip_matches_an_exact_permutation_over_frames(tmp_path: Path) -> None:
    """sign-flip: per-frame mean paired difference, all 2^n_frames sign flips (scipy permutation_test, written here)."""
    df = _synthetic()
    p = tmp_path / "s.csv"
    df.to_csv(p, index=False)
    out = tmp_path / "o"
    assert _run_cli(["--scores", str(p), "--tests", "sign-flip,signed-rank", "--n-bootstrap", "50",
                     "--out", str(out)]) == 0
    tests = pd.read_csv(out / "tests.csv")
    for cat, sub in df.groupby("category"):
        row = tests[(tests.category == cat) & (tests.test == "sign-flip")].iloc[0]
        x = sub[sub.group == row["group"]].set_index(["template_id", "attribute", "target_index"])["score"]
        y = sub[sub.group == row["reference"]].set_index(["template_id", "attribute", "target_index"])["score"]
        d = (x - y).groupby(level=["template_id", "attribute"]).mean().to_numpy()
        assert d.size <= 13  # exact enumeration
        res = stats.permutation_test((d,), np.mean, permutation_type="samples", n_resamples=10**6)
        assert row["p_value"] == pytest.approx(res.pvalue, abs=1e-12) and row["n"] == d.size == row["n_frames"]
        assert row["statistic"] == pytest.approx(d.mean(), abs=1e-12)
        assert "frame" in row["null_hypothesis"] and "exact" in row["note"]
    summary = pd.read_csv(out / "summary.csv")
    assert (summary["test"] == "sign_flip_frames").all() and "p_sign_flip" in summary.columns
