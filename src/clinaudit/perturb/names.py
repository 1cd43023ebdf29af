"""Built-in first-name lists shared by de-identification and the neutralizer's residual check."""

from __future__ import annotations

__all__ = ["FIRST_NAMES", "AMBIGUOUS_NAMES"]

#: Built-in first names (lower case). Names that are also common words need a capital letter.
FIRST_NAMES: frozenset[str] = frozenset(
    """aaron adam alan albert alex alice amanda amy andrea andrew angela ann anna anne anthony ashley barbara betty
    beverly brandon brenda brian bruce bryan carl carol caroline catherine charles cheryl christina christine
    christopher cynthia daniel david deborah debra denise dennis diana diane donald donna dorothy douglas edward
    elizabeth emily emma eric ethan evelyn frances frank gary george gloria gregory hannah harold heather helen
    henry jack jacob james janet janice jason jean jeffrey jennifer jeremy jerry jessica joan john jonathan joseph
    joshua joyce judith judy julia julie justin karen katherine kathleen kathryn keith kelly kenneth kevin kimberly
    larry laura lauren lawrence linda lisa louis madison margaret maria marie marilyn martha mary matthew megan
    melissa michael michelle nancy nathan nicholas nicole noah olivia pamela patricia paul peter philip rachel
    raymond rebecca richard robert roger ronald ruth ryan samantha samuel sandra sara sarah scott sean sharon
    shirley sophia stephanie stephen steven susan teresa thomas timothy tyler victoria vincent virginia walter
    wayne william zachary""".split()
)
#: Names that are also common words ("will", "may"): the name finder treats them with extra care.
AMBIGUOUS_NAMES = frozenset("""will mark bill grace hope faith rose may june april joy dawn bob pat sue frank jack
    jean""".split())
