import * as v from 'valibot'
import type { ExtractedProcedure } from '../extractor/types'
import { _optionalNumber, _optionalText, _stringList, _text } from './fields'
import { _arrayField, extractJson } from './json-text'

const StepSchema = v.union([
  v.pipe(
    _text(1000),
    v.transform((text) => ({
      order: undefined as number | undefined,
      text,
      tool: undefined as string | undefined,
    })),
  ),
  v.object({ order: _optionalNumber, text: _text(1000), tool: _optionalText(120) }),
])

const ProcedureSchema = v.object({
  name: _text(200),
  description: v.pipe(
    v.nullish(v.string()),
    v.transform((x) => x?.trim() ?? ''),
  ),
  trigger: _optionalText(300),
  steps: v.array(v.unknown()),
  entities: _stringList(20),
})

/** Sorts steps by their stated order (position breaks ties and fills gaps) and renumbers them 1..n. */
export function _renumberSteps(
  steps: readonly { order?: number | undefined; text: string; tool?: string | undefined }[],
): ExtractedProcedure['steps'] {
  return steps
    .map((s, position) => ({ ...s, key: s.order ?? Number.POSITIVE_INFINITY, position }))
    .sort((a, b) => a.key - b.key || a.position - b.position)
    .map((s, i) => (s.tool ? { order: i + 1, text: s.text, tool: s.tool } : { order: i + 1, text: s.text }))
}

/**
 * Parses a procedures answer: invalid steps are skipped, steps are renumbered 1..n, and a procedure with
 * fewer than two valid steps is dropped and counted.
 */
export function parseProceduresAnswer(text: string): {
  procedures: ExtractedProcedure[]
  dropped: number
  ok: boolean
} {
  const json = extractJson(text)
  const items = _arrayField(json, 'procedures')
  if (!items) return { procedures: [], dropped: 0, ok: json !== undefined }
  const procedures: ExtractedProcedure[] = []
  let dropped = 0
  for (const item of items) {
    const r = v.safeParse(ProcedureSchema, item)
    if (!r.success) {
      dropped++
      continue
    }
    const steps = r.output.steps.flatMap((s) => {
      const parsed = v.safeParse(StepSchema, s)
      return parsed.success ? [parsed.output] : []
    })
    if (steps.length < 2) {
      dropped++
      continue
    }
    const procedure: ExtractedProcedure = {
      name: r.output.name,
      description: r.output.description || r.output.name,
      steps: _renumberSteps(steps),
      entities: r.output.entities,
    }
    if (r.output.trigger !== undefined) procedure.trigger = r.output.trigger
    procedures.push(procedure)
  }
  return { procedures, dropped, ok: true }
}
