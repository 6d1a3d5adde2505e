// The fleet: many repositories kept in line at once (DESIGN 13a). A client of the library like the CLI.
export {
  DEFAULT_BRANCH,
  FLEET_FILE,
  type Fleet,
  type FleetForge,
  type FleetRepository,
  loadFleet,
  parseFleet,
} from './fleet-file.js';
export { forgeProjectOf, type PullRequestResult } from './forge.js';
export { type MergeOptions, mergeReports, readReport } from './merge-reports.js';
export { importModulesync, type ModulesyncImport } from './modulesync.js';
export type { FleetMode, FleetReport, RepositoryRecord, RepositoryResult } from './record.js';
export { lockNote, lockPending, RESULTS } from './record.js';
export { checkOneBranchEach, type FleetEvent, type FleetRunOptions, runFleet } from './run.js';
export {
  matrixOf,
  parseShard,
  type Selection,
  type Shard,
  selectRepositories,
  shardOf,
  shardText,
} from './select.js';
