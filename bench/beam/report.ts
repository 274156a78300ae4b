import { percentile } from '../locomo/harness'
import { type QuestionScore, summariseBy, type Table } from '../locomo/score'

/** The systems one run compares on the same turns. */
export const SYSTEMS = ['hymem', 'bm25', 'dense'] as const
export type SystemName = (typeof SYSTEMS)[number]

const LABELS: Readonly<Record<string, string>> = { hymem: 'HyMem', bm25: 'BM25', dense: 'dense' }

/** Scores of one system, one per scored question, in the order of `BeamRun.difficulties`. */
export interface SystemScores {
  readonly scores: QuestionScore[]
  readonly queryMs: number[]
  /** HyMem's own augment timings per stage (`AugmentedContext.timings`), one entry per question. */
  readonly stageMs?: Record<string, number[]>
}

export interface SystemResult {
  /** Per ability, with `all` first. */
  readonly recall: Table
  readonly anyHit: Table
  /** Turn recall per BEAM difficulty label. */
  readonly recallByDifficulty: Table
  readonly queryMsP50: number
  readonly queryMsP95: number
  /** p50 / p95 of each augment stage (HyMem only), slowest p50 first. */
  readonly stages?: Readonly<Record<string, { readonly p50: number; readonly p95: number }>>
}

export interface BeamResult {
  readonly chats: readonly string[]
  readonly questions: number
  readonly abstentions: number
  readonly skippedQuestions: number
  /** Scored questions per ability (`all` first). */
  readonly perAbility: Readonly<Record<string, number>>
  /** Per system (HyMem, or each HyMem query variant, then the baselines), in the order they were run. */
  readonly systems: Readonly<Record<string, SystemResult>>
  readonly ingestMs: number
  readonly dreamMs: number
}

export function systemResult(run: SystemScores, difficulties: readonly string[]): SystemResult {
  const byAbility = (score: QuestionScore) => ['all', String(score.category)]
  return {
    recall: summariseBy(run.scores, 'recall', byAbility),
    anyHit: summariseBy(run.scores, 'anyHit', byAbility),
    recallByDifficulty: summariseBy(run.scores, 'recall', (_, index) => [
      difficulties[index] ?? 'unlabelled',
    ]),
    queryMsP50: percentile(run.queryMs, 0.5),
    queryMsP95: percentile(run.queryMs, 0.95),
    ...(run.stageMs ? { stages: stagePercentiles(run.stageMs) } : {}),
  }
}

/** Adds one augment's stage timings to `into`. */
export function recordStages(
  into: Record<string, number[]>,
  timings: Readonly<Record<string, number>>,
): void {
  for (const [stage, ms] of Object.entries(timings)) {
    const list = into[stage] ?? []
    list.push(ms)
    into[stage] = list
  }
}

function stagePercentiles(stageMs: Readonly<Record<string, number[]>>): SystemResult['stages'] {
  const rows = Object.entries(stageMs).map(([stage, values]) => ({
    stage,
    p50: percentile(values, 0.5),
    p95: percentile(values, 0.95),
  }))
  rows.sort((a, b) => b.p50 - a.p50)
  return Object.fromEntries(rows.map(({ stage, p50, p95 }) => [stage, { p50, p95 }]))
}

/** Questions per group of `scores` (`all` first, then each ability). */
export function countPerAbility(scores: readonly QuestionScore[]): Record<string, number> {
  const counts: Record<string, number> = { all: scores.length }
  for (const score of scores) counts[String(score.category)] = (counts[String(score.category)] ?? 0) + 1
  return counts
}

/** The side-by-side tables: recall@5/@10 and any-hit@10 of each system, per ability, then per difficulty. */
export function formatBeamResult(result: BeamResult): string[] {
  const systems = Object.keys(result.systems)
  const width = Math.max(6, ...systems.map((name) => (LABELS[name] ?? name).length))
  const header = (first: string) =>
    `${first.padEnd(26)}${'n'.padStart(5)}  ${systems.map((name) => `${(LABELS[name] ?? name).padEnd(width)} R@5   R@10  any@10`).join('   ')}`
  const row = (key: string, n: number | undefined, table: (r: SystemResult) => Table, any: boolean) =>
    `${key.padEnd(26)}${String(n ?? '').padStart(5)}  ${systems
      .map((name) => {
        const r = result.systems[name] as SystemResult
        const recall = table(r)[key]
        const hit = any ? r.anyHit[key]?.['10'] : undefined
        return `${' '.repeat(width + 1)}${fmt(recall?.['5'])} ${fmt(recall?.['10'])} ${fmt(hit)}`
      })
      .join('   ')}`
  const lines = [header('ability')]
  for (const key of Object.keys(result.perAbility))
    lines.push(row(key, result.perAbility[key], (r) => r.recall, true))
  lines.push('', header('difficulty'))
  const first = result.systems[systems[0] ?? '']
  for (const key of Object.keys(first?.recallByDifficulty ?? {}))
    lines.push(row(key, undefined, (r) => r.recallByDifficulty, false))
  lines.push('')
  lines.push(
    `${result.chats.length} chats, ${result.questions} questions scored (${result.abstentions} abstention and ${result.skippedQuestions} other questions without evidence not scored)`,
  )
  for (const name of systems) {
    const r = result.systems[name] as SystemResult
    lines.push(`${LABELS[name] ?? name} query p50 ${r.queryMsP50} ms / p95 ${r.queryMsP95} ms`)
    if (r.stages)
      lines.push(
        `  augment stages p50/p95 ms: ${Object.entries(r.stages)
          .map(([stage, t]) => `${stage} ${t.p50}/${t.p95}`)
          .join(', ')}`,
      )
  }
  if (result.dreamMs > 0) lines.push(`HyMem ingest ${result.ingestMs} ms, dream ${result.dreamMs} ms`)
  return lines
}

function fmt(value: number | undefined): string {
  return value === undefined ? '  -  ' : value.toFixed(3)
}
