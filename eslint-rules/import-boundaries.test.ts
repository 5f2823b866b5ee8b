import { join } from "node:path";
import { RuleTester } from "eslint";
import tseslint from "typescript-eslint";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const rule = require("./import-boundaries.cjs") as import("eslint").Rule.RuleModule;

const ROOT = join(__dirname, "..");
const at = (file: string): string => join(ROOT, file);

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
      code: 'import { AppError } from "../../../functions/src/http/app-error";',
      errors: [{ messageId: "boundary" }],
    },
    {
      filename: at("functions/src/http/app.ts"),
      code: 'import { paths } from "../../../web/src/config/paths";',
      errors: [{ messageId: "boundary" }],
    },
    {
      filename: at("contracts/src/errors.ts"),
      code: 'import { AppError } from "../../functions/src/http/app-error";',
      errors: [{ messageId: "boundary" }],
    },
    {
      filename: at("functions/src/system/routes.ts"),
      code: 'import { databaseAnswers } from "./repo";',
      errors: [{ messageId: "boundary" }],
    },
    {
      filename: at("functions/src/system/service.ts"),
      code: 'import { getFirestore } from "firebase-admin/firestore";',
      errors: [{ messageId: "boundary" }],
    },
  ],
});
