import type { RawBuilder, SqlBool } from 'kysely'

/** How a filterable column is compared. `json` is a metadata object; `json-array` an array of ids. */
export type ColumnKind = 'text' | 'int' | 'bool' | 'date' | 'enum' | 'json' | 'json-array'

export interface ColumnSpec {
  /** Qualified SQL column reference, e.g. `messages.peer_id`. */
  readonly ref: string
  readonly kind: ColumnKind
  /** Allowed values of an `enum` column. */
  readonly values?: readonly string[]
}

/** A special key the route interprets itself (e.g. `peer_perspective` on search). */
export type SpecialFilter = (value: unknown) => RawBuilder<SqlBool> | null

export interface FilterResource {
  /** Used in error messages. */
  readonly name: string
  readonly columns: Readonly<Record<string, ColumnSpec>>
  readonly special?: Readonly<Record<string, SpecialFilter>>
}

export type Condition = RawBuilder<SqlBool>
