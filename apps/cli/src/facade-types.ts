/** The facade's result types under the names the CLI uses. */
export type {
  AugmentedContext,
  DreamProgressEvent as DreamProgress,
  DreamReport,
  HyMemStats as Stats,
  ImportReport,
  ReindexReport,
  RuntimeStatus,
} from 'hymem'
