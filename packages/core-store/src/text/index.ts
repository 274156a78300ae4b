export { statesStandingRule } from './standing-rules'
export { ENGLISH_STOP_WORDS } from './stop-words'
export { tokenizeForFts } from './tokenize'
export { topicTerms } from './topic-terms'
