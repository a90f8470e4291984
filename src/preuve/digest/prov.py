"""Export one recorded build as W3C PROV, in JSON-LD (PROV-O terms).

- **Entities**: each document version the run read (``preuve:document/<id>@<version>``,
  with its text hash; ``prov:wasRevisionOf`` the previous version), each summary result
  (``preuve:result/<row>``: node, key, status, claims) and each generation, the raw text a
  model returned (``preuve:generation/<row>``).
- **Activities**: each map or reduce computation (``preuve:call/<row>``), which
  ``prov:used`` the document version (a leaf) or the child results (a reduce) and
  ``prov:wasAssociatedWith`` the model; an INELIGIBLE leaf's activity uses nothing, since
  no content was sent. Withdrawals and revocations are activities too, and the document
  version they hit ``prov:wasInvalidatedBy`` them.
- A result ``prov:wasGeneratedBy`` its activity and ``prov:wasDerivedFrom`` its
  generations and inputs. Results reused from an earlier run keep the activity of the run
  that computed them (``preuve:inRun``).
"""

from __future__ import annotations

from typing import Any

from preuve.io.store_rows import NodeRow, RunInfo
from preuve.io.stores import Store

__all__ = ["PROV_CONTEXT", "build_prov"]

PROV_CONTEXT: dict[str, str] = {
    "prov": "http://www.w3.org/ns/prov#",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
    "preuve": "urn:preuve:",
}


def _ref(node_id: str) -> dict[str, str]:
    return {"@id": node_id}


def _doc_id(doc_id: str, version: int) -> str:
    return f"preuve:document/{doc_id}@{version}"


def _documents(run: RunInfo) -> list[dict[str, Any]]:
    graph: list[dict[str, Any]] = []
    for doc in run.snapshot:
        doc_id, version = str(doc["doc_id"]), int(doc["version"])
        entity: dict[str, Any] = {
            "@id": _doc_id(doc_id, version),
            "@type": "prov:Entity",
            "prov:label": doc["title"],
            "preuve:docId": doc_id,
            "preuve:version": version,
            "preuve:textSha256": doc["text_sha256"],
            "preuve:active": doc["active"],
            "preuve:eligible": doc["eligible"],
        }
        if version > 1:
            entity["prov:wasRevisionOf"] = _ref(_doc_id(doc_id, version - 1))
            graph.append(
                {
                    "@id": _doc_id(doc_id, version - 1),
                    "@type": "prov:Entity",
                    "preuve:docId": doc_id,
                }
            )
        if not doc["active"] or not doc["eligible"]:
            kind = "Withdrawal" if not doc["active"] else "Revocation"
            change = f"preuve:access/{doc_id}/{doc['access_revision']}"
            graph.append(
                {
                    "@id": change,
                    "@type": ["prov:Activity", f"preuve:{kind}"],
                    "prov:label": f"{kind.lower()} of {doc_id}",
                    "preuve:accessRevision": doc["access_revision"],
                }
            )
            entity["prov:wasInvalidatedBy"] = _ref(change)
        graph.append(entity)
    return graph


def _result(row: NodeRow, node_id: str) -> dict[str, Any]:
    return {
        "@id": f"preuve:result/{row.row_id}",
        "@type": ["prov:Entity", "preuve:Summary"],
        "preuve:node": node_id,
        "preuve:key": row.key,
        "preuve:status": row.status,
        "preuve:claims": row.claims,
        "preuve:digest": row.digest,
        "prov:wasGeneratedBy": _ref(f"preuve:call/{row.row_id}"),
    }


class _Exporter:
    def __init__(self, store: Store, run: RunInfo) -> None:
        self.store = store
        self.run = run
        self.versions = {str(d["doc_id"]): int(d["version"]) for d in run.snapshot}
        self.agent = "preuve:model/{backend}/{name}/{version}".format(**run.model)
        self.graph: list[dict[str, Any]] = []
        self.done: set[int] = set()

    def add(self, row_id: int) -> None:
        if row_id in self.done:
            return
        self.done.add(row_id)
        row = self.store.node(row_id)
        node_id = row.node_id
        entity = _result(row, node_id)
        call = f"preuve:call/{row.row_id}"
        activity: dict[str, Any] = {
            "@id": call,
            "@type": ["prov:Activity", f"preuve:{'Map' if row.kind == 'leaf' else 'Reduce'}Call"],
            "preuve:inRun": row.run_id,
            "preuve:calls": row.calls,
            "prov:startedAtTime": {"@value": row.created_at, "@type": "xsd:dateTime"},
        }
        derived: list[dict[str, str]] = []
        if row.kind == "leaf":
            doc = node_id.removeprefix("leaf:")
            if row.status != "INELIGIBLE" and doc in self.versions:
                used = [_ref(_doc_id(doc, self.versions[doc]))]
                activity["prov:used"] = used
                derived.extend(used)
        else:
            children = self.store.edges(row.row_id)
            activity["prov:used"] = [_ref(f"preuve:result/{child}") for child in children]
            derived.extend(activity["prov:used"])
            for child in children:
                self.add(child)
        if row.calls:
            activity["prov:wasAssociatedWith"] = _ref(self.agent)
        for gen in self.store.generations(row.row_id):
            gen_id = f"preuve:generation/{gen.row_id}"
            self.graph.append(
                {
                    "@id": gen_id,
                    "@type": ["prov:Entity", "preuve:Generation"],
                    "prov:wasGeneratedBy": _ref(call),
                    "preuve:task": gen.task,
                    "preuve:rawOutput": gen.raw_output,
                    "preuve:finishReason": gen.finish_reason,
                    "preuve:promptTokens": gen.prompt_tokens,
                    "preuve:generatedTokens": gen.generated_tokens,
                    "preuve:requestHash": gen.request_hash,
                }
            )
            derived.append(_ref(gen_id))
        entity["prov:wasDerivedFrom"] = derived
        self.graph.extend((entity, activity))


def build_prov(store: Store, run_id: str) -> dict[str, Any]:
    """The PROV JSON-LD document of the run ``run_id``."""
    run = store.run(run_id)
    exporter = _Exporter(store, run)
    exporter.graph.append(
        {
            "@id": exporter.agent,
            "@type": ["prov:Agent", "prov:SoftwareAgent"],
            "prov:label": f"{run.model['backend']}:{run.model['name']}",
            "preuve:tokenizer": run.model["tokenizer"],
        }
    )
    exporter.graph.extend(_documents(run))
    build = f"preuve:run/{run.run_id}"
    records = store.run_nodes(run.run_id)
    exporter.graph.append(
        {
            "@id": build,
            "@type": ["prov:Activity", "preuve:Build"],
            "preuve:mode": run.mode,
            "preuve:dossier": run.dossier,
            "preuve:principal": run.principal,
            "prov:startedAtTime": {"@value": run.created_at, "@type": "xsd:dateTime"},
            "prov:used": [_ref(f"preuve:result/{r.node_row}") for r in records],
        }
    )
    for record in records:
        exporter.add(record.node_row)
    return {"@context": PROV_CONTEXT, "@graph": exporter.graph}
