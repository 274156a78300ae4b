import type { ExtractedTriple } from '../extractor/types'
import type { SubjectScope } from './scope'
import { parseSubject } from './subject'

const VERSION =
  /\b(requires?|required|needs?|pinned to|pins?|pinned|must use|must run|must be on|only supports?|supports only|targets?|locked to|depends on|(?:is|are|am)(?: still| now| currently)? on|upgraded to|runs on|run on|uses?|using)\s+(?:(at least|a minimum of|minimum)\s+)?([A-Za-z][\w.+#-]*(?: [A-Z][\w.+#-]*)?)(?:\s+(?:(?:to|at)\s+)?|\s*@\s*)(?:version\s*|v(?=\d))?(>=|<=|>|<|==|=|\^|~)?\s*(\d+(?:\.(?:\d+|x))*\+?)(?![\w])(\s+or (?:later|newer|higher|above))?/g

const REQUIRE =
  /^(?:requires?|required|needs?|pinned to|pins?|pinned|must use|must run|must be on|only supports?|supports only|targets?|locked to|depends on)$/i

/** Facts about versions ("we need Python 3.12", "the API runs on Node 20") with the verb span they used. */
export function versionFacts(
  sentence: string,
  fallback: string | undefined,
  scope?: SubjectScope,
): { triple: ExtractedTriple; span: { start: number; end: number } }[] {
  const out: { triple: ExtractedTriple; span: { start: number; end: number } }[] = []
  for (const m of sentence.matchAll(VERSION)) {
    const verb = m[1] ?? ''
    const tech = m[3] ?? ''
    const parsed = parseSubject(sentence.slice(0, m.index), fallback, scope)
    if (!parsed || /^(?:version|v)$/i.test(tech)) continue
    const op = m[4] ?? (m[6] || m[2] ? '>=' : '')
    const valueText = `${op}${m[5] ?? ''}`
    const predicate = REQUIRE.test(verb) ? 'requires_version' : /^runs? on$/i.test(verb) ? 'runs_on' : 'uses'
    const start = m.index ?? 0
    out.push({
      triple: {
        subject: parsed.subject,
        predicate,
        object: tech,
        polarity: parsed.negated ? -1 : 1,
        valueText,
        ...(/^\d+(?:\.\d+)?$/.test(m[5] ?? '') ? { valueNumeric: Number(m[5]) } : {}),
      },
      span: { start, end: start + verb.length },
    })
  }
  return out
}
