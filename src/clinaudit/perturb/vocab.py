"""Word lists behind the name detector of de-identification (:mod:`.deid`, :mod:`.name_detect`).

All offline, from packages installed from PyPI (pinned in ``requirements/runtime.txt``), read
once per process and cached; docs/deidentification.md says why these and gives the numbers:

* **name gazetteer** — philter-ucsf's first-name (97,014) and surname (161,470) lists
  (``filters/blacklists/*_minus_fps.json``; UCSF's Philter, its lists already cleared of the
  words that gave false positives on clinical notes), :data:`RESTORED_FIRST_NAMES` ("ana") and
  :data:`ADDED_FIRST_NAMES` ("semi", "fetu", "eti", "iulia");
* **common words** — philter-ucsf's whitelist of 195,253 English and medical words without
  names (``filters/whitelists/whitelist_plus_fps_091718_nonames.json``), the GNU Collaborative
  International Dictionary of English headwords (english-words' ``gcide``, 115,325 words) and
  :data:`SPOKEN_WORDS`: a lower-case word that is both a name and a common word ("will", "mark",
  "hope", "roy") is a name only in a naming context;
* **clinical vocabulary** — drug names and brands (drug-named-entity-recognition: DrugBank,
  MedlinePlus and Wikipedia names, 107,360 variants), the words of every ICD-10-CM description
  (simple-icd-10-cm, April 2026 release: conditions, body parts, eponyms such as "Parkinson"),
  and the built-in :data:`SPECIALTY_WORDS`, :data:`FACILITY_WORDS` and :data:`PLACE_WORDS`
  (medical specialties and their practitioners, facilities' generic words, countries, US
  states and nationalities' places): a word in it is never taken for a name by the detector,
  and never counted as a residual possible name.

The package data files are located with :func:`importlib.util.find_spec` (the packages' own
modules, which would import NLTK or make web requests, are never imported).
"""

from __future__ import annotations

import bz2
import gzip
import json
import pickle
import re
from functools import cache
from importlib.util import find_spec
from pathlib import Path

from ..errors import ClinauditError

__all__ = ["EPONYMS", "eponym_compound", "CLINICAL_SHORT", "SPECIALTY_WORDS", "FACILITY_WORDS", "PLACE_WORDS",
           "first_names", "surnames", "common_words", "common_longest", "clinical_terms", "clinical_category",
           "is_specialty", "is_common", "SPOKEN_WORDS", "PLACE_GENERIC", "PLACE_BEFORE", "inflected_everyday",
           "FUNCTION_WORDS", "DEMOGRAPHIC_WORDS", "ORIGIN_WORDS", "english_zipf", "inflections_zipf", "rare_as_a_word", "y_adjective",
           "plural_of_common", "lower_case_neighbour", "RARE_ZIPF", "INFLECTED_MARGIN", "POSSESSIVES",
           "POSSESSIVE_PATTERN", "SUFFIXES", "condition_noun", "everyday_condition", "DAY_NAMES", "MONTH_NAMES",
           "FEAST_NAMES", "package_dir", "wordfreq_zipfs", "english_frequencies", "EVERYDAY_CHAPTERS",
           "CLINICAL_ACRONYMS", "clinical_acronym", "written_acronym", "RELATIVES", "RELATIVE_PATTERN",
           "VocabularyMissing", "WORD_NAME_ZIPF", "whitelist_words", "RESTORED_FIRST_NAMES",
           "ADDED_FIRST_NAMES"]

#: Medical specialties and their practitioners (besides the -ology/-ologist/-iatrist suffix rule).
SPECIALTY_WORDS: frozenset[str] = frozenset("""
    anesthesia anesthesiology anesthesiologist cardiology cardiologist dermatology dermatologist endocrinology
    endocrinologist gastroenterology gastroenterologist gynecologist obstetrician neurology neurologist
    neurosurgeon neurosurgery oncology oncologist ophthalmology ophthalmologist optometrist orthopedics
    orthopedic orthopaedic orthopedist otolaryngology otolaryngologist ent pediatrics pediatrician
    paediatrician psychiatry psychiatrist psychology psychologist pulmonology pulmonologist radiology
    radiologist rheumatology rheumatologist urology urologist nephrology nephrologist hematology
    hematologist immunology immunologist allergist podiatrist podiatry chiropractor physiatrist surgeon
    surgery internist geriatrician hospitalist physician nurse practitioner therapist physiotherapist
    dietitian dietician nutritionist pharmacist midwife paramedic audiologist dentist orthodontist
    counselor counsellor sonographer phlebotomist cardiothoracic vascular
""".split())

#: Generic words of facility and organisation names ("Mercy Care Center", "General Hospital").
FACILITY_WORDS: frozenset[str] = frozenset("""
    care center centre clinic clinics hospital hospitals health healthcare medical medicine memorial general
    university college institute pharmacy urgent emergency department unit ward icu er rehab
    rehabilitation nursing home hospice services service associates practice office lab labs laboratory
    imaging outpatient inpatient community regional county state national children's childrens women's
    veterans va saint st mount mt sinai mercy baptist methodist presbyterian lutheran kaiser permanente
    medicare medicaid insurance walgreens cvs
""".split())

