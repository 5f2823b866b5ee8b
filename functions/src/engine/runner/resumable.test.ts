import { createHash, randomBytes } from "node:crypto";
import { createContentDigester } from "../format/content-digest";
import { deriveKeys, newDataKey } from "../format/keys";
import { resumableContentDigest, resumableMd5 } from "./resumable";

test("when a content digest is saved halfway and resumed elsewhere, then it equals the digest of the whole content in one go", async () => {
  const keys = deriveKeys(newDataKey());
  const content = randomBytes(300_001);
  const whole = createContentDigester(keys);
  whole.update(content);

  const first = await resumableContentDigest(keys);
  first.update(content.subarray(0, 123_457));
  const second = await resumableContentDigest(keys, first.save());
  second.update(content.subarray(123_457));

  expect(await second.digest()).toBe(whole.digest());
});

test("when an md5 is saved halfway and resumed, then it equals Node's md5 of the whole content", async () => {
  const content = randomBytes(70_000);
  const first = await resumableMd5();
  first.update(content.subarray(0, 1));
  const second = await resumableMd5(first.save());
  second.update(content.subarray(1));
  expect(await second.digest()).toBe(createHash("md5").update(content).digest("hex"));
});
