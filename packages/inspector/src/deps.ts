import type { Context } from 'hono'
import type { AssetStore } from './assets'
import type { PageFrame } from './render/layout'
import type { Guard } from './security/guard'
import type { InspectorEnv, InspectorOptions } from './types'

/** What the route groups share. */
export interface InspectorDeps {
  readonly options: InspectorOptions
  readonly base: string
  readonly guard: Guard
  readonly assets: AssetStore
  /** The page frame for this request (workspace switcher, CSRF token, notice). */
  frame(c: Context<InspectorEnv>, workspace: string | null, notice?: string | null): Promise<PageFrame>
  /** The workspace path parameter, if this caller may see it; otherwise a 404. */
  workspace(c: Context<InspectorEnv>): Promise<string>
}
