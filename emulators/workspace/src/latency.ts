/**
 * How long Google takes to answer, per method: a time to the first byte drawn from a log-normal
 * distribution (a median and a spread, so most answers are near the median and a few take several times
 * longer), plus time per MiB for methods that read or encode content (a large `messages.get format=raw`),
 * and a bandwidth per connection for the answer body and the request body. Bodies are streamed at that
 * bandwidth with backpressure: a client that reads 40 MB sees it arrive over seconds, and an upload is read
 * no faster than the model's upload bandwidth.
 *
 * Google publishes no latency figures: the medians and bandwidths below are our estimates of what the APIs
 * answer from a Google Cloud region in Europe, chosen on the slow side of what clients see. Draws are
 * seeded per method and call number, so a run repeats. The model runs on real time, not on the quota
 * clock: a call takes as long whatever the quota time scale (`scale` shortens or lengthens every time
 * explicitly when a benchmark needs answers and quota minutes compressed together).
 */

export interface MethodLatency {
  /** Median time to the first byte of a small answer (ms). */
  medianMs: number;
  /** Spread of the log-normal (σ of the natural log): 0.5 puts p95 at 2.3× the median, p99 at 3.2×. */
  sigma: number;
  /** Extra time to the first byte per MiB of the answer (the server fetches and encodes the content). */
  perMiBMs: number;
  /** Bytes per second the answer body is sent at on one connection. */
  downloadBytesPerSecond: number;
  /** Bytes per second the request body is read at on one connection. */
  uploadBytesPerSecond: number;
}

export interface LatencySettings {
  /** On by default: every Google answer takes time. */
  enabled: boolean;
  /** Multiplies every time and divides every bandwidth (0.1: ten times faster). */
  scale: number;
  /** Seed of the draws. */
  seed: number;
  /** Per method id (or `gmail.*`, `drive.*`, `*`): changes to the model. */
  methods: Record<string, Partial<MethodLatency>>;
}

export type LatencySettingsChange = Partial<Omit<LatencySettings, "methods">> & {
  methods?: Record<string, Partial<MethodLatency> | null>;
};

export const MiB = 1024 * 1024;

const base = (medianMs: number, sigma = 0.5, extra: Partial<MethodLatency> = {}): Partial<MethodLatency> => ({
  medianMs,
  sigma,
  ...extra,
});

/**
 * The model. Keys are Google method ids (the router's), `<api>.*` for an API's other methods and `*` for
 * everything else; a method takes its API's entry, then its own.
 */
