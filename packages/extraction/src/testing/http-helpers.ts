import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FakeRequest, FakeRequestMatcher } from './types'

export function matches(matcher: FakeRequestMatcher, req: FakeRequest): boolean {
  if (typeof matcher === 'function') return matcher(req)
  const haystacks = req.kind === 'embeddings' ? req.inputs : [req.user]
  return haystacks.some((h) => (typeof matcher === 'string' ? h.includes(matcher) : matcher.test(h)))
}

function kindOf(path: string): FakeRequest['kind'] {
  if (path.endsWith('/chat/completions')) return 'chat'
  if (path.endsWith('/embeddings')) return 'embeddings'
  if (path.endsWith('/models')) return 'models'
  return 'unknown'
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content
  if (Array.isArray(content)) {
    return content.map((p) => (p && typeof p === 'object' && 'text' in p ? String(p.text) : '')).join('')
  }
  return ''
}

export function parseRequest(
  seq: number,
  req: IncomingMessage,
  raw: string,
  receivedAt: number,
): FakeRequest {
  const path = (req.url ?? '/').split('?')[0] ?? '/'
  let body: unknown
  try {
    body = raw ? JSON.parse(raw) : undefined
  } catch {
    body = undefined
  }
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>
  const messages = Array.isArray(b.messages) ? (b.messages as { role?: unknown; content?: unknown }[]) : []
  const system = messages
    .filter((m) => m.role === 'system')
    .map((m) => contentText(m.content))
    .join('\n')
  const users = messages.filter((m) => m.role === 'user')
  const rf = b.response_format as { type?: unknown } | undefined
  const input = b.input
  return {
    kind: kindOf(path),
    method: req.method ?? 'GET',
    path,
    headers: req.headers,
    body,
    model: typeof b.model === 'string' ? b.model : undefined,
    system,
    user: contentText(users.at(-1)?.content),
    json: rf?.type === 'json_object',
    inputs: typeof input === 'string' ? [input] : Array.isArray(input) ? input.map(String) : [],
    seq,
    receivedAt,
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
) {
  const text = JSON.stringify(value)
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  })
  res.end(text)
}

export function errorBody(message: string, type: string, code: string | null) {
  return { error: { message, type, param: null, code } }
}

export function encodeBase64(vec: Float32Array): string {
  return Buffer.from(vec.buffer, vec.byteOffset, vec.byteLength).toString('base64')
}
