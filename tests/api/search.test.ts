/** The search suite (tests/support/search-suite.ts) over a catalog of format version 1. */
import { describeSearchSuite } from "../support/search-suite";

jest.setTimeout(180_000);

describeSearchSuite(1);
