import { join } from "node:path";
import { RuleTester } from "eslint";
import tseslint from "typescript-eslint";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const rule = require("./import-boundaries.cjs") as import("eslint").Rule.RuleModule;

const ROOT = join(__dirname, "..");
const at = (file: string): string => join(ROOT, file);

/** A ratchet list for the cases about listed imports (the rule's own list only shrinks). */
const LISTED = ["billing/repo.ts → audit/repo", "billing/repo.ts → organizations/repo"];

const tester = new RuleTester({ languageOptions: { parser: tseslint.parser as never } });

tester.run("import-boundaries", rule, {
  valid: [
    {
      filename: at("web/src/features/policies/components/list.tsx"),
      code: 'import { x } from "@/components/ui/button";',
    },
    {
      filename: at("web/src/features/policies/components/list.tsx"),
      code: 'import { x } from "../api/list-policies";',
    },
    {
      filename: at("web/src/app/routes/policies.tsx"),
      code: 'import { x } from "@/features/policies/components/list";',
    },
    {
      filename: at("web/src/lib/api-client.ts"),
      code: 'import { toApiError } from "@alpvault/contracts/errors";',
    },
    { filename: at("functions/src/system/routes.ts"), code: 'import { systemService } from "./service";' },
    {
      filename: at("functions/src/system/repo.ts"),
      code: 'import { FieldValue } from "firebase-admin/firestore";',
    },
    { filename: at("tests/api/health.test.ts"), code: 'import { x } from "../../functions/src/http/app";' },
    // The HTTP layer may import http/: http/ itself, routes and their tests, index.ts.
    { filename: at("functions/src/http/app.ts"), code: 'import { errorHandler } from "./error-handler";' },
    {
      filename: at("functions/src/export/routes.ts"),
      code: 'import { sendDownload } from "../http/write-chunk";',
    },
    {
      filename: at("functions/src/billing/routes.test.ts"),
      code: 'import { createApi } from "../http/app";',
    },
    { filename: at("functions/src/index.ts"), code: 'import { createApi } from "./http/app";' },
    // ...and api.ts, which builds the API as deployed beside index.ts and composes the product's routes.
    { filename: at("functions/src/api.ts"), code: 'import { createApi } from "./http/app";' },
    { filename: at("functions/src/api.ts"), code: 'import { searchRoutes } from "./search/routes";' },
    // http/ uses its own kit, lib/, the logs and the configuration.
    {
      filename: at("functions/src/http/authenticate.ts"),
      code: 'import { DomainError } from "../lib/errors";',
    },
    { filename: at("functions/src/http/request-log.ts"), code: 'import * as logs from "../logs";' },
    {
      filename: at("functions/src/http/verifiers.ts"),
      code: 'import type { RuntimeConfig } from "../config";',
    },
    // Domain modules take their errors and the caller from lib/.
    {
      filename: at("functions/src/billing/service.ts"),
      code: 'import { DomainError } from "../lib/errors";',
    },
    {
      filename: at("functions/src/backups/verify/service.ts"),
      code: 'import type { Caller } from "../../lib/caller";',
    },
    // A module imports its own repos (any folder of it), and another module's service.
    {
      filename: at("functions/src/backups/retention/repo.ts"),
      code: 'import { decodeRun } from "../catalog/runs-repo";',
    },
    {
      filename: at("functions/src/backups/catalog/runs-repo.ts"),
      code: 'import { FieldValue } from "firebase-admin/firestore";',
    },
    {
      filename: at("functions/src/backups/task.ts"),
      code: 'import { readVerifyResource } from "./verify/repo";',
    },
    {
      filename: at("functions/src/backups/verify/repo.ts"),
      code: 'import { decodeRun } from "../catalog/repo";',
    },
    {
      filename: at("functions/src/recovery/worker.ts"),
      code: 'import { organizationServedIn } from "../organizations/service";',
    },
    // The engine is a library: it imports engine/, lib/, contracts/ and packages; anyone may import it.
    {
      filename: at("functions/src/engine/runner/run-backup.ts"),
      code: 'import { encodeChunk } from "../format/chunk-codec"; import { parallel } from "../../lib/parallel";',
    },
    {
      filename: at("functions/src/engine/gmail/source.ts"),
      code: 'import type { Regions } from "@alpvault/contracts/regions"; import { gmail } from "@googleapis/gmail";',
    },
    {
      filename: at("functions/src/recovery/repo.ts"),
      code: 'import { catalogDocId } from "../engine/runner/catalog-ids";',
    },
    // Tests arrange data through any repo.
    {
      filename: at("functions/src/billing/service.test.ts"),
      code: 'import { readAccount } from "../organizations/repo";',
    },
    // A listed import that is still there.
    {
      filename: at("functions/src/billing/repo.ts"),
      code: `import { auditedTransaction } from "../audit/repo";
        import { readAccount } from "../organizations/repo";`,
      options: [{ crossModuleRepoImports: LISTED }],
    },
    // A folder whose name merely starts with "http" is not the HTTP layer.
    { filename: at("functions/src/system/service.ts"), code: 'import { x } from "../https-things/thing";' },
    {
      filename: at("tests/api/recovery.test.ts"),
      code: 'import { SCOPES } from "../../emulators/workspace/src/index";',
    },
    { filename: at("scripts/stack.ts"), code: 'import { startKmsEmulator } from "../emulators/kms/src";' },
    {
      filename: at("emulators/workspace/src/drive/routes.ts"),
      code: 'import { GoogleApiError } from "../http";',
    },
    {
      filename: at("emulators/storage/src/server.ts"),
      code: 'import { startHttpServer } from "../../kit/src/index";',
    },
  ],
  invalid: [
    {
      filename: at("tests/api/recovery.test.ts"),
      code: 'import { SCOPES } from "../../emulators/workspace/src/auth";',
      errors: [{ messageId: "boundary" }],
    },
    {
      filename: at("scripts/stack.ts"),
      code: 'import { startStorageEmulator } from "@alpvault/storage-emulator/src/server";',
      errors: [{ messageId: "boundary" }],
    },
    {
      filename: at("emulators/storage/src/server.ts"),
      code: 'import { seededRandom } from "../../workspace/src/faults";',
      errors: [{ messageId: "boundary" }],
    },
    {
      filename: at("web/src/components/ui/button.tsx"),
      code: 'import { x } from "@/features/policies/components/list";',
      errors: [{ messageId: "boundary" }],
    },
    {
      filename: at("web/src/lib/thing.ts"),
      code: 'import { router } from "../app/router";',
      errors: [{ messageId: "boundary" }],
    },
    {
      filename: at("web/src/features/policies/components/list.tsx"),
      code: 'import { x } from "../../secrets/api/list-secrets";',
      errors: [{ messageId: "boundary" }],
    },
    {
      filename: at("web/src/features/policies/components/list.tsx"),
      code: 'import { x } from "@/app/provider";',
      errors: [{ messageId: "boundary" }],
    },
    {
      filename: at("web/src/lib/api-client.ts"),
      code: 'import { DomainError } from "../../../functions/src/lib/errors";',
      errors: [{ messageId: "boundary" }],
    },
    {
      filename: at("functions/src/http/app.ts"),
      code: 'import { paths } from "../../../web/src/config/paths";',
      errors: [{ messageId: "boundary" }],
    },
    {
      filename: at("contracts/src/errors.ts"),
      code: 'import { DomainError } from "../../functions/src/lib/errors";',
      errors: [{ messageId: "boundary" }],
    },
    {
      filename: at("functions/src/system/routes.ts"),
      code: 'import { databaseAnswers } from "./repo";',
      errors: [{ messageId: "boundary" }],
    },
    {
      filename: at("functions/src/backups/routes.ts"),
      code: 'import { loadRun } from "./catalog/runs-repo";',
      errors: [{ messageId: "boundary" }],
    },
    {
      filename: at("functions/src/system/service.ts"),
      code: 'import { getFirestore } from "firebase-admin/firestore";',
      errors: [{ messageId: "boundary" }],
    },
    // A module never imports another module's repo (type imports, exports and dynamic imports included).
    ...[
      ["functions/src/backups/queue.ts", 'import { listSecrets } from "../secrets/repo";'],
      ["functions/src/backups/retention/prune.ts", 'import type { StoredSecret } from "../../secrets/repo";'],
      ["functions/src/search/service.ts", 'export { listAlerts } from "../resources/repo";'],
      ["functions/src/drills/worker.ts", 'const repo = import("../backups/catalog/repo.ts");'],
      ["functions/src/policies/service.ts", 'import * as resources from "../resources/repo";'],
      ["functions/src/drills/worker.ts", 'import { decodeRun } from "../backups/catalog/runs-repo";'],
    ].map(([filename, code]) => ({
      filename: at(filename!),
      code: code!,
      errors: [{ messageId: "boundary" }],
    })),
    // The engine never reaches a domain module, the HTTP layer or the configuration.
    ...[
      ["functions/src/engine/format/keys.ts", 'import type { Kms } from "../../secrets/kms";'],
      ["functions/src/engine/runner/run-backup.ts", 'import { readRun } from "../../backups/repo";'],
      ["functions/src/engine/gmail/source.ts", 'export { x } from "../../organizations/service";'],
      ["functions/src/engine/drive/restorer.ts", 'const logs = import("../../logs");'],
      ["functions/src/engine/google/caller.ts", 'import { loadWorkspaceConfig } from "../../config";'],
    ].map(([filename, code]) => ({
      filename: at(filename!),
      code: code!,
      errors: [{ messageId: "boundary" }],
    })),
    // A listed import that is gone must leave the list.
    {
      filename: at("functions/src/billing/repo.ts"),
      code: 'import { auditedTransaction } from "../audit/repo";',
      options: [{ crossModuleRepoImports: LISTED }],
      errors: [{ messageId: "staleException" }],
    },
    // http/ is a transport kit: no product area, no engine (its tests neither).
    ...[
      ["functions/src/http/app.ts", 'import { searchRoutes } from "../search/routes";'],
      ["functions/src/http/app.ts", 'import { productServices } from "../organizations/wiring";'],
      ["functions/src/http/authenticate.ts", 'import type { Organization } from "../organizations/service";'],
      [
        "functions/src/http/write-chunk.ts",
        'export { blobStore } from "../engine/blobstore/gcs-blob-store";',
      ],
      ["functions/src/http/app.test.ts", 'import { billingRoutes } from "../billing/routes";'],
      ["functions/src/http/request-log.ts", 'import { productApi } from "../api";'],
    ].map(([filename, code]) => ({
      filename: at(filename!),
      code: code!,
      errors: [{ messageId: "boundary" }],
    })),
    // A domain module (anything under functions/src but http/, routes and index.ts) never imports http/.
    ...[
      ["functions/src/billing/service.ts", 'import { DomainError } from "../http/error-handler";'],
      ["functions/src/organizations/service.ts", 'import type { Caller } from "../http/authenticate";'],
      ["functions/src/export/service.ts", 'export { writeChunk } from "../http/write-chunk";'],
      ["functions/src/backups/verify/service.ts", 'import { x } from "../../http/app";'],
      ["functions/src/backups/task.ts", 'const app = import("../http/app");'],
      ["functions/src/resources/repo.ts", 'import { x } from "../http";'],
      ["functions/src/lib/tenancy.ts", 'import { callerOf } from "../http/authenticate";'],
      ["functions/src/logs.ts", 'import { routeLabel } from "./http/request-log";'],
      ["functions/src/billing/service.test.ts", 'import { createApi } from "../http/app";'],
    ].map(([filename, code]) => ({
      filename: at(filename!),
      code: code!,
      errors: [{ messageId: "boundary" }],
    })),
  ],
});
