"""De-identification takes time linear in the text on adversarial shapes (issue 50, tenth session): the shapes of
benchmarks/deid_fuzz.py at short lengths (four times the length may take at most twelve times the CPU time, a bound
loose enough for a loaded machine, and never more than 2 s), and one test per fault the generator found."""

from __future__ import annotations

import time

import pytest
from script_modules import load_script

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.name_detect import load_word_lists

FUZZ = load_script("benchmarks/deid_fuzz.py", "clinaudit_deid_fuzz")


def _cpu(text: str) -> tuple[float, str]:
    c0 = time.process_time()
    out, _ = deidentify_text(text)
    return time.process_time() - c0, out


@pytest.mark.parametrize("mark", [False, True])
@pytest.mark.parametrize("shape", sorted(FUZZ.SHAPES))
def test_a_shape_grows_linearly(shape, mark):
    load_word_lists()
    deidentify_text("Dr. Lee saw Anna.")
    t1 = min(_cpu(FUZZ.shape_text(shape, 500, mark))[0] for _ in range(2))
    t4 = min(_cpu(FUZZ.shape_text(shape, 2000, mark))[0] for _ in range(2))
    assert t4 < 2
    assert t4 <= 12 * max(t1, 0.002), (shape, mark, t1, t4)


#: one case per fault the generator found: the long text, its output, and short texts with their outputs (the same
#: as before the fix: what must change and what must stay)
FAULTS = {
    # each removal read back over every empty piece before it: "sir " 8,000 times 16 s (tenth session)
    "words_of_address": ("thank you " + "sir " * 30_000 + ".", "thank you .",
                         {"thank you sir sir .": "thank you .", "i got a sir .": "i got a."}),
    # each capital word read its whole line again (and back to the line's start): quadratic on one long line
    "capital_words_of_a_cased_line": ("DOCTOR: " + "ABC " * 20_000 + "OK", "DOCTOR: " + "ABC " * 20_000 + "OK",
                                      {"we met Anna RAVUVU today": "we met [NAME] today",
                                       "Seen for COPD and an MRI today": "Seen for COPD and an MRI today"}),
    # open_syllables tried every cut of the word, each cut through is_common's substitutions: quadratic
    "word_of_open_syllables": ("Dr. " + "a" * 60_000 + ". and " + "b" * 10 + ".", "Dr. [NAME]. and [NAME].",
                               {"the banana was ripe": "the banana was ripe"}),
    # a shared possessive's list (", Lee, Lee, ... and her husband's") was read to its end from every word of it
    "names_after_commas": ("with " + "Lee, " * 5_000 + "Kim", "with " + "[NAME], " * 5_000 + "[NAME]",
                           {"with Lee, Kim, Ann and her husband's car": "with [NAME], [NAME], [NAME] and their "
                            "spouse's car",
                            "we were at Lee, Kim and Ann's place": "we were at [NAME], [NAME] and [NAME]'s place"}),
}


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_a_fault_found_runs_in_linear_time(fault):
    long_text, long_out, short = FAULTS[fault]
    load_word_lists()
    took, out = _cpu(long_text)
    assert took < 2
    assert out == long_out
    assert {text: deidentify_text(text)[0] for text in short} == short
