/** The locked predicate vocabulary of the knowledge graph (18 predicates, §5 of the walkthrough). */
export const PREDICATES = [
  'uses',
  'depends_on',
  'prefers',
  'rejects',
  'avoids',
  'replaces',
  'conflicts_with',
  'deploys_to',
  'part_of',
  'equivalent_to',
  'implements',
  'contains',
  'configured_with',
  'requires_version',
  'runs_on',
  'connects_to',
  'generates',
  'tested_by',
] as const

/** One of the 18 {@link PREDICATES}. */
export type Predicate = (typeof PREDICATES)[number]

/** Kinds of behavioural markers: explicit signals about how the user wants to be treated. */
export const MARKER_KINDS = ['correction', 'preference', 'rejection', 'style'] as const

/** One of the {@link MARKER_KINDS}. */
export type MarkerKind = (typeof MARKER_KINDS)[number]

const PREDICATE_SET: ReadonlySet<string> = new Set(PREDICATES)
const MARKER_SET: ReadonlySet<string> = new Set(MARKER_KINDS)

/** Whether `value` is one of the 18 predicates. */
export function isPredicate(value: string): value is Predicate {
  return PREDICATE_SET.has(value)
}

/** Whether `value` is a marker kind. */
export function isMarkerKind(value: string): value is MarkerKind {
  return MARKER_SET.has(value)
}