#: Countries, US states, regions, languages and nationalities (a place is not a person's name; origin is handled by
#: the rules).
PLACE_WORDS: frozenset[str] = frozenset("""
    afghanistan albania algeria america americas andorra angola argentina armenia australia austria
    azerbaijan bahamas bahrain bangladesh barbados belarus belgium belize benin bhutan bolivia bosnia
    botswana brazil brunei bulgaria burma cambodia cameroon canada chad chile china colombia congo costa
    rica croatia cuba cyprus czech czechia denmark djibouti dominica ecuador egypt el salvador england
    eritrea estonia eswatini ethiopia europe fiji finland france gabon gambia georgia germany ghana greece
    grenada guatemala guinea guyana haiti honduras hungary iceland india indonesia iran iraq ireland israel
    italy jamaica japan jordan kazakhstan kenya korea kosovo kuwait kyrgyzstan laos latvia lebanon lesotho
    liberia libya liechtenstein lithuania luxembourg madagascar malawi malaysia maldives mali malta
    mauritania mauritius mexico micronesia moldova monaco mongolia montenegro morocco mozambique myanmar
    namibia nepal netherlands holland zealand nicaragua niger nigeria norway oman pakistan palestine panama
    paraguay peru philippines poland portugal qatar romania russia rwanda samoa arabia saudi scotland
    senegal serbia seychelles singapore slovakia slovenia somalia spain lanka sudan suriname sweden
    switzerland syria taiwan tajikistan tanzania thailand togo tonga trinidad tobago tunisia turkey
    turkmenistan uganda ukraine emirates uae uk usa vietnam wales yemen zambia zimbabwe africa asia
    caribbean antarctica
    alabama alaska arizona arkansas california colorado connecticut delaware florida hawaii idaho illinois
    indiana iowa kansas kentucky louisiana maine maryland massachusetts michigan minnesota mississippi
    missouri montana nebraska nevada hampshire jersey york carolina dakota ohio oklahoma oregon
    pennsylvania rhode tennessee texas utah vermont virginia washington wisconsin wyoming
    english spanish french german italian portuguese danish swedish norwegian finnish dutch polish russian
    ukrainian greek turkish arabic hebrew persian farsi hindi urdu bengali punjabi tamil chinese mandarin
    cantonese japanese korean vietnamese tagalog thai swahili amharic somali yoruba igbo latin creole
""".split())
#: Generic words of places and organisations after a name-like word ("Temple Street", "Gig Harbor", "Champion
#: Automotive", "Conway Springs"): the word names the place, not a person.
PLACE_GENERIC = frozenset("""street avenue road boulevard blvd harbor harbour springs heights county township
    company corporation corp inc llc automotive motors airport""".split())
#: Words before a place's name ("North Carolina", "New Mexico", "South Dakota").
PLACE_BEFORE = frozenset("north south east west new upper lower central northern southern eastern western "
                         "sri".split())  # "Sri Lanka" (twenty-first session: a CRAFT-MD trip's country was replaced)

