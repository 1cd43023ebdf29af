"""Write ``deid_dev3_names.py`` (the third development set's names, issue 50) from ``names-dataset`` 3.3.1.

Run once, in a virtual environment of its own (names-dataset is no dependency of clinaudit and is never imported by
it; its pickles take ~1 GB of memory to read):

    python3 -m venv /tmp/ndvenv && /tmp/ndvenv/bin/pip install names-dataset==3.3.1
    /tmp/ndvenv/bin/python benchmarks/deid_dev3_make.py

The rule (the same for every country; stated in the written file's docstring): for each country, the given names
(alternately the dataset's female and male ones, by rank) and the surnames, most frequent first, that are written in
Latin letters, have a vowel in every part (not the abbreviations "Md", "Sk", "Gh"), hold at least a tenth of the
dataset's bearers of that name in that country (so that "John" is no Nigerian name and "Gujjar" no Greek one) and
share no part (folded, case-insensitive) with a name of ``deid_names.py`` (either half) or ``deid_dev2.py``; 15 + 15
a country. ``deid_names.py``'s names are compared in code, never printed.
"""

from __future__ import annotations

import gzip
import importlib.util
import pickle
import re
import sys
import unicodedata
from pathlib import Path

HERE = Path(__file__).resolve().parent
N = 15
#: dev3 key -> (names-dataset country, the benchmark origin it stands beside or "" for a country no origin has)
COUNTRIES: dict[str, tuple[str, str]] = {
    "US": ("US", "US"), "UK": ("GB", "UK"), "Irish": ("IE", "Irish"), "Mexican": ("MX", "Mexican"),
    "Spanish": ("ES", "Spanish"), "Brazilian": ("BR", "Brazilian"), "Haitian": ("HT", "Haitian"),
    "French": ("FR", "French"), "Dutch": ("NL", "Dutch"), "German": ("DE", "German"), "Swedish": ("SE", "Swedish"),
    "Finnish": ("FI", "Finnish"), "Italian": ("IT", "Italian"), "Polish": ("PL", "Polish"),
    "Czech": ("CZ", "Czech"), "Moldovan": ("MD", "Romanian"), "Hungarian": ("HU", "Hungarian"),
    "Russian": ("RU", "Russian"), "Greek": ("GR", "Greek"), "Turkish": ("TR", "Turkish"),
    "Israeli": ("IL", "Hebrew"), "Egyptian": ("EG", "Arabic"), "Iranian": ("IR", "Persian"),
    "Indian": ("IN", "Hindi"), "Bangladeshi": ("BD", "Bengali"), "Chinese": ("CN", "Chinese"),
    "Japanese": ("JP", "Japanese"), "Korean": ("KR", "Korean"), "Filipino": ("PH", "Filipino"),
    "Indonesian": ("ID", "Indonesian"), "Nigerian": ("NG", "Yoruba, Igbo, Hausa"), "Ghanaian": ("GH", "Akan"),
    "Djiboutian": ("DJ", "Somali"), "South African": ("ZA", "Zulu"), "Ethiopian": ("ET", "Amharic"),
    "Norwegian": ("NO", "Norwegian"), "Danish": ("DK", "Danish"), "Icelandic": ("IS", "Icelandic"),
    "Fijian": ("FJ", ""), "Austrian": ("AT", ""), "Swiss": ("CH", ""), "Portuguese": ("PT", ""),
    "Croatian": ("HR", ""), "Lithuanian": ("LT", ""), "Estonian": ("EE", ""),
}
#: names-dataset faults seen while choosing: its IR lists hold many Czech names (a name of CZ's list is not taken
#: for IR); words its users wrote in the name fields that are no name: a country ("Haïti", "Islande", "Djibouti"),
#: "Nesvarbu" (Lithuanian "it does not matter"), "Aš" (Lithuanian "I"), "Olen" (Estonian "I am"), "Om" (Egyptian
#: Arabic "mother of", before a child's name), "La Souriante" ("the smiling one"), "Jjang" (Korean "the best"),
#: "Baby" (a nickname)
NOT_NAMES = frozenset({"nesvarbu", "haiti", "islande", "djibouti", "fiji", "as", "olen", "om", "la souriante",
                       "jjang", "baby"})
