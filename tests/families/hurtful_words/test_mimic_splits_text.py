"""Patient-level splits and the held-out list on synthetic tables; sentences, ≥ 20-token sequences, windows."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from clinaudit.errors import InputError
from clinaudit.families.hurtful_words.mimic_cohorts import assign_splits, read_subject_list
from clinaudit.families.hurtful_words.mimic_corpus import pretraining_sequences
from clinaudit.families.hurtful_words.mimic_tasks import TaskOptions, build_mimic_tasks
from clinaudit.families.hurtful_words.mimic_text import (note_windows, pack_sentences, regex_tokenizer,
                                                         split_sentences)
from clinaudit.families.hurtful_words.synth_mimic import synth_mimic


@pytest.fixture(scope="module")
def synth(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("synth")
    synth_mimic(out, n_patients=120, seed=11)
    return out


@pytest.fixture(scope="module")
def res(synth: Path):
    return build_mimic_tasks(synth, options=TaskOptions(seed=3))


def test_no_patient_across_splits_and_random_fractions(synth: Path, res):
    both = pd.concat([df[["subject_id", "split"]] for df in res.tables.values()])
    assert (both.groupby("subject_id")["split"].nunique() == 1).all()
    s = res.splits["split"].value_counts()
    assert s["test"] == round(0.15 * 120) and s["valid"] == round(0.2 * (120 - s["test"]))
    subjects = res.splits["subject_id"].tolist()
    pd.testing.assert_frame_equal(res.splits, assign_splits(subjects, seed=3))  # the splits are a function of seed
    assert not res.splits["split"].equals(assign_splits(subjects, seed=4)["split"])
    # the generator's planted windows: the stays with a note at exactly 48 h keep it, the one a minute later is out
    notes = pd.read_csv(synth / "NOTEEVENTS.csv", keep_default_na=False)
    stays = pd.read_csv(synth / "ICUSTAYS.csv")
    m = res.tables["inhosp_mort"]
    checked = 0
    for r in m.itertuples():
        intime = pd.Timestamp(stays.set_index("ICUSTAY_ID").loc[r.icustay_id, "INTIME"])
        own = notes[(notes["HADM_ID"].astype(str) == str(r.hadm_id)) & (notes["CHARTTIME"] != "")]
        dt = pd.to_datetime(own["CHARTTIME"]) - intime
        at48 = set(own.loc[dt == pd.Timedelta(hours=48), "ROW_ID"])
        after = set(own.loc[dt == pd.Timedelta(hours=48, minutes=1), "ROW_ID"])
        ids = {int(x) for x in r.note_ids.split()}
        if at48:
            checked += 1
            assert at48 <= ids and not (after & ids)
    assert checked >= 3


def test_held_out_list_is_honoured(synth: Path, tmp_path: Path):
    listed = tmp_path / "testset.csv"
    # the benchmark's format: subject_id,in_test without header; 0 rows are not test; 99999 is not in the data
    listed.write_text("10003,1\n10004,0\n10010,1\n10020,1\n99999,1\n")
    res = build_mimic_tasks(synth, test_subjects=listed, options=TaskOptions(max_windows=1, window=64, stride=64))
    test = set(res.splits.loc[res.splits["split"] == "test", "subject_id"])
    assert test == {10003, 10010, 10020}
    for df in res.tables.values():
        assert set(df.loc[df["split"] == "test", "subject_id"]) <= test
        assert not set(df.loc[df["split"] != "test", "subject_id"]) & test
    ex = res.exclusions
    assert ex.loc[ex["reason"] == "held-out test subject not in PATIENTS", "n"].tolist() == [1]
    (tmp_path / "h.csv").write_text("SUBJECT_ID\n10005\n10006\n")
    assert read_subject_list(tmp_path / "h.csv") == {10005, 10006}
    (tmp_path / "b.csv").write_text("10005,yes\n")
    with pytest.raises(InputError) as e:
        read_subject_list(tmp_path / "b.csv")
    assert e.value.row == 1 and e.value.field == "in_test"
    # the same set given in Python
    same = assign_splits(list(range(10001, 10151)), test_subjects={10003, 10010, 10020})
    assert set(same.loc[same["split"] == "test", "subject_id"]) == {10003, 10010, 10020}


def test_sentence_splitting_keeps_deid_spans_and_abbreviations():
    text = ("Mr. [**Last Name (NamePattern1) 12**] is a 70 yo man. Seen by Dr. Smith on [**2101-1-2**].\n"
            "Pt with cough and\nfever overnight\n\nPlan:\n- CXR\n- abx 2. Follow up.")
    assert split_sentences(text) == [
        "Mr. [**Last Name (NamePattern1) 12**] is a 70 yo man.", "Seen by Dr. Smith on [**2101-1-2**].",
        "Pt with cough and fever overnight", "Plan:", "- CXR", "- abx 2.", "Follow up."]
    assert len(regex_tokenizer("[**Hospital1 18**] is, ok")) == 4


def test_packing_into_sequences_of_at_least_20_tokens():
    # P4's group_sents (under_prob 0): close a sequence once it reaches min_tokens; the rest is a last sequence
    sents = ["a", "b", "c", "d", "e"]
    assert pack_sentences(sents, [5, 10, 6, 25, 3], 20) == [("a b c", 21), ("d", 25), ("e", 3)]
    assert pack_sentences(sents, [20, 1, 1, 1, 1], 20) == [("a", 20), ("b c d e", 4)]
    assert pack_sentences([], [], 20) == []


def test_windows_follow_the_sliding_rule():
    text = " ".join(f"t{i}" for i in range(1000))
    w = note_windows(text, window=510, stride=256, max_windows=10)
    assert len(w) == 1000 // 256 == 3  # n = len // stride windows
    assert w[0].split()[0] == "t0" and len(w[0].split()) == 510 and w[1].split()[0] == "t256"
    assert len(w[2].split()) == 1000 - 512  # the last one is cut by the note's end
    assert note_windows("short note here", window=510, stride=256) == ["short note here"]
    assert len(note_windows(" ".join(["x"] * 5000))) == 10  # at most 10 per note


def test_pretraining_corpus(synth: Path, res):
    corpus = pretraining_sequences(synth, splits=res.splits)
    notes = pd.read_csv(synth / "NOTEEVENTS.csv", keep_default_na=False, dtype=str)
    kept = notes[(notes["HADM_ID"] != "") & (notes["ISERROR"] != "1")]
    assert set(corpus["note_id"].astype(str)) == set(kept["ROW_ID"])
    last = corpus.groupby("note_id")["seq_index"].transform("max") == corpus["seq_index"]
    assert (corpus.loc[~last, "n_tokens"] >= 20).all()  # every sequence but a note's last has >= 20 tokens
    assert corpus["gender"].isin(["M", "F"]).all()
    split_of = dict(zip(res.splits["subject_id"], res.splits["split"]))
    assert (corpus["subject_id"].map(split_of) == corpus["split"]).all()
    assert corpus.attrs["excluded"]["outpatient note (no HADM_ID)"] == (notes["HADM_ID"] == "").sum()


def test_cli_mimic_tasks(tmp_path: Path, capsys):
    from clinaudit.cli.main import main

    synth_mimic(tmp_path / "s", n_patients=15, seed=2, compress=True)
    assert main(["mimic-tasks", "--mimic", str(tmp_path / "s"), "--out", str(tmp_path / "o"),
                 "--pretraining-corpus"]) == 0
    names = {p.name for p in (tmp_path / "o").iterdir()}
    assert {"inhosp_mort.csv", "phenotype_all.csv", "phenotype_first.csv", "tasks.csv", "splits.csv",
            "exclusions.csv", "labels_long.csv", "mimic_tasks.json", "pretrain_sequences.csv"} <= names
    tasks = pd.read_csv(tmp_path / "o" / "tasks.csv")
    assert len(tasks) == 57 and "tasks: 57" in capsys.readouterr().out


@pytest.mark.slow
def test_hugging_face_tokenizer_counts_word_pieces(tmp_path: Path):
    from transformers import BertTokenizer

    from clinaudit.families.hurtful_words.mimic_text import hf_tokenizer, note_sequences

    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "pt", "is", "stable", "hyper", "##tension", "."]
    BertTokenizer(vocab={v: i for i, v in enumerate(vocab)}).save_pretrained(tmp_path / "tok")
    spans = hf_tokenizer(tmp_path / "tok")
    text = "Pt is stable. Hypertension."
    assert [text[a:b] for a, b in spans(text)] == ["Pt", "is", "stable", ".", "Hyper", "tension", "."]
    assert note_sequences(text, spans, min_tokens=4) == [("Pt is stable.", 4), ("Hypertension.", 3)]
    windows = note_windows(text, spans, window=3, stride=2)
    assert windows == ["Pt is stable", "stable. Hyper", "Hypertension."]


@pytest.mark.slow
def test_planted_under_documentation_becomes_a_recall_gap(tmp_path: Path):
    """Generator → task tables → a plain TF-IDF + logistic classifier: the planted effect shows as a recall gap.

    Atherosclerosis is written in a woman's note with probability 0.35 (a man's 0.9): on the first-note
    task the classifier misses far more women; Hypertension (no planted documentation effect) is the control.
    """
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression

    synth_mimic(tmp_path, n_patients=2000, seed=1)
    res = build_mimic_tasks(tmp_path, options=TaskOptions(seed=0))
    df = res.tables["phenotype_first"]
    train, test = df[df["split"] != "test"], df[df["split"] == "test"]
    recall = {}
    for task in ("PF Atherosclerosis", "PF Hypertension"):
        vec = TfidfVectorizer(min_df=2)
        clf = LogisticRegression(max_iter=1000, class_weight="balanced").fit(vec.fit_transform(train["text"]),
                                                                            train[task])
        pred = clf.predict(vec.transform(test["text"]))
        pos = test[task].to_numpy() == 1
        recall[task] = {g: pred[pos & (test["gender"] == g).to_numpy()].mean() for g in ("M", "F")}
    assert recall["PF Atherosclerosis"]["M"] > 0.85 and recall["PF Atherosclerosis"]["F"] < 0.6
    assert abs(recall["PF Hypertension"]["M"] - recall["PF Hypertension"]["F"]) < 0.1
