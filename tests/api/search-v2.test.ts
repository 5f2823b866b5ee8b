/**
 * The search suite (tests/support/search-suite.ts) over a catalog of format version 2 (docs/backup-format.md
 * §9): every backup of the organisation is written sealed, and search answers as over version 1.
 */
import { describeSearchSuite } from "../support/search-suite";

jest.setTimeout(180_000);

describeSearchSuite(2);
