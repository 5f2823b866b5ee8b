/**
 * Outbound network is blocked in tests: a connection to anything but loopback fails at once with
 * ECONNREFUSED-like error, so a test (or code under test) that reaches for the internet fails loudly
 * instead of hanging or silently depending on it. Loaded by jest (setupFiles) and, through NODE_OPTIONS,
 * by every process the test runner starts.
 */
const net = require("node:net");

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost|::ffff:127\.\d+\.\d+\.\d+)$/i;

function targetHost(args) {
  const first = args[0];
  if (Array.isArray(first)) return targetHost(first);
  if (first && typeof first === "object") {
    if (first.path) return "localhost"; // unix socket
    return first.host ?? "localhost";
  }
  if (typeof first === "string" && !/^\d+$/.test(first)) return "localhost"; // unix socket path
  return typeof args[1] === "string" ? args[1] : "localhost";
}

if (!net.Socket.prototype.__alpvaultBlocked) {
  const connect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function (...args) {
    const host = String(targetHost(args));
    if (!LOOPBACK.test(host)) {
      const error = new Error(`Outbound network blocked in tests: ${host}`);
      error.code = "ECONNREFUSED";
      process.nextTick(() => this.destroy(error));
      return this;
    }
    return connect.apply(this, args);
  };
  net.Socket.prototype.__alpvaultBlocked = true;
}