#: Words that are never names where a naming context would otherwise make them one ("doctor will see you");
# "dragon" and "dax" are the dictation assistants ACI-Bench's doctors address ("hey dragon, finalize the note")
FUNCTION_WORDS: frozenset[str] = frozenset("""
    will may can could would should shall might must is are was were be been being am do does did have has had
    said says say told tell and or but so the a an this that these those there here now then today tonight
    just also again still very really well good great fine okay ok alright sure yes yeah no not all everyone
    everybody guys folks again back in on at for to of with from by up down out over about how what who when
    where why which nice glad sorry please doctor nurse patient sir ma'am maam madam dear i you he she we they
    it me him her us them my your his our their its one ready going coming feeling doing happy happening
    bye hi hello hey um uh hmm mhmm yep nope alright thanks mister missus miss sir madam maam
    january february march april may june july august september october november december
    monday tuesday wednesday thursday friday saturday sunday christmas easter thanksgiving
    doctor gave too pretty god gon dragon dax
    two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen
    eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand
    i'm i've i'll i'd it's that's we're you're he's she's they're let's there's what's don't didn't can't
    dr mr mrs ms mx prof professor doc mom mum dad mama papa son daughter husband wife brother sister
    honey sweetie sweetheart darling hon love babe baby buddy bud pal champ kiddo kid kids man dude bro sis
    fella fellas bloke blokes lad lads chap chaps
    sport boss chief team y'all both much more most so such if as than because while after before since
    until into onto through during without within again anyway though although however also even ever
    never always sometimes maybe perhaps probably actually basically obviously thank thankyou welcome
    morning afternoon evening night tomorrow yesterday later soon earlier tonight week weekend month year
    something anything everything nothing someone anyone somebody anybody nobody uh-huh mm-hmm mhm um-hum
    ladies gentlemen gentleman lady young old dear friend friends guy girl boy folks people everybody
    doctors docs nurses physicians everyone's like
""".split())
#: function words (an address: "young lady", "young man") that are among the commonest surnames (the US census's 26th,
#: the UK's thirties): after a given name no address, so the name's end reads them as surnames too ("i live with my
#: partner , [sione] young ."; issue 50, twenty-sixth session), not only a person's verb ("[sione] young is"); in lower
#: case after a title of address or a role ("mr . [young] next door", "coach [young] had us": twenty-seventh session)
OPEN_SURNAMES = frozenset({"young"})
#: Nationalities, ethnicities and religions patients state ("Ethnicity: White British", "21 Male, Indian, 68 kgs":
#: MedPerturb's messages lost them to "[NAME]"; issue 50, twentieth session): the one-word origins of
#: ``deid.ORIGIN_TERMS`` but "german" (Germán is a given name); not "english", "french", "welsh", "christian",
#: "norman", "ashkenazi", "mizrahi": names as often (an origin before "descent", "ancestry", ... is no person all the
#: same: :func:`.name_no_person.clinical_word_after`). Never names: they are :data:`DEMOGRAPHIC_WORDS`.
ORIGIN_WORDS: frozenset[str] = frozenset("""
    aboriginal arab arabic sephardic jewish muslim hindu sikh buddhist
    mexican cuban dominican guatemalan salvadoran colombian brazilian chinese japanese korean vietnamese filipino
    thai indian pakistani bangladeshi nigerian ethiopian somali kenyan ghanaian haitian jamaican irish italian
    polish russian ukrainian greek turkish iranian persian iraqi syrian lebanese egyptian moroccan scandinavian
    european british scottish canadian australian
""".split())
#: Demographic words (the counterfactual values and race/origin descriptors, :data:`ORIGIN_WORDS`): never names,
#: even capitalised
DEMOGRAPHIC_WORDS: frozenset[str] = frozenset("""
    asian black white brown indigenous latino latina latinx hispanic native middle eastern multiracial
    biracial caucasian african american female male man woman men women gentleman lady boy girl
""".split()) | ORIGIN_WORDS

#: Clinical eponyms and short forms the lists above lack or hold only as names: never names, counted as
#: ``condition`` / ``drug`` words (issue 38 found each replaced by ``[NAME]`` in the real ACI-Bench / MTS dialogs).
EPONYMS: frozenset[str] = frozenset("""
    achilles gleason lachman lachmann mcmurray huntington parkinson parkinsonism crohn alzheimer hashimoto
    babinski apgar colles dupuytren hodgkin kaposi lyme marfan meniere osgood schlatter raynaud sjogren tourette
    wilms homans phalen tinel finkelstein spurling mcburney rovsing kernig brudzinski romberg trendelenburg
    valsalva heimlich holter doppler mantoux epley hallpike dix-hallpike glasgow snellen bartholin guillain barre
    asperger lisfranc galeazzi monteggia boutonniere bouchard heberden chvostek trousseau kussmaul korsakoff
    wernicke yergason apley thessaly stinchfield rinne charcot tinetti schatzker breslow
""".split())
#: Drugs, devices and clinical words the lists lack (issue 50: "spica" casts, "tarry" stools, "castor" oil, a "balm", the
#: "tequila" of a social history: dictionary words rare in English, which the lower-case name rule would take).
CLINICAL_SHORT: frozenset[str] = frozenset("""
    polio metro metrogel metro-gel persa persa-gel persagel peed peeing pee synvisc ultracet aldex acticoat
    hydrocode ziac flonase proair spica tarry castor balm tequila agar dexcom
""".split())

