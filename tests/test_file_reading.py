"""dimsum._files' readers: a path from elsewhere is read only when it is a regular file of bounded
size, and JSON from elsewhere only to a bounded depth (attacks: a FIFO, a device, a directory, a
huge file, JSON nested 100,000 deep)."""

import os

import pytest

from dimsum._files import parse_json, read_regular
from dimsum.records import Record, RecordError


def test_a_regular_file_is_read_whole(tmp_path):
    path = tmp_path / "f.bin"
    path.write_bytes(b"abc" * 1000)
    assert read_regular(path, "test file", 3000) == b"abc" * 1000


def test_a_fifo_is_refused_at_once_not_waited_on(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match="not a regular file"):
        read_regular(fifo, "policy file", 1 << 20)
    with pytest.raises(RecordError, match="not a regular file"):
        Record.load(fifo)


@pytest.mark.parametrize("path", ["/dev/zero", "/dev/null"])
def test_a_device_is_refused(path):
    with pytest.raises(ValueError, match="not a regular file"):
        read_regular(path, "record", 1 << 20)


def test_a_directory_is_refused(tmp_path):
    with pytest.raises(ValueError, match="directory"):
        read_regular(tmp_path, "record", 1 << 20)


def test_a_file_larger_than_the_bound_is_refused_unread(tmp_path):
    path = tmp_path / "big"
    with open(path, "wb") as f:
        f.truncate(10 << 20)  # sparse: 10 MB that cost nothing
    with pytest.raises(ValueError, match="more than the 1048576"):
        read_regular(path, "record", 1 << 20)


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, '{"a":' * 50_000 + "1" + "}" * 50_000])
def test_deeply_nested_json_is_the_readers_own_error(text):
    with pytest.raises(ValueError, match="nests .* levels deep; at most 64"):
        parse_json(text, "a bot's reply")


def test_brackets_inside_strings_do_not_count():
    assert parse_json('{"a": "' + "[" * 70 + '"}', "x", 4) == {"a": "[" * 70}


def test_text_that_is_not_json_says_so():
    with pytest.raises(ValueError, match="header is not JSON"):
        parse_json("{nope", "header")
    with pytest.raises(ValueError, match="not UTF-8"):
        parse_json(b"\xff\xfe", "header")
