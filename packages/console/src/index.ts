export {
  addConsole,
  consoleAuditStoreName,
  consoleHistoryStoreName,
  consoleSessionsStoreName,
} from './add-console';
export { BrowserSessionBook, csrfHeaderName, sessionCookie } from './browser-session-book';
export type { BrowserSessionBookOptions, BrowserSessionRecord } from './browser-session-book';
export { signInPath, signOutPath, signInPolicy } from './console-sign-in';
export { OperatorAuditLog, operatorAuditPath, describeAuditEntry } from './operator-audit-log';
export type { AddConsoleOptions, ConsoleRegistration } from './add-console';
export { consoleOptionsSchema, consoleSectionPath } from './console-options';
export type { ConsoleOptions, ConsoleCodeOptions } from './console-options';
export { consoleContentSecurityPolicy } from './console-page';
export {
  consolePath,
  dependencyHistoryDocumentSchema,
  consoleInfoDocumentSchema,
} from './console-operations';
export { loadConsoleAssets } from './console-assets';
export type { ConsoleAssets, ConsoleAsset } from './console-assets';
export { DependencyHistory, summarize, outcomeOf } from './dependency-history';
export type { HistorySample, HistorySummary, CheckOutcome } from './dependency-history';
export { consoleEventIds } from './console-event-ids';
export { operatorViews, operatorViewDocumentSchema, operatorViewRowLimit } from './operator-views';
export type { OperatorViewDocument } from './operator-views';
