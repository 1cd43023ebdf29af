"""The guard for clinical acronyms in capitals (issue 50, seventh session): a cased clinical message full of
regimens, scores, conditions and procedures as clinicians write them comes out of de-identification unchanged.
No installed word list holds them (philter-ucsf's whitelist and ICD-10-CM have a few, in lower case); any rule that
reads an all-capital word must pass this test ("my third cycle of FOLFOX" once lost its regimen to [NAME])."""

from __future__ import annotations

import re

import pytest

from clinaudit.perturb.deid import deidentify_text
from clinaudit.perturb.vocab import CLINICAL_ACRONYMS, clinical_acronym, written_acronym

MESSAGES = (
    "Patient: I'm on my third cycle of FOLFOX, and before that I had FOLFIRI and then CAPOX.",
    "Doctor: We could switch to FOLFIRINOX or XELOX, but with your ECOG of 2 I'd rather do mFOLFOX6.",
    "Doctor: For the lymphoma it was R-CHOP times six, then R-ICE and R-DHAP before the transplant.",
    "Patient: My sister had ABVD for Hodgkin's and BEACOPP later, and my dad got VRD for myeloma.",
    "Doctor: Your NYHA class is III, the BNP is up, and the echo shows HFrEF with LVH.",
    "Patient: I have COPD, CHF, CKD stage 3 and GERD, and they found OSA so I use a CPAP now.",
    "Doctor: You had a CABG in 2019, a TAVR last year, and the NSTEMI in March was treated with PCI.",
    "Doctor: Your CHA2DS2-VASc is 4 and HAS-BLED is 2, so a DOAC makes sense for the AFIB.",
    "Patient: They did an ERCP, an EGD and an EUS, and I had a PICC line for the TPN.",
    "Doctor: The MELD is 18, the INR is 1.6, and the LFTs are up; we'll check AFP and CEA too.",
    "Doctor: History of DVT, PE, TIA and a CVA, plus HTN, HLD and T2DM on an SGLT2 and a GLP1.",
    "Patient: I was in the MICU, then the CCU, and they talked about ECMO and an LVAD.",
    "Doctor: The NIHSS was 4 on arrival, the MOCA is 24 and the PHQ9 is 12.",
    "Doctor: For the NSCLC we'll stage with PET and MRI; the DCIS on the other side needs no FEC.",
    "Patient: I take an NSAID, an SSRI and a PPI, and my old doctor had me on HCTZ and an ACE inhibitor.",
    "Doctor: PCOS and PTSD in the history, ADHD in the family; the RSV and MRSA swabs were negative.",
    "Doctor: We'll get a CBC, BMP, TSH, HbA1c and a KUB, and a DEXA next month.",
    "Patient: After the TURP for my BPH I got a UTI, and then CDIFF from the antibiotics.",
    "Doctor: With the ESRD on dialysis and the DKA last winter, the SOFA and qSOFA scores matter.",
    "Doctor: Your AML is in remission after the induction; the MDS and MGUS work-up was negative, DLBCL too.",
    "Patient: The ORIF on my ankle healed, but the ACL and MCL tears need a second look at the MRI.",
    "Doctor: The SLE and RA overlap explains the ANCA; we'll add MTX, and IVIG if the CIDP gets worse.",
    "Patient: I had a LEEP, then IVF with ICSI, and now an IUD; they mentioned HRT and an OCP before.",
    "Doctor: The TTE and TEE showed HOCM, the EKG had WPW, and the EEG and EMG were normal.",
    "Doctor: We'll write DNR and DNI on the POLST, and keep you NPO until the EGD.",
)


@pytest.mark.parametrize("message", MESSAGES)
def test_a_cased_clinical_message_full_of_acronyms_stays(message):
    dialog = f"Doctor: Good morning, how have you been?\n{message}\nPatient: Okay, thank you."
    out, _ = deidentify_text(dialog)
    assert out == dialog


def test_the_messages_hold_over_a_hundred_acronyms_of_the_list():
    words = {w for m in MESSAGES for w in re.findall(r"[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*", m)
             if sum(c.isupper() for c in w) >= 2 and clinical_acronym(w)}
    assert len(words) >= 100, len(words)


def test_clinical_acronym():
    assert clinical_acronym("FOLFOX") and clinical_acronym("R-CHOP") and clinical_acronym("CHA2DS2-VASc")
    assert clinical_acronym("nstemi") and clinical_acronym("HAS-BLED")
    assert not any(clinical_acronym(w) for w in ("KIM", "PARK", "DVORAKOVA", "BEDNAR", "ANA", "GRACE", "WELLS"))
    assert len(CLINICAL_ACRONYMS) >= 300
    assert written_acronym("HFrEF") and written_acronym("FOLFOX") and written_acronym("R-CHOP")
    assert not any(written_acronym(w) for w in ("nstemi", "Copd", "ED", "IM", "Folfox"))
