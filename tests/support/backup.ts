/**
 * What tests of the backup runner share: Gmail mailboxes in an in-process Workspace emulator, a Gmail
 * source reading them, a metered caller, and restoring a version from its objects.
 */
import { gmail_v1 } from "@googleapis/gmail";
import { type Harness, SCOPES, testMessage } from "../../emulators/workspace/src/index";
import type { BlobStore } from "../../functions/src/engine/blobstore/blob-store";
import type { ChunkRef, ObjectScope } from "../../functions/src/engine/format/chunk-codec";
import { seededText } from "../../functions/src/engine/format/testing";
import type { GoogleCaller } from "../../functions/src/engine/google/caller";
import { meteredCaller, quotaAwareCaller } from "../../functions/src/engine/google/quota-caller";
import type { CatalogVersion } from "../../functions/src/engine/runner/catalog";
import { GmailSource } from "../../functions/src/engine/gmail/source";
import type { ChangeBatch, FetchedItem, ItemRef, Source } from "../../functions/src/engine/sources/source";
import { chunkListOf, versionContent } from "../../functions/src/engine/restore/content";

/** Mailboxes of the harness's Workspace: users, messages, and sources reading them. */
export class Mailboxes {
  private users = 0;

  constructor(private readonly harness: Harness) {}

  /** A new user `<prefix><n>@example-test.test`. */
  async newUser(prefix: string): Promise<string> {
    this.users += 1;
    const email = `${prefix}${this.users}@example-test.test`;
    const created = await this.harness.admin("POST", "/users", {
      email,
      givenName: "Runner",
      familyName: `User${this.users}`,
    });
    expect(created.status).toBe(200);
    return email;
  }

  /** Adds a message (`raw`, or a text message with `subject`) and returns its id. */
  async addMessage(user: string, subject: string, raw?: Buffer): Promise<string> {
    const body =
      raw ??
      testMessage({
        subject,
        to: user,
        messageId: `${subject.replace(/\W/g, "")}.${this.users}@x.test`,
        text: seededText(subject.length * 7919 + this.users, 3000).toString("utf8"),
      });
    const answer = await this.harness.admin<{ id: string }>("POST", `/users/${user}/gmail/messages`, {
      raw: body.toString("base64"),
      encoding: "base64",
    });
    expect(answer.status).toBe(200);
    return answer.body.id;
  }

  /** A message's bytes as the emulator keeps them. */
  storedRaw(user: string, id: string): Buffer {
    const userId = this.harness.emulator.directory.user(user)?.id ?? "";
    return this.harness.emulator.gmail.message(userId, id).raw;
  }

  gmailSource(user: string, caller: GoogleCaller, pageSize = 2): GmailSource {
    return new GmailSource({
      gmail: new gmail_v1.Gmail({
        auth: this.harness.jwt(user, [SCOPES.gmailReadonly]),
        rootUrl: `${this.harness.url}/`,
        retry: false,
      }),
      user,
      caller,
      pageSize,
    });
  }
}

/** A caller that counts Google's units, as a run's does. */
export function meter(): ReturnType<typeof meteredCaller> {
  return meteredCaller(quotaAwareCaller());
}

/** The name of a chunk's object. */
export function chunkObjectName(organizationId: string, chunkId: string): string {
  return `o/${organizationId}/c/${chunkId.slice(0, 2)}/${chunkId}`;
}

/** A version's chunk list, inline or from its manifest object (the product's reader). */
export function chunksOf(
  blobStore: BlobStore,
  scope: ObjectScope,
  version: CatalogVersion,
): Promise<ChunkRef[]> {
  return chunkListOf(blobStore, scope, version);
}

/** A version's content, from its objects (the product's reader, as recovery and export use it). */
export function restoreVersion(
  blobStore: BlobStore,
  scope: ObjectScope,
  version: CatalogVersion,
): Promise<Buffer> {
  return versionContent(blobStore, scope, version);
}

/**
 * A source whose items' content is counted as it is handed over (`bytes`, the offsets of Range reads in
 * `ranges`), and that aborts `stop.controller` once `stop.after` bytes passed: the runner's deadline
 * coming in the middle of an item.
 */
export class CountingSource implements Source {
  bytes = 0;
  readonly ranges: number[] = [];
  readonly kind: Source["kind"];

  constructor(
    private readonly inner: Source,
    private readonly stop?: { controller: AbortController; after: number },
  ) {
    this.kind = inner.kind;
  }

  listChanges(cursor: string | null): AsyncIterable<ChangeBatch> {
    return this.inner.listChanges(cursor);
  }

  private counted(source: AsyncIterable<Buffer>): AsyncIterable<Buffer> {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const self = this;
    return {
      async *[Symbol.asyncIterator]() {
        for await (const piece of source) {
          self.bytes += piece.length;
          if (self.stop && self.bytes >= self.stop.after) self.stop.controller.abort(new Error("deadline"));
          yield piece;
        }
      },
    };
  }

  async fetch(item: ItemRef): Promise<FetchedItem> {
    const fetched = await this.inner.fetch(item);
    const from = fetched.contentFrom;
    return {
      ...fetched,
      content: this.counted(fetched.content),
      ...(from
        ? {
            contentFrom: (offset: number) => {
              this.ranges.push(offset);
              return this.counted(from(offset));
            },
          }
        : {}),
    };
  }
}
