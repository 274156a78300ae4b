/** As SQLite's migration 6: the graph generation counter per workspace. */
export const POSTGRES_MIGRATION_0006_GRAPH_GENERATIONS = `
CREATE TABLE graph_generations (
  workspace_id text PRIMARY KEY,
  generation   bigint NOT NULL
);
`
