"""A twentieth development set of the by-origin de-identification benchmark (issue 50, twelfth session): given names
and surnames that are everyday English words (most above ``vocab.WORD_NAME_ZIPF``, 4.5), where grammar leaves room
only for a person, beside the same words used as words in the same places.

In lower case the rules that read a bare word as a person (``name_bare_person``, ``name_clause_subject``,
``name_bare_object``) stop at Zipf 4.5 so as not to take "may", "will", "hope" as names; a person called Journey,
Promise, Church or Judge is then lost wherever nothing but the grammar says "person". This set gives 8 origins whose
people carry such names (UK, US, Irish, Haitian, Punjabi, Korean, Nigerian, Ghanaian: 4 or more names each),
hand-written here (not from Faker, names-dataset or the detector's lists; none of the lead's probe names; no part of a
name is any other set's: checked by ``tests/test_deid_dev20.py`` without printing them), in **46 forms** of those
places: a person's verb after the bare word as the clause's subject ("{g} told me to come in", "{g} drove me here"),
"it was {g} who", the one addressed at a turn's end or start ("Thanks for that, {g}.", "{g}, can you hop up"),
"tell / ask / call {g}" before a clause, a relative in apposition ("My niece, {g}, comes in"), the word with a
person's pronoun ("{g} and her husband"). **The same words as words** (``DEV20_WORD_USES``, two a dialog, 64
sentences, in the same places where the language allows: "Steel rusts if you leave it", "It was gold that gave me
the rash", "Thank you, that's perfect.", "I can't tell north from south", "Charity begins at home", "bin the old
tablets"): each word replaced inside them is a false replacement, printed by ``bench_deid_origin.py --dev20``.

Not every origin has four such names of Zipf 4.5 or more that no other set holds: Korean's (Bin 4.22, Sin 4.37),
Haitian's surname (Victor 4.18), Irish "Honour" (4.37), Nigerian "Praise", "Courage" (4.31, 4.32) and Ghanaian
"Charity" (4.45) are lower; the rest are 4.5 to 5.4.

On main f61e529, before any rule of the twelfth session (``--dev-only --dev20 --no-real``): cased 96.1 % of
408 names (every origin 96.1: "{g}, just take a deep breath in" loses all 8), lower case 48.4 % of 611 (UK 28.2, US
34.6, Punjabi 37.2, Haitian 43.6, Irish 51.3, Ghanaian 52.3, Nigerian 62.8, Korean 78.2); words used as words: 40 of
648 sentences' words replaced (lord 9, judge 8, courage 7, praise 7, charity 7, bin 1, steel 1).
Same layout as ``deid_dev15.py``; ``{g}`` given name, ``{s}`` surname."""

from __future__ import annotations

DEV20_FORMS: tuple[tuple[str, str], ...] = (
    # a person's verb after the bare word, the clause's subject
    ("P", "{g} says hello, by the way."),
    ("P", "{g} told me to come in about it."),
    ("P", "{g} drove me here this morning."),
    ("P", "Then {g} rang the surgery for me."),
    ("D", "And {g} thinks it started last week?"),
    ("P", "{s} reckons it's my blood pressure."),
    ("P", "{g} wants me to get a second opinion."),
    ("P", "{g} said she'd pick up the prescription."),
    ("P", "{g} says he can take me on Tuesday."),
    ("D", "Has {g} told you about the new dose?"),
    ("P", "Did {g} tell you about my fall?"),
    # "it was X who"
    ("P", "It was {g} who noticed the lump first."),
    ("P", "It was {s} who found me on the floor."),
    ("P", "Actually it's {g} who does my tablets now."),
    # the one addressed, at a turn's end or start
    ("D", "Thanks for that, {g}."),
    ("D", "{g}, could you slip your shoes off for me?"),
    ("D", "Come on through, {g}."),
    ("D", "Lovely to meet you, {g}."),
    ("P", "Morning, {g}, sorry I'm late."),
    ("D", "{g}, just take a deep breath in for me."),
    ("D", "Right then, {g}, any questions?"),
    ("P", "Bye, {g}, see you Thursday."),
    ("D", "Hi {g}, what brings you in today?"),
    # tell / ask / call / let X + a clause
    ("D", "Tell {g} to bring your inhalers next time."),
    ("P", "I'll ask {g} if she can drive me."),
    ("P", "Can you call {g} and let her know?"),
    ("D", "Ask {s} to ring us when the results are in."),
    ("P", "I told {g} I'd be back by four."),
    ("P", "I asked {s} whether it could wait."),
    ("P", "Could you phone {g} for me after?"),
    ("P", "Let {g} know I'm okay, would you?"),
    # a relative or a carer in apposition
    ("P", "My niece, {g}, comes in twice a week."),
    ("P", "My neighbour, {g}, found me on the stairs."),
    ("P", "My son-in-law, {g} {s}, is the one who drives me."),
    ("P", "Her carer, {g}, gives me my insulin."),
    # with a person's pronoun
    ("P", "{g} and her husband brought me in."),
    ("P", "{g} and his wife are looking after the dog."),
    ("P", "{s} and her daughter live next door."),
    ("P", "I was talking to {g} and she thinks it's stress."),
    # others where only a person stands
    ("P", "Me and {g} went to the walk-in first."),
    ("D", "Would {g} like to come in with you?"),
    ("P", "{s} from next door keeps an eye on me."),
    ("P", "{g} {s} is my next of kin."),
    ("P", "Mrs {s} from the pharmacy sorted it out."),
    ("P", "Only {g} knows where I keep the spare key."),
    ("D", "Is {g} still helping with the shopping?"),
)

