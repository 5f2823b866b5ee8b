/**
 * The test environment of component tests: jsdom (jest-environment-jsdom), plus the Fetch API classes
 * jsdom lacks, taken from Node (`Response`, `Headers`, `Request`, streams, text codecs). The fake API
 * answers with real `Response`s, so the web's API client reads them as it reads the browser's; `fetch`
 * itself stays absent until a test installs the fake API. Dates are shown in UTC, whatever the machine's
 * time zone, so the texts tests expect do not depend on where they run.
 */
const { TestEnvironment } = require("jest-environment-jsdom");

const FROM_NODE = [
  "Response",
  "Request",
  "Headers",
  "ReadableStream",
  "TextEncoder",
  "TextDecoder",
  "structuredClone",
];

class WebTestEnvironment extends TestEnvironment {
  constructor(config, context) {
    process.env.TZ = "UTC";
    super(config, context);
    for (const name of FROM_NODE) {
      if (this.global[name] === undefined) this.global[name] = globalThis[name];
    }
  }
}

module.exports = WebTestEnvironment;
