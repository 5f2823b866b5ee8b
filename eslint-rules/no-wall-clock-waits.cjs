/**
 * Tests do not wait for wall-clock time. In the suites that run the product (tests/api, e2e, browser,
 * exclusive, restart, firestore-conformance and their support code), a timer (`setTimeout`,
 * `setInterval`, Playwright's `waitForTimeout`) is either a sleep or the pause of a poll, and both make a
 * test as slow as its guess and flaky when the machine is slower. Background work is delivered when the
 * test says so (`drainTasks`, `dispatch`: tests/support/background.ts); through the whole stack, the one
 * wait is `afterBackgroundWork` (tests/support/wait.ts), bounded by a hang detector; a page is waited for
 * through what it shows (Playwright's locators). The harness that plays Cloud Tasks
 * (tests/support/in-process/task-queue.ts) schedules retries as Cloud Tasks does.
 */
const path = require("node:path");

const ROOT = path.resolve(__dirname, "..");
const CHECKED = ["api", "e2e", "browser", "exclusive", "restart", "firestore-conformance", "support"].map(
  (folder) => path.join(ROOT, "tests", folder) + path.sep,
);
const ALLOWED = [
  path.join(ROOT, "tests", "support", "wait.ts"),
  path.join(ROOT, "tests", "support", "in-process", "task-queue.ts"),
];
const TIMERS = new Set(["setTimeout", "setInterval"]);

/** TypeScript test code (not the scripts a page is served, such as the gapi stand-in). */
function checked(file) {
  return /\.tsx?$/.test(file) && CHECKED.some((folder) => file.startsWith(folder)) && !ALLOWED.includes(file);
}

module.exports = {
  meta: {
    type: "problem",
    docs: { description: "tests wait for background work by delivering it, never for wall-clock time" },
    schema: [],
    messages: {
      timer:
        "A test that waits {{what}} is as slow as its guess and flaky on a busy machine: deliver the work (drainTasks, dispatch), wait through afterBackgroundWork (whole stack), or wait for what the page shows.",
    },
  },
  create(context) {
    if (!checked(context.filename)) return {};
    return {
      CallExpression(node) {
        const callee = node.callee;
        let name;
        if (callee.type === "Identifier") name = callee.name;
        else if (
          callee.type === "MemberExpression" &&
          !callee.computed &&
          callee.property.type === "Identifier"
        )
          name = callee.property.name;
        if (!name) return;
        const onJest =
          callee.type === "MemberExpression" &&
          callee.object.type === "Identifier" &&
          callee.object.name === "jest";
        if (TIMERS.has(name) && !onJest) {
          context.report({ node, messageId: "timer", data: { what: `with ${name}` } });
        } else if (name === "waitForTimeout") {
          context.report({ node, messageId: "timer", data: { what: "with waitForTimeout" } });
        }
      },
    };
  },
};
