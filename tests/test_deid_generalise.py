"""De-identification that does not depend on the sentence form (issue 50): characters that hide inside a name,
words in no list, linear time."""

from __future__ import annotations

import csv
import os
import time
from pathlib import Path

import pytest

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.deid_rules import normalise
from clinaudit.perturb.name_detect import load_word_lists


@pytest.mark.parametrize("hidden", ["\u200b", "\u200c", "\u200d", "\u00ad", "\u2060", "\ufeff", "\u202e", "\u2066"])
def test_characters_that_hide_inside_a_name_do_not_split_it(hidden):
    # issue 50: "Hi Mrs. Ngu\u200cyen" became "[NAME]\u200cyen"; "jo\u200bhn" passed untouched
    text = f"Doctor: Hi Mrs. Ngu{hidden}yen, how are you?\nPatient: my name is jo{hidden}hn smith ."
    out, rep = deidentify_text(text)
    assert out == "Doctor: Hi [NAME], how are you?\nPatient: my name is [NAME] ."
    olds = [r["old"] for r in rep.removed if r["kind"] == "name"]
    assert olds == [f"Ngu{hidden}yen", f"jo{hidden}hn smith"]  # the whole original span, positions on the input
    for r in rep.removed:
        assert text[r["start"]:r["end"]] == r["old"]


def test_normalise_maps_back_to_the_original():
    text = "Dr. Nguye\u0301n and \uff2e\uff47\uff55\uff59\uff45\uff4e x\u00ady"
    norm, starts, ends = normalise(text)
    assert norm == "Dr. Nguyén and Nguyen xy"
    i = norm.index("é")
    assert text[starts[i]:ends[i]] == "e\u0301"
    j = norm.index("xy")
    assert text[starts[j]:ends[j + 1]] == "x\u00ady"
    assert normalise("plain ascii") is None and normalise("Nguyễn") is None  # nothing to change


def test_combining_marks_and_full_width_letters_are_read_as_letters():
    out, _ = deidentify_text("Patient: my husband Adebayo\u0300 and Dr. \uff2b\uff49\uff4d .", gender=False)
    assert out == "Patient: my husband [NAME] and Dr. [NAME] ."


@pytest.mark.parametrize("text,expected", [
    # words in no list are names wherever they stand, in lower case too
    ("[patient] subhajit drove me here today .", "[patient] [NAME] drove me here today ."),
    ("[doctor] i'll send a copy to nomvula as well .", "[doctor] i'll send a copy to [NAME] as well ."),
    ("Patient: I stay with Thanawat on weekends.", "Patient: I stay with [NAME] on weekends."),
    # ... but not misspellings, words cut short, two words run together, spoken forms
    ("[patient] i took an asprin and it was notied by my exhusband , alrighty .",
     "[patient] i took an asprin and it was notied by my exhusband , alrighty ."),
    ("[doctor] the hepatospleno exam and the skatepark fall , mkay .",
     "[doctor] the hepatospleno exam and the skatepark fall , mkay ."),
    # a gazetteer name is a common word only as written, or as a plural of one: "uncles" stays
    ("[patient] my uncles had polio .", "[patient] my uncles had polio ."),
])
def test_words_in_no_list(text, expected):
    assert deidentify_text(text, gender=False)[0] == expected


def test_the_lower_case_view_matches_where_case_insensitive_patterns_do():
    # issue 50, Build 3: the case-insensitive rules read lower_view(text) case-sensitively; over every code point,
    # a letter of a pattern matches the view where it matches the text ("ı", "İ" match "i", "ſ" matches "s" in
    # Python's re), and word, space and digit characters stay where they were
    import re
    import sys

    from clinaudit.perturb.deid_rules import lower_view

    text = "".join(chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c < 0xE000)
    view = lower_view(text)
    assert view is not None and len(view) == len(text)
    for pat in (r"\w", r"\s", r"\d", r"\b"):
        assert [m.start() for m in re.finditer(pat, text)] == [m.start() for m in re.finditer(pat, view)], pat
    for letter in "abcdefghijklmnopqrstuvwxyz":
        assert ([m.start() for m in re.finditer(letter, text, re.IGNORECASE)]
                == [m.start() for m in re.finditer(letter, view)]), letter


