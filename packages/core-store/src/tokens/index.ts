export { countTokens, loadTokenCounter, type TokenCounter } from './count-tokens'
