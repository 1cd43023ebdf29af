"""De-identification by name origin (issue 38): does it protect every patient alike?

Builds its own test: person names of 28 origins (hand-curated below from common given names and surnames of
each region: national name-frequency lists, censuses and name dictionaries as published on Wikipedia's
"list of most common surnames" pages and similar; deliberately *not* taken from the detector's resources —
philter-ucsf's lists — nor from the Faker package, which an independent held-out measurement uses) are
injected into real dialogs of the shared ACI-Bench and MTS-Dialog files at natural places, with no name
metadata given (the way a user's own CSV arrives):

* the doctor's first turn opens with "Hi Mrs. <surname>, I'm Dr. <surname>." ("Mr." for a male patient name);
* the patient's first turn opens with "My name is <given> <surname>. My <relative> <given> drove me here today.";
* a middle patient turn ends with "Dr. <surname> referred me.";
* the last turn ends with "Thank you, <given>.".

Every origin gets the same dialogs and the same sentences; only the names differ. Each dialog gets one of
four forms, the same for every origin: cased or lower-case (ACI-Bench's transcripts are lower case and put
spaces around punctuation: the injected sentences follow the dialog's own style in the lower-case form), and
the names with their diacritics (Nguyễn, Özdemir, Adébáyọ̀) or without (Nguyen, Ozdemir, Adebayo).

Per origin: % of injected name occurrences removed (the name no longer in the output as a whole word,
case-insensitive), % of dialogs excluded by default (a dialog with a residual identifier is excluded unless the
code's default keeps it), % that ``deid.exclude_residual: true`` would exclude, and clinical-vocabulary words
replaced by ``[NAME]``. Then, over every real dialog of the files (no injection, no metadata): words replaced
as names, of which clinical vocabulary, of which the words issue 38 lists, and speaker labels changed.

*before*: the code of ``--before`` (default 45262a1, main before issue 38), in a subprocess from a ``git
archive``; *after*: this tree. Prints ``RATIO bench_deid_origin: time per dialog after / before``.

    python benchmarks/bench_deid_origin.py [--quick] [--before REV] [--no-before]
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import unicodedata
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
BEFORE = "45262a1"  # main before issue 38
ACI = ["train", "valid", "clinicalnlp_taskB_test1", "clinicalnlp_taskC_test2"]
MTS = ["MTS-Dialog-TrainingSet", "MTS-Dialog-ValidationSet", "MTS-Dialog-TestSet-1-MEDIQA-Chat-2023"]
CLINICAL = ("drug", "condition", "specialty")
#: the clinical words issue 38 found replaced on main
ISSUE_WORDS = ("polio", "achilles", "gleason", "lachman", "mcmurray", "huntington", "frank", "metro", "persa",
               "peed", "parkinson", "crohn")

# origin -> (given names, surnames); hand-curated, 8 + 8 each, written as people of that origin write them
ORIGINS: dict[str, tuple[list[str], list[str]]] = {
    "US": (["Tyler", "Brittany", "Dustin", "Kayla", "Cody", "Heather", "Travis", "Amber"],
           ["Miller", "Johnson", "Davis", "Wilson", "Anderson", "Taylor", "Moore", "Jackson"]),
    "UK": (["Harry", "Freya", "Alfie", "Poppy", "Callum", "Imogen", "Rhys", "Eleanor"],
           ["Whitaker", "Ashworth", "Pemberton", "Hargreaves", "Thornton", "Fletcher", "Cartwright", "Bramley"]),
    "Mexican": (["José", "María", "Jesús", "Ximena", "Alejandro", "Guadalupe", "Rocío", "Héctor"],
                ["García", "Hernández", "López", "Martínez", "González", "Ramírez", "Sánchez", "Muñoz"]),
    "Brazilian": (["João", "Luíza", "Thiago", "Conceição", "Gonçalo", "Letícia", "Sebastião", "Raíssa"],
                  ["Gonçalves", "Araújo", "Magalhães", "Simões", "Brandão", "Assunção", "Guimarães", "Falcão"]),
    "French": (["François", "Amélie", "Hélène", "Jérôme", "Noémie", "Benoît", "Cécile", "Gaëlle"],
               ["Lefèvre", "Bélanger", "Girardot", "Dupré", "Mercier", "Rousseau", "Fontaine", "Légaré"]),
    "German": (["Jürgen", "Jörg", "Gisela", "Sönke", "Ute", "Uwe", "Dörte", "Björn"],
               ["Müller", "Schröder", "Köhler", "Weiß", "Groß", "Krüger", "Böhm", "Schäfer"]),
    "Italian": (["Giuseppe", "Niccolò", "Chiara", "Gianluca", "Ludovica", "Salvatore", "Graziella", "Raffaele"],
                ["Esposito", "Russo", "Bianchi", "Romano", "Colombo", "Ricci", "Marino", "Greco"]),
    "Polish": (["Grzegorz", "Małgorzata", "Łukasz", "Agnieszka", "Wojciech", "Józef", "Zbigniew", "Jadwiga"],
               ["Wiśniewski", "Wójcik", "Kowalczyk", "Dąbrowski", "Lewandowska", "Zieliński", "Szymański",
                "Woźniak"]),
    "Russian": (["Dmitri", "Svetlana", "Anatoly", "Lyudmila", "Vyacheslav", "Yekaterina", "Oleg", "Tatiana"],
                ["Ivanov", "Smirnova", "Kuznetsov", "Popova", "Vasiliev", "Sokolov", "Mikhailova", "Fedorov"]),
    "Greek": (["Dimitrios", "Eleni", "Konstantinos", "Vasiliki", "Georgios", "Panagiota", "Spyridon", "Athanasia"],
              ["Papadopoulos", "Georgiou", "Nikolaidis", "Karagiannis", "Vlachos", "Oikonomou", "Makris",
               "Christodoulou"]),
    "Turkish": (["Özlem", "Ahmet", "Gülşen", "Mustafa", "Şükrü", "Ayşe", "Çağlar", "Ümit"],
                ["Özdemir", "Yılmaz", "Şahin", "Çelik", "Aydın", "Öztürk", "Doğan", "Kılıç"]),
    "Arabic": (["Mohammed", "Fatima", "Abdullah", "Noura", "Khalid", "Layla", "Youssef", "Rania"],
               ["Al-Masri", "Haddad", "Khoury", "Abdelrahman", "Nasser", "Barakat", "Al-Farsi", "Mansour"]),
    "Persian": (["Parisa", "Dariush", "Shirin", "Kourosh", "Farnaz", "Behrouz", "Mahsa", "Siavash"],
                ["Hosseini", "Rahimi", "Mohammadi", "Tehrani", "Karimi", "Ghorbani", "Jafari", "Moradi"]),
    "Hindi": (["Priya", "Rajesh", "Anjali", "Sunil", "Kavita", "Vikram", "Pooja", "Arjun"],
              ["Sharma", "Verma", "Gupta", "Agarwal", "Srivastava", "Tiwari", "Chauhan", "Mishra"]),
    "Tamil": (["Karthik", "Lakshmi", "Senthil", "Meenakshi", "Murugan", "Kavya", "Arumugam", "Thenmozhi"],
              ["Subramanian", "Ramasamy", "Krishnan", "Venkatesan", "Annamalai", "Palaniappan", "Natarajan",
               "Selvaraj"]),
    "Pakistani": (["Imran", "Ayesha", "Bilal", "Sana", "Usman", "Mehwish", "Zubair", "Farah"],
                  ["Qureshi", "Chaudhry", "Malik", "Siddiqui", "Butt", "Rana", "Awan", "Javed"]),
    "Bengali": (["Sourav", "Moumita", "Arnab", "Tanushree", "Debashis", "Rituparna", "Subhajit", "Nandini"],
                ["Chatterjee", "Banerjee", "Mukherjee", "Bhattacharya", "Chowdhury", "Sengupta", "Ghosh", "Bose"]),
    "Chinese": (["Wei", "Xiaoming", "Jing", "Zhiwei", "Meiling", "Jun", "Xiuying", "Haoran"],
                ["Wang", "Zhang", "Liu", "Chen", "Zhou", "Huang", "Xu", "Zhao"]),
    "Japanese": (["Hiroshi", "Yuki", "Takeshi", "Akiko", "Kenji", "Haruka", "Shōta", "Megumi"],
                 ["Satō", "Suzuki", "Takahashi", "Tanaka", "Watanabe", "Itō", "Yamamoto", "Kobayashi"]),
    "Korean": (["Minjun", "Seoyeon", "Jihoon", "Eunji", "Dongwoo", "Hyejin", "Sungmin", "Jiyoung"],
               ["Kim", "Lee", "Park", "Choi", "Jung", "Kang", "Cho", "Yoon"]),
    "Vietnamese": (["Thảo", "Minh", "Hương", "Dũng", "Linh", "Tuấn", "Phương", "Quang"],
                   ["Nguyễn", "Trần", "Lê", "Phạm", "Hoàng", "Huỳnh", "Phan", "Võ"]),
    "Filipino": (["Maricel", "Rodel", "Jocelyn", "Arnel", "Rosalinda", "Jomar", "Marites", "Rommel"],
                 ["Reyes", "Bautista", "Ocampo", "Mendoza", "Villanueva", "Santos", "Manalo", "Macaraeg"]),
    "Yoruba": (["Adéwálé", "Olúwasèun", "Bọ́lájí", "Fọláṣadé", "Adébáyọ̀", "Títílọpẹ́", "Ayọ̀délé", "Kẹ́hìndé"],
               ["Adéyẹmí", "Ọládipọ̀", "Fadipe", "Ògúnlẹ́yẹ", "Akínwùmí", "Babátúndé", "Adéògún", "Oyèlárán"]),
    "Igbo": (["Chukwuemeka", "Ngozi", "Obinna", "Chiamaka", "Ikechukwu", "Adaeze", "Nnamdi", "Ifeoma"],
             ["Okonkwo", "Eze", "Nwachukwu", "Okafor", "Obi", "Nwosu", "Ugwu", "Onyekachi"]),
    "Zulu": (["Thembile", "Sipho", "Nomvula", "Bongani", "Thandeka", "Mandla", "Zanele", "Sibusiso"],
             ["Mlambo", "Dlamini", "Ndlovu", "Khumalo", "Zulu", "Mthembu", "Nkosi", "Shabalala"]),
    "Amharic": (["Abebe", "Tigist", "Dawit", "Meseret", "Yohannes", "Selamawit", "Tesfaye", "Hiwot"],
                ["Bekele", "Tadesse", "Haile", "Gebremedhin", "Alemu", "Wolde", "Kebede", "Desta"]),
    "Swahili": (["Baraka", "Neema", "Juma", "Zawadi", "Hamisi", "Rehema", "Bakari", "Imani"],
                ["Mwangi", "Otieno", "Wanjiru", "Kamau", "Njoroge", "Achieng", "Odhiambo", "Mutua"]),
    "Hungarian": (["Zoltán", "Erzsébet", "Gábor", "Katalin", "László", "Zsófia", "György", "Ildikó"],
                  ["Nagy", "Kovács", "Tóth", "Szabó", "Horváth", "Varga", "Kiss", "Molnár"]),
}
RELATIVES = ("husband", "wife", "son", "daughter", "brother", "sister", "friend", "neighbor")


def fold(name: str) -> str:
    """The name without diacritics ("Özdemir" -> "Ozdemir", "Łukasz" -> "Lukasz", "Yılmaz" -> "Yilmaz")."""
    s = name.translate(str.maketrans({"ł": "l", "Ł": "L", "ı": "i", "ß": "ss", "ø": "o", "Ø": "O", "đ": "d",
                                      "Đ": "D"}))
    return "".join(ch for ch in unicodedata.normalize("NFKD", s) if not unicodedata.combining(ch))


# ---------------------------------------------------------------- dialogs and injection

_LABEL = re.compile(r"^(\s*(?:\[[^\]\n]+\]|[A-Za-z_ ]{1,30}:))")


def load_dialogs(quick: bool) -> list[tuple[str, str, str]]:
    """``(file, id, text)`` of the sampled dialogs: every 4th ACI-Bench dialog of valid and test1, every 25th
    MTS-Dialog test-set dialog with at least 6 turns (fewer with ``--quick``)."""
    out = []
    for split, step in (("valid", 4), ("clinicalnlp_taskB_test1", 4)):
        with (DATA / "aci-bench" / f"{split}.csv").open(encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh))
        out += [(split, r["encounter_id"], r["dialogue"]) for r in rows[:: step * (3 if quick else 1)]]
    with (DATA / "mts-dialog" / "MTS-Dialog-TestSet-1-MEDIQA-Chat-2023.csv").open(encoding="utf-8") as fh:
        rows = [r for r in csv.DictReader(fh) if len(_turns(r["dialogue"])) >= 6]
    out += [("mts-test", r["ID"], r["dialogue"]) for r in rows[:: 5 * (3 if quick else 1)]]
    return out


def _turns(text: str) -> list[int]:
    """Indexes of the lines that start a turn."""
    return [i for i, line in enumerate(text.split("\n")) if _LABEL.match(line)]


def _speaker(line: str) -> str:
    m = _LABEL.match(line)
    return m.group(1).strip().lower() if m else ""


def _style(sentence: str, lower: bool) -> str:
    if not lower:
        return sentence
    # ACI-Bench's transcripts: lower case, a space before punctuation
    return re.sub(r"(?<=\w)([.,?!])(?=\s|$)", r" \1", sentence.lower())


def _present(text: str, name: str) -> int:
    return len(re.findall(rf"(?i)(?<![\w\u0300-\u036f]){re.escape(name)}(?![\w\u0300-\u036f])",
                          unicodedata.normalize("NFC", text)))


def inject(text: str, origin: str, index: int, form: int) -> tuple[str, list[str]] | None:
    """The dialog with this origin's names injected; the name occurrences injected (one entry per occurrence,
    as written). ``form``: bit 0 lower-case, bit 1 diacritics removed."""
    given, sur = ORIGINS[origin]
    lower, folded = bool(form & 1), bool(form & 2)
    k = index
    pick = [given[k % 8], sur[k % 8], sur[(k + 3) % 8], given[(k + 5) % 8], sur[(k + 6) % 8]]
    if folded:
        pick = [fold(p) for p in pick]
    if any(_present(text, p) for p in pick):
        return None
    p_given, p_sur, d_sur, rel_given, ref_sur = pick
    lines = text.split("\n")
    turns = _turns(text)
    doc = [i for i in turns if "doctor" in _speaker(lines[i])]
    pat = [i for i in turns if "patient" in _speaker(lines[i])]
    if not doc or not pat:
        return None
    title = "Mrs." if k % 2 else "Mr."
    relative = RELATIVES[k % len(RELATIVES)]
    aci = lines[0].startswith("[")
    low = lower or aci  # ACI-Bench is lower case already: the lower-case form follows it

    def put(i: int, sentence: str, at_start: bool) -> None:
        m = _LABEL.match(lines[i])
        assert m
        head, body = lines[i][: m.end()], lines[i][m.end():].strip()
        s = _style(sentence, low)
        lines[i] = f"{head} {s} {body}" if at_start else f"{head} {body} {s}"

    put(doc[0], f"Hi {title} {p_sur}, I'm Dr. {d_sur}.", True)
    put(pat[0], f"My name is {p_given} {p_sur}. My {relative} {rel_given} drove me here today.", True)
    put(pat[len(pat) // 2], f"Dr. {ref_sur} referred me.", False)
    put(turns[-1], f"Thank you, {p_given}.", False)
    return "\n".join(lines), [p_sur, d_sur, p_given, p_sur, rel_given, ref_sur, p_given]


# ---------------------------------------------------------------- one code version (runs in either tree)


def run_version(texts: list[str]) -> dict:
    """De-identify each text (no metadata): output text, residual identifiers that count, replaced words, and
    whether the code's default excludes the dialog."""
    from clinaudit.perturb import deid

    default_excludes = getattr(deid, "EXCLUDE_RESIDUAL_DEFAULT", True)  # main before issue 38 excluded them
    out = []
    t0 = time.perf_counter()
    for text in texts:
        new, rep = deid.deidentify_text(text)
        counted = deid.residual_identifiers(rep.remaining)
        replaced_residual = [r for r in rep.removed if r.get("source") == "residual"]
        out.append({"text": new, "residual": len(counted),
                    "excluded_default": bool(counted) and default_excludes,
                    "excluded_if_asked": bool(counted or replaced_residual),
                    "replaced": [r["old"] for r in rep.removed if r["kind"] == "name"],
                    # a word right after a title is used as a name ("I am Doctor Frank"), whatever else it is
                    "titled": [bool(_TITLE.search(text[max(0, r["start"] - 10):r["start"]]))
                               for r in rep.removed if r["kind"] == "name"]})
    return {"seconds": time.perf_counter() - t0, "rows": out}


