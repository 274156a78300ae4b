import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { postgresBackends } from '../../../test/postgres-backends'
import { builderOf } from '../../store/builder'
import { fullTextIndexText } from '../../text/index-text'

const SAMPLES = [
  'We deployed Redis',
  '我们用PostgreSQL，Redis做缓存。',
  '東京のサーバー「本番」',
  'คุณไม่ได้ไปที่นั่น',
  'كِتابٌ جديد، أليس كذلك؟',
  'किताबें । नमस्ते',
  'Привет, мир — «тест»',
  '클러스터에서 서버를',
]

for (const backend of postgresBackends()) {
  describe(`hymem_fts_text on ${backend.label}`, () => {
    const stores = backend.use()

    it('is fullTextIndexText in SQL (after spacing out ASCII punctuation)', async () => {
      const store = await stores.open()
      for (const text of SAMPLES) {
        const { rows } = await sql<{ value: string }>`SELECT hymem_fts_text(${text}) AS value`.execute(
          builderOf(store),
        )
        expect(rows[0]?.value, text).toBe(fullTextIndexText(text.replace(/[!-/:-@[-`{-~]/g, ' ')))
      }
    }, 120_000)
  })
}
