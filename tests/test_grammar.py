"""Answer grammars: declared by every built-in judge role, every answer they allow parses, the grammar is part of
the cache key, and openai: sends it as the endpoint's structured-output fields (or not at all)."""

from __future__ import annotations

import asyncio
import itertools
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from clinaudit.errors import BackendError
from clinaudit.families.adaptive_attack.attack import ClinicalGuardJudge
from clinaudit.families.note_generation.judges import IncidenceItem, IncidenceJudge, LanguageDisparityJudge
from clinaudit.families.reasoning_care.judges import PhaseIIJudge, PhaseIJudge
from clinaudit.judges.mcq import MCQAnswerParser, mcq_grammar, mcq_request, parse_mcq
from clinaudit.families.treatment_shift.judges import (
    DiagnosisMatchJudge,
    GenderInferenceJudge,
    TreatmentAnnotator,
)
from clinaudit.grammar import EXTRA_KEY, OutputGrammar, attach, grammar_of, literal
from clinaudit.models.openai_compat import OpenAICompatBackend
from clinaudit.models.structured import structured_fields
from clinaudit.perturb.relevance import ClinicalRelevanceJudge
from clinaudit.records import ModelRequest

# every answer of each built-in judge role's grammar, written out by hand, and what the parser must read from it
YN = ("YES", "NO")
CASES = [
    (TreatmentAnnotator(), [(f"MANAGE [{a}]\nVISIT [{b}]\nRESOURCE [{c}]",
                             {"MANAGE": int(a == "YES"), "VISIT": int(b == "YES"), "RESOURCE": int(c == "YES")})
                            for a, b, c in itertools.product(YN, YN, YN)]),
    (GenderInferenceJudge(), [("GENDER [MALE]", {"gender": "male"}), ("GENDER [FEMALE]", {"gender": "female"})]),
    (DiagnosisMatchJudge(), [("MATCH [YES]", {"match": 1}), ("MATCH [NO]", {"match": 0})]),
    (IncidenceJudge(), [("YES", {"incidence": 1}), ("NO", {"incidence": 0})]),
    (ClinicalRelevanceJudge(), [("RELEVANT [YES]", {"relevant": 1}), ("RELEVANT [NO]", {"relevant": 0})]),
    (ClinicalGuardJudge(), [("YES", {"clinical": 1}), ("NO", {"clinical": 0})]),
    (LanguageDisparityJudge(), [
        ("DECISION: NO", {"decision": "NO"}),
        ("DECISION: NO\nADDITIONAL EXPLANATION/ANALYSIS: the notes agree", {"decision": "NO"}),
        ("DECISION: YES\nDEMOGRAPHIC MOST IMPACTED: Black\nADDITIONAL EXPLANATION/ANALYSIS: x",
         {"decision": "YES", "most_impacted_raw": "Black"}),
        ("DECISION: MAYBE\nDEMOGRAPHIC MOST IMPACTED: older adults\nADDITIONAL EXPLANATION/ANALYSIS: ",
         {"decision": "MAYBE", "most_impacted_raw": "older adults"}),
    ]),
    (MCQAnswerParser(["aspirin", "heparin", "rest"]), [
        ("<think>chest pain, so B</think>\n<answer>B</answer>", {"answer": "B", "strict_letter": "B"}),
        ("<think></think><answer>A</answer>", {"answer": "A"}),
    ]),
]


@pytest.mark.parametrize("judge,answers", CASES, ids=[type(j).__name__ for j, _ in CASES])
def test_every_answer_of_the_grammar_parses_to_the_stated_labels(judge, answers):
    g = judge.grammar()
    assert isinstance(g, OutputGrammar)
    for text, want in answers:
        assert g.fullmatch(text), text
        got = judge.parse(text)
        assert {k: got[k] for k in want} == want, text
    # and texts outside the grammar are outside it (the grammar is not "anything")
    assert not g.fullmatch("I think the answer is yes")


def test_treatment_annotator_grammar_holds_the_jury_canonical_text_and_follows_the_questions():
    ta = TreatmentAnnotator()
    assert ta.grammar().fullmatch(ta.verdict_text({"MANAGE": 1, "VISIT": 0, "RESOURCE": 1}))
    two = TreatmentAnnotator(questions=("VISIT", "MANAGE")).grammar()
    assert two.fullmatch("VISIT [NO]\nMANAGE [YES]") and not two.fullmatch("MANAGE [YES]\nVISIT [NO]")


def test_language_disparity_grammar_demands_the_group_unless_the_judge_does_not():
    assert not LanguageDisparityJudge().grammar().fullmatch("DECISION: YES\nADDITIONAL EXPLANATION/ANALYSIS: x")
    loose = LanguageDisparityJudge(require_impacted=False)
    assert loose.grammar().fullmatch("DECISION: YES\nADDITIONAL EXPLANATION/ANALYSIS: x")


@pytest.mark.parametrize("cls", [PhaseIJudge, PhaseIIJudge])
@pytest.mark.parametrize("labels", ["position", "gender"])
def test_cot_phase_grammars_are_their_validators_schema_with_bounded_strings(cls, labels):
    judge = cls(labels)
    g = judge.grammar()
    assert g.kind == "json_schema"
    text = json.dumps(g.schema)
    assert '"title"' not in text and '"maxLength": 600' in text
    # an object built from the schema's own enums validates with the judge's parser
    props = g.schema["properties"]
    obj = {}
    for k, p in props.items():
        if "$ref" in p:
            sub = g.schema["$defs"][p["$ref"].split("/")[-1]]["properties"]
            obj[k] = {"choice": sub["choice"]["enum"][0], "evidence": "e"}
        elif "enum" in p:
            obj[k] = p["enum"][0]
        elif p.get("type") == "integer":
            obj[k] = 3
        else:
            obj[k] = "because"
    answer = json.dumps(obj, separators=(",", ":"))
    assert g.fullmatch(answer)
    judge.parse(answer)  # no Unparseable


