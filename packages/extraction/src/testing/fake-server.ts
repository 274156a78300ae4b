import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { _hashEmbedding } from '../embedding/hash-features'
import { estimateTokens } from '../llm/types'
import { encodeBase64, errorBody, matches, parseRequest, sendJson } from './http-helpers'
import type {
  FakeFault,
  FakeOpenAIServer,
  FakeOpenAIServerOptions,
  FakeReply,
  FakeRequest,
  FakeRequestMatcher,
} from './types'

interface Script {
  matcher: FakeRequestMatcher
  reply: FakeReply | ((req: FakeRequest) => FakeReply | Promise<FakeReply>)
  remaining: number
}

interface PendingFault {
  fault: FakeFault
  match: FakeRequestMatcher | undefined
  remaining: number
}

/**
 * Starts a real OpenAI-compatible HTTP server on 127.0.0.1 (ephemeral port) for tests. It serves
 * `POST /v1/chat/completions`, `POST /v1/embeddings` (deterministic hashed-feature vectors, the same as
 * `createFakeEmbeddings`) and `GET /v1/models`, records every request, answers chat requests from scripts
 * (first matching script wins, else `defaultReply`), and injects faults on demand.
 *
 * @example
 * const server = await startFakeOpenAIServer()
 * server.script('Atta', { json: { triples: [], markers: [], entity_types: [] } })
 * server.fail({ kind: 'rate_limit', retryAfterSeconds: 0 }, { times: 1 })
 * const llm = createOpenAICompatibleLLM({ apiKey: 'test', baseURL: server.url, model: 'fake-chat' })
 * await llm.complete({ system: 's', user: 'Atta works on MedFlow', json: true }) // 429, then the script
 * expect(server.chatRequests).toHaveLength(2)
 * await server.close()
 */
