import { sql } from 'kysely'
import { StoreError } from '../kernel/errors'
import { requireInteger, requireText } from './checks'
import { requireId } from './json'
import type { RepositoryScope } from './scope'

/** Where a term first came up in a session, said by one author. */
export interface TopicMention {
  readonly sessionId: string
  readonly peerId: string
  readonly term: string
  readonly messageId: number
  readonly createdAt: string
}

/** A user-role turn stating a standing rule or preference ("Always …", "I prefer …"). */
export interface StandingRule {
  readonly messageId: number
  readonly sessionId: string
  readonly peerId: string
  readonly createdAt: string
}

/** A session the topic index has not read to its end. */
export interface TopicBacklog {
  readonly sessionId: string
  /** Read the session's messages after this id (0: from its start). */
  readonly afterId: number
  /** How many of the session's messages were read before (0 when reading from the start). */
  readonly messagesRead: number
  /** A message the index had read is gone (forgotten): the session is read again from its start. */
  readonly restart: boolean
}

/** One page of a session read by the topic index, written in one transaction. */
export interface TopicPage {
  /** Clear the session's mentions first (a restart). */
  readonly restart: boolean
  /** New first mentions (a term the session already holds for that author keeps its first). */
  readonly mentions: readonly Omit<TopicMention, 'sessionId'>[]
  /** The page's turns that state a standing rule (cleared with the mentions on a restart). */
  readonly rules?: readonly Omit<StandingRule, 'sessionId'>[]
  /** The last message read, and how many of the session's messages have been read through it. */
  readonly lastMessageId: number
  readonly messagesRead: number
}

export interface StandingRuleQuery {
  /** Only the rules this author gave. */
  readonly peerId?: string
  /** Only rules given in these sessions. */
  readonly sessionIds?: readonly string[]
  /** @default 200 */
  readonly limit?: number
}

export interface FirstMentionQuery {
  /** Only these sessions. */
  readonly sessionIds?: readonly string[]
  /** Only what this author said. */
  readonly peerId?: string
  /** @default 500 */
  readonly limit?: number
}

/**
 * The topic index (`topic_mentions`, `topic_progress`; migration 11): the first mention of each term in each
 * session, per author, which questions over the whole conversation enumerate. Dreaming keeps it (see
 * `listBacklog` and `record`); a mention goes with its message.
 */
export interface TopicsRepository {
  /** Sessions with messages the index has not read, or that lost a message it read; by session id. */
  listBacklog(workspaceId: string): Promise<TopicBacklog[]>
  /** The terms the session already holds, as `peerId + '\n' + term`. */
  listSessionKeys(workspaceId: string, sessionId: string): Promise<Set<string>>
  /** Writes one page of a session (see {@link TopicPage}) in one transaction. */
  record(workspaceId: string, sessionId: string, page: TopicPage): Promise<void>
  /** The first mentions of `terms`, oldest first (at most `limit`). */
  firstMentions(
    workspaceId: string,
    terms: readonly string[],
    query?: FirstMentionQuery,
  ): Promise<TopicMention[]>
  /** The user turns stating a standing rule, newest first (at most `limit`). */
  standingRules(workspaceId: string, query?: StandingRuleQuery): Promise<StandingRule[]>
  /** In how many sessions each of `terms` came up (terms that never did are absent), and how many sessions hold any. */
  sessionCounts(
    workspaceId: string,
    terms: readonly string[],
  ): Promise<{ terms: Map<string, number>; sessions: number }>
}

/** Rows per INSERT: six parameters each stays far below every engine's limit. */
const INSERT_ROWS = 500
const DEFAULT_LIMIT = 500
const DEFAULT_RULES_LIMIT = 200

export const topicKey = (peerId: string, term: string): string => `${peerId}\n${term}`