_TITLE = re.compile(r"(?i)\b(?:dr|doctor|mr|mrs|ms|miss|mister)\.?\s+$")


def child(path: str) -> None:
    texts = json.loads(Path(path).read_text(encoding="utf-8"))
    json.dump({k: run_version(v) for k, v in texts.items()}, sys.stdout)


def before_run(rev: str, texts: dict[str, list[str]]) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        arch = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "src"], check=True, capture_output=True)
        subprocess.run(["tar", "-x", "-C", tmp], input=arch.stdout, check=True)
        inp = Path(tmp) / "texts.json"
        inp.write_text(json.dumps(texts), encoding="utf-8")
        env = {**os.environ, "PYTHONPATH": str(Path(tmp) / "src")}
        proc = subprocess.run([sys.executable, __file__, "--child", str(inp)], env=env, capture_output=True,
                              text=True, check=True)
        return json.loads(proc.stdout)


# ---------------------------------------------------------------- measures


def _word_key(w: str) -> str:
    return re.sub(r"['’]s$", "", w).lower()


def by_origin(injected: dict[str, list[tuple[str, list[str], int]]], res: dict) -> list[dict]:
    from clinaudit.perturb.vocab import clinical_category

    rows = []
    for origin, items in injected.items():
        out = res[origin]["rows"]
        occ = left = clin = 0
        forms = Counter()
        left_forms = Counter()
        for (_orig, names, form), r in zip(items, out, strict=True):
            for n in set(names):
                k = names.count(n)
                occ += k
                miss = min(k, _present(r["text"], n))
                left += miss
                forms[form] += k
                left_forms[form] += miss
            clin += sum(1 for w in r["replaced"] if clinical_category(_word_key(w)) in CLINICAL
                        and not any(_word_key(w) == n.lower() for n in names))
        n = len(out)
        rows.append({"origin": origin, "dialogs": n, "names": occ, "removed": 100 * (occ - left) / max(1, occ),
                     "excluded": 100 * sum(r["excluded_default"] for r in out) / max(1, n),
                     "excluded_if_asked": 100 * sum(r["excluded_if_asked"] for r in out) / max(1, n),
                     "clinical": clin,
                     "by_form": {f: 100 * (forms[f] - left_forms[f]) / max(1, forms[f]) for f in sorted(forms)}})
    return rows


