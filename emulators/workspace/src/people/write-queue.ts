/**
 * One user's People writes, one at a time. Google's People guide asks for it: "Mutate requests for the
 * same user should be sent sequentially to avoid increased latency and failures"
 * (https://developers.google.com/people/v1/contacts, "Create a new contact"). The emulator models the
 * increased latency: a write of a user waits until the user's earlier writes have answered, and its own
 * answer takes the latency model's time after that wait. Reads are not held.
 */
export class UserWriteQueue {
  /** Per user: settles when the user's last write so far has answered. */
  private readonly tails = new Map<string, Promise<void>>();

  /** Waits for the user's earlier writes to answer; answers the release of this one (idempotent). */
  async enter(user: string): Promise<() => void> {
    const key = user.toLowerCase();
    const earlier = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const answered = new Promise<void>((resolve) => (release = resolve));
    const tail = earlier.then(() => answered);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    await earlier;
    return release;
  }
}

/** Whether a route is a People write: every People method that is not a GET changes the user's contacts. */
export const isPeopleWrite = (routeId: string, method: string | undefined): boolean =>
  routeId.startsWith("people.") && method !== "GET";
