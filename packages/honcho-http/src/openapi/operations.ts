import { DEFAULT_LIMITS } from '../http/limits'
import {
  AugmentSchema,
  DeletionsQuerySchema,
  HistoryQuerySchema,
  MessageIdsSchema,
  NoteQuerySchema,
  NotesQuerySchema,
} from '../routes/hymem'
import { createSchema, UpdateSchema } from '../routes/messages'
import { AddSessionsSchema, ScopeCreateSchema } from '../routes/scopes'
import { RemovePeersSchema } from '../routes/session-peers'
import { CloneQuerySchema } from '../routes/sessions'
import { QueueQuerySchema, ScheduleDreamSchema } from '../routes/workspaces'
import {
  ListBodySchema,
  MetadataUpdateSchema,
  PageQuerySchema,
  PeerCreateSchema,
  PeerUpdateSchema,
  SearchBodySchema,
  SessionCreateSchema,
  SessionPeerConfigSchema,
  SessionPeersMapSchema,
  WorkspaceCreateSchema,
} from '../wire/schemas'
import {
  CardBodySchema,
  CardQuerySchema,
  ChatBodySchema,
  ConclusionCreateSchema,
  ConclusionQuerySchema,
  PeerContextQuerySchema,
  RepresentationBodySchema,
  SessionContextQuerySchema,
} from '../wire/schemas-memory'
import type { OperationDoc, RouteKey } from './types'

/** Honcho's path parameter names for the short names of our mount paths. */
export const PATH_PARAMETERS: Readonly<Record<string, string>> = {
  ws: 'workspace_id',
  p: 'peer_id',
  s: 'session_id',
  m: 'message_id',
  c: 'conclusion_id',
  sc: 'scope_id',
  n: 'note_id',
}

const W = '/v3/workspaces'
const P = `${W}/:ws/peers/:p`
const S = `${W}/:ws/sessions/:s`
const SC = `${W}/:ws/scopes/:sc`
const H = `${W}/:ws/hymem`
const MessageCreateSchema = createSchema(DEFAULT_LIMITS.messageChars, DEFAULT_LIMITS.batchSize)
const CREATED_OR_FOUND = [201, 200]
const page = { query: PageQuerySchema }
const list = { query: PageQuerySchema, body: ListBodySchema }