def print_origins(title: str, rows: list[dict]) -> None:
    print(f"\n{title}")
    print("| origin | dialogs | names injected | names removed | cased | lower | cased, no diacritics | "
          "lower, no diacritics | dialogs excluded (default) | excluded with exclude_residual | "
          "clinical words replaced |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        f = r["by_form"]
        print(f"| {r['origin']} | {r['dialogs']} | {r['names']} | {r['removed']:.1f} % | "
              + " | ".join(f"{f.get(i, float('nan')):.0f} %" for i in range(4))
              + f" | {r['excluded']:.0f} % | {r['excluded_if_asked']:.0f} % | {r['clinical']} |")
    vals = [r["removed"] for r in rows]
    print(f"\nlowest {min(vals):.1f} %, highest {max(vals):.1f} %, spread {max(vals) - min(vals):.1f} pp; "
          f"overall {sum(r['removed'] * r['names'] for r in rows) / sum(r['names'] for r in rows):.1f} %")


def real_files(quick: bool) -> dict[str, list[str]]:
    out = {}
    for split in ACI[:2] if quick else ACI:
        with (DATA / "aci-bench" / f"{split}.csv").open(encoding="utf-8") as fh:
            out[split] = [r["dialogue"] for r in csv.DictReader(fh)]
    for split in MTS[1:] if quick else MTS:
        with (DATA / "mts-dialog" / f"{split}.csv").open(encoding="utf-8") as fh:
            out[split] = [r["dialogue"] for r in csv.DictReader(fh)]
    return out


def labels_changed(before: str, after: str) -> int:
    a, b = before.split("\n"), after.split("\n")
    if len(a) != len(b):
        return max(1, abs(len(a) - len(b)))
    return sum(1 for x, y in zip(a, b, strict=True) if _LABEL.match(x) and _speaker(x) != _speaker(y))


def false_replacements(real: dict[str, list[str]], res: dict, show: bool) -> dict:
    from clinaudit.perturb.vocab import clinical_category

    tot: dict[str, float] = defaultdict(float)
    words: Counter[str] = Counter()
    issue: Counter[str] = Counter()
    for split, texts in real.items():
        rows = res[split]["rows"]
        tot["dialogs"] += len(texts)
        tot["seconds"] += res[split]["seconds"]
        for t, r in zip(texts, rows, strict=True):
            tot["replaced"] += len(r["replaced"])
            for w, titled in zip(r["replaced"], r["titled"], strict=True):
                key = _word_key(w)
                words[key] += 1
                if clinical_category(key) in CLINICAL:
                    tot["clinical"] += 1
                if (key in ISSUE_WORDS or key.split("-")[0] in ISSUE_WORDS) and not titled:
                    issue[key] += 1
            tot["labels"] += labels_changed(t, r["text"])
            tot["excluded_default"] += r["excluded_default"]
    tot["issue_words"] = sum(issue.values())
    if show:
        print("  most replaced words:", ", ".join(f"{w} {n}" for w, n in words.most_common(60)))
        print("  issue words replaced:", dict(issue) or "none")
    return dict(tot)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--before", default=BEFORE)
    ap.add_argument("--no-before", action="store_true")
    ap.add_argument("--show-words", action="store_true", help="print the words replaced in the real dialogs")
    ap.add_argument("--child")
    a = ap.parse_args()
    if a.child:
        child(a.child)
        return
    if not (DATA / "aci-bench").exists() or not (DATA / "mts-dialog").exists():
        print(f"data not found under {DATA}: skipped")
        return
    sys.path.insert(0, str(ROOT / "src"))
    dialogs = load_dialogs(a.quick)
    injected: dict[str, list[tuple[str, list[str], int]]] = {}
    for origin in ORIGINS:
        items = []
        for i, (_f, _id, text) in enumerate(dialogs):
            form = i % 4
            got = None
            for shift in range(8):  # a name already in the dialog: the next one of the list
                got = inject(text, origin, i + shift, form)
                if got:
                    break
            if got:
                items.append((got[0], got[1], form))
        injected[origin] = items
    texts = {o: [t for t, _, _ in items] for o, items in injected.items()}
    real = real_files(a.quick)
    print(f"{len(dialogs)} dialogs sampled ({Counter(f for f, _, _ in dialogs)}), {len(ORIGINS)} origins; "
          f"real files: {', '.join(f'{k} {len(v)}' for k, v in real.items())}")
    sets = {"after": None, "before": None}
    if not a.no_before:
        sets["before"] = before_run(a.before, {**texts, **real})
    t0 = time.perf_counter()
    from clinaudit.perturb.vocab import clinical_terms, common_words, first_names, surnames

    clinical_terms(), common_words(), first_names(), surnames()
    print(f"word lists loaded in {time.perf_counter() - t0:.1f} s")
    sets["after"] = {k: run_version(v) for k, v in {**texts, **real}.items()}
    for label in ("before", "after"):
        res = sets[label]
        if res is None:
            continue
        rev = a.before if label == "before" else "this tree"
        print_origins(f"{label} ({rev}): names of {len(ORIGINS)} origins injected", by_origin(injected, res))
        fr = false_replacements(real, res, a.show_words)
        print(f"\n{label}: real dialogs {fr['dialogs']:.0f} (no metadata, nothing injected): words replaced as names "
              f"{fr['replaced']:.0f}, of which clinical vocabulary {fr['clinical']:.0f}, issue-38 words "
              f"{fr['issue_words']:.0f}; speaker labels changed {fr['labels']:.0f}; dialogs excluded by default "
              f"{fr['excluded_default']:.0f}")
    if sets["before"]:
        tb = sum(v["seconds"] for k, v in sets["before"].items() if k in real)
        ta = sum(v["seconds"] for k, v in sets["after"].items() if k in real)
        print(f"\nRATIO bench_deid_origin: time per dialog after / before = {ta / tb:.2f} over the real files "
              f"(after {ta:.1f} s, before {tb:.1f} s)")


if __name__ == "__main__":
    main()
