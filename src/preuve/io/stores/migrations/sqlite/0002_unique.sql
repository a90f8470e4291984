-- Version 2: one reusable result per (namespace, key), one model call per (node, attempt).
-- Two builders that computed the same key keep the first result; the second points at it.
CREATE UNIQUE INDEX IF NOT EXISTS nodes_one_reusable_per_key
    ON nodes (namespace, key) WHERE reusable = 1;
CREATE UNIQUE INDEX IF NOT EXISTS generations_one_per_attempt
    ON generations (node_row, attempt);
