"""A sixteenth development set of the by-origin de-identification benchmark (issue 50, eleventh session): a person
after an article or a determiner, in lower case, beside things in the same places.

Cased text removes "Kowalczyk" in "the Kowalczyks came over" because of its capital; lower case keeps the word after
an article or a determiner, where a word reads as a thing, a brand or a place ("the walgreens", "a honda", "the
keppra"). These forms, written from how people talk in a clinic (not from the rules; none of them in another set),
put a person after every shape of determiner: the plural ("the {s}s", "the {s}es", "the {s}s'"), the possessive
("the {s}'s dog"), a predicate ("she's a {s} by marriage", "he was a {s} before"), a family's way, thing, side,
kids, boy or twins, "the {g} i know", "a {g} called", "that {s} woman", "some {s} from the insurance", "the other
{g}", "our {g}", "every {s} in the family", "one of the {s} kids", "two {g}s in the family", "this", "those",
"another", "which", "the same", "no", an adjective between. The names are the second development set's
(``deid_dev2.DEV2_NAMES``, 52 origins), every form put in for every origin (``repeat``). Beside them
(``DEV16_WORD_USES``, two a dialog, as dev15's) sentences put *things* in the same shapes: brands, shops, cars,
drugs, devices, places, foods and institutions ("the walgreens on main", "we bought a honda", "the keppra made me
dizzy", "a costco thing", "the fitbit says", "the kroger's parking lot", "the tylenols", "the mayo clinic"); a word
replaced inside them is a false replacement. A plural or possessive name left ("the kowalczyks") counts as left
(``DevSet.plurals``: the benchmark reads a name with "s"/"es" after it as the name, in this set only).

On main ca26486, before any rule (``--dev-only --dev16 --no-real``; 46 forms, each put in about three times per
origin and style): cased 94.7 % of 2,652 names (lowest Korean 76.5, US 78.4, Danish 84.3; "at the {s}es' place" lost
by every origin), lower case 49.2 % of 3,744 (lowest US 20.8, Dutch 34.7, Korean 38.9, highest Italian 75.0; 9 forms
lose a name of all 52 origins and 21 of 42-51: the plurals, the possessive after an article, the predicate "she's a
{s} by marriage", "the {s} way", "the {g} thing", "some {s} from the insurance", "the {s} boy", "a {g} from my book
club"); words used as words: 364 of 4,264 sentences had a word replaced (fitbit 104, subaru 104, lexus 104, cigna
52: older rules', a person's verb or noun after the thing: "the fitbit says", "our subaru has", "that cigna plan").
Of the 69 brand, shop, drug and place words of ``DEV16_WORD_USES``, 27 are gazetteer names (16 of them no word of
the lists: honda, kroger, toyota, subaru, lexus, humana, ikea, hilton, marriott, aetna, macy, wendy, guinness,
heineken, cigna, cleveland).
Same layout as ``deid_dev13.py``; ``{g}`` given name, ``{s}`` surname."""

from __future__ import annotations

#: how many times each form is put in (per origin, about)
DEV16_REPEAT = 1

DEV16_FORMS: tuple[tuple[str, str], ...] = (
    # the plural, a family
    ("P", "The {s}s came over on Sunday with soup."),
    ("P", "I'm staying with the {s}s till I'm back on my feet."),
    ("P", "We had dinner at the {s}es' place and I felt sick after."),
    ("P", "The {s}s' dog knocked me over in the yard."),
    ("P", "The {s}s next door drive me to my appointments."),
    ("P", "Those {s}s never call me back about the car."),
    ("P", "We're all {s}s on my dad's side, all bad backs."),
    ("P", "Is it the {s}s' turn to drive me on Friday?"),
    ("P", "The {s}s' son is a nurse, he checks my sugar."),
    # the possessive after an article
    ("P", "The {s}'s dog bit me on the ankle."),
    ("P", "I slipped on the {s}'s driveway in the ice."),
    ("D", "Was that at the {s}'s party, where you fell?"),
    # a predicate: a family's name one carries
    ("P", "She's a {s} by marriage, so she doesn't have the gene."),
    ("P", "He was a {s} before he changed it."),
    ("P", "My mom was a {s} before she got married."),
    ("P", "My cousin married a {s} from two towns over."),
    ("P", "A {s} always pays back, my dad used to say."),
    # the family's way, thing, side, kids, boy, twins
    ("P", "It's the {s} way, we just don't complain."),
    ("P", "The {g} thing happened again last night."),
    ("P", "Bad knees are a {s} thing, my dad had them too."),
    ("P", "The {s} family all have high blood pressure."),
    ("P", "The {s} kids gave me the flu."),
    ("P", "The {s} boy mows my lawn now that I can't."),
    ("P", "The {s} twins were born early too."),
    ("P", "It runs on the {s} side, the sugar."),
    ("P", "I sat with the {s} girl in the waiting room."),
    ("P", "The {s} lady upstairs checks on me every day."),
    ("P", "Her {s} cousins all have asthma."),
    ("P", "One of the {s} kids brought me in today."),
    ("P", "Every {s} in the family has bad eyes."),
    # one person of a name
    ("P", "The {g} I know from church had the same surgery."),
    ("P", "A {g} called from your office yesterday."),
    ("P", "That {s} woman at the front desk was very kind."),
    ("P", "Some {s} from the insurance keeps calling me."),
    ("P", "The other {g} at my work had it too."),
    ("P", "Our {g} is the one who drives me now."),
    ("P", "There are two {g}s in the family, so they use my middle name."),
    ("P", "This {g} from billing left me a voicemail."),
    ("P", "Another {g} in my group has the same pain."),
    ("D", "Which {g} is that, your neighbour?"),
    ("P", "The same {g} who did my bloods last time."),
    ("P", "No {s} has ever had diabetes, that I know of."),
    ("P", "The young {g} who took my blood was great."),
    ("P", "The {g} from my book club sent me to you."),
    ("D", "Is that the {s} who referred you?"),
    ("P", "Some {g} from the office phoned about my results."),
)

