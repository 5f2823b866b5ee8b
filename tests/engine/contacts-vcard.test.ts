/**
 * The vCard 4.0 export of backed-up contacts, read back by a parser nobody here wrote (ical.js, which reads
 * RFC 6350): contacts backed up through the Contacts source from the Workspace emulator, exported, parsed,
 * and every exported field compared with the contact as Google returned it.
 */
import ICAL from "ical.js";
import { type Harness, ManualClock, startHarness } from "../../emulators/workspace/src/index";
import type { BackedUpPerson } from "../../functions/src/engine/contacts/people";
import { contactsVCard, foldLine } from "../../functions/src/engine/contacts/vcard";
import {
  PNG,
  PROPAGATED,
  addContacts,
  addGroup,
  backUp,
  contactsSource,
  grantPeopleScopes,
  newUser,
  richPerson,
  testCaller,
} from "../support/contacts";

let harness: Harness;
const clock = new ManualClock();

beforeAll(async () => {
  harness = await startHarness({ clock, latency: { enabled: false } });
  await grantPeopleScopes(harness);
});
afterAll(() => harness.stop());

type JCardProperty = [string, Record<string, string | string[]>, string, ...unknown[]];

/** ical.js's jCard of each VCARD in the file. */
function parseCards(file: string): JCardProperty[][] {
  const parsed = ICAL.parse(file) as unknown[];
  const cards = (typeof parsed[0] === "string" ? [parsed] : parsed) as [string, JCardProperty[]][];
  return cards.map(([name, properties]) => {
    expect(name).toBe("vcard");
    return properties;
  });
}

const all = (card: JCardProperty[], name: string) =>
  card.filter((property) => property[0] === name).map(([, params, , ...values]) => ({ params, values }));
const one = (card: JCardProperty[], name: string) => all(card, name).map((property) => property.values);
const date = (
  value: { year?: number | null; month?: number | null; day?: number | null } | null | undefined,
) => `${value?.year}-${String(value?.month).padStart(2, "0")}-${String(value?.day).padStart(2, "0")}`;

test("when backed-up contacts are exported as vCard 4.0, then ical.js reads back every exported field as the source had it, from lines of at most 75 octets", () =>
  clock.run(
    (async () => {
      const user = await newUser(harness, "vcard");
      const clients = await addGroup(harness, user, "Clients, EMEA");
      await addContacts(harness, user, [
        { person: richPerson(1, ["myContacts", clients, "starred"]), photo: PNG },
        { person: richPerson(2) },
        {
          person: { names: [{ displayName: "Saved From Mail" }], emailAddresses: [{ value: "s@mail.test" }] },
          other: true,
        },
      ]);
      await clock.advance(PROPAGATED);
      const { entries } = await backUp(contactsSource(harness, user, testCaller(clock)));

      const file = contactsVCard([...entries.values()]);

      expect(file.endsWith("\r\n")).toBe(true);
      for (const line of file.split("\r\n")) expect(Buffer.byteLength(line, "utf8")).toBeLessThanOrEqual(75);
      expect(file).not.toMatch(/[^\r]\n/);
      const cards = parseCards(file);
      const persons = [...entries.values()]
        .filter((entry) => entry.metadata.contactEntry !== "group")
        .map((entry) => JSON.parse(entry.content.toString("utf8")) as BackedUpPerson);
      expect(cards).toHaveLength(3);

      for (const card of cards) {
        const uid = one(card, "uid")[0]?.[0] as string | undefined;
        const person = persons.find((candidate) => candidate.resourceName === uid);
        expect(person).toBeDefined();
        if (!person) continue;
        expect(one(card, "version")).toEqual([["4.0"]]);
        const name = person.names?.[0];
        expect(one(card, "fn")).toEqual([[name?.displayName]]);
        expect(one(card, "rev")).toEqual([
          [person.metadata?.sources?.[0]?.updateTime?.replace(/\.\d+Z$/, "Z")],
        ]);
        expect(all(card, "email").map(({ values }) => values[0])).toEqual(
          person.emailAddresses?.map((email) => email.value),
        );
        if (uid?.startsWith("otherContacts/")) continue;

        expect(one(card, "n")).toEqual([
          [
            [
              name?.familyName,
              name?.givenName,
              name?.middleName,
              name?.honorificPrefix,
              name?.honorificSuffix,
            ],
          ],
        ]);
        expect(one(card, "nickname")).toEqual(person.nicknames?.map((nickname) => [nickname.value]));
        expect(all(card, "email").map(({ params }) => params.type)).toEqual(["work", "home"]);
        expect(all(card, "tel")).toEqual([
          { params: { type: "cell" }, values: [person.phoneNumbers?.[0]?.value] },
          { params: { type: "work" }, values: [person.phoneNumbers?.[1]?.value] },
        ]);
        const address = person.addresses?.[0];
        expect(all(card, "adr")).toEqual([
          {
            params: { type: "home" },
            values: [
              [
                address?.poBox,
                address?.extendedAddress,
                address?.streetAddress,
                address?.city,
                address?.region,
                address?.postalCode,
                address?.country,
              ],
            ],
          },
        ]);
        const org = person.organizations?.[0];
        expect(one(card, "org")).toEqual([[[org?.name, org?.department]]]);
        expect(one(card, "title")).toEqual([[org?.title]]);
        expect(one(card, "bday")).toEqual([[date(person.birthdays?.[0]?.date)]]);
        expect(one(card, "anniversary")).toEqual([[date(person.events?.[0]?.date)]]);
        expect(one(card, "note")).toEqual([[person.biographies?.[0]?.value]]);
        expect(one(card, "url")).toEqual([[person.urls?.[0]?.value]]);
        expect(all(card, "related")).toEqual([
          { params: { type: "spouse" }, values: [person.relations?.[0]?.person] },
        ]);
        expect(all(card, "x-google-custom-field")).toEqual(
          person.userDefined?.map((custom) => ({ params: { "x-key": custom.key }, values: [custom.value] })),
        );
        if (person.alpvaultPhoto) {
          expect(one(card, "photo")).toEqual([[`data:image/png;base64,${PNG.toString("base64")}`]]);
          expect(one(card, "categories")).toEqual([["Clients, EMEA", "Starred"]]);
        } else {
          expect(one(card, "photo")).toEqual([]);
          expect(one(card, "categories")).toEqual([]);
        }
      }
    })(),
  ));

test("when a line holds multi-octet characters, then it is folded at 75 octets without splitting one", () => {
  const line = `NOTE:${"ü".repeat(40)}🦊${"x".repeat(80)}`;
  const folded = foldLine(line).split("\r\n");
  expect(folded.length).toBeGreaterThan(2);
  for (const part of folded) expect(Buffer.byteLength(part, "utf8")).toBeLessThanOrEqual(75);
  expect(folded.slice(1).every((part) => part.startsWith(" "))).toBe(true);
  expect(folded.map((part, index) => (index === 0 ? part : part.slice(1))).join("")).toBe(line);
});
