-- Version 2: one reusable result per (namespace, key), one model call per (node, attempt):
-- concurrent builders insert with ON CONFLICT DO NOTHING and read back the first result.
CREATE UNIQUE INDEX IF NOT EXISTS nodes_one_reusable_per_key
    ON nodes (namespace, key) WHERE reusable = 1;
CREATE UNIQUE INDEX IF NOT EXISTS generations_one_per_attempt
    ON generations (node_row, attempt);
