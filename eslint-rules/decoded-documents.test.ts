import { RuleTester } from "eslint";
import tseslint from "typescript-eslint";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const rule = require("./decoded-documents.cjs") as import("eslint").Rule.RuleModule;

const tester = new RuleTester({ languageOptions: { parser: tseslint.parser as never } });

tester.run("decoded-documents", rule, {
  valid: [
    // A decoder reads the document.
    { code: "const item = decodeDocument(CATALOG_ITEM, snapshot);" },
    { code: "const items = decodeDocuments(CATALOG_ITEM, (await query.get()).docs);" },
    {
      code: "const labels = decodeDocument(MAIL_LABELS, await ref.get())?.labels as Record<string, string>;",
    },
    // Reading without a cast, or widening to unknown, promises nothing.
    { code: "const data = doc.data();" },
    { code: 'const at: unknown = snapshot.get("verifiedAt");' },
    { code: 'const at = snapshot.get("verifiedAt") as unknown;' },
    { code: "const data = doc.data() as unknown;" },
    // `.get("…")` of requests, responses, headers, URL parameters and maps built on the spot.
    { code: 'const header = request.get("authorization") as string;' },
    { code: 'const location = response.headers.get("location") as string;' },
    { code: 'const location = (start.headers as unknown as Headers).get("location") as string;' },
    { code: 'const signature = url.searchParams.get("X-Goog-Signature") as string;' },
    { code: 'const id = new URL(session).searchParams.get("upload_id") as string;' },
    { code: 'const outcome = new URLSearchParams(raw).get("outcome") as string;' },
    // A field read by a name that is not a literal is not a document's field for this rule.
    { code: "const value = map.get(key) as string;" },
  ],
  invalid: [
    { code: "const item = doc.data() as CatalogItem;", errors: [{ messageId: "data" }] },
    { code: "const run = snapshot.data() as RunRecord | undefined;", errors: [{ messageId: "data" }] },
    { code: "const run = (await ref.get()).data() as RunRecord;", errors: [{ messageId: "data" }] },
    {
      code: "const version = snapshot.docs[0]?.data() as CatalogVersion | undefined;",
      errors: [{ messageId: "data" }],
    },
    { code: "const item = snapshot.data()! as CatalogItem;", errors: [{ messageId: "data" }] },
    { code: "const item = <CatalogItem>doc.data();", errors: [{ messageId: "data" }] },
    {
      code: "const items = page.docs.map((doc) => ({ ...(doc.data() as Omit<StoredRun, 'runId'>) }));",
      errors: [{ messageId: "data" }],
    },
    { code: 'const name = doc.get("x") as string;', errors: [{ messageId: "get" }] },
    { code: 'const state = existing.get("state") as "pending" | "running";', errors: [{ messageId: "get" }] },
    { code: 'const units = (await dayRef.get()).get("units") as number;', errors: [{ messageId: "get" }] },
    {
      code: "const runs = snapshot.get(`regions.${regionId}.runs`) as number;",
      errors: [{ messageId: "get" }],
    },
    { code: 'const bytes = refs[index]?.get("lastReferencedAt") as string;', errors: [{ messageId: "get" }] },
  ],
});
