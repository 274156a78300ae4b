import type { RequestGuard } from '@hymem/http-guard'
import type { HyMem } from 'hymem'

/** The part of the HyMem facade the inspector uses: reads through `inspect` and `augment`, writes through the facade's own methods. */
export type InspectorMemory = Pick<
  HyMem,
  'inspect' | 'augment' | 'retract' | 'alias' | 'notes' | 'profile' | 'workspaceId'
>

/** Bearer tokens and the workspaces each may use (`'*'` = all), as in the Honcho API. */
export interface InspectorAuthOptions {
  readonly tokens: Readonly<Record<string, readonly string[] | '*'>>
}

/** Events reported through the `log` option. */
export type InspectorLogEvent =
  | { readonly kind: 'error'; readonly method: string; readonly path: string; readonly error: unknown }
  | { readonly kind: 'write'; readonly action: string; readonly workspaceId: string; readonly detail: string }

export interface InspectorOptions {
  readonly memory: InspectorMemory
  /** With tokens every page needs `Authorization: Bearer` or a sign-in cookie; omit for an open loopback server. */
  readonly auth?: InspectorAuthOptions
  /**
   * The Host, Origin and body-type rules in front of every page. @default `new RequestGuard()`: loopback
   * host names only (a DNS-rebinding page cannot reach the inspector), no cross-origin writes, no CORS.
   */
  readonly guard?: RequestGuard
  /** Where the app is mounted. @default '/inspect' */
  readonly basePath?: string
  /** Folder of the built browser bundles. @default the package's `assets/` */
  readonly assetsDir?: string
  /** Key for sign-in cookies and CSRF tokens. @default random per app (sign-ins end on restart) */
  readonly secret?: Uint8Array
  readonly log?: (event: InspectorLogEvent) => void
}

/** Who is asking: the workspaces they may see and the key their CSRF tokens are bound to. */
export interface Principal {
  readonly allowed: '*' | ReadonlySet<string>
  readonly csrfKey: string
  /** How the request proved it: no auth configured, an Authorization header, or the sign-in cookie. */
  readonly via: 'open' | 'bearer' | 'cookie'
}

/** Hono variables the inspector's middleware sets. */
export interface InspectorEnv {
  Variables: {
    principal: Principal
    /** The CSRF token to put in this principal's forms. */
    csrf: string
  }
}
