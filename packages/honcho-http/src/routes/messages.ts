import type { NewMessage } from '@hymem/core-store'
import { type Context, Hono } from 'hono'
import * as v from 'valibot'
import { HonchoHttpError, notFound } from '../errors'
import { compileFilter, isoDate } from '../filters/compile'
import { MESSAGE_FILTERS } from '../filters/resources'
import { workspaceParam } from '../http/auth'
import { checkedJson, jsonBody, parseWith, queryOf } from '../http/validate'
import { splitText } from '../services/split-text'
import type { HonchoEnv, RouteDeps } from '../types'
import { stripNul } from '../wire/sanitize'
import {
  ListBodySchema,
  MessageConfigSchema,
  MetadataSchema,
  PageQuerySchema,
  PeerIdSchema,
  pageRequest,
} from '../wire/schemas'
import { messageOut, pageOut } from '../wire/shapes'

const CreatedAtSchema = v.pipe(
  v.string(),
  v.check(
    (s) => /^\d{4}-\d{2}-\d{2}/.test(s) && !Number.isNaN(Date.parse(s)),
    'Input should be a valid datetime',
  ),
)

export function createSchema(maxChars: number, maxBatch: number) {
  return v.looseObject({
    messages: v.pipe(
      v.array(
        v.looseObject({
          peer_id: PeerIdSchema,
          content: v.pipe(
            v.string(),
            v.maxLength(maxChars, `String should have at most ${maxChars} characters`),
          ),
          metadata: v.nullish(MetadataSchema),
          configuration: v.nullish(MessageConfigSchema),
          created_at: v.nullish(CreatedAtSchema),
        }),
      ),
      v.minLength(1, 'List should have at least 1 item'),
      v.maxLength(maxBatch, `List should have at most ${maxBatch} items`),
    ),
  })
}

export const UpdateSchema = v.looseObject({ metadata: MetadataSchema })

const UPLOAD_TYPES = new Map([
  ['text/plain', 'text'],
  ['text/markdown', 'text'],
  ['text/x-markdown', 'text'],
  ['application/json', 'json'],
])
const UPLOAD_EXTENSIONS = new Map([
  ['.txt', 'text'],
  ['.md', 'text'],
  ['.markdown', 'text'],
  ['.json', 'json'],
])

