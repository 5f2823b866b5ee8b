/**
 * The test environment of every Node test file (jest-environment-node), with Node's fetch opening a
 * connection of its own for each request (undici's `pipelining: 0`). Set here, in the jest worker's own
 * realm, because Node's fetch reads its dispatcher from that realm's global: set from a setup file, inside a
 * test file's sandbox, it changed nothing (measured: 3 fetches, 2 connections). With keep-alive, a jest
 * worker that blocked its event loop loading the next test file then reused a socket that the server had
 * closed after its 5 s keep-alive timeout (Node's servers, the Workspace emulator and firebase-tools' Auth
 * emulator among them), and the file's first request failed "other side closed" (clean-clone runs,
 * 2026-12-02). Loopback connections are cheap.
 */
const { TestEnvironment } = require("jest-environment-node");
const { Agent, setGlobalDispatcher } = require("undici");

setGlobalDispatcher(new Agent({ pipelining: 0 }));

module.exports = TestEnvironment;
