"""Coverage-guided fuzzing of strict model-JSON parsing (preuve.core.jsonout).

    .venv/bin/python fuzz/fuzz_jsonout.py -atheris_runs=1000000 -max_len=4096

Any Unicode text (surrogates included), against every answer schema of the three
workflows, with any finish reason and depth limit: ``parse_model_json`` must return, never
raise; ``ok`` exactly when there is no defect; an accepted value must satisfy its schema.
"""

from __future__ import annotations

from _atheris import Provider, fuzz, instrumented, provider

with instrumented():
    from preuve.core.jsonout import parse_model_json, validate_schema
    from preuve.digest.schema import CLAIMS_SCHEMA
    from preuve.memo.reader import READER_SCHEMA
    from preuve.memo.writer import MEMO_SCHEMA
    from preuve.synthesis.types import SYNTHESIS_SCHEMA
    from preuve.synthesis.planner import PLAN_SCHEMA
    from preuve.synthesis.subagent import FINDINGS_SCHEMA

SCHEMAS = [CLAIMS_SCHEMA, READER_SCHEMA, MEMO_SCHEMA, SYNTHESIS_SCHEMA, PLAN_SCHEMA,
           FINDINGS_SCHEMA]  # fmt: skip
FINISH = ["stop", "length", None, "error", "tool_calls"]
# Half the inputs are token soups: random bytes alone rarely spell a schema's keys.
TOKENS = [
    "{", "}", "[", "]", ",", ":", " ", "\n", "```json\n", "```", '"', "\\u0000", "\\ud800",
    '"claims"', '"subject"', '"field"', '"value"', '"evidence"', '"delivery"', '"status"',
    '"signals"', '"category"', '"quote"', '"page"', '"paragraphs"', '"text"', '"sources"',
    '"subtasks"', '"id"', '"question"', '"scope"', '"statements"', '"gaps"', '"attribute"',
    '"doc_id"', '"contradictions"', '"retained"', '"rejected"', '"rule"', '"reason"',
    '"numbers"', '"label"', '"unit"', '"formula"', '"covenant"', '"P-01-02"', '"doc-01"',
    '"doc-00@1:0:40"', '"1.5"', "0", "1", "-1", "3", "1.0", "1e999", "-0", "NaN", "Infinity",
    "-Infinity", "true", "false", "null", "9" * 30,
]  # fmt: skip


def _answer(source: Provider) -> str:
    if source.ConsumeBool():
        return source.ConsumeUnicode(source.remaining_bytes())
    count = source.ConsumeIntInRange(0, 200)
    return "".join(source.PickValueInList(TOKENS) for _ in range(count))


def test_one_input(data: bytes) -> None:
    source = provider(data)
    schema = source.PickValueInList(SCHEMAS)
    finish = source.PickValueInList(FINISH)
    max_depth = source.ConsumeIntInRange(1, 80)
    raw = _answer(source)
    result = parse_model_json(raw, schema, finish_reason=finish, max_depth=max_depth)
    if result.ok == bool(result.defects):
        raise AssertionError(f"ok={result.ok} with defects {result.defects!r}")
    if result.ok:
        if finish == "length":
            raise AssertionError("a generation cut at its token limit was accepted")
        if validate_schema(result.value, schema):
            raise AssertionError(f"accepted a value its schema refuses: {raw!r}")


if __name__ == "__main__":
    fuzz(test_one_input)
