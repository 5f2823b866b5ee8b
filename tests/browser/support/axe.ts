import path from "node:path";
import type { Page } from "playwright-core";

/**
 * Accessibility checks with axe-core (its WCAG 2.0 and 2.1 A and AA rules) on the page as it is now.
 * Violations of serious or critical impact fail; each is named with its rule, the element and axe's own
 * explanation (for contrast: the two colours and the ratio), so a failure says what to mend.
 */

const AXE_SOURCE = path.join(process.cwd(), "node_modules", "axe-core", "axe.min.js");
const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

interface AxeWindow {
  axe: {
    run(
      context: Document,
      options: object,
    ): Promise<{
      violations: {
        id: string;
        impact: string | null;
        nodes: { target: string[]; any: { message: string }[] }[];
      }[];
    }>;
  };
}

/** Every serious or critical violation, one line per element: "rule: element: explanation". */
export async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ path: AXE_SOURCE });
  // Colours are read as they end: a theme switch's transitions would otherwise be measured half-way.
  await page.addStyleTag({ content: "*, *::before, *::after { transition: none !important; }" });
  return page.evaluate(async (tags) => {
    const { axe } = window as unknown as AxeWindow;
    const result = await axe.run(document, {
      runOnly: { type: "tag", values: tags },
      resultTypes: ["violations"],
    });
    return result.violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .flatMap((violation) =>
        violation.nodes.map((node) =>
          [violation.id, node.target.join(" "), node.any[0]?.message].filter(Boolean).join(": "),
        ),
      );
  }, WCAG_TAGS);
}

/** Throws when `findings` (by screen name) hold any violation, naming each. */
export function expectNoViolations(findings: Record<string, string[]>): void {
  const lines = Object.entries(findings).flatMap(([where, found]) =>
    found.map((line) => `${where}: ${line}`),
  );
  if (lines.length > 0) {
    throw new Error(`axe-core found serious or critical violations:\n${lines.join("\n")}`);
  }
}
