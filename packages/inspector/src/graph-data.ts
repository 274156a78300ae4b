/**
 * The graph picture as the page hands it to the browser bundle (shared by the server and `client/graph.ts`).
 * Plain data only: this module is compiled for both Node and the browser.
 */

/** One entity drawn as a node. */
export interface GraphDataNode {
  readonly id: string
  /** Its entity type, or null. */
  readonly type: string | null
  /** Fill colour of its type. */
  readonly color: string
}

/** One fact drawn as an edge. */
export interface GraphDataEdge {
  readonly id: number
  readonly source: string
  readonly target: string
  readonly predicate: string
  readonly confidence: number
  readonly derived: boolean
  /** Stale, superseded or retracted: drawn faded. */
  readonly inactive: boolean
  /** The fact page. */
  readonly href: string
}

/** Everything the graph view draws. */
export interface GraphData {
  readonly nodes: readonly GraphDataNode[]
  readonly edges: readonly GraphDataEdge[]
  /** Graph page URL without `focus`, used to keep the address bar in step with the focused node. */
  readonly pageUrl: string
  /** An entity to focus when the picture opens, or null. */
  readonly focus: string | null
}

/** Colours of entity types, assigned in order of how many entities have the type (colour-blind-safe set). */
export const TYPE_PALETTE: readonly string[] = [
  '#0072b2',
  '#e69f00',
  '#009e73',
  '#cc79a7',
  '#56b4e9',
  '#d55e00',
  '#7a6c00',
  '#6a3d9a',
  '#b15928',
  '#1f78b4',
]

/** Nodes whose entity has no recorded type. */
export const UNTYPED_COLOR = '#8a8f98'
