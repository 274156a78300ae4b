import type { Context, MiddlewareHandler } from 'hono'
import { HonchoHttpError, notFound } from '../errors'
import type { HonchoAuthOptions, HonchoEnv } from '../types'

/** Resolves the bearer token to the workspaces it may use; 401 when auth is on and the token is missing or unknown. */
export function authMiddleware(auth: HonchoAuthOptions | undefined): MiddlewareHandler<HonchoEnv> {
  const tokens = new Map<string, '*' | ReadonlySet<string>>()
  for (const [token, workspaces] of Object.entries(auth?.tokens ?? {})) {
    tokens.set(token, workspaces === '*' ? '*' : new Set(workspaces))
  }
  return async (c, next) => {
    if (!auth) {
      c.set('allowed', '*')
      return next()
    }
    const header = c.req.header('authorization') ?? ''
    const match = /^Bearer\s+(.+)$/i.exec(header.trim())
    const allowed = match ? tokens.get(match[1]!.trim()) : undefined
    if (!allowed) {
      throw new HonchoHttpError('UNAUTHORIZED', match ? 'Invalid authentication token' : 'Not authenticated')
    }
    c.set('allowed', allowed)
    return next()
  }
}

export function mayUse(c: Context<HonchoEnv>, workspaceId: string): boolean {
  const allowed = c.get('allowed')
  return allowed === '*' || allowed.has(workspaceId)
}

/** The `:ws` path parameter, or a 404 (never 403: other workspaces' existence is not revealed). */
export function workspaceParam(c: Context<HonchoEnv>): string {
  const ws = c.req.param('ws') ?? ''
  if (!mayUse(c, ws)) throw notFound('Workspace', ws)
  return ws
}
