import { describe, expect, it } from 'vitest'
import { SAMPLE_AUGMENT, SAMPLE_DREAM, SAMPLE_IMPORT, SAMPLE_STATS } from '../../test/samples'
import { createStyle } from '../format/style'
import { renderAugmented } from './augment-render'
import { renderDreamReport } from './dream'
import { renderStats } from './stats'
import { renderImportReport } from './transfer'

// The CLI's readable output on fixed facade results: these snapshots change only when the CLI does.
describe('readable output', () => {
  it('dream: a summary table, errors, the pending hint and timings', () => {
    expect(renderDreamReport(SAMPLE_DREAM)).toMatchInlineSnapshot(`
      "Dream ok · workspace default · extractor rules · prompt rules-v1
        chunks created    4
        chunks extracted  3
        chunks pending    1
        edges upserted    7
        edges created     5
        episodes          2
        embedded          9
      LLM: 2 calls, 1200 prompt + 310 completion tokens
        ! chunk 17: extractor answered invalid JSON (will retry next cycle)
      1 chunk still pending: run "hymem dream" again
      time 1.5 s (chunk 12 ms, extract 840 ms)
      "
    `)
  })

  it('augment: facts with reason codes, procedures, episodes, notes, hits with scores', () => {
    const plain = createStyle(false)
    expect(renderAugmented(SAMPLE_AUGMENT, { style: plain })).toMatchInlineSnapshot(`
      "Facts (2)
        api —deploys_to→ flyio  conf 0.75  score 1.13
           why: predicate:deploys_to, entity_match, recency_1d
        ledgerly —depends_on→ redis (derived)  conf 0.45  score 0.30
      Procedures (1)
        Deploy Ledgerly  score 0.80
          1. Run pnpm test and pnpm build
          2. Run fly deploy
           why: keyword:procedures#1
      Episodes (1)
        Release day  score 0.42
          Maya walked through the deploy: tests, tag, CI image, fly deploy, migrations.
           why: keyword:episodes#1
      Notes (1)
        Deploys happen on Tuesdays  similarity 0.64  score 0.70
          The team only deploys on Tuesday afternoons, never on Fridays.
      Messages (1)
        0.033  maya: "We deploy the API to Fly.io and the web app is hosted on Vercel."
           why: keyword:messages#1, semantic_0.71
      Matched entities: api
      (4 ms)
      "
    `)
    expect(
      renderAugmented(SAMPLE_AUGMENT, { style: plain, profile: true, timings: false, indent: '> ' })
        .split('\n')
        .slice(-6),
    ).toMatchInlineSnapshot(`
      [
        "> # User",
        "> - prefers pnpm",
        "> MEMORY.md",
        "> # Memory",
        "> - API on Fly.io",
        "",
      ]
    `)
  })

  it('augment: colours only when asked', () => {
    expect(renderAugmented(SAMPLE_AUGMENT, { style: createStyle(true) })).toContain(
      '\u001b[1mFacts (2)\u001b[22m',
    )
    expect(renderAugmented(SAMPLE_AUGMENT, { style: createStyle(false) })).not.toContain('\u001b[')
  })

  it('stats: counts, dream history and search figures', () => {
    expect(renderStats(SAMPLE_STATS, false)).toMatchInlineSnapshot(`
      "Workspace default
        messages         120
        sessions           4
        knowledge_graph   37
        notes              2
        search_log         9
        edges: 30 active, 4 stale, 2 retracted, 1 derived
        notes: 2 active, 1 archived
        vectors: sqlite-vec; chunks use-lite-512 (512-d)
      Dreams (most recent first)
        started (UTC)        status            extractor          chunks  edges  errors    time
        2026-06-15 11:58:00  ok                llm:deepseek-chat      12     19       0  42.0 s
        2026-06-15 11:57:00  skipped (locked)  -                       0      0       0       -
      Searches
        searches           9 (augment 7, notes 2)
        empty results      22.2%
        average hits       4.3
        average top score  0.812
        latency            p50 3.2 ms, p95 12 ms
        recent misses:
          2026-06-15 11:59:10  augment  "what is our on-call rota?"
      Retention (trimmed by each dream)
        log                         rows  keeps
        search log                     9  90 days, at most 100000 newest rows
        LLM cache (all workspaces)    14  30 days
      Deletions (most recent first)
        requested (UTC)      forgot            status  removed
        2026-06-15 12:01:00  session vacation  done    3 chunks, 2 facts, 14 messages
      Runtime (this process)
        event loop: delay p99 3.4 ms, max 13 ms (over 14.8 s)
        dreams: in a worker thread, dreaming (thread 1); 1 crash, last 2026-06-15 11:50:00: exited with code 1
          default: extract, chunk 12/50
      "
    `)
  })

  it('import: inserted and skipped per record type', () => {
    expect(renderImportReport(SAMPLE_IMPORT, 'dump.jsonl')).toMatchInlineSnapshot(`
      "Imported from dump.jsonl
        record     inserted  skipped
        edge             37        0
        message         120        3
        workspace         1        0
      vectors embedded: 39
      "
    `)
  })
})
