"""A forty-fourth development set of the by-origin de-identification benchmark (issue 50, nineteenth session): given
names that are also English words or dictionary headwords, addressed in spoken greetings and questions **without
punctuation** around the name (a greeting or an address opener, the name, then a new clause to the listener), beside
the same slots holding words as words.

Real lower-case transcripts (ACI-Bench) greet a patient by a first name with no comma after it: "hi billy how are
you", "so mark tell me about your right elbow pain". Main takes such a greeting when the name is no word ("hi
martha how are you") or when punctuation follows ("hi billy , how are you ?"); a gazetteer name that is also a
common word got through only where its clause ended after it. This set gives 13 origins (English, US, Irish,
Scottish, Welsh, Punjabi, Yoruba, Arabic, Spanish, Hindi, Japanese, Cook Islands, Tibetan; 2 to 5 given names each,
30 in all: names the gazetteers hold and the word lists call words, "terry", "tudor", "bode", "nadir", "taro",
"karma"), hand-written here (not from Faker, names-dataset or the docs' examples; no part of a name is any other
set's: checked by ``tests/test_deid_dev44.py`` without printing them; a script dropped every candidate a table holds
without printing which, most of the first ones), in **37 forms** of spoken address no other set has: a greeting then
the name then a clause ("hi {g} how are you doing today", "hey there {g} what brings you in today"), an address
opener ("so {g} tell me what happened with the fall", "okay {g} i'm going to press on your belly now"), the name
inside a question or an instruction to the listener ("how have you been sleeping {g} any better", "does that hurt
{g} when i push here"). **The same slots holding words as words** (``DEV44_WORD_USES``, two a dialog, 66 sentences):
terms of address ("hi honey how are you", "hey doc good to see you", "hey buddy how's it going"), adverbs and
fillers ("hi again how are you doing", "okay great so tell me", "alright so overall your exam is"), and the names'
own words as words ("my sugars spike after dinner", "that doesn't bode well"): each word replaced inside them is a
false replacement, printed by ``bench_deid_origin.py --dev44``.

On main 133340f, before any rule of this slice (``--dev-only --dev44 --no-real``): cased 99.1 % of 663 names (English
88.2, every other origin 100.0), lower case 53.4 % of 936 (US, Irish, Scottish 9.7, Tibetan 16.7, English 51.4,
Arabic 51.4, Japanese 56.9, Yoruba 59.7, Punjabi 62.5, Welsh 68.1, Hindi 98.6, Spanish, Cook Islands 100.0); words
used as words: 52 of 1,066 sentences' words replaced (hiya 26, karma 14, mala 12), the baseline a rule must not
raise. After ``name_spoken_address`` (nineteenth session): cased 99.8 %, lower case 93.2 % (Yoruba 73.6: "tope", "kola"
are gazetteer surnames, not given names), words used as words 52 (the same). Same layout as ``deid_dev39.py``; ``{g}`` given name, ``{s}`` surname."""

from __future__ import annotations

DEV44_FORMS: tuple[tuple[str, str], ...] = (
    # a greeting, the name, a new clause to the listener
    ("D", "Hi {g} how are you doing today?"),
    ("D", "Hey {g} good to see you again."),
    ("D", "Good morning {g} how have you been?"),
    ("D", "Hello {g} come on in and have a seat."),
    ("D", "Hey there {g} what brings you in today?"),
    ("D", "Hi again {g} how did the physio go?"),
    ("D", "Oh hi {g} nice to meet you i'm the nurse practitioner."),
    ("D", "Well hello {g} it's been a while."),
    ("D", "Afternoon {g} sorry about the wait."),
    ("D", "Hey {g} thanks for coming in so early."),
    ("D", "Morning {g} did you manage to eat anything?"),
    ("D", "Hi {g} long time no see."),
    ("D", "Good evening {g} i'm the doctor on call tonight."),
    ("D", "Welcome back {g} how was the holiday?"),
    ("D", "Hiya {g} what can i do for you?"),
    ("D", "It's nice to see you {g} i hear you've been busy."),
    ("D", "Good to meet you {g} i'm one of the doctors here."),
    ("P", "Morning {g} i brought my list of tablets."),
    ("P", "Thanks {g} i feel a lot better now."),
    # an address opener, the name, an instruction or a question
    ("D", "So {g} tell me what happened with the fall."),
    ("D", "Okay {g} i'm going to press on your belly now."),
    ("D", "Alright {g} let's take a look at that knee."),
    ("D", "Now {g} have you been taking the inhaler?"),
    ("D", "Well {g} your blood work came back normal."),
    ("D", "Okay so {g} any questions before we finish?"),
    ("D", "Right {g} we'll get you booked for the scan."),
    ("D", "Listen {g} i want you to call us if it gets worse."),
    ("D", "Alright so {g} your exam is pretty much normal."),
    ("P", "Sorry {g} can you say that again?"),
    # the name inside a question or an instruction to the listener
    ("D", "How have you been sleeping {g} any better?"),
    ("D", "What do you think {g} should we try the higher dose?"),
    ("D", "Does that hurt {g} when i push here?"),
    ("D", "Are you still smoking {g} or have you cut down?"),
    ("D", "See you in two weeks {g} take care of yourself."),
    ("D", "Take care {g} and call us if anything changes."),
    ("D", "How's the swelling been {g} has it gone down at all?"),
    ("D", "Any chest pain {g} when you climb the stairs?"),
)

