/**
 * Every request of Node's fetch in a test process on a connection of its own (undici's `pipelining: 0`).
 * A jest worker that loads a test file can block its event loop for seconds on a busy machine; a
 * keep-alive socket that a server closed meanwhile (Node's servers close an idle one after 5 s, the
 * Workspace emulator and firebase-tools' Auth emulator among them) was then reused before its close was
 * read, and the request failed with "other side closed" (seen in clean-clone runs, 2026-12-02). Loopback
 * connections are cheap. Loaded by jest (setupFiles) before each test file.
 */
const { Agent, setGlobalDispatcher } = require("undici");

setGlobalDispatcher(new Agent({ pipelining: 0 }));