#: Clinical acronyms and chemotherapy regimens as clinicians write them, in capitals (issue 50, seventh session): no
#: installed list holds them (philter-ucsf's whitelist and ICD-10-CM have a few, lower case), and a rule that reads
#: an all-capital word must never take one ("my third cycle of FOLFOX" lost its regimen to [NAME] once). Keys lower
#: case, without hyphens or slashes ("R-CHOP" -> "rchop"); :func:`clinical_acronym` reads a word so,
#: :func:`written_acronym` a word written as one. Keys that are gazetteer names ("tia", "uri", "chop") are left out.
CLINICAL_ACRONYMS: frozenset[str] = frozenset("""
    folfox folfox4 folfox6 mfolfox6 folfiri folfirinox mfolfirinox folfoxiri capox capeox xelox xeliri irox
    ecf ecx eox dcf rchop choep rchoep cvp rcvp epoch repoch abvd beacopp escbeacopp avd bvd mopp ice
    dhap eshap gdp gemox br vrd rvd krd kcd dvd drd vmp cybord mpt vad hypercvad bep vip
    mvac ddmvac gemcis gemcarbo carbotaxol tc tch tchp ac act ddac fec cmf ec caf tac
    copd chf hfref hfpef ckd esrd aki cad pad pvd dvt pe mi stemi nstemi acs afib aflutter svt psvt vt vf wpw
    hocm lvh avnrt cva sah ich osa gerd ibs ibd uc nash nafld masld pbc psc hcc rcc nsclc sclc dcis
    idc ilc aml cll cml mds mgus dlbcl itp ttp hus dic pcos bph uti cap copd cf ild ipf ra sle oa
    ptsd adhd ocd gad mdd als ms gbs cidp sma dmd hiv aids hcv hbv hpv hsv cmv ebv rsv mrsa mssa vre esbl cdiff
    tb ltbi t1dm t2dm iddm niddm dka hhs hld htn pots copd ecog nyha kps gcs nihss mmse moca phq gad7 phq9
    chads chads2 chadsvasc cha2ds2vasc hasbled meld curb65 perc sofa qsofa sirs tnm
    bmi bsa egfr gfr hba1c ldl hdl bnp ntprobnp esr crp anca rf ccp tsh psa afp lft lfts cbc
    bmp cmp inr ptt abg vbg ua ekg ecg eeg emg ncs tte tee mri mra ct cta pet spect dexa kub cxr us
    cabg tavr savr pci ptca ercp egd eus picc tpn npo dnr dni polst icd crt crtd lvad ecmo iabp
    cpap bipap turp leep ivf icsi orif acl mcl pcl tka tkr thr vats apr bso
    ehr emr flot
    nsaid nsaids ssri ssris snri snris maoi tca ace acei ppi doac noac lmwh ufh tpa mtx hctz asa
    tnf ivig gcsf epo hrt ocp iud nrt sglt2 glp1 dpp4 prn bid tid qid qd qhs po iv im sc subq
    icu ccu sicu nicu picu pacu ed er or ent ob gyn obgyn gi pt ot slp snf ltac hme dme prn
""".split())

_SPECIALTY_SUFFIX = re.compile(r"(?:olog(?:y|ist|ists|ic|ical)|iatr(?:y|ist|ists|ic|ics)|ician|icians)$")


class VocabularyMissing(ClinauditError):
    """A package that provides a word list is not installed."""


def package_dir(package: str, pip_name: str) -> Path:
    spec = find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise VocabularyMissing(f"de-identification needs the package {pip_name} (word lists); install it with "
                                f"`pip install {pip_name}` (pinned in requirements/runtime.txt)")
    return Path(next(iter(spec.submodule_search_locations)))


def _philter_list(rel: str) -> frozenset[str]:
    path = package_dir("philter_ucsf", "philter-ucsf") / rel
    with path.open(encoding="utf-8") as fh:
        data = json.load(fh)
    return frozenset(str(w).lower() for w in data if w)


#: given names philter-ucsf's list dropped as false positives of clinical notes that the US Census 1990 counts among
#: its 200 most frequent female or male first names: "Ana" (181st female; the lab test is written "ANA")
RESTORED_FIRST_NAMES: frozenset[str] = frozenset({"ana"})
#: given names philter-ucsf's lists (US records) lack that its whitelist or a dictionary holds as words: "Semi" (Tongan,
#: Fijian; beside a name found, however often English writes it, :func:`.name_word.word_name`; issue 50, 29th session);
#: "Fetu", "Eti", "Iulia" (Samoan given names; only philter-ucsf's whitelist of clinical-note words holds them, and
#: English seldom writes them: rare names, as the gazetteer's are, :func:`.name_word.word_facts`; 30th session)
ADDED_FIRST_NAMES: frozenset[str] = frozenset({"semi", "fetu", "eti", "iulia"})


@cache
def first_names() -> frozenset[str]:
    """philter-ucsf's first names (lower case), :data:`RESTORED_FIRST_NAMES` and :data:`ADDED_FIRST_NAMES`."""
    return _philter_list("filters/blacklists/firstnames_minus_fps.json") | RESTORED_FIRST_NAMES | ADDED_FIRST_NAMES


@cache
def surnames() -> frozenset[str]:
    """philter-ucsf's surnames (lower case)."""
    return _philter_list("filters/blacklists/lastnames_minus_fps.json")


#: Spoken-English forms the dictionaries lack (ASR transcripts: "gon na", "kinda", "yup").
SPOKEN_WORDS: frozenset[str] = frozenset("""
    gon wan gotta kinda sorta lemme gimme lotta outta dunno ya yup yep nope nah gosh uhm umm hmm mhm mm uh huh
    okey okay ok alright aw ow eh oh ah yeah yea cause cuz til gonna wanna lem
    woah whoa yikes ugh ooh oops yknow
""".split())


@cache
def whitelist_words() -> frozenset[str]:
    """philter-ucsf's English and medical words without names (lower case): the everyday words of clinical notes,
    without the dictionary's rare headwords (the name detector's misspelling check compares with these)."""
    return _philter_list("filters/whitelists/whitelist_plus_fps_091718_nonames.json")


