"""The whole-text patterns rewritten to begin with what ``re`` searches for (issue 50, eighth session: a look-behind
written after a first letter or a space, :mod:`clinaudit.perturb.text_scan`) find the very matches of the forms they
replace, which began with the look-behind: checked on random strings of the characters that matter and on dialog."""

from __future__ import annotations

import random
import re

from clinaudit.perturb import name_tokens, neutralize
from clinaudit.perturb.deid_rules import case_sensitive


def _old_by_first_letter(words: list[str]) -> str:
    groups: dict[str, list[str]] = {}
    for w in words:
        groups.setdefault(w[:1], []).append(w[1:])
    return "|".join(re.escape(c) + "(?:" + "|".join(map(re.escape, rests)) + ")" for c, rests in groups.items())


_OLD_WORD = re.compile(r"(?:(?<![\w-])|(?<=-old-))(" + _old_by_first_letter(neutralize._WORDS) + r")(?![\w])",
                       re.IGNORECASE)
_OLD_TITLE = re.compile(r"\b(?:Mr|Mrs|Ms|MR|MRS|MS)\.\s*|\b(?:Mr|Mrs|Ms|Miss)\s+(?=[A-Z][a-z])")
_OLD_CAP_AFTER_SPACE = re.compile(rf"(?<=[^\s.!?:\]A-Z0-9\"“(] ){name_tokens._CAP_TOKEN.pattern}")

_DIALOG = ("Doctor: Hi Mr. Smith, how is she? Mrs Jones said her husband and his wife (Ms.Lee) came.\n"
           "Patient: a 45-year-old-man, x-she, HE, Him, ſhe; the boyfriend's girlfriend. Miss Ann, MR. Ø Åsa "
           "ask Birthe, then Zoë’s and O'Brien-Smith; “Lee” said: Věra. 9 Ab, ]Cd [NAME] Ef_Gh i-Jk l'Mn ")


def _strings(n: int = 4000) -> list[str]:
    rnd = random.Random(50)
    alphabet = list("hesmwbgfliaHSMrRSZ.,;:-_'’ \t\n9[]\"“(é\u0301Åold") + ["Mr", "Mrs", "Ms", "Miss", "her", "she",
                                                                              "-old-", "man", "Ann", "x "]
    return [_DIALOG] + ["".join(rnd.choice(alphabet) for _ in range(rnd.randint(1, 20))) for _ in range(n)]


def _spans(rx: re.Pattern[str], text: str, group: int = 0) -> list[tuple[int, int]]:
    return [m.span(group) for m in rx.finditer(text)]


def test_gendered_word_and_title_patterns_match_as_before() -> None:
    old_lower = case_sensitive(_OLD_WORD)
    for s in _strings():
        assert _spans(neutralize._WORD_RE, s, 1) == _spans(_OLD_WORD, s, 1)
        assert _spans(neutralize._WORD_LOWER, s.lower(), 1) == _spans(old_lower, s.lower(), 1)
        assert _spans(neutralize._TITLE_RE, s) == _spans(_OLD_TITLE, s)


def test_capitalised_words_after_a_space_as_before() -> None:
    for s in _strings():
        assert _spans(name_tokens._CAP_AFTER_SPACE, s, 1) == _spans(_OLD_CAP_AFTER_SPACE, s)
    assert [t.text for t in name_tokens.capitalised_tokens(_DIALOG, after_space=True)] == [
        m.group(0).removesuffix("'s").removesuffix("’s") if len(m.group(0)) > 3 else m.group(0)
        for m in _OLD_CAP_AFTER_SPACE.finditer(_DIALOG) if m.group(0)[:1].isupper()]


_OLD_COMPOUND_ANY = re.compile("|".join(f"(?:{p})" for p, _ in neutralize._COMPOUNDS), re.IGNORECASE)


def test_the_first_compound_pronoun_found_as_before() -> None:
    old_lower = case_sensitive(_OLD_COMPOUND_ANY)
    rnd = random.Random(8)
    pieces = ["s/he", "he", "she", "his", "her", "him", "himself", "herself", "/", " or ", " and/or ", " ", "x", "-",
              "He", "HER", "_", "s"]
    texts = [_DIALOG, "he or she", "xhe or she; his/her", "himself / herself", "S/He", "her or him"] + [
        "".join(rnd.choice(pieces) for _ in range(rnd.randint(1, 8))) for _ in range(4000)]
    for s in texts:
        for new, old, on in ((neutralize._COMPOUND_ANY, _OLD_COMPOUND_ANY, s),
                             (neutralize._COMPOUND_ANY_LOWER, old_lower, s.lower())):
            a, b = new.search(on), old.search(on)
            assert (a and a.start()) == (b and b.start()), s
