import type { Context, MiddlewareHandler } from 'hono'
import type { BodyRules, Refusal, RequestGuard } from './guard'

/** How a surface words a refusal: a Honcho error body, a JSON-RPC error, a line of text. */
export type RefusalAnswer = (c: Context, refusal: Refusal) => Response

/** One line of plain text, the default answer. */
export const plainRefusal: RefusalAnswer = (c, refusal) => c.text(refusal.reason, refusal.status)

/**
 * The guard as the first Hono middleware of a surface: refuses what `guard.check` refuses before any route
 * reads the request, answers granted CORS preflights, and adds CORS headers for granted origins only.
 */
export function guardRequests(
  guard: RequestGuard,
  rules: BodyRules | ((path: string) => BodyRules),
  answer: RefusalAnswer = plainRefusal,
): MiddlewareHandler {
  const rulesFor = typeof rules === 'function' ? rules : () => rules
  return async (c, next) => {
    const refusal = guard.check(c.req.raw, rulesFor(c.req.path))
    if (refusal) return answer(c, refusal)
    const preflight = guard.preflight(c.req.raw)
    if (preflight) return preflight
    await next()
    for (const [name, value] of Object.entries(guard.corsHeaders(c.req.raw))) c.header(name, value)
  }
}
