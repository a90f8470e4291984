-- Version 1: the digest store's tables (STRICT), as every store written before versions.
CREATE TABLE IF NOT EXISTS runs (
    run_id TEXT PRIMARY KEY, created_at TEXT NOT NULL, namespace TEXT NOT NULL,
    mode TEXT NOT NULL CHECK (mode IN ('incremental', 'full')), dossier TEXT NOT NULL,
    principal TEXT NOT NULL, model TEXT NOT NULL, settings TEXT NOT NULL,
    snapshot TEXT NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS runs_by_dossier ON runs (dossier, namespace, created_at);
CREATE TABLE IF NOT EXISTS run_ends (
    run_id TEXT PRIMARY KEY REFERENCES runs (run_id), finished_at TEXT NOT NULL,
    root_key TEXT NOT NULL, root_status TEXT NOT NULL, counters TEXT NOT NULL,
    seconds REAL NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS nodes (
    row_id INTEGER PRIMARY KEY, namespace TEXT NOT NULL, key TEXT NOT NULL,
    node_id TEXT NOT NULL, kind TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('VALID', 'INVALID', 'PARTIAL', 'INELIGIBLE')),
    claims TEXT NOT NULL, spans TEXT NOT NULL, diagnostic TEXT NOT NULL, digest TEXT NOT NULL,
    token_ids TEXT, calls INTEGER NOT NULL, prompt_tokens INTEGER NOT NULL,
    generated_tokens INTEGER NOT NULL, reusable INTEGER NOT NULL CHECK (reusable IN (0, 1)),
    run_id TEXT NOT NULL REFERENCES runs (run_id), created_at TEXT NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS nodes_by_key ON nodes (namespace, key, reusable, row_id);
CREATE TABLE IF NOT EXISTS generations (
    row_id INTEGER PRIMARY KEY, run_id TEXT NOT NULL REFERENCES runs (run_id),
    node_row INTEGER NOT NULL REFERENCES nodes (row_id), node_id TEXT NOT NULL,
    attempt INTEGER NOT NULL, task TEXT NOT NULL, request_hash TEXT NOT NULL,
    model TEXT NOT NULL, messages TEXT NOT NULL, raw_output TEXT, finish_reason TEXT,
    prompt_tokens INTEGER, generated_tokens INTEGER, token_ids TEXT, seconds REAL NOT NULL,
    defects TEXT NOT NULL, error TEXT NOT NULL, created_at TEXT NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS generations_by_node ON generations (node_row, attempt);
CREATE TABLE IF NOT EXISTS edges (
    parent_row INTEGER NOT NULL REFERENCES nodes (row_id), position INTEGER NOT NULL,
    child_row INTEGER NOT NULL REFERENCES nodes (row_id), PRIMARY KEY (parent_row, position)
) STRICT;
CREATE TABLE IF NOT EXISTS run_nodes (
    run_id TEXT NOT NULL REFERENCES runs (run_id), node_id TEXT NOT NULL,
    kind TEXT NOT NULL, level INTEGER NOT NULL, parent_id TEXT, key TEXT NOT NULL,
    node_row INTEGER NOT NULL REFERENCES nodes (row_id),
    outcome TEXT NOT NULL CHECK (outcome IN ('hit', 'computed')), status TEXT NOT NULL,
    digest TEXT NOT NULL, PRIMARY KEY (run_id, node_id)
) STRICT;
CREATE TABLE IF NOT EXISTS manifests (
    row_id INTEGER PRIMARY KEY, dossier TEXT NOT NULL, sha256 TEXT NOT NULL,
    event TEXT NOT NULL, body TEXT NOT NULL, created_at TEXT NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS manifests_by_dossier ON manifests (dossier, row_id);
CREATE TRIGGER IF NOT EXISTS runs_no_update BEFORE UPDATE ON runs
BEGIN SELECT RAISE(ABORT, 'the digest store is append-only'); END;
CREATE TRIGGER IF NOT EXISTS runs_no_delete BEFORE DELETE ON runs
BEGIN SELECT RAISE(ABORT, 'the digest store is append-only'); END;
CREATE TRIGGER IF NOT EXISTS run_ends_no_update BEFORE UPDATE ON run_ends
BEGIN SELECT RAISE(ABORT, 'the digest store is append-only'); END;
CREATE TRIGGER IF NOT EXISTS run_ends_no_delete BEFORE DELETE ON run_ends
BEGIN SELECT RAISE(ABORT, 'the digest store is append-only'); END;
CREATE TRIGGER IF NOT EXISTS nodes_no_update BEFORE UPDATE ON nodes
BEGIN SELECT RAISE(ABORT, 'the digest store is append-only'); END;
CREATE TRIGGER IF NOT EXISTS nodes_no_delete BEFORE DELETE ON nodes
BEGIN SELECT RAISE(ABORT, 'the digest store is append-only'); END;
CREATE TRIGGER IF NOT EXISTS generations_no_update BEFORE UPDATE ON generations
BEGIN SELECT RAISE(ABORT, 'the digest store is append-only'); END;
CREATE TRIGGER IF NOT EXISTS generations_no_delete BEFORE DELETE ON generations
BEGIN SELECT RAISE(ABORT, 'the digest store is append-only'); END;
CREATE TRIGGER IF NOT EXISTS edges_no_update BEFORE UPDATE ON edges
BEGIN SELECT RAISE(ABORT, 'the digest store is append-only'); END;
CREATE TRIGGER IF NOT EXISTS edges_no_delete BEFORE DELETE ON edges
BEGIN SELECT RAISE(ABORT, 'the digest store is append-only'); END;
CREATE TRIGGER IF NOT EXISTS run_nodes_no_update BEFORE UPDATE ON run_nodes
BEGIN SELECT RAISE(ABORT, 'the digest store is append-only'); END;
CREATE TRIGGER IF NOT EXISTS run_nodes_no_delete BEFORE DELETE ON run_nodes
BEGIN SELECT RAISE(ABORT, 'the digest store is append-only'); END;
CREATE TRIGGER IF NOT EXISTS manifests_no_update BEFORE UPDATE ON manifests
BEGIN SELECT RAISE(ABORT, 'the digest store is append-only'); END;
CREATE TRIGGER IF NOT EXISTS manifests_no_delete BEFORE DELETE ON manifests
BEGIN SELECT RAISE(ABORT, 'the digest store is append-only'); END;
