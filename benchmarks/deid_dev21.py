"""A twenty-first development set of the by-origin de-identification benchmark (issue 50, thirteenth session): the
frames that name a person (a title, a self-introduction, a greeting or sign-off, a relative or role in apposition)
holding given names and surnames the guards call words, beside words in the same frames.

In the strongest naming frames a name is lost, cased and lower, when the guards call it a function, modal, month,
day, demographic, clinical (ICD description) or spoken word: "My name is Wednesday.", "Hi Baby, how are you?", "Dr No
sent me.". This set gives 9 origins whose people carry such names (Korean, Vietnamese, Chinese, UK, US, Irish,
Punjabi, Haitian, Samoan: 5 or 6 names each, two-letter surnames among them), hand-written here (not from Faker,
names-dataset or the detector's lists; none of the lead's probe names; no part of a name is any other set's: checked
by ``tests/test_deid_dev21.py`` without printing them), in **51 forms** of the naming frames: titles (mr, mrs, ms,
mx, miss, dr, doctor, nurse, sister, prof, with and without a period, before a surname and before given name and
surname), a self-introduction ("My name is {g}.", "I'm {g} from the pharmacy.", "This is {g} speaking.", "Call me
{g}", "It's {g} here"), a greeting or sign-off ("Hi {g}, ...", "Good morning, {g}.", "Thanks, {g}.", "Bye {g}, ..."),
a relative or role in apposition ("My son {g} drives me in.", "Her daughter, {g}, keeps the tablets."). **Words in
the same frames and the names' words as words** (``DEV21_WORD_USES``, two a dialog, 89 sentences: "My name is not on
the list.", "Hi there, come in.", "Thanks, pal.", "Dr said to sit tight.", "My son ran off in the car park.",
"Mr and Mrs are the options on the form.", "I miss my dog.", "Nurse will come and do your obs."): each word replaced
inside them is a false replacement, printed by ``bench_deid_origin.py --dev21``.

On main 7385256 (the code of ed6dfca), before any rule of the thirteenth session (``--dev-only --dev21 --no-real``):
cased 80.1 % of 564 names (US 28.1, UK 71.9, Punjabi 76.6, Chinese 78.1, Korean 81.4, Vietnamese 89.1, Irish 95.3,
Haitian 95.3, Samoan 100), lower case 61.2 % of 708 (US 26.2, UK 36.7, Chinese 50.6, Korean 57.6, Punjabi 59.8,
Vietnamese 72.4, Irish 74.7, Samoan 81.6, Haitian 82.8); words used as words: 43 of 692 sentences' words replaced
(mars 9, spelled 9, mate 9, noone 8, ran 8).
Same layout as ``deid_dev20.py``; ``{g}`` given name, ``{s}`` surname."""

from __future__ import annotations

DEV21_FORMS: tuple[tuple[str, str], ...] = (
    # titles before a surname, or given name and surname
    ("P", "Dr {s} sent me over."),
    ("P", "Dr. {s} said it was fine to come."),
    ("D", "Mrs {s}, come on through."),
    ("D", "Mrs. {s} is next on the list."),
    ("P", "Mr {s} is my husband."),
    ("D", "Ms {s}, you can go in now."),
    ("D", "Mx {s} is waiting outside."),
    ("D", "Miss {s}, take a seat."),
    ("P", "Doctor {s} told me to stop the tablets."),
    ("D", "Nurse {s} will take your bloods."),
    ("D", "Sister {s} is on the ward today."),
    ("P", "Prof {s} saw me last year."),
    ("P", "Prof. {g} {s} did the operation."),
    ("P", "I was seen by Dr {g} {s} in the spring."),
    ("D", "This is Mrs {g} {s}, the patient's mum."),
    ("D", "Mr. {g} {s}, do you have your card?"),
    ("P", "Nurse {g} gave me the jab."),
    ("P", "Ask for Dr {s} at the desk."),
    ("D", "Ms. {g} {s}? We're ready for you."),
    ("P", "Miss {g} {s} teaches my son."),
    # a self-introduction
    ("P", "My name is {g}."),
    ("P", "My name's {g} {s}."),
    ("D", "Hello, my name is {g} and I'm one of the nurses."),
    ("D", "I'm {g} from the pharmacy."),
    ("D", "Hi, I'm Dr {s}, one of the doctors."),
    ("P", "This is {g} speaking."),
    ("P", "Hello, this is {g} {s} calling about my results."),
    ("P", "Call me {g}, everyone does."),
    ("P", "It's {g} here, from the care home."),
    ("D", "I'm {g}, I'll be looking after you today."),
    ("P", "Hi, it's {g}, I rang yesterday."),
    # a greeting or a sign-off addressing a person
    ("D", "Hi {g}, how are you doing?"),
    ("D", "Good morning, {g}."),
    ("D", "Hello {g}, do come in."),
    ("P", "Thanks, {g}."),
    ("P", "Thank you so much, {g}, you've been great."),
    ("P", "Bye {g}, see you next week."),
    ("D", "Morning {g}, take a seat."),
    ("D", "Nice to meet you, {g}."),
    ("P", "Cheers, {g}."),
    ("D", "Take care now, {g}."),
    ("D", "Good afternoon, Mrs {s}."),
    # a relative or a role in apposition
    ("P", "My son {g} drives me in."),
    ("P", "Her daughter, {g}, keeps the tablets."),
    ("P", "My wife {g} has the list."),
    ("P", "My nurse {g} changes the dressing."),
    ("P", "Our neighbour {g} {s} has a key."),
    ("P", "My husband, {g}, is in the car."),
    ("P", "My brother {g} {s} had the same thing."),
    ("P", "My carer {g} comes at nine."),
    ("P", "His mum, {g}, rang the ward."),
)