export async function startFakeOpenAIServer(
  options: FakeOpenAIServerOptions = {},
): Promise<FakeOpenAIServer> {
  const requests: FakeRequest[] = []
  let scripts: Script[] = []
  let faults: PendingFault[] = []
  let latencyMs = options.latencyMs ?? 0
  let inFlight = 0
  let maxInFlight = 0
  const sockets = new Set<Socket>()
  const models = options.models ?? ['fake-chat', 'fake-embedding']

  function takeFault(req: FakeRequest): FakeFault | undefined {
    const pending = faults.find((f) => f.match === undefined || matches(f.match, req))
    if (!pending) return undefined
    pending.remaining -= 1
    if (pending.remaining <= 0) faults = faults.filter((f) => f !== pending)
    return pending.fault
  }

  async function scriptedReply(req: FakeRequest): Promise<FakeReply> {
    const script = scripts.find((s) => matches(s.matcher, req))
    if (script) {
      script.remaining -= 1
      if (script.remaining <= 0) scripts = scripts.filter((s) => s !== script)
      return typeof script.reply === 'function' ? script.reply(req) : script.reply
    }
    if (options.defaultReply) return options.defaultReply(req)
    return req.json ? '{}' : 'ok'
  }

  function applyFault(fault: FakeFault, req: FakeRequest, res: ServerResponse): void {
    switch (fault.kind) {
      case 'rate_limit':
        sendJson(
          res,
          429,
          errorBody('Rate limit reached, slow down', 'rate_limit_error', 'rate_limit_exceeded'),
          {
            'retry-after': String(fault.retryAfterSeconds ?? 0),
          },
        )
        return
      case 'server_error':
        sendJson(res, fault.status ?? 500, errorBody('The server had an error', 'server_error', null))
        return
      case 'timeout':
        return
      case 'malformed_json':
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end('{"id": "chatcmpl-broken", "choices": [{"message": {"content": "{\\"tri')
        return
      case 'unauthorized':
        sendJson(
          res,
          401,
          errorBody('Incorrect API key provided', 'invalid_request_error', 'invalid_api_key'),
        )
        return
      case 'model_not_found':
        sendJson(
          res,
          404,
          errorBody(
            `The model \`${req.model ?? ''}\` does not exist`,
            'invalid_request_error',
            'model_not_found',
          ),
        )
        return
      case 'bad_request':
        sendJson(res, 400, errorBody(fault.message, 'invalid_request_error', null))
        return
      case 'disconnect':
        res.socket?.destroy()
        return
    }
  }

  function applySpecial(reply: FakeReply, req: FakeRequest, res: ServerResponse): boolean {
    if (typeof reply !== 'object') return false
    if ('fault' in reply) {
      applyFault(reply.fault, req, res)
      return true
    }
    if ('body' in reply) {
      sendJson(res, reply.status ?? 200, reply.body)
      return true
    }
    return false
  }

  async function answerChat(req: FakeRequest, res: ServerResponse): Promise<void> {
    const reply = await scriptedReply(req)
    if (applySpecial(reply, req, res)) return
    if (typeof reply === 'object' && ('body' in reply || 'fault' in reply)) return
    const content =
      typeof reply === 'string' ? reply : 'json' in reply ? JSON.stringify(reply.json) : reply.content
    const usage =
      typeof reply === 'object' && 'usage' in reply && reply.usage
        ? reply.usage
        : {
            prompt_tokens: estimateTokens(req.system) + estimateTokens(req.user),
            completion_tokens: estimateTokens(content),
          }
    sendJson(res, 200, {
      id: `chatcmpl-fake-${req.seq}`,
      object: 'chat.completion',
      created: 0,
      model: req.model ?? models[0],
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    })
  }

  async function answerEmbeddings(req: FakeRequest, res: ServerResponse): Promise<void> {
    const script = scripts.find((s) => matches(s.matcher, req))
    if (script) {
      script.remaining -= 1
      if (script.remaining <= 0) scripts = scripts.filter((s) => s !== script)
      const reply = typeof script.reply === 'function' ? await script.reply(req) : script.reply
      if (applySpecial(reply, req, res)) return
    }
    const b = (req.body ?? {}) as { dimensions?: unknown; encoding_format?: unknown }
    const dims = typeof b.dimensions === 'number' ? b.dimensions : (options.embeddingDimensions ?? 64)
    const base64 = b.encoding_format === 'base64'
    sendJson(res, 200, {
      object: 'list',
      model: req.model,
      data: req.inputs.map((text, index) => {
        const vec = _hashEmbedding(text, dims)
        return { object: 'embedding', index, embedding: base64 ? encodeBase64(vec) : Array.from(vec) }
      }),
      usage: { prompt_tokens: req.inputs.reduce((n, t) => n + estimateTokens(t), 0), total_tokens: 0 },
    })
  }

  async function handle(httpReq: IncomingMessage, res: ServerResponse, raw: string): Promise<void> {
    const req = parseRequest(requests.length, httpReq, raw, performance.now())
    requests.push(req)
    inFlight++
    maxInFlight = Math.max(maxInFlight, inFlight)
    res.on('close', () => {
      inFlight--
    })
    if (latencyMs > 0) await new Promise((r) => setTimeout(r, latencyMs))
    const fault = takeFault(req)
    if (fault) return applyFault(fault, req, res)
    if (options.apiKey !== undefined && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      return applyFault({ kind: 'unauthorized' }, req, res)
    }
    if (req.kind === 'models') {
      return sendJson(res, 200, {
        object: 'list',
        data: models.map((id) => ({ id, object: 'model', owned_by: 'fake' })),
      })
    }
    if (req.kind === 'unknown' || httpReq.method !== 'POST') {
      return sendJson(
        res,
        404,
        errorBody(`no route ${httpReq.method} ${req.path}`, 'invalid_request_error', null),
      )
    }
    if (req.body === undefined) {
      return sendJson(res, 400, errorBody('request body is not valid JSON', 'invalid_request_error', null))
    }
    if (options.models && (req.model === undefined || !options.models.includes(req.model))) {
      return applyFault({ kind: 'model_not_found' }, req, res)
    }
    if (req.kind === 'embeddings') return answerEmbeddings(req, res)
    return answerChat(req, res)
  }

  const server = createServer((httpReq, res) => {
    const parts: Buffer[] = []
    httpReq.on('data', (c: Buffer) => parts.push(c))
    httpReq.on('end', () => {
      handle(httpReq, res, Buffer.concat(parts).toString('utf8')).catch((err: unknown) => {
        if (!res.headersSent)
          sendJson(res, 500, errorBody(`fake server script failed: ${String(err)}`, 'server_error', null))
      })
    })
  })
  server.on('connection', (s) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    get chatRequests() {
      return requests.filter((r) => r.kind === 'chat')
    },
    get stats() {
      return { inFlight, maxInFlight }
    },
    get embeddingRequests() {
      return requests.filter((r) => r.kind === 'embeddings')
    },
    script(matcher, reply, opts) {
      scripts.push({ matcher, reply, remaining: opts?.times ?? Number.POSITIVE_INFINITY })
    },
    fail(fault, opts) {
      faults.push({ fault, match: opts?.match, remaining: opts?.times ?? 1 })
    },
    setLatency(ms) {
      latencyMs = ms
    },
    reset() {
      scripts = []
      faults = []
      requests.length = 0
      maxInFlight = inFlight
    },
    close() {
      for (const s of sockets) s.destroy()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
