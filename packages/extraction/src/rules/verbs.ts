/** Regular verbs common in tech chat, by base form; their -s, -ed and -ing forms are derived. */
const REGULAR = (
  'use depend rely connect talk deploy host ship release run test configure integrate communicate migrate ' +
  'switch move replace prefer avoid reject hate like love want need require handle serve store track manage ' +
  'query push pull fetch publish consume sync stream call poll ping hit contain include implement generate ' +
  'produce emit work live sit read write send log build compile bundle lint format package install maintain ' +
  'lead contribute belong join support target pin upgrade adopt pick choose drop ditch abandon convert port ' +
  'power back mirror cache index process expose listen point forward route proxy wrap extend access load'
).split(' ')

/** Irregular forms and auxiliaries that, right after a noun phrase, make it the subject of a clause. */
const IRREGULAR = (
  'is are was were am be been has have had do does did go goes went gone come comes came get gets got sit sits ' +
  'sat run runs ran read reads write writes wrote written send sends sent build builds built lead leads led ' +
  'choose chooses chose chosen will would can could should must may might shall keep keeps kept make makes made ' +
  'take takes took hold holds held hit hits find finds found'
).split(' ')

function inflections(base: string): string[] {
  const stem = base.endsWith('e') ? base.slice(0, -1) : base
  const s = /(?:s|sh|ch|x|z)$/.test(base)
    ? `${base}es`
    : /[^aeiou]y$/.test(base)
      ? `${base.slice(0, -1)}ies`
      : `${base}s`
  const ed = /[^aeiou]y$/.test(base) ? `${base.slice(0, -1)}ied` : `${stem}ed`
  return [base, s, ed, `${stem}ing`]
}

/** Every verb form the clause splitter recognises (base, -s, -ed, -ing, irregulars, auxiliaries). */
export const VERB_FORMS: ReadonlySet<string> = new Set([...REGULAR.flatMap(inflections), ...IRREGULAR])

/**
 * Finite verb forms that are (almost) never plural nouns, so a lower-case one inside a noun phrase means the
 * phrase is really the start of a clause ("Ledgerly depends", "logs go"). Ambiguous -s forms such as "logs",
 * "builds", "tests", "runs" or "calls" are left out: "the integration tests" is a noun phrase.
 */
export const CLAUSE_VERBS: ReadonlySet<string> = new Set([
  ...'is are was were am has have had does did go goes went comes came sits sat sent wrote will would can could should must'.split(
    ' ',
  ),
  ...'depend rely talk prefer avoid reject hate want require'.split(' '),
  ...(
    'depend rely connect talk deploy communicate migrate prefer avoid reject hate want require integrate ' +
    'consume publish send live'
  )
    .split(' ')
    .map((base) => inflections(base)[1] ?? base),
  'uses',
  'writes',
  'reads',
  'needs',
  'replaces',
  'contains',
  'includes',
  'implements',
  'generates',
  'produces',
  'emits',
  'handles',
  'serves',
  'queries',
  'talks',
  'likes',
  'loves',
])

/** True for a lower-case token that is a known verb form (capitalised words are names: "Cloud Run"). */
export function isVerbForm(token: string): boolean {
  return /^[a-z]/.test(token) && VERB_FORMS.has(token)
}