@cache
def common_words() -> frozenset[str]:
    """English and medical words (lower case): philter-ucsf's whitelist (which has no names), the headwords
    of the GNU Collaborative International Dictionary of English (english-words' ``gcide`` list: it has the
    everyday words philter's removed for being names too, "guess", "love", "june", "frank") and
    :data:`SPOKEN_WORDS`."""
    path = package_dir("english_words", "english-words") / "data" / "gcide_lower.pickle"
    with path.open("rb") as fh:
        gcide = pickle.load(fh)  # the package's own shipped word set
    return whitelist_words() | \
        frozenset(str(w) for w in gcide) | SPOKEN_WORDS


def wordfreq_zipfs(list_name: str, wanted: frozenset[str] | None = None, floor: float = 0.0) -> dict[str, float]:
    """A wordfreq list (``wordfreq/data/<list_name>.msgpack.gz``, CC-BY-SA 4.0): word -> Zipf frequency (log10 of
    occurrences per billion words). The file is a list of buckets, one per centibel below the header (bucket ``i``:
    frequency 10^(-i/100), Zipf 9 - i/100), read as a stream with msgpack (the package's modules and their imports are
    never loaded): only the ``wanted`` words when given, and the buckets down to ``floor`` (the rarer words are never
    decoded)."""
    import msgpack  # type: ignore[import-untyped]

    path = package_dir("wordfreq", "wordfreq") / "data" / f"{list_name}.msgpack.gz"
    out: dict[str, float] = {}
    with gzip.open(path, "rb") as fh:
        unpacker = msgpack.Unpacker(fh, raw=False)
        n = unpacker.read_array_header()
        header = unpacker.unpack() if n else None
        if not isinstance(header, dict) or header.get("format") != "cB":
            raise VocabularyMissing(f"wordfreq: {path} is not a cB frequency list")
        for i in range(n - 1):
            zipf = round(9 - i / 100, 2)
            if zipf < floor:
                break
            bucket = unpacker.unpack()
            for w in bucket if wanted is None else wanted.intersection(bucket):
                out.setdefault(str(w), zipf)
    return out


@cache
def english_frequencies() -> dict[str, float]:
    """wordfreq's English list (``large_en``, :func:`wordfreq_zipfs`): word -> Zipf frequency ("the" 7.73, "will"
    6.45, "murphy" 4.13, "poppy" 3.59)."""
    return wordfreq_zipfs("large_en")


def english_zipf(word: str) -> float:
    """How common ``word`` (lower case) is in English text, as a Zipf frequency (0 for a word wordfreq lacks)."""
    return english_frequencies().get(word, 0.0)


def inflections_zipf(word: str) -> float:
    """The Zipf frequency of ``word``'s most common regular inflection (plural -s/-es/-ies, -ed/-d/-ied, -ing, a
    doubled final consonant): an English word is used inflected ("jog" 3.30, "jogging" 3.38; "knob" 3.49, "knobs"
    3.02), a name seldom ("murphy" 4.13, "murphys" 2.23; "chen" 3.96, "chens" 1.39)."""
    if len(word) < 3:
        return 0.0
    forms = [word + "s", word + "es", word + "ed", word + "ing", word + word[-1] + "ed", word + word[-1] + "ing"]
    if word.endswith("e"):
        forms += [word + "d", word[:-1] + "ing"]
    if word.endswith("y"):
        forms += [word[:-1] + "ies", word[:-1] + "ied"]
    return max(english_zipf(f) for f in forms)


