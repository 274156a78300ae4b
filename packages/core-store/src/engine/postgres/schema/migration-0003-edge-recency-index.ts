/** As SQLite's migration 3: augment's recency fallback reads a workspace's edges by `last_seen`. */
export const POSTGRES_MIGRATION_0003_EDGE_RECENCY_INDEX = `
CREATE INDEX knowledge_graph_by_recency ON knowledge_graph (workspace_id, last_seen);
`
