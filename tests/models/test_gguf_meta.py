"""The GGUF metadata reader: the keys asked for, read without parsing the rest (a
vocabulary of string arrays is stepped over by lengths), against files the gguf package
writes; a file cut short or of another kind is one clear error."""

from __future__ import annotations

import time
from pathlib import Path

import gguf
import numpy as np
import pytest

from preuve.models.gguf_meta import GGUFFormatError, read_gguf_metadata

KEYS = ("general.architecture", "general.name", "llama.context_length", "tokenizer.chat_template")


def _write(
    path: Path, *, tokens: int = 3, endian: gguf.GGUFEndian = gguf.GGUFEndian.LITTLE
) -> Path:
    writer = gguf.GGUFWriter(str(path), "llama", endianess=endian)
    writer.add_name("tiny")
    writer.add_context_length(4096)
    writer.add_token_list([f"tok{i}" for i in range(tokens)])
    writer.add_token_types([1] * tokens)
    writer.add_array("custom.floats", [0.5, 1.5])
    writer.add_bool("custom.flag", True)
    writer.add_float64("custom.f64", 2.25)
    writer.add_int64("custom.i64", -7)
    writer.add_chat_template("{{ messages }}")
    writer.add_tensor("w", np.zeros((2, 2), dtype=np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


@pytest.mark.parametrize(
    "endian", [gguf.GGUFEndian.LITTLE, gguf.GGUFEndian.BIG], ids=["little", "big"]
)
def test_the_keys_asked_for_are_read_with_their_types(
    tmp_path: Path, endian: gguf.GGUFEndian
) -> None:
    path = _write(tmp_path / "m.gguf", endian=endian)
    wanted = (*KEYS, "custom.flag", "custom.f64", "custom.i64", "custom.absent")
    found = read_gguf_metadata(path, wanted)
    assert found == {
        "general.architecture": "llama",
        "general.name": "tiny",
        "llama.context_length": 4096,
        "tokenizer.chat_template": "{{ messages }}",
        "custom.flag": True,
        "custom.f64": 2.25,
        "custom.i64": -7,
    }
    reader = gguf.GGUFReader(str(path))  # the package's reader agrees
    assert {k: reader.fields[k].contents() for k in KEYS} == {k: found[k] for k in KEYS}


def test_a_large_vocabulary_is_stepped_over_not_parsed(tmp_path: Path) -> None:
    path = _write(tmp_path / "big.gguf", tokens=60_000)
    start = time.process_time()
    found = read_gguf_metadata(path, KEYS)
    spent = time.process_time() - start
    assert found["tokenizer.chat_template"] == "{{ messages }}"
    assert spent < 0.5  # the package's reader takes seconds on such a file


@pytest.mark.parametrize("damage", ["foreign", "cut"], ids=["not-gguf", "truncated"])
def test_a_damaged_file_is_a_format_error(tmp_path: Path, damage: str) -> None:
    path = _write(tmp_path / "m.gguf", tokens=50)
    data = path.read_bytes()
    path.write_bytes(b"PK\x03\x04" + data[4:] if damage == "foreign" else data[:200])
    with pytest.raises(GGUFFormatError, match="not a GGUF file" if damage == "foreign" else "ends"):
        read_gguf_metadata(path, KEYS)