#: the dataset's title case without an apostrophe or inner capital, where the spelling is certain
RESPELL = {"Obrien": "O'Brien", "Oconnor": "O'Connor", "Mccarthy": "McCarthy", "Dangelo": "D'Angelo"}
MIN_SHARE = 0.10
DOC = """
A third development set of the by-origin de-identification benchmark (issue 50): real names, many per origin.

Both hand-written development sets (``deid_names.py``'s even positions, ``deid_dev2.py``) have 4 given names and 4
surnames an origin and are near 100 % removed in cased text while the held-out half is not: too few names to show
what is missed. These are the most frequent names of 45 countries in **names-dataset 3.3.1** (PyPI
``names-dataset==3.3.1``, Philippe Rémy; package under the MIT license; its data were extracted from the 2021
Facebook leak of 533M accounts, and its README says that lists of names are generally not copyrightable), written
by ``benchmarks/deid_dev3_make.py`` (run once in a virtual environment of its own: the dataset is no dependency of
clinaudit) with one rule for every country:

* given names alternately female and male (the dataset's majority gender), each list by the dataset's rank in that
  country, 15 given names and 15 surnames a country;
* only names in Latin letters (the dataset's Cyrillic, Greek, Hebrew, Arabic, Hangul, kanji entries are left: an
  English transcript writes them in Latin letters), a vowel in every part (not "Md", "Sk", "Gh"), and held by at
  least a tenth of the dataset's bearers of that name in that country (so "John" is no Nigerian name, "Gujjar" no
  Greek one);
* **no part of any name of ``deid_names.py`` (either half) or ``deid_dev2.py``** (folded, case-insensitive; checked
  in code without printing them, and by ``tests/test_deid_dev3.py``), and one spelling of a name a country (the
  first of "Martin" and "Martín");
* the dataset's faults left out: its Iranian lists hold many Czech names (none of CZ's list is taken for IR), and
  words its users wrote in the name fields that are no name (a country, "Nesvarbu", "Aš", "Olen", "Om", "La
  Souriante", "Jjang", "Baby").

Spelling is the dataset's, as its users typed it: title case ("De Jong" style particles, "Mcdonald"), diacritics
where they typed them and none where they did not ("Rodriguez" of Mexico beside "Rodríguez" of Spain, Moldova's
"Cebotari"); no diacritic was added. Only four spellings were restored, where the dataset had dropped an apostrophe
or an inner capital and the spelling is certain: O'Brien, O'Connor, McCarthy, D'Angelo.

A country stands beside the benchmark origin it is closest to (``DEV3_COUNTRIES``): the lists are by the country
Facebook users gave, not by origin, so a country's list holds its minorities' and migrants' names too (Swiss
"Krasniqi", Nigerian "Ibrahim" and "Blessing", Hungarian given names written as surnames). Origins with no country in
the dataset: Armenian, Pakistani, Punjabi and Tamil (only as part of India), Nepali, Vietnamese, Thai, Samoan,
Tongan, Hawaiian (Fiji stands in for the Pacific), Swahili, Slovak; Yoruba, Igbo and Hausa share Nigeria, Zulu
stands with South Africa, Somali with Djibouti, Romanian with Moldova; Korean given names are written in Hangul there,
so Korea's given names are the romanised ones ranked lower. Seven countries no origin has (Fiji, Austria,
Switzerland, Portugal, Croatia, Lithuania, Estonia) add Pacific, German-speaking, Slavic and Baltic names.

``python benchmarks/bench_deid_origin.py --dev3 --no-before --no-real`` puts these names into the development forms
(``deid_dev.py``) and dev2's forms (``deid_dev2.py``), in the same dialogs and styles, and reports them as the
``dev3`` half beside the development half.
"""
_VOWEL = re.compile(r"[aeiouyàáâãäåæèéêëìíîïòóôõöøùúûüýÿāăąēėęěīįıōőœūůűų]", re.I)


def fold(s: str) -> str:
    s = s.translate(str.maketrans({"ł": "l", "Ł": "L", "ı": "i", "ß": "ss", "ø": "o", "Ø": "O", "đ": "d", "Đ": "D",
                                   "æ": "ae", "Æ": "AE", "ð": "d", "þ": "th"}))
    return "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c)).lower()


