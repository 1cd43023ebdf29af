"""The learned reading of a lower-case word's place (``benchmarks/name_context_model.py``, issue 50, eighteenth
session; a measured negative result, not in ``name_rules.RULES`` nor in the package): its features by hand, a few
sentences scored, the training script's data kept to the development material, the weights beside it reproduced by
the script byte for byte, and the transfer check with the rule registered."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from script_modules import load_script

from clinaudit.perturb import name_rules
from clinaudit.perturb.name_no_person import no_person_at
from clinaudit.perturb.name_tokens import tokens

ncm = load_script("benchmarks/name_context_model.py", "name_context_model")

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "train_name_context.py"
WEIGHTS = ROOT / "benchmarks" / "name_context_model.json"
RULE = name_rules.NameRule("context_model_names", ncm.context_model_names)


def test_shape_and_classes():
    assert ncm._shape("mele") == "cvcv"
    assert ncm._shape("bright") == "cvc"
    assert ncm._shape("aoife") == "vcv"
    assert ncm.word_class("with") == "prep"
    assert ncm.word_class("she") == "pron"
    assert ncm.word_class("the") == "art"
    assert ncm.word_class("walking") == "ing"
    assert ncm.word_class("mum") == "rel"


def test_word_features_say_what_the_lists_say_never_the_word():
    f = ncm.word_features("tavita")
    assert "first=True" in f and "known=False" in f and "z=0" in f and "len=6" in f and "shape=cvcvc" in f
    assert not any("tavita" in x for x in f)
    assert "clin=condition" in ncm.word_features("pain") and "common=True" in ncm.word_features("pain")


def test_lower_lines_leave_out_the_label_and_cased_lines():
    text = "Doctor: Hi there.\nPatient: fine thanks"
    starts = [t.start for t in tokens(text)]
    assert ncm._lower_line(text, 0, starts) is None
    body, end, lo, hi = ncm._lower_line(text, 18, starts)  # type: ignore[misc]
    assert text[body:end] == " fine thanks" and (lo, hi) == (4, 6)
    assert ncm._lower_line("[doctor] ok .\n[patient] Fine .", 0, [9]) == (8, 13, 0, 1)


def test_context_features_by_hand():
    text = "[patient] i came in with tavita today , she drove me ."
    toks = tokens(text)
    line = [t for t in toks if t.start >= 9]
    i = [t.key for t in line].index("tavita")
    feats = ncm.context_features(text, line, i, set(), set(), 9, len(text))
    assert feats == ["w-3=came", "w-2=in", "c-2=prep", "w-1=with", "c-1=prep", "w+1=today", "c+1=func",
                     "w+2=she", "c+2=pron", "w+3=drove", "p-=", "p+="]
    # a neighbour found as a name reads <name>; the same word found elsewhere; the turn's start; punctuation
    feats = ncm.context_features(text, line, i, {line[i + 1].start}, {"tavita"}, 9, len(text))
    assert "w+1=<name>" in feats and "c+1=<name>" in feats and "found_same" in feats
    text2 = "[patient] ruta , can you ?"
    line2 = [t for t in tokens(text2) if t.start >= 9]
    f2 = ncm.context_features(text2, line2, 0, set(), set(), 9, len(text2))
    assert "turn_start" in f2 and "p+=," in f2 and "w-1=<edge>" in f2


def test_candidates_are_lower_case_words_left_and_unblocked():
    text = "[doctor] how are you ?\n[patient] i came in with tavita today , she drove me .\nDoctor: Tavita came."
    toks = tokens(text)
    keys = [t.key for t, _ctx in ncm.candidate_words(text, toks, [], no_person_at, lambda key: True)]
    # function words blocked, dictionary words in no gazetteer ("came", "drove") left; the cased line is no
    # lower-case speech
    assert keys == ["tavita"]
    assert ncm.candidate_key("tavita") and not ncm.candidate_key("came") and not ncm.candidate_key("the")
    assert not ncm.candidate_key("pain")  # a dictionary word in no gazetteer
    start = text.index("tavita")
    keys = [t.key for t, _ctx in ncm.candidate_words(text, toks, [(start, start + 6)], no_person_at, lambda k: True)]
    assert "tavita" not in keys


def test_a_score_is_the_bias_and_the_weights_summed():
    data = json.loads(WEIGHTS.read_text(encoding="utf-8"))
    model = ncm.load_model()
    feats = ["w-1=with", "c-1=prep", "p+=,"]
    want = data["bias"] + sum(data["weights"].get(f, 0.0) for f in (*ncm.word_features("tavita"), *feats))
    assert model.score("tavita", feats) == pytest.approx(want)


@pytest.mark.parametrize("text,taken", [
    ("[patient] i came in with tavita today , she drove me .", ["tavita"]),  # scores 8.17
    ("[patient] linnet is a small brown bird .", ["linnet"]),  # 3.27: the word as a word, taken (the transfer's miss)
    ("[patient] a linnet was singing in the garden .", []),  # 0.62 after an article
    ("[patient] frost has been doing my shopping .", ["frost"]),  # 4.07
])
def test_a_few_sentences_scored(text, taken):
    toks = tokens(text)
    model = ncm.load_model()
    assert model.threshold == pytest.approx(2.4386)
    assert [t.key for t in ncm.context_model_names(text, toks, [], no_person_at)] == taken


def test_the_script_reads_no_held_out_material():
    src = SCRIPT.read_text(encoding="utf-8")
    for banned in ("held_out=True", "HELD_OUT", "deid_heldout", "show_left", "show-left"):
        assert banned not in src, banned


def test_weights_file_is_small_and_plain():
    data = json.loads(WEIGHTS.read_text(encoding="utf-8"))
    assert set(data) == {"bias", "threshold", "weights"}
    assert WEIGHTS.stat().st_size < 100_000
    assert all(isinstance(w, float) for w in data["weights"].values())
    assert not any("sklearn" in m for m in sys.modules if m.startswith("clinaudit"))
    assert "sklearn" not in Path(ncm.__file__).read_text(encoding="utf-8")


#: the revision whose rules and development sets the weights were fitted on (97c3c0b's rules; main's de-identification
#: outputs were identical through 133340f, the last revision before a set, dev44, and a rule, name_spoken_address, were
#: added in the nineteenth session). The training data are the names main's rules leave in the sets, so the script
#: gives other weights on a later tree: a measured result is reproduced at its own revision.
WEIGHTS_REVISION = "133340f"


@pytest.mark.slow
def test_the_script_reproduces_the_weights(tmp_path):
    shared = next((d for d in (ROOT.parent / "shared", ROOT.parent.parent / "shared") if (d / "data").exists()), None)
    if shared is None:
        pytest.skip("the shared dialogs are absent")
    arch = subprocess.run(["git", "-C", str(ROOT), "archive", WEIGHTS_REVISION, "src", "benchmarks"],
                          capture_output=True)
    if arch.returncode:
        pytest.skip(f"revision {WEIGHTS_REVISION} is not in this clone's history (a shallow clone)")
    tree = tmp_path / "tree"
    tree.mkdir()
    subprocess.run(["tar", "-x", "-C", str(tree)], input=arch.stdout, check=True)
    (tmp_path / "shared").symlink_to(shared)  # beside the tree, where the bench looks for ../shared/data
    out = tmp_path / "model.json"
    subprocess.run([sys.executable, str(tree / "benchmarks" / SCRIPT.name), "--out", str(out)], check=True,
                   capture_output=True, env={"PYTHONPATH": str(tree / "src"), "PATH": "/usr/bin:/bin"})
    assert out.read_bytes() == WEIGHTS.read_bytes()


#: the transfer check (written after the model was final, run once, not tuned on): new names of UK, Irish, Punjabi,
#: Samoan and other origins, none of any development set's, in everyday forms written fresh; (sentence, the name)
TRANSFER_PERSONS = (
    ("my neighbour fleet drives me to the clinic on tuesdays .", "fleet"),
    ("i left a message for hedges but he never rang back .", "hedges"),
    ("kestrel is staying with me until the end of the month .", "kestrel"),
    ("sable came round last night and cooked for us .", "sable"),
    ("have you met garnet , she's my eldest ?", "garnet"),
    ("teal usually sorts out my tablets on a sunday .", "teal"),
    ("the only one who visits now is dart .", "dart"),
    ("sedge and i went walking by the canal on saturday .", "sedge"),
    ("i think linnet worries about me more than she lets on .", "linnet"),
    ("gable picked up my shopping yesterday .", "gable"),
    ("oisin keeps telling me to slow down .", "oisin"),
    ("eamon said he would bring the forms in later .", "eamon"),
    ("we had cillian over for dinner and he noticed my cough .", "cillian"),
    ("grainne thinks i should have come in sooner .", "grainne"),
    ("jaswinder gave me a lift here this morning .", "jaswinder"),
    ("sandeep is my son-in-law , he handles the appointments .", "sandeep"),
    ("kulwant was worried when i fainted at the wedding .", "kulwant"),
    ("tuilagi from church checks on me most days .", "tuilagi"),
    ("iosefa helped me up the stairs when my knee gave way .", "iosefa"),
    ("lowry from next door found me on the floor .", "lowry"),
)
#: the same words as words (sentence, the word)
TRANSFER_WORDS = (
    ("my son works on the fishing fleet up north .", "fleet"),
    ("i trim the hedges at the front of the house .", "hedges"),
    ("a kestrel was hovering over the field .", "kestrel"),
    ("she bought a sable coat at the market .", "sable"),
    ("my ring has a garnet in it .", "garnet"),
    ("we painted the kitchen teal last spring .", "teal"),
    ("the dart hit the wall instead of the board .", "dart"),
    ("the pond is full of sedge and reeds .", "sedge"),
    ("a linnet was singing in the garden .", "linnet"),
    ("the gable end of the house needs repointing .", "gable"),
    ("the whole fleet of buses was on strike .", "fleet"),
    ("the hedges need cutting before winter .", "hedges"),
    ("teal is my favourite colour .", "teal"),
    ("garnet is the birthstone for january .", "garnet"),
    ("i saw a kestrel on the motorway verge .", "kestrel"),
    ("the sable paintbrush cost a fortune .", "sable"),
    ("he threw a dart and hit the bullseye .", "dart"),
    ("linnet is a small brown bird .", "linnet"),
    ("we walked past the sedge by the river .", "sedge"),
    ("the gable window lets in the light .", "gable"),
)


def transfer_counts() -> tuple[list[str], list[str]]:
    """The names removed and the words replaced, each sentence in a short lower-case dialog."""
    from clinaudit.perturb.deid import deidentify_text

    def replaced(sentence: str, word: str) -> bool:
        out, _ = deidentify_text(f"[doctor] how have you been ?\n[patient] {sentence}\n[doctor] okay , thank you .")
        return re.search(rf"\b{word}\b", out) is None

    return ([w for s, w in TRANSFER_PERSONS if replaced(s, w)], [w for s, w in TRANSFER_WORDS if replaced(s, w)])


#: what the check measured when run once with the rule registered last (main: 18 names, 2 words: "teal", "garnet";
#: the model adds "linnet is a small brown bird ." and no name)
TRANSFER_MEASURED = (18, 3)
TRANSFER_MAIN = (18, 2)


def test_transfer_check_as_measured(monkeypatch):
    assert (len(transfer_counts()[0]), len(transfer_counts()[1])) == TRANSFER_MAIN  # not registered: main's
    monkeypatch.setattr(name_rules, "RULES", name_rules.RULES + (RULE,))
    names, words = transfer_counts()
    assert (len(names), len(words)) == TRANSFER_MEASURED, (names, words)


def test_the_rule_is_not_registered():
    # a measured negative result (docs/deidentification.md, eighteenth session): the training script registers it
    # only while it records
    assert "context_model_names" not in {r.name for r in name_rules.RULES}
    # nor in the package: an experiment of the benchmarks (docs/deidentification.md, "Where the code is")
    assert not list((ROOT / "src" / "clinaudit").rglob("name_context_model*"))
