/**
 * A counter per workspace, advanced whenever its graph changes (a dream, an alias, a retraction, a purge, an
 * import), so every process holding query caches over the graph can tell they went stale — another server on
 * the same database, or the CLI dreaming beside a server on the same file.
 */
export const MIGRATION_0006_GRAPH_GENERATIONS = `
CREATE TABLE graph_generations (
  workspace_id TEXT PRIMARY KEY,
  generation   INTEGER NOT NULL
);
`