def parts(name: str) -> set[str]:
    return {p for p in re.split(r"[\s\-'’ʻ]+", fold(name)) if p}


def latin(name: str) -> bool:
    return all(c in " -'" or "LATIN" in unicodedata.name(c, "") for c in name)


def taken_before() -> set[str]:
    sys.path.insert(0, str(HERE))
    from deid_dev2 import DEV2_NAMES
    from deid_names import ORIGINS

    return {p for table in (ORIGINS, DEV2_NAMES) for given, sur in table.values() for n in given + sur
            for p in parts(n)}


def load(kind: str) -> dict:
    spec = importlib.util.find_spec("names_dataset")
    assert spec and spec.origin, "names-dataset is not installed in this environment"
    with gzip.open(Path(spec.origin).parent / "v3" / f"{kind}_names.pkl.gz", "rb") as fh:
        return pickle.load(fh)


def ranked(table: dict, country: str, gender: str | None) -> list[str]:
    rows = []
    for name, info in table.items():
        rank = (info.get("rank") or {}).get(country)
        if rank is None:
            continue
        g = info.get("gender") or {}
        if gender is not None and (not g or max(g, key=g.get) != gender):
            continue
        rows.append((rank, name, (info.get("country") or {}).get(country, 0.0)))
    return [name for _r, name, share in sorted(rows) if share >= MIN_SHARE]


def choose(names: list[str], old: set[str], n: int, skip: set[str]) -> list[str]:
    out: list[str] = []
    for name in names:
        ps = parts(name)
        if (not latin(name) or not ps or any(not _VOWEL.search(p) for p in ps) or ps & old
                or fold(name) in NOT_NAMES or fold(name) in skip or fold(name) in {fold(o) for o in out}):
            continue
        out.append(RESPELL.get(name, name))
        if len(out) == n:
            break
    return out


def main() -> None:
    old = taken_before()
    first, last = load("first"), load("last")
    czech = {fold(n) for n in ranked(first, "CZ", None)[:3000] + ranked(last, "CZ", None)[:3000]}
    table: dict[str, tuple[list[str], list[str]]] = {}
    for key, (cc, _origin) in COUNTRIES.items():
        skip = czech if cc == "IR" else set()
        fem = choose(ranked(first, cc, "F"), old, N, skip)
        male = choose(ranked(first, cc, "M"), old, N, skip)
        given: list[str] = []
        for f, m in zip(fem, male, strict=False):
            given += [f, m]
        given = [g for i, g in enumerate(given) if g not in given[:i]][:N]
        sur = choose(ranked(last, cc, None), old, N, skip)
        table[key] = (given, sur)
        print(f"{key} ({cc}): {len(given)} given names, {len(sur)} surnames", file=sys.stderr)
    write(table)


def _wrapped(names: list[str], indent: str) -> list[str]:
    out, line = [], ""
    for n in names:
        item = f"{n!r}, "
        if line and len(indent) + len(line) + len(item) > 118:
            out.append(indent + line.rstrip())
            line = ""
        line += item
    return [*out, indent + line.rstrip()]


def write(table: dict[str, tuple[list[str], list[str]]]) -> None:
    lines = [f'"""{DOC.strip()}\n"""', "", "from __future__ import annotations", "",
             "#: dev3 key -> (names-dataset country, the benchmark origin it stands beside; '' for none)",
             "DEV3_COUNTRIES: dict[str, tuple[str, str]] = {"]
    lines += [f"    {k!r}: {v!r}," for k, v in COUNTRIES.items()]
    lines += ["}", "", "#: dev3 key -> ([given names, alternately female and male, most frequent first], [surnames])",
              "DEV3_NAMES: dict[str, tuple[list[str], list[str]]] = {"]
    for key, (given, sur) in table.items():
        lines += [f"    {key!r}: (", "        ["] + _wrapped(given, " " * 12) + ["        ],", "        ["]
        lines += _wrapped(sur, " " * 12) + ["        ],", "    ),"]
    lines.append("}")
    (HERE / "deid_dev3_names.py").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
