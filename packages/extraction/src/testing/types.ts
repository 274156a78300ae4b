/** A request received by the fake server, as recorded in {@link FakeOpenAIServer.requests}. */
export interface FakeRequest {
  /** Which endpoint was hit. */
  readonly kind: 'chat' | 'embeddings' | 'models' | 'unknown'
  readonly method: string
  /** Path with the `/v1` prefix, e.g. `/v1/chat/completions`. */
  readonly path: string
  readonly headers: Readonly<Record<string, string | string[] | undefined>>
  /** The parsed JSON body (`undefined` when the body was empty or not JSON). */
  readonly body: unknown
  /** `model` from the body, when present. */
  readonly model: string | undefined
  /** Chat: content of the system message. */
  readonly system: string
  /** Chat: content of the last user message. */
  readonly user: string
  /** Chat: whether `response_format: { type: 'json_object' }` was requested. */
  readonly json: boolean
  /** Embeddings: the input texts. */
  readonly inputs: readonly string[]
  /** Position of the request since the server started (0-based). */
  readonly seq: number
  /** `performance.now()` when the request body was fully received. */
  readonly receivedAt: number
}

/**
 * A fault to inject instead of a normal answer:
 * - `rate_limit`: 429 with `Retry-After: <retryAfterSeconds>` (default 0) and an OpenAI-style error body;
 * - `server_error`: 500 (or `status`) with an error body;
 * - `timeout`: accept the request and never answer (the client's timeout must fire);
 * - `malformed_json`: 200 with `content-type: application/json` and a truncated JSON body;
 * - `unauthorized`: 401 "Incorrect API key provided";
 * - `model_not_found`: 404 "The model `<model>` does not exist";
 * - `bad_request`: 400 with `message` (e.g. to refuse JSON mode);
 * - `disconnect`: destroy the socket without an answer.
 */
export type FakeFault =
  | { kind: 'rate_limit'; retryAfterSeconds?: number }
  | { kind: 'server_error'; status?: number }
  | { kind: 'timeout' }
  | { kind: 'malformed_json' }
  | { kind: 'unauthorized' }
  | { kind: 'model_not_found' }
  | { kind: 'bad_request'; message: string }
  | { kind: 'disconnect' }

/** A scripted answer: chat text (`content`) or a JSON value serialised as the content, or a fault. */
export type FakeReply =
  | string
  | { content: string; usage?: { prompt_tokens: number; completion_tokens: number } }
  | { json: unknown }
  | { fault: FakeFault }
  /** Sends `body` verbatim as the JSON response (any endpoint), e.g. to return a wrong embedding count. */
  | { body: unknown; status?: number }

/**
 * Selects requests: a string matches a substring of the chat user message (or of any embedding input), a
 * RegExp is tested against the same text, a function gets the full {@link FakeRequest}.
 */
export type FakeRequestMatcher = string | RegExp | ((req: FakeRequest) => boolean)

/** Options of `startFakeOpenAIServer`. */
export interface FakeOpenAIServerOptions {
  /** When set, any other bearer token gets a 401. */
  apiKey?: string
  /** When set, a chat/embedding request for a model not listed gets a 404 model-not-found. */
  models?: readonly string[]
  /** Dimension of the deterministic embeddings (unless the request asks for `dimensions`). @default 64 */
  embeddingDimensions?: number
  /** Delay before every answer, in ms. @default 0 */
  latencyMs?: number
  /** Answer for chat requests no script matched. @default `'{}'` for JSON-mode requests, `'ok'` otherwise */
  defaultReply?: (req: FakeRequest) => FakeReply | Promise<FakeReply>
}

/** A running fake OpenAI-compatible server. */
export interface FakeOpenAIServer {
  /** Base URL including `/v1`, e.g. `http://127.0.0.1:41234/v1`; pass it as `baseURL` to a client. */
  readonly url: string
  /** Every request received, in arrival order (including those answered with a fault). */
  readonly requests: readonly FakeRequest[]
  /** Chat requests only (a filtered view of `requests`). */
  readonly chatRequests: readonly FakeRequest[]
  /** Embedding requests only. */
  readonly embeddingRequests: readonly FakeRequest[]
  /**
   * Answers requests matching `matcher` with `reply` (a value or a function of the request). Scripts are tried
   * in registration order; with `times` a script is used that many times and then removed. Chat requests
   * take any reply; embedding requests only use scripts replying with `{ body }` or `{ fault }`.
   */
  script(
    matcher: FakeRequestMatcher,
    reply: FakeReply | ((req: FakeRequest) => FakeReply | Promise<FakeReply>),
    opts?: { times?: number },
  ): void
  /** Injects `fault` on the next `times` requests (default 1) that match `match` (default: every request). */
  fail(fault: FakeFault, opts?: { times?: number; match?: FakeRequestMatcher }): void
  /** Requests currently being answered, and the most ever answered at once (to check client concurrency). */
  readonly stats: { readonly inFlight: number; readonly maxInFlight: number }
  /** Changes the delay before every answer. */
  setLatency(ms: number): void
  /** Forgets scripts, pending faults and recorded requests. */
  reset(): void
  /** Stops listening and destroys open sockets (including requests held by a `timeout` fault). */
  close(): Promise<void>
}