#: the names' words as ordinary words, in the forms' places where English allows it: (speaker, sentence)
DEV20_WORD_USES: tuple[tuple[str, str], ...] = (
    # a bare subject before a verb
    ("P", "Steel rusts if you leave it out in the rain."),
    ("P", "Gold never gives me a rash, only cheap metal."),
    ("P", "Courage helps, but the pain is still there."),
    ("P", "Praise goes a long way with my son."),
    ("P", "Charity begins at home, my mum says."),
    ("P", "Church helps me cope, to be honest."),
    ("P", "Beauty sleep is what I need."),
    ("P", "Victory tasted sweet after that week."),
    ("P", "Sin is a strong word for a biscuit."),
    ("P", "Close calls like that scare me."),
    ("P", "Gold costs a fortune these days."),
    # "it was X that / who"
    ("P", "It was steel that cut my hand at work."),
    ("P", "It was gold that gave me the rash, not silver."),
    ("P", "It was courage that got me through it."),
    ("P", "It was north of the river where I fell."),
    ("P", "It was close, the nurse said."),
    ("P", "It was perfect timing really."),
    ("P", "It was a promise I made to my wife."),
    # at a turn's end or start, said
    ("P", "Thank you, that's perfect."),
    ("P", "Okay, thank you, that's a promise."),
    ("P", "Lovely, perfect, thanks."),
    ("D", "Okay, close the door behind you."),
    ("P", "Thanks, that's golden."),
    ("P", "Perfect, see you then."),
    ("P", "Lord, what a week it's been."),
    ("P", "Close, but not quite."),
    ("P", "Honour bright, I took every one."),
    # tell / ask / call / let + the word
    ("P", "I can't tell north from south anymore."),
    ("P", "We call it the golden hour at home."),
    ("P", "Call it a dream, but I felt better."),
    ("P", "I call bin day my exercise."),
    ("P", "I can tell gold from brass by the weight."),
    ("P", "Ask for a guest pass at the front desk."),
    ("P", "Let bond markets worry about themselves."),
    ("P", "Ask steel workers about their lungs."),
    # verbs and other uses
    ("P", "I promise I'll come back if it's worse."),
    ("D", "Judge for yourself how much it hurts."),
    ("P", "I'd judge it a five out of ten."),
    ("D", "Don the gloves first, please."),
    ("P", "I can't close my hand properly."),
    ("P", "I'll bin the old tablets then."),
    ("P", "We had to ban sugar in the house."),
    ("P", "I nick my skin every time I shave."),
    ("P", "We got there in the nick of time."),
    ("P", "I'd jack it in if I could afford it."),
    ("D", "Jack the bed up a bit, would you?"),
    ("P", "My head bobs when I'm tired."),
    ("P", "I bob my head to music, that's all."),
    ("P", "The guest room is downstairs now."),
    ("P", "The journey here took an hour."),
    ("P", "I swim in the ocean every summer."),
    ("P", "I dream about falling a lot."),
    ("P", "I wonder if it's the new tablets."),
    ("D", "Your case is fairly unique, to be fair."),
    ("P", "The victor gets the last biscuit."),
    ("P", "I have golden syrup in my porridge."),
    ("P", "The Lord knows why it started."),
    ("P", "My grandson thinks I'm a hero."),
    ("P", "It's a sin to waste good food."),
    ("P", "Praise be, the swelling's gone down."),
    ("P", "I buy my coats at the charity shop."),
    ("P", "I got a grant for the stair lift."),
    ("P", "Grant me this, it's been a hard year."),
    ("P", "I did a victory lap round the kitchen."),
    ("P", "I tried to bond with the new puppy."),
    ("P", "The tom cat next door keeps me awake."),
    ("P", "We had to ford the stream on the walk."),
    ("P", "It was an honour to care for him."),
    ("P", "My black belt is first dan, believe it or not."),
    ("P", "Perfect is the enemy of good, they say."),
)

#: origin -> (given names, surnames), written as people of that origin write them; English words all
DEV20_NAMES: dict[str, tuple[list[str], list[str]]] = {
    "UK": (["Nick", "Tom"], ["Church", "Guest", "North"]),
    "US": (["Journey", "Ocean", "Dream"], ["Steel", "Gold", "Bond"]),
    "Irish": (["Don", "Honour"], ["Ford", "Close"]),
    "Haitian": (["Wonder", "Beauty", "Unique"], ["Victor"]),
    "Punjabi": (["Golden", "Lord", "Hero"], ["Judge"]),
    "Korean": (["Bin", "Dan"], ["Ban", "Sin"]),
    "Nigerian": (["Promise", "Praise", "Courage"], ["Jack", "Bob"]),
    "Ghanaian": (["Perfect", "Victory", "Charity"], ["Grant", "Sam"]),
}
