/**
 * Every tunable of a dreaming cycle. Defaults are the walkthrough's §9 values; pass a partial `config` to
 * {@link dream} to override any of them.
 */
export interface DreamConfig {
  /**
   * Shortest chunk text kept (characters, role prefix included): `user: I use Go.` is 15, so a short
   * salient statement ("I like Deno.", "No more Heroku.") still reaches extraction.
   */
  readonly salienceMinChars: number
  /** A message at least this long is salient even without a trigger phrase. */
  readonly salienceLengthFallback: number
  /** Longest chunk text; consecutive salient messages are merged up to this size. */
  readonly chunkMaxChars: number
  /** Chunks extracted per cycle. */
  readonly dreamBudget: number
  /** Extraction calls in flight at once. */
  readonly concurrency: number
  /** Retracted triples injected as negative examples. */
  readonly negativeExamples: number
  /** Edges not reinforced for this long can decay when their entities are re-discussed. */
  readonly decayWindowDays: number
  /** Reserved by the walkthrough; unused. */
  readonly decayFactor: number
  /** Laplace confidence below which an edge is retracted (and derived edges are dropped). */
  readonly retractThreshold: number
  /** Profile entries kept (the weakest are dropped). */
  readonly profileMaxEntries: number
  /** Insights written to MEMORY.md. */
  readonly insightsMaxEntries: number
  /** Dependency hubs need direct depends_on edges above this confidence. */
  readonly hubMinConfidence: number
  /** Preferences and rejections above this confidence are insights. */
  readonly strongPreferenceConfidence: number
  /** Soft cap on stored chunks; older chunks beyond it are evicted. */
  readonly maxChunks: number
  /** Chunks newer than this are always kept. */
  readonly retentionDays: number
  /** Search-log rows older than this many days are dropped by each dream; 0 keeps any age. */
  readonly searchLogRetentionDays: number
  /** Newest search-log rows kept per workspace; 0 keeps any number. */
  readonly searchLogMaxRows: number
  /** LLM cache answers older than this many days are dropped by each dream; 0 keeps any age. */
  readonly llmCacheRetentionDays: number
  /** Newest LLM cache answers kept (the cache is shared by all workspaces); 0 keeps any number. */
  readonly llmCacheMaxRows: number
  /** Chunks of a session handed to episode extraction (the most recent). */
  readonly episodeMaxChunks: number
  /** Characters of transcript handed to the summariser and to procedure extraction. */
  readonly transcriptMaxChars: number
  /** Texts per embedding call. */
  readonly embedBatchSize: number
  /**
   * Messages embedded per cycle (each as `<peer>: <content>`), oldest first; the rest wait for the next
   * cycle. Their vectors let augment weigh what a single turn means beside its keywords. 0 turns it off.
   */
  readonly messageEmbedBudget: number
  /**
   * Messages of at least this many characters are split into passages searched (and embedded) on their own,
   * so a long answer is found by the stretch that matters. 0 turns it off.
   */
  readonly passageMinChars: number
  /** Longest passage (characters); keep it below `passageMinChars`. */
  readonly passageMaxChars: number
  /** Passages embedded per cycle, oldest first (0 turns passage vectors off). */
  readonly passageEmbedBudget: number
  /** Interval of the lock heartbeat while a cycle runs (ms). */
  readonly lockHeartbeatMs: number
}

/** The walkthrough's §9 defaults (frozen). */
export const DEFAULT_DREAM_CONFIG: DreamConfig = Object.freeze({
  salienceMinChars: 15,
  salienceLengthFallback: 200,
  chunkMaxChars: 2000,
  dreamBudget: 50,
  concurrency: 4,
  negativeExamples: 10,
  decayWindowDays: 30,
  decayFactor: 0.9,
  retractThreshold: 0.15,
  profileMaxEntries: 16,
  insightsMaxEntries: 12,
  hubMinConfidence: 0.6,
  strongPreferenceConfidence: 0.7,
  maxChunks: 50_000,
  retentionDays: 90,
  searchLogRetentionDays: 90,
  searchLogMaxRows: 100_000,
  llmCacheRetentionDays: 30,
  llmCacheMaxRows: 50_000,
  episodeMaxChunks: 40,
  transcriptMaxChars: 12_000,
  embedBatchSize: 64,
  messageEmbedBudget: 5000,
  passageMinChars: 1000,
  passageMaxChars: 600,
  passageEmbedBudget: 20_000,
  lockHeartbeatMs: 30_000,
})