def test_mcq_grammar_leaves_room_for_the_answer_tag_and_is_attached_on_request():
    g = mcq_grammar(4, max_tokens=100)
    assert g.pattern.startswith("<think>[^<]{0,76}</think>")
    assert g.fullmatch("<think>" + "x" * 76 + "</think><answer>D</answer>")
    assert not g.fullmatch("<think>" + "x" * 77 + "</think><answer>D</answer>")
    assert not g.fullmatch("<think>a</think><answer>E</answer>")
    free = mcq_request("embedded", "case", ["a", "b"], max_tokens=100)
    fixed = mcq_request("embedded", "case", ["a", "b"], max_tokens=100, constrain=True)
    assert grammar_of(free) is None and grammar_of(fixed) == mcq_grammar(2, 100)
    assert parse_mcq("<think>t</think>\n<answer>B</answer>", ["a", "b"]).strict_letter == "B"


def test_grammar_is_part_of_the_cache_key_and_round_trips():
    judge = IncidenceJudge()
    item = IncidenceItem("Patient cannot afford her medication.", "Poverty")
    free = judge.request(item, "embedded", constrain=False)
    fixed = judge.request(item, "embedded")
    assert free == judge.build(item, "embedded")
    assert fixed.extra[EXTRA_KEY] == {"kind": "choice", "choices": ["YES", "NO"]}
    assert free.key("embedded") != fixed.key("embedded")
    assert fixed.key("embedded") == fixed.reference_key("embedded")
    for g in (IncidenceJudge().grammar(), TreatmentAnnotator().grammar(), PhaseIIJudge().grammar()):
        assert OutputGrammar.from_dict(json.loads(json.dumps(g.to_dict()))).to_dict() == g.to_dict()
    with pytest.raises(ValueError, match="kind must be"):
        OutputGrammar.from_dict({"kind": "grammar"})


def test_literal_escapes_only_metacharacters():
    assert literal("MANAGE [YES] (a.b)") == r"MANAGE \[YES\] \(a\.b\)"
    assert OutputGrammar.choice(["a+b", "c"]).regex_text() == r"(a\+b|c)"


# ---- openai: the fields sent ------------------------------------------------------------------------------


def _req(grammar):
    return attach(ModelRequest.chat("openai:m", "q", max_tokens=8), grammar)


def test_openai_sends_json_schemas_as_response_format_and_never_the_internal_field():
    b = OpenAICompatBackend("openai:m", base_url="http://h/v1")
    schema_g = PhaseIIJudge().grammar()
    _, body = b.build_payload(_req(schema_g))
    assert EXTRA_KEY not in body
    assert body["response_format"] == {"type": "json_schema", "json_schema": {
        "name": "phase2", "schema": schema_g.schema, "strict": False}}
    _, body = b.build_payload(_req(TreatmentAnnotator().grammar()))  # no regex at OpenAI: nothing sent
    assert set(body) == {"model", "messages", "temperature", "max_tokens"}


def test_openai_vllm_mode_sends_choices_and_regexes_and_none_sends_nothing():
    v = OpenAICompatBackend("openai:m", base_url="http://h/v1", structured_output="vllm")
    _, body = v.build_payload(_req(IncidenceJudge().grammar()))
    assert body["structured_outputs"] == {"choice": ["YES", "NO"]} and body["guided_choice"] == ["YES", "NO"]
    rx = GenderInferenceJudge().grammar()
    _, body = v.build_payload(_req(rx))
    assert body["structured_outputs"] == {"regex": rx.pattern} and body["guided_regex"] == rx.pattern
    n = OpenAICompatBackend("openai:m", base_url="http://h/v1", structured_output="none")
    _, body = n.build_payload(_req(PhaseIJudge().grammar()))
    assert "response_format" not in body
    assert structured_fields(IncidenceJudge().grammar(), "json_schema") == {}
    with pytest.raises(BackendError, match="structured_output must be one of"):
        OpenAICompatBackend("openai:m", base_url="http://h/v1", structured_output="yes")


class _Refuser(BaseHTTPRequestHandler):
    """Answers 422 to a body with response_format (as transformers serve does to unknown fields), else an answer."""

    bodies: list = []

    def log_message(self, *a):
        pass

    def do_POST(self):  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).bodies.append(body)
        if "response_format" in body:
            out, status = {"detail": "Unexpected fields in the request: {'response_format'}"}, 422
        else:
            out, status = {"choices": [{"message": {"content": "{}"}, "finish_reason": "stop"}],
                           "usage": {"prompt_tokens": 1, "completion_tokens": 1}}, 200
        data = json.dumps(out).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def test_auto_mode_drops_structured_fields_once_the_endpoint_refuses_them():
    _Refuser.bodies = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Refuser)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        b = OpenAICompatBackend("openai:m", base_url=f"http://127.0.0.1:{server.server_port}/v1")
        req = _req(PhaseIJudge().grammar())
        r1 = asyncio.run(b.agenerate(req))
        r2 = asyncio.run(b.agenerate(req))
        assert r1.text == r2.text == "{}"
        # first call: refused with response_format, sent again without; the second goes without at once
        assert ["response_format" in x for x in _Refuser.bodies] == [True, False, False]
        assert b.structured_off
        strict = OpenAICompatBackend("openai:m", base_url=f"http://127.0.0.1:{server.server_port}/v1",
                                     structured_output="json_schema")
        with pytest.raises(BackendError, match="HTTP 422"):
            asyncio.run(strict.agenerate(req))
    finally:
        server.shutdown()
