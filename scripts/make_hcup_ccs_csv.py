"""Write src/clinaudit/data/hcup_ccs_2015_phenotypes.csv from the MIMIC-III benchmark's YAML (provenance script).

Usage: python scripts/make_hcup_ccs_csv.py hcup_ccs_2015_definitions.yaml COMMIT > src/clinaudit/data/hcup_ccs_2015_phenotypes.csv

The YAML is mimic3benchmark/resources/hcup_ccs_2015_definitions.yaml of github.com/YerevaNN/mimic3-benchmarks
(MIT licence). Only the 25 groups with ``use_in_benchmark: True`` are written, one row per ICD-9 code, with
P4's (Hurtful Words, Table 1) shorthand for each group. A code listed under several groups keeps the last one,
as the benchmark's ``add_hcup_ccs_2015_groups`` does.
"""

import csv
import sys

import yaml

ABBREV = {
    "Acute and unspecified renal failure": "Acute Renal",
    "Acute cerebrovascular disease": "Cerebrovascular",
    "Acute myocardial infarction": "Myocardial",
    "Cardiac dysrhythmias": "Dysrhythmias",
    "Chronic kidney disease": "Chronic Kidney",
    "Chronic obstructive pulmonary disease and bronchiectasis": "COPD",
    "Complications of surgical procedures or medical care": "Comp. Surgical",
    "Conduction disorders": "Conduction",
    "Congestive heart failure; nonhypertensive": "Heart Failure",
    "Coronary atherosclerosis and other heart disease": "Atherosclerosis",
    "Diabetes mellitus with complications": "Diabetes Comp",
    "Diabetes mellitus without complication": "Diabetes No Comp",
    "Disorders of lipid metabolism": "Lipid Metabolism",
    "Essential hypertension": "Hypertension",
    "Fluid and electrolyte disorders": "Fluid Disorder",
    "Gastrointestinal hemorrhage": "GI Hemorrhage",
    "Hypertension with complications and secondary hypertension": "Hypertension Comp",
    "Other liver diseases": "Other Liver",
    "Other lower respiratory disease": "Lower Resp",
    "Other upper respiratory disease": "Upper Resp",
    "Pleurisy; pneumothorax; pulmonary collapse": "Pleurisy",
    "Pneumonia (except that caused by tuberculosis or sexually transmitted disease)": "Pneumonia",
    "Respiratory failure; insufficiency; arrest (adult)": "Resp Failure",
    "Septicemia (except in labor)": "Septicemia",
    "Shock": "Shock",
}


def main(path: str, commit: str) -> None:
    with open(path) as fh:
        defs = yaml.safe_load(fh)
    final = {}
    for group, spec in defs.items():
        for code in spec["codes"]:
            final[code] = group
    out = sys.stdout
    out.write("# HCUP CCS 2015 phenotype groups of the MIMIC-III benchmark (Harutyunyan et al., Sci Data 2019), the 25\n")
    out.write("# groups with use_in_benchmark: True, one row per ICD-9-CM code (MIMIC-III DIAGNOSES_ICD spelling, no dot).\n")
    out.write(f"# Source: https://github.com/YerevaNN/mimic3-benchmarks @ {commit},\n")
    out.write("#   mimic3benchmark/resources/hcup_ccs_2015_definitions.yaml. Licence of that repository: MIT,\n")
    out.write("#   Copyright (c) 2017 YerevaNN. The code groups are AHRQ's HCUP Clinical Classifications Software\n")
    out.write("#   (CCS) for ICD-9-CM, 2015 (https://hcup-us.ahrq.gov/toolssoftware/ccs/ccs.jsp).\n")
    out.write("# abbrev: the shorthand of Hurtful Words (Zhang et al., CHIL 2020), Table 1. Converted by\n")
    out.write("#   scripts/make_hcup_ccs_csv.py; codes are facts, the format is clinaudit's.\n")
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["ccs_id", "group", "abbrev", "type", "icd9_code"])
    for group, spec in defs.items():
        if not spec["use_in_benchmark"]:
            continue
        for code in spec["codes"]:
            if final[code] == group:
                w.writerow([spec["id"], group, ABBREV[group], spec["type"], code])


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
