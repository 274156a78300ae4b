import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import type { FullTextRebuildProgress } from '../src/search/types'
import { builderOf } from '../src/store/builder'
import type { Store } from '../src/store/types'
import type { BackendUnderTest } from './backends'
import { addChunk, addNote } from './fixtures'

/** One script's samples: `messages[0]` is the one `question` must find first. */
export interface ScriptSamples {
  readonly script: string
  readonly messages: readonly string[]
  readonly question: string
}

/** The multilingual corpus (zh, ja, ko, th, ru, el, ar, hi and English distractors) of `fixtures/`. */
export const MULTILINGUAL: {
  readonly english: readonly string[]
  readonly scripts: readonly ScriptSamples[]
} = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures/multilingual.json'), 'utf8'))

async function insertCorpus(store: Store): Promise<Map<string, number>> {
  const texts = [...MULTILINGUAL.english, ...MULTILINGUAL.scripts.flatMap((samples) => samples.messages)]
  const rows = await store.messages.insertBatch(
    'w',
    's',
    texts.map((content) => ({ peerId: 'u', content })),
  )
  return new Map(rows.map((row, at) => [texts[at]!, row.id]))
}

/** Each script's first message hit for its question (the text, or undefined when nothing matched). */
async function firstPerScript(
  store: Store,
  ids: Map<string, number>,
): Promise<Record<string, string | undefined>> {
  const firsts: Record<string, string | undefined> = {}
  for (const { script, question } of MULTILINGUAL.scripts) {
    const [best] = await store.fullText.search('messages', question, {
      workspaceId: 'w',
      limit: 5,
      skipCommonWords: true,
    })
    firsts[script] = [...ids].find(([, id]) => id === best?.id)?.[0]
  }
  return firsts
}

/**
 * Breaks the index under the rows, as a crash, a bug or a changed schema function would: SQLite's FTS5
 * tables lose every entry; PostgreSQL's generated columns are recomputed by an `hymem_fts_text` that
 * returns nothing.
 */
async function loseIndex(store: Store): Promise<void> {
  const db = builderOf(store)
  if (store.backend === 'sqlite') {
    for (const fts of ['messages_fts', 'chunks_fts'])
      await sql`INSERT INTO ${sql.raw(fts)}(${sql.raw(fts)}) VALUES ('delete-all')`.execute(db)
    return
  }
  await sql`CREATE OR REPLACE FUNCTION hymem_fts_text(value text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT RETURN ''`.execute(db)
  await sql`UPDATE messages SET content = content`.execute(db)
  await sql`UPDATE chunks SET text = text`.execute(db)
}

/** Full text in every script, run against every backend: both engines must find the same messages first. */
export function describeMultilingualContract(backend: BackendUnderTest) {
  describe(`full text in every script: ${backend.label}`, { timeout: 120_000 }, () => {
    const stores = backend.use()

    it('finds the message sharing a word with a same-language question first, in every script', async () => {
      const store = await stores.open()
      const ids = await insertCorpus(store)
      expect(await firstPerScript(store, ids)).toEqual(
        Object.fromEntries(MULTILINGUAL.scripts.map(({ script, messages }) => [script, messages[0]])),
      )
    })

    it('rebuild() indexes every row again, which brings back every script after the index lost them', async () => {
      const store = await stores.open()
      const ids = await insertCorpus(store)
      const chunk = await addChunk(store, 'w', 'ユーザーは東京でサーバーを運用している')
      const before = await firstPerScript(store, ids)
      await loseIndex(store)
      expect(Object.values(await firstPerScript(store, ids)).filter(Boolean)).toEqual([])
      expect(await store.fullText.search('chunks', '東京', { workspaceId: 'w', limit: 5 })).toEqual([])

      const events: FullTextRebuildProgress[] = []
      const rows = await store.fullText.rebuild((event) => events.push(event))
      const messages = await store.messages.count('w')
      expect(rows).toEqual({ messages, chunks: 1, episodes: 0, procedures: 0, notes: 0, passages: 0 })
      expect(events.filter((e) => e.table === 'messages').at(-1)).toEqual({
        table: 'messages',
        done: messages,
        total: messages,
      })
      expect(await firstPerScript(store, ids)).toEqual(before)
      const hits = await store.fullText.search('chunks', '東京', { workspaceId: 'w', limit: 5 })
      expect(hits.map((h) => h.id)).toEqual([chunk])
    })

    it('indexes both parts of mixed text and finds words inside unspaced runs', async () => {
      const store = await stores.open()
      const [mixed, other] = await store.messages.insertBatch('w', 's', [
        { peerId: 'u', content: '我们用PostgreSQL，Redis做缓存' },
        { peerId: 'u', content: '阿里云上的缓存服务很便宜' },
      ])
      const search = (text: string) =>
        store.fullText
          .search('messages', text, { workspaceId: 'w', limit: 5 })
          .then((hits) => hits.map((h) => h.id))
      expect(await search('PostgreSQL')).toEqual([mixed!.id])
      expect(await search('redis')).toEqual([mixed!.id])
      expect((await search('缓存')).sort()).toEqual([mixed!.id, other!.id].sort())
      expect(await search('阿里云')).toEqual([other!.id])
      expect(await search('云服务')).toEqual([other!.id])
      expect(await search('东京')).toEqual([])
    })

    it('matches Korean words inside words with a particle, both ways', async () => {
      const store = await stores.open()
      const [cluster] = await store.messages.insertBatch('w', 's', [
        { peerId: 'u', content: '클러스터에서 장애가 났어요' },
        { peerId: 'u', content: '클래식 음악을 좋아해요' },
      ])
      for (const question of ['클러스터', '클러스터는', '클러스터를 확인했나요']) {
        const hits = await store.fullText.search('messages', question, { workspaceId: 'w', limit: 5 })
        expect(hits.map((h) => h.id)).toEqual([cluster!.id])
      }
    })

    it('searches chunks and notes in every script, and follows edits', async () => {
      const store = await stores.open()
      const chunk = await addChunk(store, 'w', 'ユーザーは東京でサーバーを運用している')
      await addNote(store, 'w', 'note-th', 'ฐานข้อมูล', 'ย้ายฐานข้อมูลไปเซิร์ฟเวอร์ใหม่')
      const ids = (table: 'messages' | 'chunks' | 'notes', text: string) =>
        store.fullText
          .search(table, text, { workspaceId: 'w', limit: 5 })
          .then((hits) => hits.map((h) => h.id))
      expect(await ids('chunks', '東京')).toEqual([chunk])
      expect(await ids('notes', 'เซิร์ฟเวอร์')).toEqual(['note-th'])
      const [message] = await store.messages.insertBatch('w', 's', [{ peerId: 'u', content: '部署在阿里云' }])
      await builderOf(store)
        .updateTable('messages')
        .set({ content: '部署在腾讯云' })
        .where('id', '=', message!.id)
        .execute()
      expect(await ids('messages', '阿里')).toEqual([])
      expect(await ids('messages', '腾讯')).toEqual([message!.id])
      await builderOf(store).deleteFrom('messages').where('id', '=', message!.id).execute()
      expect(await ids('messages', '腾讯')).toEqual([])
    })
  })
}
