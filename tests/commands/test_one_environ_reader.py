"""Configuration is read in one place: no module of src/ reads the process's environment but
the few a process boundary needs, each named here with why."""

from __future__ import annotations

import ast
from pathlib import Path

import preuve

SRC = Path(preuve.__file__).resolve().parent
_OS_ENV_NAMES = frozenset({"environ", "environb", "getenv", "getenvb", "putenv", "unsetenv"})

ALLOWED = {
    # The CLI's one reader: settings are parsed from it by read_settings, and error lines
    # are scrubbed of its secrets even when the settings are what failed.
    "commands/common.py": "process_environment()",
    # The network guard refuses endpoints under pytest whatever env the caller passed, and
    # a Python caller constructing OpenAIModel without env= gets its key from the process.
    "models/openai.py": "test marker; Python API default",
    # A Python caller of find_local_models without env= gets the hub cache of the process.
    "models/local.py": "Python API default",
    # The secrets probe builds the environment of the child preuve process it spawns.
    "eval/reliability_secrets.py": "child process environment",
}


def _readers(tree: ast.AST) -> list[int]:
    """Lines reading the environment: os.environ / os.getenv..., ``from os import
    environ``, and typer options reading a variable themselves (``envvar=``)."""
    lines = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and node.attr in _OS_ENV_NAMES
            and isinstance(node.value, ast.Name)
            and node.value.id == "os"
        ):
            lines.append(node.lineno)
        elif isinstance(node, ast.ImportFrom) and node.module == "os":
            lines += [node.lineno for a in node.names if a.name in _OS_ENV_NAMES]
        elif isinstance(node, ast.keyword) and node.arg == "envvar":
            lines.append(node.value.lineno)
    return lines


def test_only_the_allowed_modules_read_the_environment() -> None:
    found = {}
    for path in sorted(SRC.rglob("*.py")):
        lines = _readers(ast.parse(path.read_text(encoding="utf-8")))
        if lines:
            found[path.relative_to(SRC).as_posix()] = lines
    assert set(found) == set(ALLOWED), found


def test_the_scan_sees_each_form_of_reading() -> None:
    source = (
        "import os\nfrom os import getenv\na = os.environ['X']\nb = os.getenv('Y')\n"
        "opt = Option('--m', envvar='PREUVE_MODEL')\ntext = 'os.environ in a string'\n"
    )
    assert _readers(ast.parse(source)) == [2, 3, 4, 5]
