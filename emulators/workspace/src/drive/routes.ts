/**
 * Drive v3: files, exports, changes, shared drives, permissions, revisions and uploads.
 */
import type { WorkspaceEmulator } from "../emulator";

export function registerDriveApi(_emulator: WorkspaceEmulator): void {}
