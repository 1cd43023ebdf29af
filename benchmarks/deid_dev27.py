"""A twenty-seventh development set of the by-origin de-identification benchmark (issue 50, fourteenth session):
given names and surnames that are English words the guards turn down (a word ICD-10-CM writes in a chapter of
conditions, or a word no gazetteer holds as a name), where grammar leaves room only for a person, beside the same
words used as words in the same places.

In lower case a name such as River, Bird, Field or Coral (gazetteer names that ICD-10-CM writes in lower case in a
chapter of conditions: the clinical guard blocks them) or Street, Bright, Salmon or Endurance (no gazetteer lists
them as names: no rule that reads a word's place reads them) is lost wherever nothing but the grammar says "person".
This set gives 7 origins whose people carry such names (UK, US, Jamaican, Punjabi, Nigerian, Ghanaian, Samoan: 4 or
more names each), hand-written here (not from Faker, names-dataset or the detector's lists; none of the lead's probe
names; no part of a name is any other set's: checked by ``tests/test_deid_dev27.py`` without printing them), in
**46 forms** where only a person stands: a person's verb after the bare word as the clause's subject ("{g} came with
me today", "{s} rang me last night"), "it was {g} who", tell / ask / call / ring {g} before a clause or a time,
"{g} and her husband", thanks to {g}, "I talked to {g} yesterday", "give this to {g}". **The same words as words**
(``DEV27_WORD_USES``, two a dialog, 70 sentences, in the same places where the language allows: "Summer came early
this year", "A bird came in through the window", "It was pink that I wanted", "Ask simple questions", "I talked to
street pastors"): each word replaced inside them is a false replacement, printed by ``bench_deid_origin.py --dev27``.

On main 4030b4a, before any rule of the fourteenth session (``--dev-only --dev27 --no-real``): cased 66.4 % of 348
names (US 39.6, Punjabi 40.0, Nigerian 41.2, Jamaican 78.4, Ghanaian 80.4, UK 84.3, Samoan 96.1), lower case 48.1 % of
459 (US 1.6, Nigerian 23.6, Samoan 50.0, Punjabi 55.6, UK 66.7, Jamaican 66.7, Ghanaian 70.8); words used as words:
27 of 538 sentences' words replaced (goodness 14, felicity 7, brew 6: older rules).
Same layout as ``deid_dev20.py``; ``{g}`` given name, ``{s}`` surname."""

from __future__ import annotations

DEV27_FORMS: tuple[tuple[str, str], ...] = (
    # a person's verb after the bare word, the clause's subject
    ("P", "{g} came with me today."),
    ("P", "{g} says hi to everyone at the clinic."),
    ("P", "{s} rang me last night about the results."),
    ("P", "{g} is picking me up at four."),
    ("P", "{g} told me you'd want to see me."),
    ("P", "So {g} drove me in this morning."),
    ("P", "{s} reckons I should rest more."),
    ("D", "And {g} noticed the swelling before you did?"),
    ("P", "{g} mentioned you might change the dose."),
    ("P", "Then {s} texted me to say she was outside."),
    ("P", "{g} wants me to get checked over."),
    ("P", "Only {g} knows where my tablets are."),
    # "it was X who"
    ("P", "It was {g} who called the paramedics."),
    ("P", "It was {s} who spotted the rash."),
    ("P", "Actually it was {g} who booked this appointment."),
    ("P", "It's {g} who does my shopping."),
    # tell / ask / call / ring / let X + a clause or a time
    ("D", "Tell {g} I said hello from all of us."),
    ("D", "Ask {g} about the blood test."),
    ("P", "I'll ask {s} if she can come next time."),
    ("P", "We'll call {g} later tonight."),
    ("D", "Could you phone {s} for me?"),
    ("P", "Can you tell {g} to bring my glasses?"),
    ("P", "I'll let {g} know you said so."),
    ("P", "I'll ring {s} tomorrow."),
    ("D", "Tell {s} thanks for the lift."),
    # with a person's pronoun
    ("P", "{g} and her husband drove down to see me."),
    ("P", "{s} and his wife live next door."),
    # the one addressed
    ("D", "Thank you ever so much, {g}."),
    ("D", "Cheers, {g}, see you soon."),
    ("D", "Hi {g}, come on in."),
    ("D", "{g}, could you pop up on the couch?"),
    # after to / with / from, where a person stands
    ("P", "I talked to {g} yesterday."),
    ("P", "I spoke to {s} on the phone."),
    ("D", "Can you give this to {g}?"),
    ("D", "Please hand this to {s} on your way out."),
    ("P", "I came in with {g}."),
    ("P", "I got a lift here from {g}."),
    ("P", "I was with {s} all afternoon."),
    ("P", "I was staying with {g} over the weekend."),
    ("P", "I left a message for {s}."),
    # a list, a question
    ("P", "{g} and I went to the pharmacy."),
    ("P", "Me, {g} and the kids live there."),
    ("P", "I think {g} has my forms."),
    ("D", "Did {g} tell you about the scan?"),
    ("D", "Has {s} told you the new dose?"),
    ("D", "Would {g} like to sit in with you?"),
)

