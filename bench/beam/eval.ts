/**
 * Retrieval evaluation on BEAM (user ↔ assistant chats): ingest → dream → augment every probing question →
 * evidence-turn recall, beside plain BM25 and plain dense MiniLM retrieval over the same turns.
 *
 *   pnpm eval:beam <BEAM folder> [--chats 100K/11-20,500K/6-35] [--final-check]
 *                  [--systems hymem,bm25,dense] [--embeddings default|none|local|use-lite|minilm|fake]
 *                  [--query '{...}' | --variants '{"name":{...},...}'] [--dream '{...}']
 *                  [--misses [--misses-k 10]] [--keep-stores <folder>] [--json]
 *
 * The folder is BEAM's repository root or its `chats` folder (fetched outside the project; never commit
 * it). `--chats` defaults to the development chats; the held-out chats (100K/1-10, 500K/1-5) are refused
 * unless `--final-check` is given. One session per generation batch, one message per turn with its role,
 * turn ids `D<batch>:<message id>`; abstention questions are counted and not scored. Recall@k and any-hit@k
 * are scored as in `eval:locomo`, per ability (`all` first) and per BEAM difficulty. `--embeddings` is
 * HyMem's embedder; the dense baseline always uses the local MiniLM. With --json the last line of output is
 * one JSON object. `--variants` asks the questions once per named `QueryConfig` override over one ingested and
 * dreamed store per chat, and reports each variant as a system of its own. `--misses` also prints, per HyMem
 * variant, every question whose evidence is not all among the top k turns, with the turns returned instead.
 * `--keep-stores` keeps each chat's dreamed store in a folder of its own there and reuses it in later runs with
 * the same embedder and `--dream` (query experiments on 500K then skip minutes of dreaming per chat); empty
 * it after changing dreaming code.
 */
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { createLocalEmbeddings } from '@hymem/extraction/local'
import type { QueryConfig } from '@hymem/query'
import { createBm25Index, createDenseIndex } from '../locomo/baselines'
import { askAll, chooseEmbeddings, prepareConversation, withQuery } from '../locomo/harness'
import { findMiss, formatMiss, turnTexts } from '../locomo/misses'
import { parseJsonOption } from '../locomo/options'
import { scoreQuestion } from '../locomo/score'
import { chatName, DEV_CHATS, parseChats } from './chats'
import { type BeamChat, chatsFolder, loadBeamChat } from './dataset'
import {
  type BeamResult,
  countPerAbility,
  formatBeamResult,
  recordStages,
  SYSTEMS,
  type SystemName,
  type SystemScores,
  systemResult,
} from './report'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    chats: { type: 'string', default: DEV_CHATS },
    'final-check': { type: 'boolean', default: false },
    systems: { type: 'string', default: SYSTEMS.join(',') },
    embeddings: { type: 'string', default: 'default' },
    query: { type: 'string' },
    variants: { type: 'string' },
    dream: { type: 'string' },
    misses: { type: 'boolean', default: false },
    'keep-stores': { type: 'string' },
    'misses-k': { type: 'string', default: '10' },
    json: { type: 'boolean', default: false },
  },
})

const say = (line: string) => (values.json ? process.stderr : process.stdout).write(`${line}\n`)