#: words in the same frames, and the names' words as words: (speaker, sentence)
DEV21_WORD_USES: tuple[tuple[str, str], ...] = (
    # "my name is" + a word
    ("P", "My name is not on the list."),
    ("P", "My name is spelled wrong on the letter."),
    ("P", "My name is still on the old form."),
    ("P", "My name is also on the prescription."),
    ("P", "My name's the same as my mum's."),
    ("P", "My name is in the system, I checked."),
    ("P", "My name is a bit long for the form."),
    # a greeting or a sign-off + a word
    ("D", "Hi again, how did the tablets go?"),
    ("D", "Hi there, come in."),
    ("D", "Hi everyone, I'm just the student."),
    ("P", "Hi honey, I'll be out soon."),
    ("P", "Hi doc, thanks for seeing me."),
    ("P", "Thanks again for fitting me in."),
    ("P", "Thanks, no rush."),
    ("D", "Thanks, that's handy."),
    ("P", "Thanks, pal."),
    ("P", "Cheers, mate."),
    ("P", "Hi baby, mummy's here."),
    ("P", "Bye, baby, be good for the nurse."),
    ("D", "Good morning, everyone."),
    ("P", "Thanks, doctor."),
    ("P", "Bye now."),
    ("P", "Bye for now, take care."),
    ("D", "Morning all, sorry for the wait."),
    ("P", "Thanks, love."),
    # a title as a word, a title word used as a word
    ("D", "The dr will see you now."),
    ("D", "Your dr may want to change the dose."),
    ("P", "Dr said to sit tight."),
    ("P", "It says Mr and Mrs on the envelope."),
    ("D", "Mr and Mrs are the options on the form."),
    ("P", "I miss you all."),
    ("P", "I miss my dog."),
    ("P", "Don't miss the bus."),
    ("P", "I'd hate to miss April."),
    ("D", "Nurse will come and do your obs."),
    ("D", "Doctor will be with you shortly."),
    ("D", "Nurse, can you help me here?"),
    ("D", "Sister, could you pass the gauze?"),
    ("P", "The nurse said it was a small dot."),
    # "i'm / this is / call me / it's" + a word
    ("P", "I'm fine, thanks."),
    ("P", "I'm sorry, I forgot."),
    ("P", "I'm from up north."),
    ("P", "This is my first time here."),
    ("P", "This is worse than last week."),
    ("D", "Call me if it gets worse."),
    ("P", "It's me again."),
    ("P", "It's here, on my arm."),
    ("P", "It's Tuesday tomorrow, right?"),
    ("P", "It's early days yet."),
    ("D", "This is a major op."),
    ("P", "Call me early next week."),
    ("P", "I'm junior staff at the bank."),
    ("P", "I'm a big fan of the new clinic."),
    # a relative or a role + a word
    ("P", "My son will drive me home."),
    ("P", "My daughter may come later."),
    ("P", "My son ran off in the car park."),
    ("P", "My wife sings in a choir."),
    ("P", "My son is a junior doctor."),
    ("P", "My nurse said to rest."),
    ("P", "My husband, bless him, did the shopping."),
    ("P", "Her daughter never rang."),
    ("P", "My son, who is twelve, has asthma."),
    # the names' words as words
    ("P", "It started in March."),
    ("P", "Since Christmas I've been tired."),
    ("P", "On Friday I felt faint."),
    ("P", "In August we go away."),
    ("P", "I had a bath last night."),
    ("P", "I can't sit for long."),
    ("P", "The ceiling fan helps a lot."),
    ("P", "I wear black socks for work."),
    ("P", "I'm feeling a bit lame today."),
    ("P", "I hang the washing out myself."),
    ("P", "We walked by the bay."),
    ("P", "It weighs a ton."),
    ("P", "I play solo in the band."),
    ("P", "The sole of my foot hurts."),
    ("P", "I pine for the old days."),
    ("P", "The mills near us closed down."),
    ("P", "Noone told me about the side effects."),
    ("P", "He was civil about it at least."),
    ("P", "Mars bars are my weakness."),
    ("P", "The bird hurt its wing."),
    ("P", "That was a bad pun."),
    ("P", "The wi-fi here is down."),
    ("P", "Lo and behold, it stopped."),
    ("P", "The bubbly made me dizzy."),
    ("P", "I asked AI about my symptoms."),
    ("P", "It's a civil service job."),
    ("D", "The major side effect is nausea."),
)

#: origin -> (given names, surnames), written as people of that origin write them; words the guards know, all
DEV21_NAMES: dict[str, tuple[list[str], list[str]]] = {
    "Korean": (["Ran", "Bit", "Nal"], ["No", "Wi"]),
    "Vietnamese": (["Thu", "Ai", "Hang", "Bay"], ["Ton", "Lo"]),
    "Chinese": (["Wing", "Sing"], ["Sit", "Pun", "Tin", "Hon"]),
    "UK": (["April", "Dot"], ["March", "Small", "Mills", "Christmas"]),
    "US": (["Tuesday", "August", "Major"], ["Goodnight", "Wednesday"]),
    "Irish": (["Dec", "Una", "Finn"], ["Early", "Noone", "Rush"]),
    "Punjabi": (["Baby", "Bubbly", "Rani"], ["Chand", "Jutla"]),
    "Haitian": (["Junior", "Handy"], ["Civil", "Mars", "Lundy"]),
    "Samoan": (["Solo", "Sole", "Pine"], ["Vale", "Lame"]),
}
