export { ISO_TIME_HINT, isoTimeSchema, parseIsoTime } from './iso-time'
