/**
 * The test environment of every Node test file: jest-environment-node, with Node's fetch given a new
 * connection pool for each test file.
 *
 * Why: a jest worker blocks its event loop for seconds while it loads the next test file on a busy machine.
 * A keep-alive socket that a server in another process closed meanwhile (Node's servers close an idle one
 * after 5 s: the Workspace emulator and firebase-tools' Auth emulator among them) was then reused before
 * its close was read, and the file's first request failed "other side closed" (clean-clone runs,
 * 2026-12-02; reproduced outside jest: a request after a 6 s blocked loop fails on the old pool and succeeds
 * on a new one). A new pool per file has no socket to reuse when the file starts; within a file the loop is
 * not blocked that long.
 *
 * How: Node's fetch reads its dispatcher from the worker's own realm, not from a test file's sandbox (set
 * from a setup file it changed nothing: 3 fetches, 2 connections), so it is replaced here. The new pool is
 * an Agent of Node's own bundled undici (the constructor of its default dispatcher), with Node's defaults:
 * the npm undici package as dispatcher failed an assertion of its own on a connection-close response with a
 * paused body (2026-12-02).
 */
const { TestEnvironment } = require("jest-environment-node");

const DISPATCHER = Symbol.for("undici.globalDispatcher.1");

/** Node's bundled Agent class, known once fetch has made its default dispatcher. */
let agentClass;

async function bundledAgentClass() {
  if (agentClass === undefined) {
    if (globalThis[DISPATCHER] === undefined) await fetch("data:,");
    agentClass = globalThis[DISPATCHER].constructor;
  }
  return agentClass;
}

class NodeTestEnvironment extends TestEnvironment {
  async setup() {
    await super.setup();
    const Agent = await bundledAgentClass();
    const previous = globalThis[DISPATCHER];
    globalThis[DISPATCHER] = new Agent();
    // The previous file's idle sockets; not awaited, so that a request the previous file left running
    // cannot hold this one up.
    previous.close().catch(() => {});
  }
}

module.exports = NodeTestEnvironment;
