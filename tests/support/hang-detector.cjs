/**
 * Every test's default timeout (a file's own `jest.setTimeout` still wins): a hang detector, not a speed
 * check. npm test runs the unit tests beside lint and typecheck, and the stack's files two or three at a
 * time on the same cores, so a test that works a core hard gets more than Jest's 5 s. (`testTimeout` is a
 * global option of Jest's, which a project's config cannot set.)
 */
/* global jest */
jest.setTimeout(60_000);