export const LATENCY_MODEL: Readonly<Record<string, Partial<MethodLatency>>> = {
  "*": {
    medianMs: 100,
    sigma: 0.5,
    perMiBMs: 0,
    downloadBytesPerSecond: 8 * MiB,
    uploadBytesPerSecond: 8 * MiB,
  },
  "oauth2.token": base(90, 0.3),
  "directory.*": base(140, 0.5),
  "directory.users.get": base(90),
  "marketplace.*": base(120),

  "gmail.*": { medianMs: 90, sigma: 0.5, downloadBytesPerSecond: 8 * MiB, uploadBytesPerSecond: 8 * MiB },
  "gmail.users.getProfile": base(60),
  "gmail.users.labels.list": base(70),
  "gmail.users.labels.get": base(60),
  "gmail.users.labels.create": base(160),
  "gmail.users.labels.update": base(160),
  "gmail.users.labels.patch": base(160),
  "gmail.users.labels.delete": base(180),
  "gmail.users.messages.list": base(140, 0.55),
  "gmail.users.history.list": base(90, 0.5),
  "gmail.users.messages.get": base(70, 0.55, { perMiBMs: 60 }),
  "gmail.users.messages.attachments.get": base(90, 0.55, { perMiBMs: 60 }),
  "gmail.users.messages.import": base(450, 0.5, { perMiBMs: 150 }),
  "gmail.users.messages.insert": base(350, 0.5, { perMiBMs: 120 }),
  "gmail.users.messages.modify": base(130),
  "gmail.users.messages.trash": base(130),
  "gmail.users.messages.untrash": base(130),
  "gmail.users.messages.delete": base(160),
  "gmail.users.messages.batchModify": base(350),
  "gmail.users.messages.batchDelete": base(450),
  "gmail.upload.session": base(200, 0.5, { perMiBMs: 150 }),

  "drive.*": { medianMs: 110, sigma: 0.5, downloadBytesPerSecond: 32 * MiB, uploadBytesPerSecond: 16 * MiB },
  "drive.about.get": base(70),
  "drive.files.get": base(80),
  "drive.files.list": base(220, 0.6),
  "drive.changes.list": base(170, 0.6),
  "drive.changes.getStartPageToken": base(70),
  "drive.drives.list": base(160),
  "drive.drives.get": base(80),
  "drive.permissions.list": base(100),
  "drive.revisions.list": base(110),
  "drive.files.download": base(160, 0.5, { perMiBMs: 2 }),
  "drive.revisions.download": base(180, 0.5, { perMiBMs: 2 }),
  "drive.files.export": base(900, 0.7, { perMiBMs: 40 }),
  "drive.files.exportLink": base(900, 0.7, { perMiBMs: 40 }),
  "drive.files.create": base(350, 0.5),
  "drive.files.update": base(350, 0.5),
  "drive.files.copy": base(600, 0.6),
  "drive.files.delete": base(250),
  "drive.permissions.create": base(300),
  "drive.upload.session": base(200, 0.5),

  // People API (contacts): our estimates, as for the others; batch and sync calls take longer.
  "people.*": { medianMs: 120, sigma: 0.5, downloadBytesPerSecond: 8 * MiB, uploadBytesPerSecond: 8 * MiB },
  "people.people.get": base(90),
  "people.people.getBatchGet": base(140),
  "people.people.connections.list": base(250, 0.6),
  "people.otherContacts.list": base(220, 0.6),
  "people.contactGroups.list": base(110),
  "people.contactGroups.get": base(100),
  "people.people.createContact": base(300),
  "people.people.batchCreateContacts": base(900, 0.6),
  "people.people.deleteContact": base(250),
  "people.people.updateContactPhoto": base(450, 0.5, { perMiBMs: 100 }),
  "people.contactGroups.create": base(250),
  "people.contactGroups.members.modify": base(300),

  // Calendar v3: our estimates, as for the others; listing events (recurring series expanded) is slowest.
  "calendar.*": { medianMs: 110, sigma: 0.5, downloadBytesPerSecond: 8 * MiB, uploadBytesPerSecond: 8 * MiB },
  "calendar.calendarList.list": base(120),
  "calendar.calendarList.get": base(80),
  "calendar.calendars.get": base(80),
  "calendar.calendars.insert": base(400),
  "calendar.calendars.delete": base(350),
  "calendar.acl.list": base(110),
  "calendar.acl.insert": base(300),
  "calendar.acl.delete": base(250),
  "calendar.events.list": base(200, 0.6),
  "calendar.events.get": base(90),
  "calendar.events.instances": base(220, 0.6),
  "calendar.events.insert": base(300),
  "calendar.events.import": base(320),
  "calendar.events.delete": base(250),
};

const DEFAULT_SETTINGS: LatencySettings = { enabled: true, scale: 1, seed: 20_261_101, methods: {} };

/** A 32-bit hash of a string (FNV-1a), to seed one draw. */
function hash(text: string): number {
  let value = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    value ^= text.charCodeAt(index);
    value = Math.imul(value, 0x01000193) >>> 0;
  }
  return value;
}

/** mulberry32: two uniforms in (0, 1) from a seed. */
function uniforms(seed: number): [number, number] {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 0.5) / 4294967296;
  };
  return [next(), next()];
}

/** The time to the first byte, the bandwidths and the size term of one call. */
export interface CallTiming {
  /** Time to the first byte of a small answer (ms, drawn). */
  firstByteMs: number;
  perMiBMs: number;
  downloadBytesPerSecond: number;
  uploadBytesPerSecond: number;
}

