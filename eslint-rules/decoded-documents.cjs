/**
 * Stored documents are decoded, never cast. A type assertion on what a Firestore document snapshot holds
 * — `doc.data() as T`, `snapshot.data() as T | undefined`, `(await ref.get()).data() as T`,
 * `doc.get("field") as string`, or the same with `<T>` — is an error: read it with its kind's decoder
 * (`functions/src/lib/stored.ts`: `decodeDocument(KIND, snapshot)`), whose schema lives beside the
 * repository that owns the collection (`<module>/documents.ts`).
 *
 * `as unknown` is allowed (it promises nothing). The rule sees syntax, not types: `.get("…")` counts as a
 * document's field unless it is read from a request, a response, headers, URL parameters or a map built
 * on the spot (`request.get("authorization")`, `response.headers.get("location")`,
 * `url.searchParams.get("page")`, `new Map(…).get("x")`). eslint.config.mjs applies it to functions/,
 * scripts/ and emulators/.
 */

/** Receivers of `.get("…")` that are not document snapshots, by their last name. */
const NOT_SNAPSHOTS = new Set([
  "headers",
  "searchParams",
  "params",
  "query",
  "cookies",
  "request",
  "req",
  "response",
  "res",
]);

/** The expression under TypeScript's wrappers (`x!`, `x as T`, `x satisfies T`) and optional chains. */
function unwrapped(node) {
  let current = node;
  for (;;) {
    if (current.type === "ChainExpression") current = current.expression;
    else if (
      current.type === "TSNonNullExpression" ||
      current.type === "TSAsExpression" ||
      current.type === "TSSatisfiesExpression" ||
      current.type === "TSTypeAssertion"
    ) {
      current = current.expression;
    } else return current;
  }
}

/** The last name of a receiver (`snapshot`, `x.headers` → `headers`), if it has one. */
function lastName(node) {
  const receiver = unwrapped(node);
  if (receiver.type === "Identifier") return receiver.name;
  if (receiver.type === "MemberExpression" && !receiver.computed && receiver.property.type === "Identifier") {
    return receiver.property.name;
  }
  return undefined;
}

function isFieldName(argument) {
  return (
    argument &&
    (argument.type === "TemplateLiteral" ||
      (argument.type === "Literal" && typeof argument.value === "string"))
  );
}

/** What the cast expression reads of a snapshot: "data", "get", or undefined when it is not a snapshot read. */
function snapshotRead(expression) {
  const call = unwrapped(expression);
  if (call.type !== "CallExpression") return undefined;
  const { callee } = call;
  if (callee.type !== "MemberExpression" || callee.computed || callee.property.type !== "Identifier")
    return undefined;
  if (callee.property.name === "data" && call.arguments.length === 0) return "data";
  if (callee.property.name !== "get" || call.arguments.length !== 1 || !isFieldName(call.arguments[0])) {
    return undefined;
  }
  const receiver = unwrapped(callee.object);
  if (receiver.type === "NewExpression") return undefined;
  return NOT_SNAPSHOTS.has(lastName(receiver)) ? undefined : "get";
}

module.exports = {
  meta: {
    type: "problem",
    docs: { description: "stored documents are decoded with their kind's schema, never cast" },
    schema: [],
    messages: {
      data: "A document's data is decoded, not cast: read it with its kind's decoder (lib/stored.ts, <module>/documents.ts).",
      get: "A document's field is decoded, not cast: decode the document with its kind's decoder (lib/stored.ts, <module>/documents.ts).",
    },
  },
  create(context) {
    const check = (node) => {
      if (node.typeAnnotation.type === "TSUnknownKeyword") return;
      const read = snapshotRead(node.expression);
      if (read) context.report({ node, messageId: read });
    };
    return { TSAsExpression: check, TSTypeAssertion: check };
  },
};
