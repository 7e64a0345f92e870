"""The one JSON reading layer (scoring/jsonread.py): any bytes give a value or a clean JsonError."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scoring.errors import InputError
from scoring.jsonread import (
    MAX_DEPTH,
    QUOTE_CHARS,
    JsonError,
    dumps,
    json_type,
    parse,
    parse_hands,
    parse_object,
    quote,
    read_bytes,
    show_path,
)

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(), children, max_size=4),
    max_leaves=12,
)
OBJECTS = st.dictionaries(st.text(), JSON_VALUES, max_size=4)
# Text that JSON handles in odd ways: line and paragraph separators, NEL, the file separators
# str.splitlines() splits on, brackets, quotes and backslashes.
AWKWARD = st.text(alphabet=st.sampled_from('\u2028\u2029\x85\x1c\x1d\x1e\x0b\x0c\r\t "\\[]{}:,0aé'))


def _one_json_value(text: str) -> bool:
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return False
    return True


@given(st.binary(max_size=400))
@settings(max_examples=300)
def test_any_bytes_give_a_value_or_a_clean_error(data: bytes) -> None:
    for reader in (parse, parse_object, parse_hands):
        try:
            reader(data)
        except JsonError as error:
            assert "\n" not in str(error)


@given(st.one_of(AWKWARD, st.text(max_size=200)))
@settings(max_examples=300)
def test_any_text_gives_a_value_or_a_clean_error(text: str) -> None:
    for reader in (parse, parse_hands):
        try:
            reader(text)
        except JsonError as error:
            assert "\n" not in str(error)


@given(JSON_VALUES)
def test_every_json_value_reads_back(value: Any) -> None:
    assume(_depth(value) <= MAX_DEPTH)
    assert parse(json.dumps(value, ensure_ascii=False).encode()) == value


def _depth(value: Any) -> int:
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    return 0


BAD_LINES = st.one_of(
    st.just('{"seat_wind": "E", oops}'),
    st.just("[1, 2]"),
    st.just('{"a": 1} trailing'),
    st.just("[" * 2000 + "]" * 2000),
    st.just('{"n": ' + "9" * 5000 + "}"),
    AWKWARD.map(lambda text: "{" + text),
)


LINES = st.one_of(OBJECTS.map(lambda o: ("good", o)), BAD_LINES.map(lambda t: ("bad", t)))


@given(st.lists(LINES, min_size=2))
@settings(max_examples=200)
def test_json_lines_n_lines_in_give_n_records_in_order(lines: list[tuple[str, Any]]) -> None:
    texts = [json.dumps(item, ensure_ascii=False) if kind == "good" else item for kind, item in lines]
    texts = [text for text in texts if "\n" not in text]
    assume(len(texts) >= 2 and all(text.strip(" \t\r") for text in texts))
    assume(2 * sum(text.startswith("{") and text.endswith("}") for text in texts) >= len(texts))
    document = "\n".join(texts) + "\n"
    assume(not _one_json_value(document))
    hands = parse_hands(document.encode())
    assert not hands.single
    assert [record.number for record in hands.records] == list(range(1, len(texts) + 1))
    for (kind, item), text, record in zip(lines, texts, hands.records, strict=False):
        if kind == "good":
            assert record.error is None and record.value == item, text
        elif record.error is not None:
            assert "\n" not in record.error


def test_malformed_first_line_costs_only_itself() -> None:
    good = json.dumps({"seat_wind": "E"})
    for first in ('{"seat_wind": "E", oops}', '{"a": 1} trailing', "[1, 2]", "[" * 1000 + "]" * 1000):
        hands = parse_hands("\n".join([first, good, good]))
        assert [r.value for r in hands.records[1:]] == [{"seat_wind": "E"}] * 2
        assert len(hands.records) == 3
        assert hands.records[0].error is not None or hands.records[0].value == [1, 2]


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85", "\x1c", "\x0b", "\x0c"])
def test_a_separator_inside_a_string_does_not_split_the_record(separator: str) -> None:
    lines = [json.dumps({"note": f"a{separator}b"}, ensure_ascii=False), json.dumps({"n": 2})]
    hands = parse_hands("\n".join(lines))
    assert [r.value for r in hands.records] == [{"note": f"a{separator}b"}, {"n": 2}]


def test_one_object_an_array_and_crlf_lines() -> None:
    assert parse_hands('{"a": 1}').single
    array = parse_hands('[{"a": 1}, 2]')
    assert not array.single and [r.value for r in array.records] == [{"a": 1}, 2]
    crlf = parse_hands('{"a": 1}\r\n\r\n{"a": 2}\r\n')
    assert [r.value for r in crlf.records] == [{"a": 1}, {"a": 2}]


def test_a_broken_pretty_document_is_one_error() -> None:
    pretty = json.dumps({"seat_wind": "E", "melds": [{"tiles": "111z"}]}, indent=2).replace(",", "", 1)
    with pytest.raises(JsonError, match="bad JSON"):
        parse_hands(pretty)


@pytest.mark.parametrize("depth", [1, MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1, 1000, 100_000])
def test_depth_limit(depth: int) -> None:
    text = "[" * depth + "]" * depth
    if depth <= MAX_DEPTH:
        assert _depth(parse(text)) == depth
    else:
        with pytest.raises(JsonError, match="nested deeper"):
            parse(text)


def test_brackets_inside_strings_are_no_nesting() -> None:
    text = json.dumps(["[" * 100, {"k{": "]" * 100}])
    assert parse(text)[0] == "[" * 100


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ('{"n": ' + "1" * 5000 + "}", "more than 4300 digits"),
        ('{"n": NaN}', "NaN is not JSON"),
        ("[Infinity]", "Infinity is not JSON"),
        ("", "empty"),
        ("{", "bad JSON"),
    ],
)
def test_values_json_does_not_allow(text: str, named: str) -> None:
    with pytest.raises(JsonError, match=named):
        parse(text, "hands.json")
    with pytest.raises(InputError, match=r"hands\.json"):
        parse(text, "hands.json")


def test_invalid_utf8_reads_the_same_from_stdin_and_a_file(tmp_path: Path) -> None:
    data = b'{"a": "\xff"}'
    path = tmp_path / "bad.json"
    path.write_bytes(data)
    messages = []
    for source in ("-", str(path)):
        raw = read_bytes(source, stdin=io.BytesIO(data))
        with pytest.raises(JsonError) as caught:
            parse(raw, "input")
        messages.append(str(caught.value))
    assert messages[0] == messages[1] == "input: not UTF-8 text (byte 0xff at offset 7)"


def test_byte_order_mark_and_size_limit(tmp_path: Path) -> None:
    assert parse(b'\xef\xbb\xbf{"a": 1}') == {"a": 1}
    path = tmp_path / "big.json"
    path.write_bytes(b" " * 100 + b"{}")
    with pytest.raises(JsonError, match="larger than"):
        read_bytes(str(path), max_bytes=50)
    with pytest.raises(JsonError, match="cannot read"):
        read_bytes(str(tmp_path / "missing.json"))


def test_parse_object_names_what_it_got() -> None:
    with pytest.raises(JsonError, match=r"sidecar a\.json: must hold one JSON object, not an array"):
        parse_object("[]", "sidecar a.json")


@given(JSON_VALUES | st.text(min_size=1000, max_size=5000) | st.integers(min_value=10**60))
def test_quote_is_short_and_one_line(value: Any) -> None:
    shown = quote(value)  # a character may show as up to 10 (\U0001f004); the cut is by characters
    assert len(shown) <= 10 * QUOTE_CHARS + 30 and "\n" not in shown


def test_quote_examples() -> None:
    assert quote("E") == "'E'"
    assert quote(["winner"]) == "['winner']"
    megabyte = quote("x" * 2**20)
    assert megabyte.startswith("'xxxx") and megabyte.endswith("(1048576 characters)") and len(megabyte) < 70
    assert quote(10**4000) == "a number of 4001 digits"
    assert quote(10**20000) == "a number of 20001 digits"
    nested: list[Any] = []
    for _ in range(5000):
        nested = [nested]
    assert quote(nested) == "an array of 1 item"


def test_show_path_makes_undecodable_names_readable() -> None:
    name = b"bad\xffname.jpg".decode("utf-8", "surrogateescape")
    assert show_path(name) == "bad\\xffname.jpg"
    assert show_path("hand1.jpg") == "hand1.jpg"
    show_path("lone\ud800").encode("utf-8")


def test_limits_and_kinds_named_in_messages() -> None:
    with pytest.raises(JsonError, match=r"input: larger than 0 MiB"):
        parse(b"[1, 2, 3]", max_bytes=3)
    assert parse_object('{"a": 1}') == {"a": 1}
    with pytest.raises(JsonError, match=r"hands\.jsonl: larger than 0 MiB"):
        parse_hands(b"{}\n{}\n", "hands.jsonl", max_bytes=4)
    values: tuple[object, ...] = ({}, [], "", True, 1.5, None, b"")
    assert [json_type(v) for v in values] == [
        "an object",
        "an array",
        "a string",
        "a boolean",
        "a number",
        "null",
        "bytes",
    ]
    assert quote(b"raw bytes") == "b'raw bytes'" and quote(object()).startswith("<object object at")
    assert quote(range(10**6)) == "range(0, 1000000)"
    assert quote(ValueError("x " * 100)).endswith("...")


def test_dumps_keeps_text_readable_and_names_exact() -> None:
    assert dumps({"name": "Oost é"}) == '{"name": "Oost é"}'
    assert dumps({"a": [1, 2]}, compact=True) == '{"a":[1,2]}'
    name = b"bad\xffname.jpg".decode("utf-8", "surrogateescape")
    text = dumps({"file": name, "note": "é"})
    assert json.loads(text) == {"file": name, "note": "é"}
    text.encode("utf-8")