def test_rules_on_the_lower_case_view_find_what_they_found_on_the_text():
    # the values the rules gave when they read the text case-insensitively (1b00395, before the view)
    from clinaudit.perturb.deid import LIFE_STAGE_TERMS, ORIGIN_TERMS
    from clinaudit.perturb.deid_rules import address_spans, pattern_spans
    from clinaudit.perturb.neutralize import gendered_candidates

    text = ("Doctor: Yes SIR, Thank you MISS. She was BORN in Texas, a \u017fenior of Turkish origin, moved from "
            "Mexico.\nPatient: \u0130ndian, RETIRED; Her HUSBAND is a teenager. Gender: MALE\nSir, are you ok? s/he or HE")
    assert address_spans(text) == [(11, 15, False), (26, 31, False), (169, 174, True)]  # " SIR", " MISS", "Sir, "
    assert [text[s:e] for s, e in pattern_spans(text, ORIGIN_TERMS)] == ["Turkish", "from Mexico", "\u0130ndian"]
    assert [text[s:e] for s, e in pattern_spans(text, LIFE_STAGE_TERMS)] == ["RETIRED", "teenager"]
    assert [text[s:e] for s, e, *_ in gendered_candidates(text)] == ["She", "Her", "HUSBAND", "MALE", "s/he", "HE"]


def _dialog(size: int) -> str:
    turns = ["[doctor] hi , how are you doing today ? i'm dr. okafor , nice to meet you .",
             "[patient] i'm okay , my wife adaeze drove me , thank you . i have a 45-year-old brother .",
             "[doctor] any chest pain , sir ? did you take the aspirin ?",
             "[patient] no , but a teenager at work gave me a cold , thanks mr. smith ."]
    out, i = [], 0
    while sum(len(t) + 1 for t in out) < size:
        out.append(turns[i % 4])
        i += 1
    return "\n".join(out)


def _seconds(text: str) -> float:
    """Process CPU seconds of de-identifying ``text``, the less of two runs (the wall time of one run on a loaded
    machine made the ratio below flaky)."""
    runs = []
    for _ in range(2):
        c0 = time.process_time()
        deidentify_text(text)
        runs.append(time.process_time() - c0)
    return min(runs)


def test_time_grows_linearly_with_the_text():
    deidentify_text(_dialog(2_000))  # word lists loaded
    small, big = _seconds(_dialog(40_000)), _seconds(_dialog(400_000))
    # issue 50: 200 kB 2.9 s, 400 kB 10.7 s, 800 kB over 150 s (quadratic); ten times the text, about ten times
    # the time (a quadratic step would make it a hundred)
    assert big / small < 25, (small, big)


DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
_PEOPLE = [("Adaeze", "Okafor"), ("Nguyễn", "Thị Lan"), ("Thanawat", "Srisuk"), ("Zanele", "Dlamini"),
           ("Mehmet", "Özdemir"), ("Sung-min", "Park"), ("Aarav", "Venkataraman"), ("Ingrid", "van der Berg")]


def _real_dialog(size: int) -> str:
    """Real dialogs of the shared ACI-Bench and MTS-Dialog files, one after another up to ``size`` characters, each
    with a doctor's greeting and a relative named (people of eight origins, some with diacritics)."""
    texts: list[str] = []
    for rel, col in [("aci-bench/train.csv", "dialogue"), ("aci-bench/valid.csv", "dialogue"),
                     ("mts-dialog/MTS-Dialog-TrainingSet.csv", "dialogue")]:
        path = DATA / rel
        if not path.exists():
            pytest.skip(f"public data file {path} is absent")
        with path.open(encoding="utf-8") as fh:
            texts += [r[col] for r in csv.DictReader(fh)]
    out: list[str] = []
    n = 0
    for i, t in enumerate(texts * 4):
        g, s = _PEOPLE[i % len(_PEOPLE)]
        g2, _ = _PEOPLE[(i + 3) % len(_PEOPLE)]
        doc = f"[doctor] hi mrs. {s.lower()} , how are you ?" if i % 2 else f"Doctor: Hi Mrs. {s}, how are you?"
        rel = f"[patient] my husband {g2.lower()} drove me ." if i % 2 else f"Patient: My husband {g2} drove me."
        out.append(f"{doc}\n{t}\n{rel}")
        n += len(out[-1]) + 1
        if n >= size:
            break
    return "\n".join(out)[:size]


def _cpu(text: str) -> tuple[float, float]:
    """Process CPU seconds and wall seconds of one de-identification (CPU time: what load on a shared CI machine
    inflates least)."""
    c0, t0 = time.process_time(), time.perf_counter()
    deidentify_text(text)
    return time.process_time() - c0, time.perf_counter() - t0


