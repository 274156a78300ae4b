import type { RequestGuard } from '@hymem/http-guard'
import type { HyMem } from 'hymem'
import type { HonchoLimits } from './http/limits'
import type { OperationDoc, RouteKey } from './openapi/types'
import type { QueueTracker } from './services/queue-tracker'

/** The part of the HyMem facade the Honcho server uses: its verbs, notes, forgetting, queue and records. */
export type HonchoMemory = Pick<
  HyMem,
  | 'augment'
  | 'logMessages'
  | 'profileData'
  | 'runtime'
  | 'serving'
  | 'dream'
  | 'retract'
  | 'conflicts'
  | 'history'
  | 'llm'
  | 'notes'
  | 'erase'
  | 'queue'
  | 'transaction'
  | 'workspaces'
  | 'sessions'
  | 'peers'
  | 'peerCards'
  | 'scopes'
  | 'messages'
  | 'conclusions'
>

/** Bearer tokens and the workspaces each may use (`'*'` = all, and the workspace list). */
export interface HonchoAuthOptions {
  readonly tokens: Readonly<Record<string, readonly string[] | '*'>>
}

/** Events reported through the `log` option (default: none). */
export type HonchoLogEvent =
  | {
      readonly kind: 'request'
      readonly method: string
      readonly path: string
      readonly status: number
      readonly ms: number
    }
  | { readonly kind: 'error'; readonly method: string; readonly path: string; readonly error: unknown }
  /** The client went away before the answer (an expected event: no stack). */
  | { readonly kind: 'client-aborted'; readonly method: string; readonly path: string }
  | { readonly kind: 'dream-scheduled'; readonly workspaceId: string }
  | { readonly kind: 'dream-failed'; readonly workspaceId: string; readonly error: unknown }

export interface HonchoAppOptions {
  readonly memory: HonchoMemory
  /** Omit for an open server (loopback use); with tokens every `/v3` request needs `Authorization: Bearer`. */
  readonly auth?: HonchoAuthOptions
  readonly limits?: Partial<HonchoLimits>
  /**
   * The Host, Origin and body-type rules in front of every route. @default `new RequestGuard()`: loopback
   * host names only, no cross-origin writes, JSON bodies as `application/json`, no CORS.
   */
  readonly guard?: RequestGuard
  readonly log?: (event: HonchoLogEvent) => void
  /** Schedule a background dream after messages are added. @default true */
  readonly backgroundDreaming?: boolean
  /** Routes the embedding server serves beside this app, for `/openapi.json` and `/docs`. */
  readonly documentedRoutes?: Readonly<Record<RouteKey, OperationDoc>>
  /**
   * Dreams run in other processes (`hymem worker`): no background dream is scheduled and `schedule_dream`
   * only acknowledges, the work being queued already. @default false
   */
  readonly dreamsElsewhere?: boolean
}

/** What every route group receives. */
export interface RouteDeps {
  readonly memory: HonchoMemory
  readonly limits: HonchoLimits
  readonly log: (event: HonchoLogEvent) => void
  readonly backgroundDreaming: boolean
  readonly dreamsElsewhere: boolean
  /** Dreams started by `schedule_dream`, per workspace, until they settle. */
  readonly dreams: Map<string, Promise<void>>
  /** Queue status memory across polls (dream units, totals that never shrink). */
  readonly queue: QueueTracker
}

/** Hono variables set by the middleware. */
export interface HonchoEnv {
  Variables: {
    /** Workspaces the caller may use: `'*'` or a set of ids. */
    allowed: '*' | ReadonlySet<string>
  }
}