#: things in the forms' shapes, after an article or a determiner: (speaker, sentence)
DEV16_WORD_USES: tuple[tuple[str, str], ...] = (
    ("P", "The walgreens on main didn't have it in stock."),
    ("P", "We bought a honda last year, it's easier to get into."),
    ("P", "The keppra made me dizzy the first week."),
    ("P", "It's a costco thing, the big bottle of vitamins."),
    ("P", "The fitbit says I only sleep five hours."),
    ("P", "I fell in the kroger's parking lot."),
    ("P", "The tylenols don't touch the pain anymore."),
    ("P", "They sent my scans to the mayo clinic."),
    ("P", "The advils are in my purse if I need them."),
    ("P", "The toyota's brakes went and I hit the wheel."),
    ("P", "It's the ozempic, I can't eat much."),
    ("P", "The xarelto thing worries me with the bruising."),
    ("P", "Some advil from the drawer, that's all I took."),
    ("P", "That zoloft made me feel flat."),
    ("P", "Our subaru has heated seats, it helps my back."),
    ("P", "Every walmart in town was out of test strips."),
    ("P", "One of the cvs pharmacists told me to come in."),
    ("P", "I took two motrins and a nap."),
    ("P", "The other lexus was too low for my hip."),
    ("P", "The humana people keep sending me letters."),
    ("P", "It's the eliquis side, the bleeding gums."),
    ("P", "The dexcom beeps all night."),
    ("P", "A dexcom would save me the finger sticks."),
    ("P", "The ikea chair is killing my back."),
    ("P", "The gatorade helped with the cramps."),
    ("P", "The same nyquil I always take, the green one."),
    ("P", "No tums in the house, so I just suffered."),
    ("P", "The peloton's been gathering dust since my knee."),
    ("P", "The starbucks by my work does a decaf."),
    ("P", "My son bought a tesla and I can't get out of it."),
    ("P", "The jardiance makes me pee all day."),
    ("P", "I got the lipitor at the costco for cheaper."),
    ("P", "The medicaid people said it's not covered."),
    ("P", "It's the kaiser way, you wait three months."),
    ("P", "That benadryl knocks me out."),
    ("P", "The mucinex loosened it up a bit."),
    ("P", "Those claritins don't do much for me."),
    ("P", "The zyrtec family of pills, they all make me sleepy."),
    ("P", "Another epipen, the old one expired."),
    ("P", "Which flonase is it, the one over the counter?"),
    ("P", "The publix on the corner does flu shots."),
    ("P", "The chevy's seat belt rubs on my scar."),
    ("P", "I had a snickers and my sugar went up."),
    ("P", "The cheerios are the only thing I can keep down."),
    ("P", "Our garmin says my heart rate was high."),
    ("P", "The uber driver helped me in."),
    ("P", "A lyft costs less than the parking here."),
    ("P", "The amtrak ride made my ankles swell."),
    ("P", "The hilton bed was too soft for my back."),
    ("P", "We stayed at the marriott near the hospital."),
    ("P", "The medtronic pump was recalled, they said."),
    ("P", "The omnipod falls off when I sweat."),
    ("P", "The aetna card is in my wallet."),
    ("P", "Some lasix from my old prescription, I took one."),
    ("P", "The prilosec stopped working after a month."),
    ("P", "The miralax was the only thing that helped."),
    ("P", "A ford truck rear-ended me at the light."),
    ("P", "The dell laptop gets hot on my legs."),
    ("P", "The target pharmacy has my refills."),
    ("P", "The kohl's bag was too heavy to carry."),
    ("P", "The macy's sale had me on my feet all day."),
    ("P", "The wendy's fries set off my heartburn."),
    ("P", "The guinness is my one drink a week."),
    ("P", "The heineken at the party didn't help."),
    ("P", "A jordan almond cracked my tooth."),
    ("P", "The nike shoes gave me a blister."),
    ("P", "The resmed mask leaks at night."),
    ("P", "The philips machine was recalled too."),
    ("P", "That cigna plan doesn't cover the brace."),
    ("P", "The cleveland clinic has a long wait."),
)
