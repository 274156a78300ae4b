import type { Context, MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'

/**
 * Hono's body limit, judged from the `content-length` header whenever a request has one (and no
 * `transfer-encoding`), as Hono's middleware itself does — but without first reading `c.req.raw.body`. On
 * `@hono/node-server` that getter turns the lightweight request into a full web `Request` whose body is a
 * web stream, the most expensive step of a JSON POST. Chunked bodies are still counted by Hono's middleware.
 */
export function requestBodyLimit(
  maxSize: number,
  onError: (c: Context) => Response | Promise<Response>,
): MiddlewareHandler {
  const counted = bodyLimit({ maxSize, onError })
  return (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next()
    const length = c.req.header('content-length')
    if (length !== undefined && c.req.header('transfer-encoding') === undefined) {
      return Number.parseInt(length, 10) > maxSize ? Promise.resolve(onError(c)) : next()
    }
    return counted(c, next)
  }
}
