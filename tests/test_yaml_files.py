"""One reader for every YAML file a user hands clinaudit (loaders.formats.read_yaml_file).

Specs, gate policies, association templates and target words, HurtfulWords sentence targets and
mock rules files all report an unreadable file the same way: one line naming the file and what is
wrong (not found, not UTF-8 with its line, not valid YAML with the parser's line and column).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from clinaudit.errors import BackendError, InputError, SpecError
from clinaudit.loaders.formats import read_yaml_file

BAD_YAML = "groups: [male, female\nslot: x\n"  # an unclosed flow sequence
NOT_UTF8 = b"name: caf\xe9\nother: 1\n"


def test_reads_a_mapping_and_drops_a_byte_order_mark(tmp_path: Path) -> None:
    p = tmp_path / "a.yaml"
    p.write_bytes("\ufeffa: 1\nb: [x, y]\n".encode())
    assert read_yaml_file(p) == {"a": 1, "b": ["x", "y"]}


def test_not_utf8_names_the_file_the_byte_and_the_line(tmp_path: Path) -> None:
    p = tmp_path / "a.yaml"
    p.write_bytes(NOT_UTF8)
    with pytest.raises(InputError) as e:
        read_yaml_file(p)
    # b"name: caf" is 9 bytes: the bad byte is at offset 9, on line 1
    assert str(e.value) == (f"file {p}: not UTF-8 text (invalid continuation byte at byte offset 9, line 1); "
                            "save the file as UTF-8")


def test_invalid_yaml_is_one_line_with_the_parsers_position(tmp_path: Path) -> None:
    p = tmp_path / "a.yaml"
    p.write_text(BAD_YAML, encoding="utf-8")
    with pytest.raises(InputError) as e:
        read_yaml_file(p)
    msg = str(e.value)
    assert msg.startswith(f"file {p}: not valid YAML: ")
    assert "\n" not in msg and "<unicode string>" not in msg
    assert "line 1, column 9" in msg  # where the flow sequence opens (PyYAML counts from 1 in its text)


def test_missing_file_and_a_folder(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="file not found"):
        read_yaml_file(tmp_path / "none.yaml")
    with pytest.raises(InputError, match="not a file"):
        read_yaml_file(tmp_path)


def _spec(p: Path) -> None:
    from clinaudit.spec import load_spec

    load_spec(p)


def _policy(p: Path) -> None:
    from clinaudit.report.gate_policy import load_policy

    load_policy(p)


def _targets(p: Path) -> None:
    from clinaudit.perturb.templates import load_targets

    load_targets(p)


def _templates(p: Path) -> None:
    from clinaudit.perturb.templates import load_templates

    load_templates(p)


def _sentence_targets(p: Path) -> None:
    from clinaudit.families.hurtful_words.sentences import load_targets_file

    load_targets_file(p)


def _mock_rules(p: Path) -> None:
    from clinaudit.models.mock import MockBackend

    MockBackend("m", rules_file=str(p))


READERS = {"spec": (_spec, SpecError), "gate policy": (_policy, InputError), "targets": (_targets, InputError),
           "templates": (_templates, InputError), "sentence targets": (_sentence_targets, InputError),
           "mock rules": (_mock_rules, BackendError)}


@pytest.mark.parametrize("what", list(READERS))
@pytest.mark.parametrize("bad", ["yaml", "utf8"])
def test_every_yaml_reader_reports_the_same_way(tmp_path: Path, what: str, bad: str) -> None:
    read, error = READERS[what]
    p = tmp_path / "in.yaml"
    if bad == "yaml":
        p.write_text(BAD_YAML, encoding="utf-8")
    else:
        p.write_bytes(NOT_UTF8)
    with pytest.raises(error) as e:
        read(p)
    msg = str(e.value)
    assert str(p) in msg and "\n" not in msg
    if bad == "yaml":
        assert "not valid YAML: " in msg and "line 1, column 9" in msg
    else:
        assert "not UTF-8 text (invalid continuation byte at byte offset 9, line 1)" in msg


def test_a_text_template_file_that_is_not_utf8_reads_like_the_yaml_files(tmp_path: Path) -> None:
    from clinaudit.perturb.templates import load_templates

    p = tmp_path / "templates.txt"
    p.write_bytes(b"[GEND] has [CVD]\n" + NOT_UTF8)
    with pytest.raises(InputError) as e:
        load_templates(p)
    # the bad byte: 17 bytes of the first line, then b"name: caf" (9): offset 26, on line 2
    assert str(e.value) == (f"file {p}: not UTF-8 text (invalid continuation byte at byte offset 26, line 2); "
                            "save the file as UTF-8")