#: A gazetteer name that only the dictionary calls a word is a name when it is rarer than this in English text
#: (wordfreq's Zipf frequency; issue 50): chosen on the by-origin benchmark's development half and the real dialogs'
#: false replacements together (3.0, 3.5, 4.0, 4.3 measured; docs/deidentification.md).
RARE_ZIPF = 3.5
#: The days of the week (a day's name is a time, or a given name: "Sunday Okafor")
DAY_NAMES = frozenset("monday tuesday wednesday thursday friday saturday sunday".split())
#: The months (a month's name is a time, or a given name: "may", "june")
MONTH_NAMES = frozenset("january february march april may june july august september october november december".split())
#: the feasts English writes as days ("at christmas", "christmas came fast"): with the days and months in the time guards
FEAST_NAMES = frozenset({"christmas", "easter"})
#: relatives, friends and carers named after a possessive ("my husband X", "her son, X,")
RELATIVES: frozenset[str] = frozenset("""
    husband wife spouse partner son daughter mother mom mum mother-in-law father dad father-in-law brother sister
    brother-in-law sister-in-law aunt auntie uncle cousin niece nephew grandson granddaughter grandmother grandma
    grandfather grandpa child kid baby boyfriend girlfriend fiance fiancé fiancee fiancée friend neighbor
    son-in-law daughter-in-law
    neighbour roommate caregiver carer coworker co-worker colleague boss stepson stepdaughter stepmother
    stepfather twin
    mam mammy mummy mommy daddy grandad granddad granny gran flatmate housemate
""".split())
#: kin said as a name, no person's own name ("Nana, [Sione] and me went"; a grandparent's or parent's call)
KIN_CALLS = frozenset("nana nan nanna nanny papa pa ma mama pop pops poppa gramps grammy nonna nonno".split())
#: :data:`RELATIVES` as a pattern's alternation, longest first ("granddaughter" before "daughter")
RELATIVE_PATTERN = "|".join(sorted(RELATIVES, key=len, reverse=True))
_POSSESSIVE_WORDS = ("my", "his", "her", "our", "their", "your")
#: the possessive determiners, in lower case (issue 50, eighteenth session: three rules wrote the set again)
POSSESSIVES = frozenset(_POSSESSIVE_WORDS)
#: a possessive determiner and the blanks after it, in lower case ("my ", "their ")
POSSESSIVE_PATTERN = r"(?:" + "|".join(_POSSESSIVE_WORDS) + r")[ \t]+"
#: How common in English text a gazetteer name the lists call a word may be and still be a name where the dialog
#: says so (issue 50, sixth session; one threshold since the seventh): in lower case beside a name found ("ali" 4.31,
#: "blessing" 4.06, "sri" 4.12, "mohamed" 3.57; not "smith" 4.89, "mark" 5.05, "will" 6.45:
#: :mod:`.name_neighbour_words`), taken elsewhere in the dialog or before a surname ("hunter" 4.37, "carter" 4.35;
#: not "grace" 4.56, "hope": :mod:`.name_mentions`), addressed at a sentence's start (:func:`.name_writing.addressed`)
WORD_NAME_ZIPF = 4.5
#: ... and its most common inflection is more than this rarer than itself ("jog" 3.30 / "jogging" 3.38 is a word;
#: "chen" 3.96 / "chens" 1.39 is not).
INFLECTED_MARGIN = 0.75


def lower_case_neighbour(key: str) -> bool:
    """In lower case, a gazetteer name right next to a name found is part of it unless it is an everyday word of
    philter-ucsf's whitelist or a spoken form ("harry cartwright"; not "colombo will park")."""
    if key in whitelist_words() or key in SPOKEN_WORDS:
        return False
    parts = [p for p in re.split(r"[-']", key) if p] or [key]
    return all(p in first_names() or p in surnames() for p in parts)  # "al-farsi" as "marie-claude"


def plural_of_common(key: str) -> bool:
    """"uncles", "glasses": the plural of a common word of four letters or more (not "lars" of "lar")."""
    words = common_words()
    return (key.endswith("s") and len(key) >= 5 and key[:-1] in words) or (
        key.endswith("es") and len(key) >= 6 and key[:-2] in words)


def rare_as_a_word(key: str) -> bool:
    """A gazetteer name that only the dictionary's headwords call a word (not philter-ucsf's whitelist of everyday
    words nor a spoken form), rare in English text (wordfreq's Zipf frequency below :data:`RARE_ZIPF`), seldom
    inflected (:data:`INFLECTED_MARGIN`), no plural or inflection of a common word and no "-y" adjective of a common word ("wavy", "icy"): "colombo",
    "cartwright", "egal" are names even in lower case; "pencil", "jog", "knob" (used inflected) stay words. A word
    English text writes neither as it is nor inflected is rare too (Zipf 0 both: "tupai", a Samoan surname and a tree
    shrew's genus; issue 50, twenty-sixth session)."""
    if key in whitelist_words() or key in SPOKEN_WORDS or plural_of_common(key) or inflected_everyday(key):
        return False
    zipf = english_zipf(key)
    if zipf >= RARE_ZIPF:
        return False
    inflected = inflections_zipf(key)
    if inflected > 0 and inflected >= zipf - INFLECTED_MARGIN:  # 0 and 0: never seen ("tupai")
        return False
    return not y_adjective(key)


def y_adjective(key: str) -> bool:
    """An adjective in "-y" of a common word ("wavy", "pinky", "icy"), or its comparative ("cozier")."""
    words = common_words()
    stem = key[:-1] if key.endswith("y") else key[:-3] + "y" if key.endswith("ier") else ""
    return bool(stem) and (stem in words or stem + "e" in words or stem.endswith("y") and stem[:-1] in words)


_BRITISH = ((re.compile(r"our(?=s?$|ed$|ing$|ite|able|hood)"), "or"), (re.compile(r"is(?=e$|es$|ed$|ing$|ation)"), "iz"),
            (re.compile(r"tre(?=s?$)"), "ter"), (re.compile(r"ae"), "e"), (re.compile(r"oe"), "e"),
            (re.compile(r"ogue$"), "og"), (re.compile(r"lled$|lling$"), lambda m: m.group(0)[1:]))


_INFLECTIONS = (("ies", "y"), ("es", ""), ("s", ""), ("ied", "y"), ("ed", ""), ("ed", "e"), ("ing", ""),
                ("ing", "e"), ("er", ""), ("er", "e"), ("est", ""), ("est", "e"), ("ier", "y"))