def test_the_detector_reads_only_the_words_it_may_take(monkeypatch):
    # issue 50, Build 3: detector_candidates skips the words name_detect._may_take rejects (decided once a distinct
    # word); read with every word of two letters or more, the dialogs give the same finds (a test added to the
    # detector that takes a word the filter rejects fails here)
    from clinaudit.perturb import name_detect

    texts = [_real_dialog(150_000),
             "Patient: My wife Věra and věra's sister Åsa came. ŠÁRKA said hāna and Hāna, the hāna, Łukasz at Mercy.",
             "[patient] i saw ģirts , thembile and THEMBILE , subhajit's wixela , the wixela , ask Birthe to call .",
             "Doctor: Mr. White, Will and will, Mark marked it; Dvořák, Müller, müller, Jesús, Sander drove me.",
             "[doctor] and shin , seeing Shin for it , Iris says hi , the patio , our patio , Zoë , Ærøskøbing ."]
    def finds() -> list[list[tuple[int, int, str, str]]]:
        return [list(name_detect.detector_candidates(t)) for t in texts]

    filtered = finds()
    monkeypatch.setattr(name_detect, "_may_take", lambda word, key: len(key) >= 2 and key != "name")
    assert finds() == filtered
    assert any(f for f in filtered[1:])  # the examples give finds


@pytest.mark.slow
def test_a_1_mb_dialog():
    load_word_lists()
    text = _real_dialog(1_000_000)
    cpu, wall = _cpu(text)
    print(f"1 MB of real dialogs: {cpu:.2f} s CPU, {wall:.2f} s wall, load {os.getloadavg()[0]:.1f}")
    # issue 50: 22.6 s (load 9); the target is 2 s. Measured on the shared 2-core container (docs/deidentification.md):
    # 3.5-4.1 s CPU before issue 50's Build 3 speed work, 2.2-2.3 s after it at load 3-4, but 2.2-3.7 s in this test
    # at load 2-3 (other sessions' load inflates CPU time too); on 2026-12-03's machine, idle, 9d27650 2.66-2.68 s and
    # the seventh session's code 1.77-1.86 s (the 2 s met there). The limit holds with margin for a loaded CI machine
    assert cpu < 6, (cpu, wall)


@pytest.mark.slow
def test_pathological_inputs():
    load_word_lists()
    t, _ = _cpu(_dialog(800_000))
    t_titles, _ = _cpu(("Dr. Mr. Mrs. Ms. Miss Doctor sir ma'am " * 4000)[:128_000])
    t_caps, _ = _cpu(" ".join(["Zorblax Quentaro Vimbly"] * 10_000)[:200_000])  # capitalised words in no list
    print(f"CPU s: 800 kB {t:.2f}, 128 kB of titles {t_titles:.2f}, 200 kB of capitalised non-words {t_caps:.2f}")
    # issue 50: 800 kB over 150 s, 128 kB of titles 12 s (quadratic); measured at load 3-4: 800 kB 1.6-1.9 s,
    # titles 0.4 s, capitalised non-words 1.4-1.8 s CPU (before the speed work 2.5-4.4, 0.8-0.9, 1.4-1.5 s); limits
    # cut in proportion, with room for a loaded CI machine
    assert t < 6 and t_titles < 1.5 and t_caps < 4, (t, t_titles, t_caps)


def test_a_line_without_spaces_is_linear():
    # a line without spaces is one word: its misspelling and run-together checks copied it once per letter (10 kB
    # 3.7 s, 1 MB killed for memory); now a part longer than any listed word is read by its suffix only
    load_word_lists()
    c0 = time.process_time()
    out, _ = deidentify_text("abcdefghij" * 20_000 + " and the cardiologist " + "q" * 100_000 + "cardiology")
    assert time.process_time() - c0 < 2  # 0.2-0.3 s CPU at load 3-4
    # as before: a word in no list is a possible name; one that ends in a specialty's suffix is a specialty
    assert out == "[NAME] and the cardiologist " + "q" * 100_000 + "cardiology"


def test_a_long_word_before_a_bracket_in_a_text_with_combining_marks():
    # the tokeniser read a word's letters as "(letters+ marks*)+": where the look-ahead failed (a word right before
    # "]"), it tried every way of cutting the word into runs: 22 letters 0.5 s, 30 letters minutes (tenth session)
    load_word_lists()
    c0 = time.process_time()
    out, _ = deidentify_text("Cafe\u0301 with Zoe\u0308 " + "a" * 5_000 + "] and " + "b" * 60 + "]")
    assert time.process_time() - c0 < 2
    assert out.startswith("Cafe\u0301 with")
