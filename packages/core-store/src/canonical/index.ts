export { CANONICAL_SEPARATOR, isCanonical, LEADING_ARTICLES, normalize } from './normalize'
