import type { Predicate } from '../vocabulary'
import { TESTS_SUFFIX } from './tests-subject'

/**
 * How the text after a verb is read:
 * - `direct`: the objects follow the verb ("we use X and Y");
 * - `prep`: the object follows a preposition, optionally after a middle phrase that becomes the subject
 *   ("we deploy the API to AWS" → (API, deploys_to, AWS));
 * - `fromTo`: "switched from X to Y" → (Y, replaces, X), (subject, uses, Y), (subject, uses, X, -1);
 * - `replacedWith`: "replaced X with Y" → the same three facts;
 * - `passiveBy`: "X was replaced by Y" → (Y, predicate, X).
 */
export type PatternShape = 'direct' | 'prep' | 'fromTo' | 'replacedWith' | 'passiveBy'

export interface RulePattern {
  predicate: Predicate
  verb: RegExp
  shape: PatternShape
  /** Preposition introducing the object (shape `prep`). */
  prep?: string
  /** `prep` shapes: allow a phrase between verb and preposition that becomes the subject. */
  middle?: boolean
  /** `prep` shapes: the middle phrase is not the subject ("we keep secrets in Vault" → (team, uses, Vault)). */
  keepSubject?: boolean
  /** `prep` shapes: the middle phrase must end like this and is required ("run our test suite with X"). */
  middleSuffix?: RegExp
  /** The verb itself may carry the negation ("is not on", "is no longer on"). */
  inlineNegation?: boolean
  /** Fixed polarity regardless of negation ("stopped using"). */
  polarity?: 1 | -1
  /** Objects must look like names or known technologies (filters "working on a bug"). */
  namedObject?: boolean
  /** Objects must end with one of these words ("I am on the platform team"). */
  objectSuffix?: RegExp
  /** Objects must be well-known technologies ("I write Python", not "I write tests"). */
  knownObject?: boolean
  /** Only when the clause is negated; the negation is consumed ("I do not want X" → rejects X). */
  requireNegation?: boolean
  /** Only for the speaker as subject (user/team). */
  speakerOnly?: boolean
  /** Never for the speaker as subject. */
  thingOnly?: boolean
  /**
   * Objects must be named, known technologies, or a bare noun phrase with no article, demonstrative or
   * possessive ("I love dark mode", not "I like that idea").
   */
  plainObject?: boolean
  /**
   * A clause with no subject of its own states the speaker's own view ("Love Svelte.", "Not a fan of X.",
   * "No more Heroku."): `always`, or `negatedGerund` only for a negated -ing form ("Never using X again").
   */
  impliedSpeaker?: 'always' | 'negatedGerund'
}

const v = (source: string) => new RegExp(`\\b(?:${source})\\b`, 'gi')

