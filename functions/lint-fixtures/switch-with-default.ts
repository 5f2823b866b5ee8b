/** A switch whose `default` hides a member of the union: "drive" falls into the text written for mail. */
type Service = "gmail" | "drive";

export function itemName(service: Service): string {
  switch (service) {
    case "gmail":
      return "message";
    default:
      return "item";
  }
}
