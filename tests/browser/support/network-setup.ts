/** Set-up of every browser and journey test file: its browser network (network.ts) closes after its tests. */
import { closeBrowserNetwork } from "./browser";

afterAll(() => closeBrowserNetwork());