/** Patterns in priority order: when two verbs overlap, the earlier pattern wins. */
export const RULE_PATTERNS: readonly RulePattern[] = [
  {
    predicate: 'replaces',
    verb: v('switched|switching|migrated|migrating|moved|moving|changed|transitioned|went|converted|ported'),
    shape: 'fromTo',
  },
  {
    predicate: 'replaces',
    verb: v(
      'replaces|replace|replaced|replacing|swapped|swapped out|substituted|dropped|ditched|abandoned|gave up|given up',
    ),
    shape: 'replacedWith',
  },
  {
    predicate: 'replaces',
    verb: v('(?:was|were|is|are|got|has been|have been) replaced'),
    shape: 'passiveBy',
  },
  { predicate: 'generates', verb: v('(?:is|are|was|were|gets|get) generated'), shape: 'passiveBy' },
  { predicate: 'uses', verb: v('(?:is|are) used'), shape: 'passiveBy' },
  {
    predicate: 'uses',
    verb: v(
      'stopped using|stop using|quit using|moved away from|moved off|migrated off|migrated away from|got rid of|ditched|abandoned|phased out|used to use|used to run on|sunset|dropped support for',
    ),
    shape: 'direct',
    polarity: -1,
    impliedSpeaker: 'always',
  },
  {
    predicate: 'uses',
    verb: v('gave up on|give up on|given up on|giving up on|done with|finished with|no more|quit|dropped'),
    shape: 'direct',
    polarity: -1,
    namedObject: true,
    impliedSpeaker: 'always',
  },
  {
    predicate: 'avoids',
    verb: v('never touch|never touches|never touched|will not touch'),
    shape: 'direct',
    namedObject: true,
  },
  {
    // "I haven't touched PHP in years": not touching a thing is not using it ("never touch" avoids it).
    predicate: 'uses',
    verb: v('touched|touch|touches'),
    shape: 'direct',
    requireNegation: true,
    polarity: -1,
    namedObject: true,
  },
  {
    predicate: 'avoids',
    verb: v(
      'avoid using|avoids using|avoid|avoids|avoided|avoiding|stay away from|stays away from|steer clear of|steers clear of|keep away from|try not to use|tries not to use|(?:try|tries|tried)(?: hard| our best| my best)? to avoid',
    ),
    shape: 'direct',
  },
  {
    predicate: 'rejects',
    verb: v(
      'reject|rejects|rejected|refuse to (?:use|touch)|refuses to (?:use|touch)|refused to (?:use|touch)|will not use|will never use|veto|vetoed',
    ),
    shape: 'direct',
  },
  {
    predicate: 'rejects',
    verb: v('hate|hates|hated|hating|dislike|dislikes|disliked|can not stand|can not stand using'),
    shape: 'direct',
    impliedSpeaker: 'always',
  },
  {
    predicate: 'rejects',
    verb: v(
      'want|wanted|want to use|like using|love using|enjoy using|like|likes|liked|love|loves|enjoy|enjoys|a fan of|a big fan of|a huge fan of|fan of',
    ),
    shape: 'direct',
    requireNegation: true,
    plainObject: true,
    impliedSpeaker: 'always',
  },
  {
    predicate: 'prefers',
    verb: v(
      'would rather not use|would rather not have|would rather not|(?:would )?prefers? not to use|(?:would )?prefers? not to',
    ),
    shape: 'direct',
    polarity: -1,
  },
  {
    predicate: 'prefers',
    verb: v(
      'prefer|prefers|preferred|prefer using|prefer to use|would (?:much |far )?rather (?:use|have|write|code in|work with|go with|stick with|run)|would (?:much |far )?rather|favou?r|favou?rs|swear by|go-to is|lean towards|lean toward|leans towards|leaning towards',
    ),
    shape: 'direct',
  },
  {
    // Bare "like" / "love" only after I or we: after other nouns it is usually a preposition ("tools like X").
    predicate: 'prefers',
    verb: v('like using|love using|enjoy using|loving|enjoying|like|love|enjoy'),
    shape: 'direct',
    speakerOnly: true,
    plainObject: true,
    impliedSpeaker: 'always',
  },
  {
    predicate: 'prefers',
    verb: v(
      'likes using|loves using|enjoys using|likes|loves|enjoys|liked|loved|enjoyed|a fan of|a big fan of|a huge fan of|fan of',
    ),
    shape: 'direct',
    plainObject: true,
  },
  {
    predicate: 'tested_by',
    verb: v('run|runs|ran|execute|executes|executed'),
    shape: 'prep',
    prep: 'with|using|via|through',
    middle: true,
    middleSuffix: TESTS_SUFFIX,
  },
  {
    predicate: 'tested_by',
    verb: v('tested|test|tests|testing|covered'),
    shape: 'prep',
    prep: 'with|by|using|via|through',
    middle: true,
  },
  {
    predicate: 'deploys_to',
    verb: v(
      'deploy|deploys|deployed|deploying|ship|ships|shipped|shipping|host|hosts|hosted|hosting|release|releases|released',
    ),
    shape: 'prep',
    prep: 'to|on|onto|in',
    middle: true,
    namedObject: true,
  },
  {
    predicate: 'runs_on',
    verb: v('run|runs|running|ran|execute|executes|is served from|lives on|live on'),
    shape: 'prep',
    prep: 'on|in|inside|under|atop|from',
    middle: true,
    namedObject: true,
  },
  {
    predicate: 'connects_to',
    verb: v(
      'connects|connect|connected|connecting|talks|talk|talking|communicates|communicate|sends requests|sends data|sends events|writes|pushes events|subscribes|integrates|integrate|integrated|hooks|hook',
    ),
    shape: 'prep',
    prep: 'to|with|into',
    middle: true,
    namedObject: true,
  },
  {
    predicate: 'uses',
    verb: v('keep|keeps|kept|store|stores|stored|storing|track|tracks|tracked|manage|manages'),
    shape: 'prep',
    prep: 'in|on|with|using',
    middle: true,
    keepSubject: true,
    namedObject: true,
    speakerOnly: true,
  },
  {
    predicate: 'uses',
    verb: v(
      'build|builds|built|compile|compiles|compiled|bundle|bundles|package|packages|lint|lints|format|formats',
    ),
    shape: 'prep',
    prep: 'with|using|via|through',
    middle: true,
    keepSubject: true,
    namedObject: true,
  },
  {
    predicate: 'connects_to',
    verb: v(
      'hits|hit|calls|queries|polls|pings|reads from|pulls from|fetches from|publishes to|consumes from|streams to|syncs with|syncs to',
    ),
    shape: 'direct',
    namedObject: true,
    thingOnly: true,
  },
  {
    predicate: 'configured_with',
    verb: v('configured|configure|configures|configuring|set up|sets up|setup|tuned|tune|parameteri[sz]ed'),
    shape: 'prep',
    prep: 'with|via|using|through',
    middle: true,
  },
  {
    predicate: 'part_of',
    verb: v(
      'working on|work on|works on|worked on|contributing to|contribute to|contributes to|maintain|maintains|maintaining|lead|leads|leading|heading|belong to|belongs to|joined',
    ),
    shape: 'direct',
    namedObject: true,
  },
  {
    predicate: 'part_of',
    verb: v('(?:is|are|am) (?:a )?(?:part of|member of|a member of|module of|component of|service in)'),
    shape: 'direct',
  },
  {
    predicate: 'part_of',
    verb: v('(?:is|are|am)(?: not| no longer)? on'),
    shape: 'direct',
    inlineNegation: true,
    objectSuffix: /\b(?:team|squad|group|crew|guild)$/i,
  },
  {
    predicate: 'uses',
    verb: v(
      '(?:is|are|am|was|were|have been|has been)(?: not| no longer)? (?:still |now |currently |all |fully )?on',
    ),
    shape: 'direct',
    inlineNegation: true,
    namedObject: true,
  },
  {
    predicate: 'depends_on',
    verb: v(
      'depends on|depend on|depending on|relies on|rely on|relying on|is built on top of|are built on top of|is built on|sits on top of|requires|require|needs|need',
    ),
    shape: 'direct',
  },
  { predicate: 'implements', verb: v('implements|implement|implemented|implementing'), shape: 'direct' },
  {
    predicate: 'contains',
    verb: v('contains|contain|includes a|bundles|bundle|vendors|embeds'),
    shape: 'direct',
  },
  {
    predicate: 'generates',
    verb: v('generates|generate|generated|produces|emits|outputs|writes out'),
    shape: 'direct',
    thingOnly: true,
  },
  {
    predicate: 'conflicts_with',
    verb: v(
      'conflicts with|conflict with|clashes with|clash with|is incompatible with|are incompatible with|does not work with|do not work with',
    ),
    shape: 'direct',
    thingOnly: true,
  },
  {
    predicate: 'equivalent_to',
    verb: v(
      'is an alias for|is an alias of|is another name for|is the same as|is equivalent to|is short for|aka|a\\.k\\.a\\.',
    ),
    shape: 'direct',
    thingOnly: true,
  },
  {
    predicate: 'uses',
    verb: v('write|writes|wrote|writing|code|coding'),
    shape: 'direct',
    knownObject: true,
  },
  {
    predicate: 'uses',
    verb: v(
      'deploy with|deploys with|deployed with|deploy using|deploy via|run with|runs with|managed with|managed by|powered by|handled by|linted by|linted with|formatted by|formatted with|written with|written using|use|uses|using|used|utili[sz]e|utili[sz]es|work with|works with|build with|built with|built in|build on|written in|write in|code in|program in|develop in|standardi[sz]ed on|went with|chose|picked|adopted|switched to|migrated to|moved to|rely heavily on|lean on',
    ),
    shape: 'direct',
    impliedSpeaker: 'negatedGerund',
  },
  {
    // "I run Arch", "our team does not run Jenkins anymore": running a named thing is using it.
    predicate: 'uses',
    verb: v('run|runs|ran'),
    shape: 'direct',
    namedObject: true,
    speakerOnly: true,
  },
]
