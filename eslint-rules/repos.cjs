/**
 * What a repository is, for the rules that keep Firestore in repositories (`firestore-in-repos`,
 * `import-boundaries`): in functions/src, a file named `repo.ts`, or `<what>-repo.ts` where one folder needs
 * several (`backups/catalog/runs-repo.ts` keeps the run records, `repo.ts` beside it the items).
 */
const path = require("node:path");

const REPO_NAME = /^(?:[a-z0-9]+-)*repo$/;

/** Whether a file (or a resolved import, with or without `.ts`) is a repository. */
function isRepo(file) {
  return REPO_NAME.test(path.basename(file).replace(/\.ts$/, ""));
}

module.exports = { isRepo };
