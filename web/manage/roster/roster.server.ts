// The roster import's server side as its pages use it (issue 39): kept out of the browser's
// bundle by the .server name.
export { auditActorOf } from '#domain/operations/audit.ts';
export {
  applyRefusal,
  queueApply,
  rosterImportList,
  rosterImportReport,
  runQueuedRosterImports,
} from '#domain/operations/roster/roster-jobs.ts';
export {
  rosterOrganisations,
  rosterReportCsv,
  startUploadedRosterImport,
} from '#domain/operations/roster/roster-upload.ts';
