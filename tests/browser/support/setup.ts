/**
 * Set-up of every browser test file, after the in-process set-up (tests/support/in-process/): the web app
 * is served by the stack's Hosting and talks to the Auth emulator as deployed, while its API calls are
 * answered by the product run in the test's own process (the browser's proxy sends them there,
 * network.ts), whose tasks are delivered as soon as they are enqueued, as Cloud Tasks would without its
 * dispatch delay: a journey waits for what the screens show. A test that must see work before it runs holds its queue (`holdTasks`).
 */
import { harness } from "../../support/in-process/harness";

harness().queue.deliverAsEnqueued();
