"""A seventh development set of the by-origin de-identification benchmark (issue 50, eighth session): forms taken
from **real speech**.

The held-out half loses, in lower case, the same pair of names for 29 origins, so some held-out sentence form loses
whatever name stands in it; the hand-written forms of dev5 and prep2 did not find it (we write forms the way we think
people talk). These forms are not written: they are **real sentences** of the shared dialogs that the benchmark does
*not* use as host dialogs (ACI-Bench ``train`` and ``clinicalnlp_taskC_test2``, MTS-Dialog's training file; the hosts
are ACI-Bench ``valid`` and ``clinicalnlp_taskB_test1`` and the MTS-Dialog test set, :func:`bench_deid_origin.
load_dialogs`), built at run time from ``../shared`` (nothing of the shared data is copied into the repository), with
a name put where the sentence refers to a person, by a fixed rule (no random choice):

* ``named``: an ACI-Bench sentence with the dialog's own metadata name (patient's given name, family name, doctor's
  name): the name becomes ``{g}`` / ``{s}`` ("hi , {g} . how are you ?");
* ``pronoun``: a third-person pronoun, the subject "he"/"she" or the object "him"/"her" (before a punctuation
  mark or a word that does not start a noun phrase), becomes ``{g}``, ``{s}`` or ``{g} {s}`` in turn;
* ``relation``: "my/your wife, husband, son, daughter, mom, friend, neighbor, ..." becomes ``{g}`` (every third
  one "my wife {g}", the relation kept before the name);
* ``doctor``: "doctor"/"dr." with a name already after it: the name becomes ``{s}``;
* ``vocative``: a turn's first sentence that is an interjection ("okay .", "hi .", "all right .") gets ", {g}"
  ("okay , {g} .") and keeps the turn's next sentence after it; a turn's last one ("thank you .") gets " {g}" with
  the sentence before it;
* ``question``: a question to the addressee ("are you ...?", "do you ...?", "have you ...?") gets "{g} , " before it
  (every third "{g} {s} , ").

Each sentence keeps its own words, casing and punctuation (ACI-Bench lower case with a space before punctuation,
MTS-Dialog cased; the benchmark writes a form in lower case only in a lower-case host). Sentences are taken in file
order, at most one of a kind from a dialog, 3 to 40 words, until each kind has its share; the kinds are then
interleaved so that neighbouring forms differ. The names are the second development set's
(``deid_dev2.DEV2_NAMES``), so every origin stands in every form. ``python benchmarks/bench_deid_origin.py --dev-only
--dev7 --no-before --no-real`` reports it per origin as the ``dev7`` half (the host dialogs are run as many times as
it takes to put every form in once). Same layout as ``deid_dev.py``: ``(who, form)`` with ``who`` "D" (a doctor
said it) or "P" (a patient or a family member)."""

from __future__ import annotations

import csv
import re
from pathlib import Path

#: the files the forms come from: none of them hosts a form in ``bench_deid_origin.py``
SOURCES = (("aci-bench", "train"), ("aci-bench", "clinicalnlp_taskC_test2"), ("mts-dialog", "MTS-Dialog-TrainingSet"))
#: how many forms of each kind, from ACI-Bench and from MTS-Dialog
SHARE = {"named": (40, 0), "pronoun": (30, 30), "relation": (20, 20), "doctor": (12, 10), "vocative": (24, 24),
         "question": (20, 20)}
KINDS = tuple(SHARE)

_LABEL = re.compile(r"^\s*(?:\[([^\]\n]+)\]|([A-Za-z_ ]{1,30}):)\s*")
_RELATION = ("wife", "husband", "son", "daughter", "mom", "mother", "dad", "father", "friend", "neighbor",
             "neighbour", "sister", "brother", "girlfriend", "boyfriend", "partner", "grandson", "granddaughter")
_REL = re.compile(rf"\b([Mm]y|[Yy]our) ({'|'.join(_RELATION)})\b(?!['’-])")
_DOCTOR = re.compile(r"\b([Dd]octor|[Dd]r\.?) ([A-Za-z][a-z]+)\b(?!['’-])")
_SUBJECT = re.compile(r"\b([Hh]e|[Ss]he)\b(?!-)")
_OBJECT = re.compile(r"\b(him|her)\b(?!-)(?=\s*(?:[.,?!]|$|(?:to|and|about|that|if|for|in|on|at|up|out|back|again|"
                     r"yesterday|today|know|with|too|over|off|down|a|the|some|any)\b))")
_INTERJECTION = re.compile(r"(?i)^(okay|ok|alright|all right|hi|hello|hey|great|good|perfect|wonderful|excellent|"
                           r"good morning|good afternoon|sure|well|so|um|alright then|okay then|right)\s*([.,!]?)$")
_THANKS = re.compile(r"(?i)^(thank you|thanks|thank you so much|thank you very much|thanks so much|bye|goodbye|"
                     r"take care|see you)\s*([.!]?)$")
_QUESTION = re.compile(r"^(?:are|do|did|have|has|can|could|would|will|were|is) you\b", re.I)
_DOCTOR_WORDS = frozenset("and or is to the a an in on at of who was has had will can would said did does know "
                          "today looks wanted gave he she i you we it that this about for with".split())


def _sentences(body: str, lower: bool) -> list[str]:
    """A turn's sentences: ACI-Bench ends one at " . ", " ? ", " ! "; MTS-Dialog at the mark and a space."""
    pat = r"(?<= [.?!])\s+" if lower else r"(?<=[.?!])\s+"
    return [s.strip() for s in re.split(pat, body.strip()) if s.strip()]


