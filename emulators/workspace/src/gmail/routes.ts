/**
 * Gmail v1: profile, labels, messages (list, get, import, insert, modify, trash, delete) and history.
 */
import type { WorkspaceEmulator } from "../emulator";

export function registerGmailApi(_emulator: WorkspaceEmulator): void {}