@cache
def common_longest() -> int:
    """A length no word :func:`is_common` takes reaches: twice the longest common word (a British spelling loses at
    most half its letters, "ae" -> "e"), and an inflection's letters."""
    return 2 * max(map(len, common_words())) + 8


def is_common(word: str) -> bool:
    """``word`` (lower case) is in :func:`common_words`, also as an inflected form ("pins", "messing") or in its
    British spelling ("neighbour", "paediatric", "organise", "centre")."""
    common = common_words()
    if word in common:
        return True
    if len(word) > 40 and len(word) > common_longest():
        return False  # no substitution of a long run of letters (issue 50, tenth session: linear time)
    # inflected forms of a common word ("pins", "fries", "peed", "messing", "wider")
    for suffix, repl in _INFLECTIONS:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            stem = word[: len(word) - len(suffix)]
            if stem + repl in common or (len(stem) > 3 and stem[-1] == stem[-2] and stem[:-1] in common):
                return True
    for pat, rep in _BRITISH:
        alt = pat.sub(rep, word)
        if alt != word and alt in common:
            return True
    return False


#: Inflections and simple suffixes, (ending, what the stem ends with instead): "fries" -> "fry", "wider" -> "wide"
#: (:mod:`.name_frequency` reads them too).
SUFFIXES = (("ies", "y"), ("ied", "y"), ("es", ""), ("s", ""), ("ed", ""), ("ed", "e"), ("ing", ""),
             ("ing", "e"), ("er", ""), ("er", "e"), ("est", ""), ("est", "e"))


def inflected_everyday(key: str) -> bool:
    """``key`` is an inflected form of an everyday English or clinical word (philter-ucsf's whitelist, the clinical
    vocabulary): "pins", "fries", "wider", "charging"; the stem has three letters or more (not "mercier" of "mercy",
    "visser" of "vis": the development half of the by-origin benchmark lost French and Dutch names to those); no
    "-er" noun lemminflect reads as its own ("hunter", "power": :func:`.word_pos.own_lemma`)."""
    from .word_pos import own_lemma

    words = whitelist_words()
    for suffix, repl in SUFFIXES:
        if not key.endswith(suffix) or len(key) - len(suffix) < 3:
            continue
        stem = key[: len(key) - len(suffix)]
        if suffix == "er" and own_lemma(key):
            continue  # "hunter", "walker", "power" are no "hunt", "walk", "pow" + "er" (lemminflect's own nouns)
        # a doubled consonant ("pinned") only before a stem of four letters or more: "visser" is no "vis"
        for cand in (stem + repl, stem[:-1] if len(stem) > 4 and stem[-1] == stem[-2] else ""):
            if cand and (cand in words or clinical_category(cand) is not None):
                return True
    return False


_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")


@cache
def _drug_words() -> frozenset[str]:
    path = package_dir("drug_named_entity_recognition", "drug-named-entity-recognition") / \
        "drug_ner_dictionary.pkl.bz2"
    with bz2.open(path, "rb") as fh:
        data = pickle.load(fh)  # the package's own shipped dictionary (trusted like its code)
    # one-word names only: the words of multi-word names ("St. John's wort") include people's names
    return frozenset(n for n in (str(k).lower().strip() for k in data["drug_variant_to_canonical"])
                     if len(n) > 2 and _WORD.fullmatch(n))


@cache
def _condition_words() -> frozenset[str]:
    lower, capital = _condition_parts()
    # words written in lower case in some description, and eponyms (always capitalised inside a description:
    # Parkinson, Crohn) unless they are also first names (Louis, Williams, Ross)
    firsts = first_names()
    return frozenset(w for w in lower | {c for c in capital - lower if c not in firsts} if len(w) > 2)


def condition_noun(key: str) -> bool:
    """``key`` is written in lower case in some ICD-10-CM description or note ("sander", "yaw", "park"), not only
    capitalised as an eponym ("parkinson", "hashimoto")."""
    return key in _condition_parts()[0]


@cache
def _condition_parts() -> tuple[frozenset[str], frozenset[str]]:
    """The words of ICD-10-CM's descriptions and notes written in lower case, and those capitalised inside one."""
    lower, capital, _, _ = _condition_scan()
    return lower, capital


#: ICD-10-CM's chapters whose descriptions name everyday things, places and people, not conditions: 20, external
#: causes (V00-Y99: "Fall from cliff", "Amusement park as the place of occurrence"), and 21, factors influencing
#: health status (Z00-Z99: "Problems related to living in foster care")
EVERYDAY_CHAPTERS = frozenset({"20", "21"})