def _who(label: str) -> str:
    label = label.lower()
    if "doctor" in label or "clinician" in label:
        return "D"
    if "patient" in label or "family" in label:
        return "P"
    return ""


def _dialogs(data: Path) -> list[tuple[str, list[str], bool, dict[str, str]]]:
    """``(source, lines, lower, metadata)`` for every dialog of :data:`SOURCES`, in file order."""
    out = []
    for folder, name in SOURCES:
        with (data / folder / f"{name}.csv").open(encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh))
        meta: dict[str, dict[str, str]] = {}
        if folder == "aci-bench":
            with (data / folder / f"{name}_metadata.csv").open(encoding="utf-8") as fh:
                meta = {r["encounter_id"]: r for r in csv.DictReader(fh)}
        for r in rows:
            m = meta.get(r.get("encounter_id", ""), {})
            out.append((folder, r["dialogue"].split("\n"), folder == "aci-bench", m))
    return out


def _named(sent: str, meta: dict[str, str]) -> str | None:
    doctor = re.sub(r"(?i)^dr\.?\s*", "", (meta.get("doctor_name") or "").strip()).split()
    out = sent
    for part, slot in ((meta.get("patient_firstname") or "", "{g}"), (meta.get("patient_familyname") or "", "{s}"),
                       (doctor[0] if doctor else "", "{s}")):
        if len(part) > 1:
            out = re.sub(rf"(?i)\b{re.escape(part)}\b(?!['’-]\w)", slot, out)
    return out if out != sent and out.count("{") <= 2 else None


def _pronoun(sent: str, k: int) -> str | None:
    slot = ("{g}", "{s}", "{g} {s}")[k % 3]
    for pat in (_SUBJECT, _OBJECT):
        m = pat.search(sent)
        if m:
            return sent[: m.start()] + slot + sent[m.end():]
    return None


def _relation(sent: str, k: int) -> str | None:
    m = _REL.search(sent)
    if not m:
        return None
    new = f"{m.group(0)} {{g}}" if k % 3 == 2 else "{g}"
    return sent[: m.start()] + new + sent[m.end():]


def _doctor(sent: str) -> str | None:
    for m in _DOCTOR.finditer(sent):
        if m.group(2).lower() not in _DOCTOR_WORDS:
            return sent[: m.start(2)] + "{s}" + sent[m.end(2):]
    return None


def _question(sent: str, k: int, lower: bool) -> str | None:
    if not (_QUESTION.match(sent) and sent.endswith("?")):
        return None
    head = "{g} {s}" if k % 3 == 2 else "{g}"
    first = sent[0].lower() + sent[1:] if not lower and not sent.startswith("I ") else sent
    return f"{head} , {first}" if lower else f"{head}, {first}"


def _vocative(sents: list[str], i: int, lower: bool) -> str | None:
    """A name in the vocative slot of a turn's first sentence (with the next one) or of its last (with the one
    before)."""
    sp = " " if lower else ""
    if i == 0 and len(sents) > 1:
        m = _INTERJECTION.match(sents[0])
        if m:
            return f"{m.group(1)}{sp}, {{g}}{sp}{m.group(2) or '.'} {sents[1]}"
    if i == len(sents) - 1 and len(sents) > 1:
        m = _THANKS.match(sents[-1])
        if m:
            return f"{sents[-2]} {m.group(1)} {{g}}{sp}{m.group(2) or '.'}"
    return None


def build_kinds(data: Path) -> dict[str, list[tuple[str, str]]]:
    """The forms of each kind, built from the source files under ``data`` (``../shared/data``)."""
    taken: dict[str, list[tuple[str, str]]] = {k: [] for k in KINDS}
    count = {(k, c): 0 for k in KINDS for c in (0, 1)}
    seen: set[str] = set()
    for source, lines, lower, meta in _dialogs(data):
        col = 0 if source == "aci-bench" else 1
        in_dialog: set[str] = set()
        for line in lines:
            m = _LABEL.match(line)
            who = _who((m.group(1) or m.group(2) or "") if m else "")
            if not m or not who:
                continue
            sents = _sentences(line[m.end():], lower)
            for i, sent in enumerate(sents):
                if "{" in sent or "}" in sent:
                    continue
                for kind in KINDS:
                    if kind in in_dialog or count[kind, col] >= SHARE[kind][col]:
                        continue
                    k = len(taken[kind])
                    if kind == "named":
                        form = _named(sent, meta)
                    elif kind == "pronoun":
                        form = _pronoun(sent, k)
                    elif kind == "relation":
                        form = _relation(sent, k)
                    elif kind == "doctor":
                        form = _doctor(sent)
                    elif kind == "question":
                        form = _question(sent, k, lower)
                    else:
                        form = _vocative(sents, i, lower)
                    if not form or not 3 <= len(form.split()) <= 40 or form.lower() in seen:
                        continue
                    seen.add(form.lower())
                    taken[kind].append((who, form))
                    count[kind, col] += 1
                    in_dialog.add(kind)
                    break
    return taken


def build(data: Path) -> tuple[tuple[str, str], ...]:
    """The forms, the kinds interleaved (the first of each kind, then the second of each, ...)."""
    taken = build_kinds(data)
    forms: list[tuple[str, str]] = []
    for j in range(max(len(v) for v in taken.values())):
        forms += [taken[k][j] for k in KINDS if j < len(taken[k])]
    return tuple(forms)