async function main(): Promise<void> {
  const [folder, ...extra] = positionals
  if (!folder || extra.length > 0) throw new Error('pass exactly one BEAM folder: pnpm eval:beam <folder>')
  const chats = parseChats(values.chats, values['final-check'])
  const systems = parseSystems(values.systems)
  const root = chatsFolder(folder)
  const query = parseJsonOption('query', values.query)
  if (query && values.variants) throw new Error('pass --query or --variants, not both')
  const variants = (parseJsonOption('variants', values.variants) ?? { hymem: query ?? {} }) as Record<
    string,
    Partial<QueryConfig>
  >
  const dream = parseJsonOption('dream', values.dream)
  const missesK = Number(values['misses-k'])
  if (!/^\d+$/.test(values['misses-k']) || missesK < 1)
    throw new Error(`--misses-k must be a positive integer (got ${values['misses-k']})`)
  const embeddings = systems.includes('hymem') ? await chooseEmbeddings(values.embeddings) : null
  const minilm = systems.includes('dense') ? createLocalEmbeddings({ model: 'minilm' }) : null
  say(
    `BEAM: ${chats.length} chats (${values.chats})${values['final-check'] ? ', FINAL CHECK' : ''}, systems ${systems.join(', ')}` +
      (embeddings ? `, HyMem embeddings ${embeddings.name}` : '') +
      (query ? `, query ${values.query}` : '') +
      (dream ? `, dream ${values.dream}` : ''),
  )
  const names = systems.flatMap((name) => (name === 'hymem' ? Object.keys(variants) : [name]))
  const runs = Object.fromEntries(
    names.map((name) => [name, { scores: [], queryMs: [], ...(name in variants ? { stageMs: {} } : {}) }]),
  ) as Record<string, SystemScores>
  const difficulties: string[] = []
  let abstentions = 0
  let skippedQuestions = 0
  let ingestMs = 0
  let dreamMs = 0
  for (const ref of chats) {
    const chat = loadBeamChat(root, ref)
    difficulties.push(...chat.questions.map((question) => question.difficulty))
    abstentions += chat.abstentions
    skippedQuestions += chat.skippedQuestions
    const turns = chat.sessions.flatMap((session) => session.turns)
    if (runs.bm25) {
      const index = createBm25Index(turns.map((turn) => ({ id: turn.diaId, text: turn.text })))
      await scoreRanker(chat, (question) => index.rank(question), runs.bm25)
    }
    if (runs.dense && minilm) {
      const texts = turns.map((turn) => ({ id: turn.diaId, text: `${turn.speaker}: ${turn.text}` }))
      const index = await createDenseIndex(minilm, texts)
      await scoreRanker(chat, (question) => index.rank(question), runs.dense)
    }
    if (embeddings) {
      const prepared = await prepareConversation(chat, {
        embeddings: embeddings.client,
        ...(dream ? { dream } : {}),
        ...(values['keep-stores']
          ? { keepIn: join(resolve(values['keep-stores']), chatName(ref).replace('/', '-')) }
          : {}),
      })
      try {
        ingestMs += prepared.ingestMs
        dreamMs += prepared.dreamMs
        const texts = values.misses ? turnTexts(chat) : null
        for (const [name, variant] of Object.entries(variants)) {
          const memory = await withQuery(prepared, embeddings.client, variant)
          const run = runs[name] as SystemScores
          try {
            const stages = run.stageMs
            const misses: string[] = []
            await askAll(
              memory,
              chat,
              prepared.turnOf,
              run.scores,
              run.queryMs,
              (question, ranked, context) => {
                if (stages) recordStages(stages, context.timings)
                const miss = values.misses ? findMiss(question, ranked, missesK) : null
                if (miss) misses.push(...formatMiss(miss, texts ?? new Map()))
              },
            )
            if (misses.length > 0) {
              say(`\n${chatName(ref)}, ${name}: questions with evidence outside the top ${missesK}`)
              for (const line of misses) say(line)
            }
          } finally {
            await memory.close()
          }
        }
      } finally {
        await prepared.dispose()
      }
    }
    const recall10 = Object.entries(runs).map(([name, run]) => {
      const own = run.scores.slice(-chat.questions.length)
      return `${name} ${(own.reduce((sum, score) => sum + score.recall[10], 0) / (own.length || 1)).toFixed(3)}`
    })
    say(
      `  ${chatName(ref)}: ${turns.length} turns, ${chat.questions.length} questions scored; R@10 ${recall10.join(', ')}`,
    )
  }
  const first = Object.values(runs)[0]
  const result: BeamResult = {
    chats: chats.map(chatName),
    questions: first?.scores.length ?? 0,
    abstentions,
    skippedQuestions,
    perAbility: countPerAbility(first?.scores ?? []),
    systems: Object.fromEntries(
      Object.entries(runs).map(([name, run]) => [name, systemResult(run, difficulties)]),
    ),
    ingestMs: Math.round(ingestMs),
    dreamMs: Math.round(dreamMs),
  }
  say('')
  for (const line of formatBeamResult(result)) say(line)
  if (values.json) process.stdout.write(`${JSON.stringify(result)}\n`)
}

function parseSystems(text: string): SystemName[] {
  const names = text.split(',').map((name) => name.trim().toLowerCase())
  const unknown = names.filter((name) => !(SYSTEMS as readonly string[]).includes(name))
  if (unknown.length > 0 || names.length === 0)
    throw new Error(`--systems takes a comma list of ${SYSTEMS.join(', ')} (got ${text})`)
  return SYSTEMS.filter((name) => names.includes(name))
}

/** Scores every question of the chat on the turns `rank` returns for it. */
async function scoreRanker(
  chat: BeamChat,
  rank: (question: string) => string[] | Promise<string[]>,
  run: SystemScores,
): Promise<void> {
  for (const question of chat.questions) {
    const started = performance.now()
    const ranked = await rank(question.question)
    run.queryMs.push(performance.now() - started)
    run.scores.push(scoreQuestion(question.category, question.evidence, ranked, chat.sampleId))
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`eval:beam: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
})
