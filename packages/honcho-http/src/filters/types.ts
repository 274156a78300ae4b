import type { Filter, FilterFieldKind } from '@hymem/core-store'

/** How a wire filter key maps to a store field. */
export interface WireField<F extends string> {
  readonly field: F
  readonly kind: FilterFieldKind
  /** The allowed values of an enumerated text field. */
  readonly values?: readonly string[]
}

/** A special key the route interprets itself (e.g. `peer_perspective` on search). */
export type SpecialFilter<F extends string> = (value: unknown) => Filter<F> | null

/** What a list route may filter on: its wire keys, each mapped to a store field. */
export interface FilterResource<F extends string> {
  /** Used in error messages. */
  readonly name: string
  readonly fields: Readonly<Record<string, WireField<F>>>
  readonly special?: Readonly<Record<string, SpecialFilter<F>>>
}
