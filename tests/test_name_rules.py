"""The name rules' ordered registry (:mod:`clinaudit.perturb.name_rules`, issue 50, seventeenth session): its order
is pinned, an entry is all it takes to run a rule in :func:`~clinaudit.perturb.name_detect.find_names`, and the
entries' flags and inputs do what the module's docstring says."""

from __future__ import annotations

import pytest

from clinaudit.perturb import name_detect, name_rules
from clinaudit.perturb.name_detect import find_names
from clinaudit.perturb.name_rules import INPUTS, RULES, NameRule

#: the order of the registry (the order of the hand-wired find_names it replaced: same spans in the same order); a
#: new rule adds its name here at its place
ORDER = [
    "particle_names", "addressed", "particle_chain_names", "apostrophe_names", "person_slots", "coordinated_names",
    "bare_person_names", "clause_subject_names", "bare_object_names", "bare_place_names", "person_only_names",
    "guarded_word_names", "kept_word_names", "place_word_names", "everyday_place_names", "strong_place_names",
    "syllable_names", "prep_objects", "rare_slot_names", "capital_objects", "lower_objects", "elided_particle_names",
    "apart_particle_names", "capital_names", "okina_names", "person_verb_names", "given_and_surname",
    "middle_initial_names", "possessive_names", "person_context_names", "open_surname_capitals", "open_surname_bare",
    "role_names",
    "relative_names",
    "apposed_persons", "polynesian_pairs", "spoken_address_names", "syllable_word_names", "part_names", "prefixed_names", "capital_neighbours",
    "place_beside_names", "surnames_beside", "eponym_person_names", "repeated_word_surnames", "full_name_mentions",
    "bare_word_surnames",
    "person_predicate_names", "surname_place_names", "given_word_names",
    "given_pairs", "deaccented_mentions", "listed_with_names", "other_mentions", "cased_mentions",
    "spelled_names",
]

TEXT = "[doctor] the table is here .\n[patient] and the chair is there ."


def _rule_spans(text: str, **kw: object) -> list[tuple[int, int]]:
    return [(sp.start, sp.end) for sp in find_names(text, **kw) if sp.source == "rule"]  # type: ignore[arg-type]


def _at(text: str, word: str) -> tuple[int, int]:
    i = text.index(word)
    return i, i + len(word)


def test_the_order_is_pinned_and_the_names_unique():
    assert [r.name for r in RULES] == ORDER
    assert len(set(ORDER)) == len(ORDER)


def test_reads_are_the_parameters_and_only_known_inputs():
    for r in RULES:
        assert set(r.reads) <= INPUTS, r.name
    assert {r.name for r in RULES if "found" in r.reads or "found_firsts" in r.reads} >= {
        "syllable_word_names", "part_names", "capital_neighbours", "surnames_beside", "other_mentions"}
    assert {r.name for r in RULES if r.pairs_only} == {"prefixed_names", "given_pairs"}
    with pytest.raises(ValueError, match="'colour'"):
        NameRule("bad", lambda text, colour: [])


def test_one_entry_runs_a_new_rule(monkeypatch):
    fake = NameRule("fake_table", lambda toks: [t for t in toks if t.key == "table"])
    assert _at(TEXT, "table") not in _rule_spans(TEXT)
    monkeypatch.setattr(name_rules, "RULES", RULES + (fake,))
    assert _at(TEXT, "table") in _rule_spans(TEXT)


def test_a_rule_reads_the_spans_found_before_it(monkeypatch):
    seen: list[list[tuple[int, int]]] = []

    def after(found, text, toks):  # takes the word after a name the first fake found
        seen.append(found)
        return [t for t in toks if t.key == "chair" and _at(text, "table") in found]

    first = NameRule("fake_first", lambda toks: [t for t in toks if t.key == "table"])
    monkeypatch.setattr(name_rules, "RULES", (first, NameRule("fake_after", after)))
    assert _rule_spans(TEXT) == [_at(TEXT, "table"), _at(TEXT, "chair")]
    monkeypatch.setattr(name_rules, "RULES", (NameRule("fake_after", after), first))  # before it: not read
    assert _rule_spans(TEXT) == [_at(TEXT, "table")]

    def spoil(found):
        found.append((0, 1))
        return []

    monkeypatch.setattr(name_rules, "RULES", (NameRule("fake_spoil", spoil), NameRule("fake_after", after)))
    _rule_spans(TEXT)
    assert (0, 1) not in seen[-1]  # each rule reads a list of its own


def test_the_flags(monkeypatch):
    both = NameRule("fake_pairs", lambda toks: [t for t in toks if t.key in ("table", "chair")], pairs_only=True)
    monkeypatch.setattr(name_rules, "RULES", (both,))
    assert _rule_spans(TEXT) == [_at(TEXT, "table"), _at(TEXT, "chair")]
    assert _rule_spans(TEXT, pairs=False) == []
    monkeypatch.setattr(name_rules, "RULES", (NameRule("fake_nobody", both.find, person_here=True),))
    monkeypatch.setattr(name_detect, "no_person_at", lambda text, s, e: text[s:e] == "chair")
    assert _rule_spans(TEXT) == [_at(TEXT, "table")]


def test_the_shared_inputs_are_computed_once_a_text(monkeypatch):
    calls = {"bare": 0, "rare": 0}
    bare, rare = name_detect.bare_word_places, name_detect.rare_lines

    def count(key, f):
        def counted(*a):
            calls[key] += 1
            return f(*a)
        return counted

    monkeypatch.setattr(name_detect, "bare_word_places", count("bare", bare))
    monkeypatch.setattr(name_detect, "rare_lines", count("rare", rare))
    find_names(TEXT, pairs=False)
    assert calls == {"bare": 1, "rare": 1}
    monkeypatch.setattr(name_rules, "RULES", (NameRule("fake_text", lambda text: []),))
    find_names(TEXT)
    assert calls == {"bare": 1, "rare": 1}  # read by no rule: not computed