export function createTopicsRepository(scope: RepositoryScope): TopicsRepository {
  const { db, engine } = scope
  return {
    async listBacklog(workspaceId) {
      requireId(workspaceId, 'workspace id')
      const { rows } = await sql<{
        session_id: string
        last_message_id: number | string | null
        messages_read: number | string | null
        read_now: number | string
        newest: number | string | null
      }>`
        SELECT s.id AS session_id, p.last_message_id, p.messages_read,
          (SELECT count(*) FROM messages m WHERE m.workspace_id = s.workspace_id AND m.session_id = s.id
             AND m.id <= coalesce(p.last_message_id, 0)) AS read_now,
          (SELECT max(m.id) FROM messages m WHERE m.workspace_id = s.workspace_id AND m.session_id = s.id) AS newest
        FROM sessions s
        LEFT JOIN topic_progress p ON p.workspace_id = s.workspace_id AND p.session_id = s.id
        WHERE s.workspace_id = ${workspaceId}
        ORDER BY s.id`.execute(db)
      const out: TopicBacklog[] = []
      for (const row of rows) {
        const last = Number(row.last_message_id ?? 0)
        const read = Number(row.messages_read ?? 0)
        const newest = Number(row.newest ?? 0)
        const restart = Number(row.read_now) !== read
        if (restart) out.push({ sessionId: row.session_id, afterId: 0, messagesRead: 0, restart })
        else if (newest > last)
          out.push({ sessionId: row.session_id, afterId: last, messagesRead: read, restart })
      }
      return out
    },
    async listSessionKeys(workspaceId, sessionId) {
      requireId(workspaceId, 'workspace id')
      requireId(sessionId, 'session id')
      const rows = await db
        .selectFrom('topic_mentions')
        .select(['peer_id', 'term'])
        .where('workspace_id', '=', workspaceId)
        .where('session_id', '=', sessionId)
        .execute()
      return new Set(rows.map((row) => topicKey(row.peer_id, row.term)))
    },
    async record(workspaceId, sessionId, page) {
      requireId(workspaceId, 'workspace id')
      requireId(sessionId, 'session id')
      requireInteger(page.lastMessageId, 'last message id')
      requireInteger(page.messagesRead, 'messages read')
      if (!Array.isArray(page.mentions)) throw new StoreError('INVALID_INPUT', 'mentions must be a list')
      const rows = page.mentions.map((mention) => ({
        workspace_id: workspaceId,
        session_id: sessionId,
        peer_id: requireText(mention.peerId, 'peer id'),
        term: requireText(mention.term, 'term'),
        message_id: requireInteger(mention.messageId, 'message id'),
        created_at: requireText(mention.createdAt, 'created at'),
      }))
      const rules = (page.rules ?? []).map((rule) => ({
        message_id: requireInteger(rule.messageId, 'message id'),
        workspace_id: workspaceId,
        session_id: sessionId,
        peer_id: requireText(rule.peerId, 'peer id'),
        created_at: requireText(rule.createdAt, 'created at'),
      }))
      await scope.write(async (tx) => {
        if (page.restart)
          for (const table of ['topic_mentions', 'standing_rules'] as const)
            await tx
              .deleteFrom(table)
              .where('workspace_id', '=', workspaceId)
              .where('session_id', '=', sessionId)
              .execute()
        for (let at = 0; at < rules.length; at += INSERT_ROWS)
          await tx
            .insertInto('standing_rules')
            .values(rules.slice(at, at + INSERT_ROWS))
            .onConflict((oc) => oc.doNothing())
            .execute()
        for (let at = 0; at < rows.length; at += INSERT_ROWS)
          await tx
            .insertInto('topic_mentions')
            .values(rows.slice(at, at + INSERT_ROWS))
            .onConflict((oc) => oc.doNothing())
            .execute()
        const progress = {
          last_message_id: page.lastMessageId,
          messages_read: page.messagesRead,
        }
        await tx
          .insertInto('topic_progress')
          .values({ workspace_id: workspaceId, session_id: sessionId, ...progress })
          .onConflict((oc) => oc.columns(['workspace_id', 'session_id']).doUpdateSet(progress))
          .execute()
      })
    },
    async firstMentions(workspaceId, terms, query = {}) {
      requireId(workspaceId, 'workspace id')
      if (terms.length === 0) return []
      const limit = query.limit ?? DEFAULT_LIMIT
      if (!Number.isSafeInteger(limit) || limit < 1)
        throw new StoreError('INVALID_INPUT', 'limit must be a positive integer')
      if (query.sessionIds?.length === 0) return []
      const conditions = [
        sql`workspace_id = ${workspaceId}`,
        engine.inIdList(
          'term',
          terms.map((term) => requireText(term, 'term')),
        ),
        ...(query.sessionIds ? [engine.inIdList('session_id', query.sessionIds)] : []),
        ...(query.peerId !== undefined ? [sql`peer_id = ${requireId(query.peerId, 'peer id')}`] : []),
      ]
      const { rows } = await sql<{
        session_id: string
        peer_id: string
        term: string
        message_id: number | string
        created_at: string
      }>`
        SELECT session_id, peer_id, term, message_id, created_at FROM topic_mentions
        WHERE ${sql.join(conditions, sql` AND `)}
        ORDER BY created_at, message_id, term LIMIT ${limit}`.execute(db)
      return rows.map((row) => ({
        sessionId: row.session_id,
        peerId: row.peer_id,
        term: row.term,
        messageId: Number(row.message_id),
        createdAt: row.created_at,
      }))
    },
    async standingRules(workspaceId, query = {}) {
      requireId(workspaceId, 'workspace id')
      const limit = query.limit ?? DEFAULT_RULES_LIMIT
      if (!Number.isSafeInteger(limit) || limit < 1)
        throw new StoreError('INVALID_INPUT', 'limit must be a positive integer')
      if (query.sessionIds?.length === 0) return []
      const rows = await db
        .selectFrom('standing_rules')
        .select(['message_id', 'session_id', 'peer_id', 'created_at'])
        .where('workspace_id', '=', workspaceId)
        .$if(query.peerId !== undefined, (q) => q.where('peer_id', '=', requireId(query.peerId, 'peer id')))
        .$if(query.sessionIds !== undefined, (q) =>
          q.where(engine.inIdList('session_id', query.sessionIds ?? [])),
        )
        .orderBy('created_at', 'desc')
        .orderBy('message_id', 'desc')
        .limit(limit)
        .execute()
      return rows.map((row) => ({
        messageId: Number(row.message_id),
        sessionId: row.session_id,
        peerId: row.peer_id,
        createdAt: row.created_at,
      }))
    },
    async sessionCounts(workspaceId, terms) {
      requireId(workspaceId, 'workspace id')
      const [counted, total] = await Promise.all([
        terms.length === 0
          ? Promise.resolve({ rows: [] as { term: string; sessions: number | string }[] })
          : sql<{ term: string; sessions: number | string }>`
              SELECT term, count(DISTINCT session_id) AS sessions FROM topic_mentions
              WHERE workspace_id = ${workspaceId} AND ${engine.inIdList('term', terms)}
              GROUP BY term`.execute(db),
        db
          .selectFrom('topic_progress')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('workspace_id', '=', workspaceId)
          .executeTakeFirstOrThrow(),
      ])
      return {
        terms: new Map(counted.rows.map((row) => [row.term, Number(row.sessions)])),
        sessions: Number(total.n),
      }
    },
  }
}
