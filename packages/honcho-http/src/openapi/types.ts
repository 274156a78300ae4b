import type * as v from 'valibot'

type AnySchema = v.GenericSchema<unknown, unknown>

/** What the OpenAPI document says about one route; the route's own valibot schemas give its inputs. */
export interface OperationDoc {
  readonly summary: string
  /** Honcho's tag, or `hymem` for HyMem's extensions. */
  readonly tag: string
  readonly description?: string
  readonly body?: AnySchema
  /** A multipart form instead of a JSON body (file upload). */
  readonly form?: boolean
  /** An object schema whose entries are the query parameters. */
  readonly query?: AnySchema
  /** The success statuses (get-or-create routes answer 201 when they create, else 200). @default [200] */
  readonly statuses?: readonly number[]
  /** Set on routes that also answer `text/event-stream` (`stream: true`). */
  readonly streams?: boolean
}

/** One route, in Hono's form: `'POST /v3/workspaces/:ws/peers'`. */
export type RouteKey = `${'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'ALL'} /${string}`
