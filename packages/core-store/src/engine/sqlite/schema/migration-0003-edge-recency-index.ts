/** Lets "the most recently seen edges of a workspace" (augment's recency fallback) read an index in order. */
export const MIGRATION_0003_EDGE_RECENCY_INDEX = `
CREATE INDEX knowledge_graph_by_recency ON knowledge_graph (workspace_id, last_seen);
`
