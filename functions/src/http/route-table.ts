/**
 * The API's route table, read from the Express app itself (its routers' layers), so that suites which must
 * cover every route (the hostile-input fuzz suite, the tenant matrix) cover exactly the routes that exist.
 */
import type { Express } from "express";

export interface RouteEntry {
  /** Upper case: GET, POST, PUT, PATCH, DELETE. */
  method: string;
  /** The full path pattern as Express matches it, e.g. `/v1/organizations/:organizationId/secrets`. */
  path: string;
  /** Mounted before `authenticate`: reached without a Firebase sign-in (webhook, payment sandbox). */
  public: boolean;
  /** The `:name` parameters of the path, in order. */
  params: string[];
}

interface LayerLike {
  name?: string;
  rawPath?: unknown;
  route?: { path: unknown; methods: Record<string, boolean> };
  handle?: { stack?: LayerLike[] };
}

/** The name `authenticate` gives its middleware: layers before it in /v1 are public. */
export const AUTHENTICATE_LAYER = "authenticateRequest";

function mountPath(layer: LayerLike): string {
  return typeof layer.rawPath === "string" && layer.rawPath !== "/" ? layer.rawPath : "";
}

function walk(stack: LayerLike[], prefix: string, state: { public: boolean }, out: RouteEntry[]): void {
  for (const layer of stack) {
    if (layer.name === AUTHENTICATE_LAYER) state.public = false;
    if (layer.route) {
      const path = `${prefix}${String(layer.route.path)}`;
      const params = [...path.matchAll(/(?<!\\):([A-Za-z0-9_]+)/g)].map((match) => match[1] as string);
      for (const method of Object.keys(layer.route.methods)) {
        if (method === "_all") continue;
        out.push({ method: method.toUpperCase(), path, public: state.public, params });
      }
    } else if (layer.handle?.stack) {
      walk(layer.handle.stack, `${prefix}${mountPath(layer)}`, state, out);
    }
  }
}

/** Every route of `app`, in the order Express tries them. */
export function routeTable(app: Express): RouteEntry[] {
  const router = (app as unknown as { router?: { stack?: LayerLike[] } }).router;
  const out: RouteEntry[] = [];
  walk(router?.stack ?? [], "", { public: true }, out);
  return out;
}