#: the same slots holding words as words, and the names' words as words: (speaker, sentence)
DEV44_WORD_USES: tuple[tuple[str, str], ...] = (
    # a term of address in the name's place
    ("D", "Hi there how are you doing today?"),
    ("D", "Hey guys good to see you again."),
    ("D", "Morning folks how are we doing?"),
    ("D", "Hi honey how are you?"),
    ("D", "Hey doc good to see you."),
    ("D", "Hey buddy how's it going?"),
    ("D", "Hello everyone come on in and have a seat."),
    ("D", "Hey sweetheart what brings you in today?"),
    ("D", "Good morning sir how have you been?"),
    ("D", "Afternoon ma'am sorry about the wait."),
    ("P", "Hi mum how are you?"),
    ("P", "Hey dad good to see you."),
    ("D", "Hi folks thanks for coming in."),
    ("D", "Hey man thanks for coming in so early."),
    ("D", "Morning all did you manage to eat anything?"),
    ("D", "Hi love long time no see."),
    ("D", "Good evening everybody i'm the doctor on call."),
    ("D", "Welcome back everyone how was the holiday?"),
    ("D", "Hiya mate what can i do for you?"),
    ("D", "Hi darling how's the little one?"),
    ("D", "Hey kiddo how's school going?"),
    ("D", "Hello young man what happened to your arm?"),
    ("D", "Hi guys how are we today?"),
    ("D", "Hello friend how have you been?"),
    # an adverb or a filler in the name's place
    ("D", "Hi again how are you doing?"),
    ("D", "Hello again come on in and have a seat."),
    ("D", "Nice to see you too i know it's been a while."),
    ("D", "How have your sugars been running lately have they been high?"),
    ("D", "Okay great so tell me about the pain."),
    ("D", "Alright so overall your exam is pretty good."),
    ("D", "So anyway tell me what happened."),
    ("D", "Okay now i'm going to press on your belly."),
    ("D", "Well today we'll check your bloods."),
    ("D", "Alright then let's take a look at that knee."),
    ("D", "So basically tell me what happened."),
    ("D", "Okay honestly i think the dose is fine."),
    ("D", "Now generally have you been taking the inhaler?"),
    ("D", "Well fortunately your blood work came back normal."),
    ("D", "How have you been sleeping lately any better?"),
    ("D", "What do you think though should we try the higher dose?"),
    ("D", "Does that hurt here when i push?"),
    ("D", "It's nice to see you again i hear you've been busy."),
    ("D", "Good to meet you too i'm one of the doctors."),
    ("P", "Thanks again that's really helpful."),
    ("D", "Right okay we'll get you booked for the scan."),
    ("D", "Listen carefully i want you to call if it gets worse."),
    ("D", "See you in two weeks then take care of yourself."),
    ("D", "Take care now and call if anything changes."),
    ("D", "Are you still smoking cigarettes or have you cut down?"),
    ("P", "Sorry again can you say that again?"),
    ("P", "Thanks so much i feel a lot better now."),
    ("D", "Okay so next any questions before we finish?"),
    ("D", "How's the swelling been today has it gone down?"),
    # the names' own words as words
    ("P", "My sugars spike after dinner every night."),
    ("P", "They put a rod in my leg after the crash."),
    ("D", "That's the norm for your age, nothing to worry about."),
    ("P", "The hospital bill came today and it's huge."),
    ("P", "That doesn't bode well for my knee."),
    ("P", "It was the nadir of my year, honestly."),
    ("P", "The car started to veer to the left and i blacked out."),
    ("P", "We live in a tudor house with steep stairs."),
    ("P", "I had taro chips and my lips went numb."),
    ("P", "Karma i suppose, i laughed at my brother's ankle."),
    ("P", "I dried off with a terry towel and felt dizzy."),
    ("P", "My yoga teacher is a real yogi about breathing."),
    ("P", "I bought mala beads to help me relax."),
    ("P", "I drank a kola drink and my heart raced."),
    ("P", "A shark fin soup gave me a rash."),
    ("P", "My sister is my ally in all of this."),
    ("P", "The old stems get woody, you have to cut them back."),
    ("D", "How to dose it is beyond my ken, i'll ask pharmacy."),
)

#: origin -> (given names, surnames): the given names are words or headwords the gazetteers hold as given names
DEV44_NAMES: dict[str, tuple[list[str], list[str]]] = {
    "English": (["Bill", "Ned", "Hal", "Terry"], ["Pendlebury", "Hebblethwaite"]),
    "US": (["Rod", "Norm", "Buster", "Woody", "Spike"], ["Gulliver", "Fairbrother"]),
    "Irish": (["Cara", "Fin"], ["Keaveney", "Brannigan"]),
    "Scottish": (["Ally", "Mack"], ["McGillivray"]),
    "Welsh": (["Glyn", "Tudor", "Cai"], ["Meredith"]),
    "Punjabi": (["Veer"], ["Athwal"]),
    "Yoruba": (["Tope", "Bode", "Kola"], ["Adebanjo", "Oyebanji"]),
    "Arabic": (["Nadir", "Hakim"], ["Shammas", "Tannous"]),
    "Spanish": (["Luz", "Noe"], ["Quintanilla", "Arceo"]),
    "Hindi": (["Mala", "Yogi"], ["Trivedi", "Saxena"]),
    "Japanese": (["Taro", "Ken"], ["Takeda"]),
    "Cook Islands": (["Paea"], ["Tamarua", "Marsters"]),
    "Tibetan": (["Karma"], ["Tsering", "Lhamo"]),
}
