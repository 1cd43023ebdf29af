"""A twelfth development set of the by-origin de-identification benchmark (issue 50, ninth session): UK and Irish
names that are English words, clinical words or Irish-language names, in dialogs that give the evidence that they
are names, beside the same words used as words.

The held-out lower-case dialogs lose UK and Irish names most of the English-speaking origins (89.9, 93.9 %) and dev9
still loses names that are frequent words, clinical words, names in no gazetteer said to or asked about, a name set
off by commas after a role, and Irish names whose particle ("Ó", "Ní", "Mac", "O'") is written apart, run together
or with its apostrophe spaced the way ACI-Bench writes it ("o 'driscoll"). So this set gives the rules 12 given
names and 12 surnames of each origin of those kinds, hand-written here (not from Faker, names-dataset or the
detector's lists; no part of a name is any of ``deid_names.py``'s (either half) or another development set's:
checked by ``tests/test_deid_dev12.py`` without printing them), in **24 new forms** of how people in the UK and
Ireland talk where the dialog itself says the word is a person: said to ("{g}, can you hop up on the couch"), asked
about ("Where's {g} living now?"), a role set off by commas ("The physio, {s}, says"), "our {g}", a possessive
before a cream or an inhaler, "via {g} ... cc {s}", "Sister {s}", a person's verb after ("{g} rang the surgery").
The benchmark folds every other pair of dialogs' names, so half the Irish names come without their fadas.

**The same words as words** (``DEV12_WORD_USES``: "we may need to lance it", "a sharp pain", "bone marrow", "your
kidney function", "hit with a hurley"): two of them go into every dialog of the set (never one holding a word of a
name put into the same dialog); each word replaced inside them is a false replacement, printed by
``bench_deid_origin.py --dev12`` beside the names removed. Same layout as ``deid_dev9.py``; ``{g}`` given name,
``{s}`` surname."""

from __future__ import annotations

DEV12_FORMS: tuple[tuple[str, str], ...] = (
    ("D", "{g}, can you hop up on the couch for me?"),
    ("D", "Thanks for waiting, {g}. Come on through."),
    ("D", "Where's {g} living now, is she still nearby?"),
    ("D", "Has {g} been putting the drops in for you?"),
    ("D", "I'll send the letter via {g} in the office, cc {s} at the practice."),
    ("P", "I borrowed {g}'s cream for the rash and it made it worse."),
    ("P", "I've been using {s}'s inhaler when mine runs out."),
    ("P", "The physio, {s}, says I can start jogging again."),
    ("P", "Our district nurse, {g}, comes in on Tuesdays."),
    ("P", "Sister {s} on the night shift was lovely to me."),
    ("P", "{g} reckons it's my blood pressure."),
    ("P", "{g} rang the surgery for me when I couldn't get out of bed."),
    ("P", "{g} {s} from the allotment brought round some soup."),
    ("P", "Our {g} has the same rash on her arms."),
    ("P", "Tell {g} I was asking for her."),
    ("P", "It was {g} who found me on the kitchen floor."),
    ("P", "My other half, {g}, does all the cooking now."),
    ("P", "I'm under {s} at the hospital for my heart."),
    ("D", "Do you want {g} to come in with you for the results?"),
    ("P", "My granny, {g} {s}, had the very same thing."),
    ("P", "{s} said I should come in and get it looked at."),
    ("P", "I'm {g} {s}, I rang earlier about my bloods."),
    ("P", "My mam's friend {g} minds the kids when I'm bad."),
    ("D", "Would {g} be able to collect the prescription for you?"),
)

#: the same words as ordinary words, from how people talk in a clinic in the UK and Ireland: (speaker, sentence)
DEV12_WORD_USES: tuple[tuple[str, str], ...] = (
    ("D", "We may need to lance the abscess if it doesn't settle."),
    ("P", "I walk about two miles a day with the dog."),
    ("D", "It looks like blunt trauma to the shin."),
    ("P", "The nurse drew some blood this morning."),
    ("P", "It cost a pretty penny at the chemist."),
    ("P", "I take ginger tea for the sickness."),
    ("D", "Stick to a bland diet for a day or two."),
    ("P", "There's a small pearl of a lump under the skin."),
    ("P", "I get hay fever from the hazel trees in spring."),
    ("D", "Thank you for your patience this morning."),
    ("P", "I'm not going to sue anybody over it."),
    ("D", "Pat the skin dry after the shower, don't rub it."),
    ("P", "My head is pounding since Tuesday."),
    ("P", "I stood on a nail and my foot swelled up."),
    ("D", "The scan showed the bone is healing well."),
    ("P", "My cheek is swollen on the left side."),
    ("D", "It should heal in a week or two."),
    ("D", "We'll need a bone marrow sample."),
    ("P", "It's a sharp pain under my ribs."),
    ("P", "I get short of breath on the stairs."),
    ("P", "I've been craving sweet things lately."),
    ("P", "Bright lights make the headache worse."),
    ("P", "I go to an art class on Thursdays."),
    ("D", "Your kidney function is a little down."),
    ("P", "I fell on a rock out walking the hills."),
    ("P", "I got a belt of a hurley at training."),
    ("P", "I forgot my mac and got soaked through."),
    ("P", "I left my gym kit in the car."),
    ("P", "He's been lawless since he was a teenager."),
    ("P", "I wrote it down with a quill pen for the craic."),
    ("P", "I do odd jobs for the sexton at the church."),
    ("P", "I grow tansy and mint in the garden."),
    ("P", "We only did the swim for a lark."),
    ("P", "My joints ache more in the damp."),
    ("P", "I'd love a cup of tea after this."),
    ("D", "Any chance you could bring a urine sample?"),
    ("P", "I'll ask the chemist to split the dose."),
    ("D", "In that case we'll refer you to the clinic."),
    ("P", "I have to hand in the form at reception."),
    ("P", "They kept me on the ward overnight."),
    ("P", "I sleep with my head propped up on two pillows."),
    ("D", "Keep the foot raised when you can."),
    ("P", "I'm always cold, I wear a jumper indoors."),
    ("P", "It's a strong smell, like ammonia."),
)

#: origin -> (12 given names, 12 surnames), written as people of that origin write them ("O 'Driscoll": an O'
#: name as ACI-Bench's transcripts space an apostrophe)
DEV12_NAMES: dict[str, tuple[list[str], list[str]]] = {
    "UK": (["Lance", "Miles", "Kit", "Drew", "Penny", "Ginger", "Tansy", "Pearl", "Hazel", "Patience", "Sue", "Lark"],
           ["Head", "Foot", "Bone", "Legg", "Cheek", "Heal", "Marrow", "Blunt", "Short", "Sweet", "Bland", "Crisp"]),
    "Irish": (["Art", "Bríd", "Síle", "Ruairí", "Sadhbh", "Peadar", "Bláthnaid", "Feargal", "Máirtín", "Ríonach",
               "Nuala", "Fiachra"],
              ["Ó Murchú", "Ní Chonaill", "Mac Aodha", "O'Dowd", "O 'Driscoll", "Nic Dhonnchadha", "Hurley",
               "Sexton", "Quill", "Kidney", "Lawless", "Rock"]),
}