#: the names' words as ordinary words, in the forms' places where English allows it: (speaker, sentence)
DEV27_WORD_USES: tuple[tuple[str, str], ...] = (
    # a bare subject or a noun phrase before a verb
    ("P", "Spring came early this year."),
    ("P", "Spring is the worst for my hay fever."),
    ("P", "The bridge came down in the storm."),
    ("P", "Glass came through the windscreen."),
    ("P", "Garden waste goes in the brown bin."),
    ("P", "Star jumps make me dizzy."),
    ("P", "Silver fillings are what I've got."),
    ("P", "Blue is my favourite colour."),
    ("P", "Sugar says a lot on the label."),
    ("P", "Sugar is my weakness, I'll admit."),
    ("P", "Lean meat is all I eat now."),
    ("P", "Salmon is good for you, they say."),
    ("P", "Pink is what they want for the bedroom."),
    ("P", "Simple is best, my mum says."),
    ("P", "The mall is where I walk in the mornings."),
    ("P", "Endurance is not my strong point."),
    ("P", "Confidence came back slowly after the fall."),
    ("P", "Smart meters save us money."),
    ("P", "Goodness knows where I put it."),
    ("P", "Perpetual motion, that's my grandson."),
    ("P", "Brew a pot of tea for me, would you?"),
    ("P", "Crystal clear, thanks."),
    ("P", "Copper bracelets do nothing for my joints."),
    ("P", "Haze over the city makes my chest tight."),
    ("P", "Lawyer fees are eating our savings."),
    ("P", "Mighty kind of you to ask."),
    ("P", "Glen walks are what keep me going."),
    ("P", "Pretty much every night, yes."),
    # "it was X that", "it's X"
    ("P", "It was pretty bad last week."),
    ("P", "It was pink that I wanted."),
    ("P", "It was salmon that made me ill."),
    ("P", "It was simple to do in the end."),
    ("P", "It's spring that I dread."),
    ("P", "It was glass that cut my foot."),
    ("P", "It was lean times after the redundancy."),
    # tell / ask / call / ring before a word
    ("P", "I can't tell blue from purple any more."),
    ("D", "Ask simple questions, the nurse said."),
    ("P", "Call garden services for me, would you?"),
    ("P", "I'll ring bridge control if it's shut."),
    ("D", "Tell smart people from lucky ones, I can't."),
    ("P", "Ask silver surfers about it, they know."),
    ("P", "Tell sugar cravings to go away, ha."),
    # after to / with / from / for
    ("P", "I talked to garden centre staff."),
    ("D", "Can you give this to glass recycling?"),
    ("P", "I came in with pink eye, I think."),
    ("P", "I got a lift from mall security."),
    ("P", "I was with smart people all day."),
    ("P", "I left a message for copper pipe fitters."),
    ("P", "I was staying with spring lambs all week on the farm."),
    ("P", "I spoke to brew pub owners about work."),
    # a list, a pronoun, a question
    ("P", "Salmon and rice for tea again."),
    ("P", "Silver and gold both suit me."),
    ("P", "Pink and white pills, those ones."),
    ("P", "Sugar and salt, I've cut both."),
    ("D", "Has spring come early for your allergies?"),
    ("D", "Did glass get in the cut?"),
    ("P", "Only sugar cravings bother me."),
    ("P", "I think simple steps help."),
    # a noun after the word, a word after thanks or a greeting
    ("P", "Mall parking is a nightmare."),
    ("P", "Endurance training has helped my heart."),
    ("P", "Star anise tea, my friend swears by it."),
    ("P", "Brew and a biscuit, lovely."),
    ("D", "Thanks, crystal clear."),
    ("P", "Cheers, pretty good actually."),
    ("P", "Coral pink is the colour of the walls."),
    ("P", "Peck at your food and you'll lose weight."),
    ("P", "A bridge of the nose fracture, they said."),
    ("P", "Felicity is a lovely word, isn't it."),
    ("P", "Confidence says a lot about a person."),
    ("P", "Blue badge parking is round the back."),
    ("P", "Bridge club is on Tuesdays."),
)

#: origin -> (given names, surnames), written as people of that origin write them; every name a word the guards block
DEV27_NAMES: dict[str, tuple[list[str], list[str]]] = {
    "UK": (["Glen"], ["Glass", "Bridge", "Garden", "Spring"]),
    "US": (["Star", "Sugar"], ["Silver", "Blue"]),
    "Jamaican": (["Mighty"], ["Salmon", "Pink", "Lean"]),
    "Punjabi": (["Simple", "Pretty", "Lovey"], ["Mall"]),
    "Nigerian": (["Endurance", "Confidence"], ["Smart", "Goodness"]),
    "Ghanaian": (["Perpetual", "Lawyer", "Felicity"], ["Brew"]),
    "Samoan": (["Crystal", "Haze"], ["Peck", "Copper"]),
}