/** Every route of `createHonchoApp`, documented. A test fails when a served route is missing here. */
export const HONCHO_OPERATIONS: Readonly<Record<RouteKey, OperationDoc>> = {
  'GET /health': {
    tag: 'system',
    summary: 'Liveness; `?verbose` adds event-loop delay and the dream runner',
  },
  'GET /openapi.json': { tag: 'system', summary: 'This OpenAPI 3.1 document' },
  'GET /docs': { tag: 'system', summary: 'This API reference as a self-contained HTML page' },

  [`POST ${W}`]: {
    tag: 'workspaces',
    summary: 'Get or create a workspace',
    body: WorkspaceCreateSchema,
    statuses: CREATED_OR_FOUND,
  },
  [`POST ${W}/list`]: { tag: 'workspaces', summary: 'List workspaces', ...list },
  [`PUT ${W}/:ws`]: { tag: 'workspaces', summary: 'Update a workspace', body: MetadataUpdateSchema },
  [`DELETE ${W}/:ws`]: {
    tag: 'workspaces',
    summary: 'Delete a workspace with no active sessions',
    statuses: [202],
  },
  [`POST ${W}/:ws/search`]: {
    tag: 'workspaces',
    summary: 'Search messages of a workspace',
    body: SearchBodySchema,
  },
  [`GET ${W}/:ws/queue/status`]: {
    tag: 'workspaces',
    summary: 'Dreaming queue status',
    query: QueueQuerySchema,
  },
  [`POST ${W}/:ws/schedule_dream`]: {
    tag: 'workspaces',
    summary: 'Start a dream now',
    body: ScheduleDreamSchema,
    statuses: [204],
  },
  [`POST ${W}/:ws/chat`]: {
    tag: 'workspaces',
    summary: 'Ask the workspace memory a question',
    body: ChatBodySchema,
    streams: true,
  },

  [`POST ${W}/:ws/peers`]: {
    tag: 'peers',
    summary: 'Get or create a peer',
    body: PeerCreateSchema,
    statuses: CREATED_OR_FOUND,
  },
  [`POST ${W}/:ws/peers/list`]: { tag: 'peers', summary: 'List peers', ...list },
  [`PUT ${P}`]: { tag: 'peers', summary: 'Update a peer', body: PeerUpdateSchema },
  [`POST ${P}/sessions`]: { tag: 'peers', summary: 'List the sessions of a peer', ...list },
  [`POST ${P}/chat`]: {
    tag: 'peers',
    summary: 'Ask what is known about a peer',
    body: ChatBodySchema,
    streams: true,
  },
  [`POST ${P}/search`]: { tag: 'peers', summary: 'Search the messages of a peer', body: SearchBodySchema },
  [`POST ${P}/representation`]: {
    tag: 'peers',
    summary: 'A peer’s representation (conclusions as text)',
    body: RepresentationBodySchema,
  },
  [`GET ${P}/context`]: {
    tag: 'peers',
    summary: 'A peer’s representation and card',
    query: PeerContextQuerySchema,
  },
  [`GET ${P}/card`]: { tag: 'peers', summary: 'A peer card', query: CardQuerySchema },
  [`PUT ${P}/card`]: {
    tag: 'peers',
    summary: 'Replace a peer card',
    query: CardQuerySchema,
    body: CardBodySchema,
  },

  [`POST ${W}/:ws/sessions`]: {
    tag: 'sessions',
    summary: 'Get or create a session',
    body: SessionCreateSchema,
    statuses: CREATED_OR_FOUND,
  },
  [`POST ${W}/:ws/sessions/list`]: { tag: 'sessions', summary: 'List sessions', ...list },
  [`PUT ${S}`]: { tag: 'sessions', summary: 'Update a session', body: MetadataUpdateSchema },
  [`DELETE ${S}`]: { tag: 'sessions', summary: 'Delete a session and what derives from it', statuses: [202] },
  [`POST ${S}/clone`]: {
    tag: 'sessions',
    summary: 'Clone a session',
    query: CloneQuerySchema,
    statuses: [201],
  },
  [`GET ${S}/context`]: {
    tag: 'sessions',
    summary: 'Session context: messages, summary, peer representation and card within a token budget',
    query: SessionContextQuerySchema,
  },
  [`GET ${S}/summaries`]: { tag: 'sessions', summary: 'Short and long session summaries' },
  [`POST ${S}/search`]: {
    tag: 'sessions',
    summary: 'Search the messages of a session',
    body: SearchBodySchema,
  },

  [`POST ${S}/peers`]: { tag: 'sessions', summary: 'Add peers to a session', body: SessionPeersMapSchema },
  [`PUT ${S}/peers`]: { tag: 'sessions', summary: 'Set the peers of a session', body: SessionPeersMapSchema },
  [`DELETE ${S}/peers`]: { tag: 'sessions', summary: 'Remove peers from a session', body: RemovePeersSchema },
  [`GET ${S}/peers`]: { tag: 'sessions', summary: 'List the peers of a session', ...page },
  [`GET ${S}/peers/:p/config`]: { tag: 'sessions', summary: 'A peer’s configuration in a session' },
  [`PUT ${S}/peers/:p/config`]: {
    tag: 'sessions',
    summary: 'Set a peer’s configuration in a session',
    body: SessionPeerConfigSchema,
    statuses: [204],
  },

  [`POST ${S}/messages`]: {
    tag: 'messages',
    summary: 'Add messages to a session',
    body: MessageCreateSchema,
    statuses: [201],
  },
  [`POST ${S}/messages/list`]: { tag: 'messages', summary: 'List messages', ...list },
  [`POST ${S}/messages/upload`]: {
    tag: 'messages',
    summary:
      'Add a text, Markdown or JSON file as messages (multipart: file, peer_id, metadata, configuration)',
    form: true,
    statuses: [201],
  },
  [`GET ${S}/messages/:m`]: { tag: 'messages', summary: 'Get a message' },
  [`PUT ${S}/messages/:m`]: { tag: 'messages', summary: 'Update a message’s metadata', body: UpdateSchema },

  [`POST ${W}/:ws/conclusions`]: {
    tag: 'conclusions',
    summary: 'Create conclusions as given (exact re-statements are dropped)',
    body: ConclusionCreateSchema,
    statuses: [201],
  },
  [`POST ${W}/:ws/conclusions/list`]: { tag: 'conclusions', summary: 'List conclusions', ...list },
  [`POST ${W}/:ws/conclusions/query`]: {
    tag: 'conclusions',
    summary: 'Search conclusions',
    body: ConclusionQuerySchema,
  },
  [`GET ${W}/:ws/conclusions/:c`]: { tag: 'conclusions', summary: 'Get a conclusion' },
  [`DELETE ${W}/:ws/conclusions/:c`]: { tag: 'conclusions', summary: 'Delete a conclusion', statuses: [204] },

  [`POST ${W}/:ws/scopes`]: {
    tag: 'scopes',
    summary: 'Get or create a scope',
    body: ScopeCreateSchema,
    statuses: CREATED_OR_FOUND,
  },
  [`POST ${W}/:ws/scopes/list`]: { tag: 'scopes', summary: 'List scopes', ...page },
  [`GET ${SC}`]: { tag: 'scopes', summary: 'Get a scope' },
  [`POST ${SC}/sessions`]: {
    tag: 'scopes',
    summary: 'Add sessions to a scope',
    body: AddSessionsSchema,
    statuses: [204],
  },
  [`DELETE ${SC}/sessions/:s`]: { tag: 'scopes', summary: 'Remove a session from a scope', statuses: [204] },
  [`POST ${SC}/sessions/list`]: { tag: 'scopes', summary: 'List the sessions of a scope', ...page },
  [`GET ${SC}/status`]: { tag: 'scopes', summary: 'Dreaming status of a scope' },

  [`DELETE ${H}/messages/:m`]: {
    tag: 'hymem',
    summary: 'Forget one message and what derives from it',
    statuses: [202],
  },
  [`POST ${H}/messages/delete`]: {
    tag: 'hymem',
    summary: 'Forget messages by id',
    body: MessageIdsSchema,
    statuses: [202],
  },
  [`DELETE ${H}/peers/:p/messages`]: {
    tag: 'hymem',
    summary: 'Forget every message of a peer',
    statuses: [202],
  },
  [`GET ${H}/deletions`]: { tag: 'hymem', summary: 'Recent deletion receipts', query: DeletionsQuerySchema },
  [`GET ${H}/notes`]: { tag: 'hymem', summary: 'List explicit notes', query: NotesQuerySchema },
  [`GET ${H}/notes/:n`]: { tag: 'hymem', summary: 'Get a note', query: NoteQuerySchema },
  [`DELETE ${H}/notes/:n`]: { tag: 'hymem', summary: 'Forget (archive) a note', statuses: [202] },
  [`POST ${H}/augment`]: {
    tag: 'hymem',
    summary: 'Ranked, explained context for a message (HyMem’s augment), optionally as of a time',
    body: AugmentSchema,
  },
  [`GET ${H}/history`]: { tag: 'hymem', summary: 'The fact history of an entity', query: HistoryQuerySchema },
  [`GET ${H}/conflicts`]: { tag: 'hymem', summary: 'Conflicting facts' },
  [`GET ${W}/:ws/conflicts`]: { tag: 'hymem', summary: 'Conflicting facts (older path)' },
}