/** M1–M5: add (JSON or file upload), list, get and update messages. */
export function messageRoutes(deps: RouteDeps): Hono<HonchoEnv> {
  const { memory, limits } = deps
  const app = new Hono<HonchoEnv>()
  const CreateSchema = createSchema(limits.messageChars, limits.batchSize)

  const activeSession = async (ws: string, id: string) => {
    const session = await memory.sessions.get(ws, id)
    if (session && !session.isActive) throw notFound('Session', id)
  }

  // The wire body is validated once, here (valibot). The facade then checks only the ids (cheap, for its
  // library callers) and the store prepares each message once, counting its tokens.
  const ingest = async (ws: string, sessionId: string, messages: NewMessage[]) => {
    const logged = await memory.logMessages(sessionId, messages, { workspaceId: ws })
    if (deps.backgroundDreaming) {
      memory.queue.schedule(ws)
      deps.log({ kind: 'dream-scheduled', workspaceId: ws })
    }
    return logged
  }

  const create = async (c: Context<HonchoEnv>) => {
    const ws = workspaceParam(c)
    const sessionId = c.req.param('s') ?? ''
    const body = await jsonBody(c, CreateSchema)
    await activeSession(ws, sessionId)
    const messages: NewMessage[] = body.messages.map((m) => ({
      peerId: m.peer_id,
      content: m.content,
      ...(m.metadata ? { metadata: m.metadata } : {}),
      ...(m.created_at ? { createdAt: isoDate('created_at', m.created_at) } : {}),
    }))
    const logged = await ingest(ws, sessionId, messages)
    return c.json(
      logged.map((m) => messageOut(m)),
      201,
    )
  }
  app.post('/', create)

  app.post('/list', async (c) => {
    const ws = workspaceParam(c)
    const page = pageRequest(queryOf(c, PageQuerySchema))
    const body = await jsonBody(c, ListBodySchema)
    const filter = compileFilter(MESSAGE_FILTERS, body?.filters) ?? undefined
    const messages = await memory.messages.listBySession(ws, c.req.param('s') ?? '', page, filter)
    return c.json(pageOut(messages, (m) => messageOut(m)))
  })

  app.post('/upload', async (c) => {
    const ws = workspaceParam(c)
    const sessionId = c.req.param('s') ?? ''
    const type = c.req.header('content-type') ?? ''
    if (!type.toLowerCase().startsWith('multipart/form-data')) {
      throw new HonchoHttpError('UNSUPPORTED_MEDIA_TYPE', 'Uploads must be multipart/form-data')
    }
    let form: FormData
    try {
      form = await c.req.raw.formData()
    } catch (error) {
      if (error instanceof HonchoHttpError) throw error
      throw new HonchoHttpError('VALIDATION', 'Malformed multipart body', { cause: error })
    }
    const file = form.get('file')
    if (!(file instanceof Blob)) {
      throw new HonchoHttpError('VALIDATION', 'Field required: file', {
        issues: [{ type: 'missing', loc: ['body', 'file'], msg: 'Field required', input: null }],
      })
    }
    const peerId = parseWith(PeerIdSchema, stripNul(form.get('peer_id') ?? undefined), 'body')
    const metadata = parseWith(v.optional(MetadataSchema), jsonField(form, 'metadata'), 'body')
    parseWith(v.optional(MessageConfigSchema), jsonField(form, 'configuration'), 'body')
    const createdAtRaw = form.get('created_at')
    const createdAt =
      typeof createdAtRaw === 'string' && createdAtRaw !== ''
        ? isoDate('created_at', createdAtRaw)
        : undefined
    if (file.size > limits.uploadFileBytes) {
      throw new HonchoHttpError('PAYLOAD_TOO_LARGE', `File exceeds ${limits.uploadFileBytes} bytes`)
    }
    const name = file instanceof File ? file.name : ''
    const mime = file.type.split(';')[0]!.trim().toLowerCase()
    const extension = /\.[a-z]+$/i.exec(name)?.[0]?.toLowerCase() ?? ''
    const kind =
      UPLOAD_TYPES.get(mime) ??
      (mime.startsWith('text/') ? 'text' : undefined) ??
      (mime === '' || mime === 'application/octet-stream' ? UPLOAD_EXTENSIONS.get(extension) : undefined)
    if (!kind)
      throw new HonchoHttpError(
        'UNSUPPORTED_MEDIA_TYPE',
        `Unsupported file type: ${mime || extension || 'unknown'}`,
      )
    let text = stripNul(new TextDecoder('utf-8', { fatal: false }).decode(await file.arrayBuffer())) as string
    if (kind === 'json') {
      try {
        text = JSON.stringify(JSON.parse(text), null, 2)
      } catch (error) {
        throw new HonchoHttpError('VALIDATION', 'The uploaded JSON file is not valid JSON', { cause: error })
      }
    }
    await activeSession(ws, sessionId)
    const pieces = splitText(text, limits.messageChars)
    const logged = await ingest(
      ws,
      sessionId,
      pieces.map((content) => ({
        peerId,
        content,
        ...(metadata ? { metadata } : {}),
        ...(createdAt ? { createdAt } : {}),
      })),
    )
    return c.json(
      logged.map((m) => messageOut(m)),
      201,
    )
  })

  app.get('/:m', async (c) => {
    const ws = workspaceParam(c)
    const message = await memory.messages.getByPublicId(ws, c.req.param('m'))
    if (!message || message.sessionId !== c.req.param('s')) throw notFound('Message', c.req.param('m'))
    return c.json(messageOut(message))
  })

  app.put('/:m', async (c) => {
    const ws = workspaceParam(c)
    const body = await jsonBody(c, UpdateSchema)
    const existing = await memory.messages.getByPublicId(ws, c.req.param('m'))
    if (!existing || existing.sessionId !== c.req.param('s')) throw notFound('Message', c.req.param('m'))
    const message = await memory.messages.updateMetadata(ws, existing.publicId, body.metadata)
    if (!message) throw notFound('Message', c.req.param('m'))
    return c.json(messageOut(message))
  })

  return app
}

function jsonField(form: FormData, name: string): unknown {
  const raw = form.get(name)
  if (typeof raw !== 'string' || raw.trim() === '') return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch (error) {
    throw new HonchoHttpError('VALIDATION', `${name} must be a JSON object`, {
      cause: error,
      issues: [{ type: 'json_invalid', loc: ['body', name], msg: `${name} must be valid JSON`, input: raw }],
    })
  }
  return checkedJson(parsed, ['body', name])
}
