"""Convert the held-out writer's gold files into preuve's formats (run from the repo root).

    python tests/heldout/digest/convert_writer_gold.py

For each ``hd-NN.writer-gold.json`` (the writer's format, see WRITER_NOTES.md) this writes
``hd-NN.gold.json`` (``preuve.digest.gold/1``, what ``preuve digest audit --gold`` reads)
and ``hd-NN.events.json`` (the events ``preuve digest mutate --events`` replays). The only
changes: a subject written ``<Kind> <ID>`` ("Product P-12-03") becomes its id ("P-12-03"),
the kind word being the subject label of preuve's grammar; event kinds take preuve's names
(identical_reupload → reupload, distractor_edit → distractor-edit, both reading the
version file the writer made).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
EVENT_NAMES = {
    "new_version": "new-version",
    "identical_reupload": "reupload",
    "distractor_edit": "distractor-edit",
    "withdraw": "withdraw",
    "revoke": "revoke",
}


def subject_id(subject: str) -> str:
    kind, _, identifier = subject.partition(" ")
    return identifier if identifier else kind


def convert_gold(data: dict[str, Any]) -> dict[str, Any]:
    documents: dict[str, Any] = {}
    for doc_id, versions in data["documents"].items():
        documents[doc_id] = {
            version: {
                "facts": [
                    {**fact, "subject": subject_id(fact["subject"])} for fact in entry["facts"]
                ],
                "not_affirmed": entry.get("not_affirmed", []),
            }
            for version, entry in versions.items()
        }
    return {"format": "preuve.digest.gold/1", "dossier": data["dossier"], "documents": documents}


def convert_events(data: dict[str, Any]) -> list[dict[str, Any]]:
    events = []
    for event in data["events"]:
        converted: dict[str, Any] = {"event": EVENT_NAMES[event["kind"]], "doc_id": event["doc"]}
        if "version" in event:
            converted["version"] = event["version"]
        events.append(converted)
    return events


def main() -> None:
    for source in sorted(HERE.glob("*.writer-gold.json")):
        name = source.name.removesuffix(".writer-gold.json")
        data = json.loads(source.read_text(encoding="utf-8"))
        for suffix, converted in (
            (".gold.json", convert_gold(data)),
            (".events.json", convert_events(data)),
        ):
            text = json.dumps(converted, ensure_ascii=False, indent=1) + "\n"
            (HERE / f"{name}{suffix}").write_text(text, encoding="utf-8")
        print(f"wrote {name}.gold.json and {name}.events.json")


if __name__ == "__main__":
    main()