@cache
def _condition_scan() -> tuple[frozenset[str], frozenset[str], frozenset[str], frozenset[str]]:
    """:func:`_condition_parts`, the lower-case words written only in :data:`EVERYDAY_CHAPTERS` or the
    introduction's instructions (before the first chapter: "will", "may"), read from the XML's ``<chapter>`` parts,
    and the eponyms of two names or more joined by hyphens (:func:`eponym_compound`)."""
    folder = package_dir("simple_icd_10_cm", "simple-icd-10-cm") / "data"
    files = sorted(folder.glob("icd10*-tabular-*.xml"))
    if not files:
        raise VocabularyMissing(f"simple-icd-10-cm: no ICD-10-CM tabular XML in {folder}")
    pieces = re.split(r"<chapter>\s*<name>([^<]*)</name>", files[-1].read_text(encoding="utf-8"))
    lower: set[str] = set()
    capital: set[str] = set()
    clinical: set[str] = set()  # written in lower case in a chapter of conditions, injuries or findings
    joined: set[str] = set()  # "Stevens-Johnson", "Wolff-Parkinson-White": every run of two parts or more
    for chapter, body in zip(["", *pieces[1::2]], pieces[0::2], strict=True):
        for d in re.findall(r"<(?:desc|note)>([^<]*)</(?:desc|note)>", body):
            for m in re.finditer(r"[A-Z][a-z]+(?:-[A-Z][a-z]+)+", d) if "-" in d else ():
                parts = m.group(0).lower().split("-")
                joined.update("-".join(parts[i:j]) for i in range(len(parts)) for j in range(i + 2, len(parts) + 1))
            for i, m in enumerate(re.finditer(r"[A-Za-z]+(?:'[a-z]+)?", d)):
                w = m.group(0)
                if w.islower():
                    lower.add(w)
                    if chapter and chapter not in EVERYDAY_CHAPTERS:
                        clinical.add(w)
                elif (i or w.endswith("'s")) and w[0].isupper() and w[1:].islower():
                    capital.add(w.lower().removesuffix("'s"))
    return frozenset(lower), frozenset(capital), frozenset(lower - clinical), frozenset(joined)


def eponym_compound(key: str) -> bool:
    """``key`` (lower case) is an eponym of names joined by hyphens that ICD-10-CM writes, or a run of two of its
    parts or more: "stevens-johnson", "wolff-parkinson-white", "parkinson-white", "creutzfeldt-jakob", "osgood-schlatter"
    (a clinical eponym, never a name: a compound of two given names or surnames is a name otherwise, issue 50,
    fourteenth session)."""
    return "-" in key and key in _condition_scan()[3]


def everyday_condition(key: str) -> bool:
    """``key`` (lower case) is an ICD-10-CM word only of :data:`EVERYDAY_CHAPTERS` or the introduction ("park",
    "hill", "bill", "cliff", "harvest"), never capitalised inside a description as an eponym, no :data:`EPONYMS`."""
    return key in _condition_scan()[2] and key not in _condition_parts()[1] and key not in EPONYMS


@cache
def clinical_terms() -> dict[str, str]:
    """Every clinical-vocabulary word (lower case) → its category: ``drug``, ``condition``, ``specialty``,
    ``facility`` or ``place`` (the first that lists it, in this order)."""
    out: dict[str, str] = {}
    for cat, words in (("drug", _drug_words() | CLINICAL_SHORT), ("condition", _condition_words() | EPONYMS),
                       ("specialty", SPECIALTY_WORDS), ("facility", FACILITY_WORDS), ("place", PLACE_WORDS)):
        for w in words:
            out.setdefault(w, cat)
    return out


def is_specialty(word: str) -> bool:
    w = word.lower()
    return w in SPECIALTY_WORDS or bool(_SPECIALTY_SUFFIX.search(w))


def clinical_acronym(word: str) -> bool:
    """``word`` (any case, hyphens or slashes inside: "R-CHOP", "FOLFOX", "CHA2DS2-VASc") is a clinical acronym or
    regimen of :data:`CLINICAL_ACRONYMS`."""
    return re.sub(r"[-/]", "", word.lower()) in CLINICAL_ACRONYMS


def written_acronym(word: str) -> bool:
    """``word`` is written as a clinical acronym: four letters or more, two capitals or more and in
    :data:`CLINICAL_ACRONYMS` ("HFrEF", "FOLFOX", "R-CHOP"; not "nstemi", "Copd"; not "ED" or "IM": a word of two or
    three letters in capitals is a name's part as often, and no rule takes one for a name by its letters)."""
    return len(word) >= 4 and not word.islower() and sum(map(str.isupper, word)) >= 2 and clinical_acronym(word)


def clinical_category(word: str) -> str | None:
    """The clinical-vocabulary category of ``word`` (case-insensitive, possessive ``'s`` ignored), or None."""
    w = word.lower()
    if w.endswith(("'s", "’s")):
        w = w[:-2]
    hit = clinical_terms().get(w)
    if hit is not None:
        return hit
    if eponym_compound(w):  # "stevens-johnson", "wolff-parkinson-white"
        return "condition"
    return "specialty" if _SPECIALTY_SUFFIX.search(w) else None
