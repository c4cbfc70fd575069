/**
 * The report files this process has created, so that a writer replacing another writer's report
 * (two agents with the same `reportFileName`) says so instead of losing it silently.
 *
 * @module
 */

/** Report files created by a writer of this process. */
const created = new Set<string>();
/** Report files whose replacement has been warned about: once per file is enough. */
const warned = new Set<string>();

/**
 * Records that a writer has just created `file` (its first write). Each writer creates its file
 * once, so a file created before was another writer's report: the console gets a warning, once per
 * file, that the earlier report was replaced.
 *
 * @param file absolute path of the report file.
 */
export function noteReportFileCreated(file: string): void {
  if (!created.has(file)) {
    created.add(file);
    return;
  }
  if (warned.has(file)) return;
  warned.add(file);
  console.warn(
    `Report ${file}: an earlier report of this process at this path is being replaced, ` +
      `because two agents use the same reportFileName; give each agent its own name to keep ` +
      `both. Further replacements of this file are not reported.`,
  );
}
