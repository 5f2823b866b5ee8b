import { isPremium, planIdOfName } from "./plans";

describe("plan names", () => {
  it("when the answers name a plan, then its id follows without regard to case or accents", () => {
    expect(planIdOfName("Matterhorn")).toBe("matterhorn");
    expect(planIdOfName("matterhorn")).toBe("matterhorn");
    expect(planIdOfName("Geneva")).toBe("geneva");
    expect(planIdOfName("Zürich")).toBe("zurich");
    expect(planIdOfName("ZURICH")).toBe("zurich");
  });

  it("when a name is no plan of ours, then it has no id", () => {
    expect(planIdOfName("GW Daily")).toBeNull();
    expect(planIdOfName("")).toBeNull();
  });

  it("when a plan is named, then it is premium unless it is Matterhorn", () => {
    expect(isPremium("Matterhorn")).toBe(false);
    expect(isPremium("matterhorn")).toBe(false);
    expect(isPremium("Geneva")).toBe(true);
    expect(isPremium("GW Daily")).toBe(true);
  });
});