export class LatencyModel {
  settings: LatencySettings;
  private readonly calls = new Map<string, number>();

  constructor(settings: Partial<LatencySettings> = {}) {
    this.settings = { ...DEFAULT_SETTINGS, ...settings, methods: { ...(settings.methods ?? {}) } };
    check(this.settings);
  }

  configure(change: LatencySettingsChange): void {
    const methods = { ...this.settings.methods };
    for (const [method, value] of Object.entries(change.methods ?? {})) {
      if (value === null) delete methods[method];
      else methods[method] = { ...methods[method], ...value };
    }
    const next: LatencySettings = {
      enabled: change.enabled ?? this.settings.enabled,
      scale: change.scale ?? this.settings.scale,
      seed: change.seed ?? this.settings.seed,
      methods,
    };
    check(next);
    if (next.seed !== this.settings.seed) this.calls.clear();
    this.settings = next;
  }

  /** A method's parameters (the model's, with the settings' changes, before `scale`). */
  parameters(methodId: string): MethodLatency {
    const api = `${methodId.split(".")[0] ?? ""}.*`;
    const layers = [LATENCY_MODEL["*"], LATENCY_MODEL[api], LATENCY_MODEL[methodId]];
    const own = [this.settings.methods["*"], this.settings.methods[api], this.settings.methods[methodId]];
    return Object.assign({}, ...layers, ...own) as MethodLatency;
  }

  /** Every method the model names, with its parameters. */
  table(): Record<string, MethodLatency> {
    const ids = new Set([...Object.keys(LATENCY_MODEL), ...Object.keys(this.settings.methods)]);
    return Object.fromEntries([...ids].sort().map((id) => [id, this.parameters(id)]));
  }

  /** The n-th draw of a method's time to the first byte (ms, before `scale`): deterministic per seed. */
  sample(methodId: string, n: number): number {
    const { medianMs, sigma } = this.parameters(methodId);
    const [u1, u2] = uniforms(hash(`${this.settings.seed}:${methodId}:${n}`));
    const normal = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    // Capped at 20 medians: a tail, not a hang.
    return Math.min(medianMs * Math.exp(sigma * normal), medianMs * 20);
  }

  /** The timing of the next call of a method, or undefined when the model is off. */
  next(methodId: string): CallTiming | undefined {
    if (!this.settings.enabled) return undefined;
    const n = this.calls.get(methodId) ?? 0;
    this.calls.set(methodId, n + 1);
    const parameters = this.parameters(methodId);
    const { scale } = this.settings;
    return {
      firstByteMs: this.sample(methodId, n) * scale,
      perMiBMs: parameters.perMiBMs * scale,
      downloadBytesPerSecond: parameters.downloadBytesPerSecond / scale,
      uploadBytesPerSecond: parameters.uploadBytesPerSecond / scale,
    };
  }

  describe(): LatencySettings & { model: Record<string, MethodLatency> } {
    return { ...structuredClone(this.settings), model: this.table() };
  }
}

function check(settings: LatencySettings): void {
  if (typeof settings.enabled !== "boolean") throw new Error("enabled must be a boolean");
  if (typeof settings.scale !== "number" || !(settings.scale > 0)) throw new Error("scale must be > 0");
  if (!Number.isInteger(settings.seed)) throw new Error("seed must be an integer");
  for (const [method, value] of Object.entries(settings.methods)) {
    if (typeof value !== "object" || value === null) throw new Error(`methods.${method} must be an object`);
    for (const [key, number] of Object.entries(value)) {
      if (
        !["medianMs", "sigma", "perMiBMs", "downloadBytesPerSecond", "uploadBytesPerSecond"].includes(key)
      ) {
        throw new Error(`methods.${method}.${key} is not a parameter of the model`);
      }
      const positive = key === "downloadBytesPerSecond" || key === "uploadBytesPerSecond";
      if (typeof number !== "number" || !(positive ? number > 0 : number >= 0)) {
        throw new Error(`methods.${method}.${key} must be a number ${positive ? "> 0" : ">= 0"}`);
      }
    }
  }
}
