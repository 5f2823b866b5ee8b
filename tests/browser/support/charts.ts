/**
 * Reading what a chart (MUI X Charts) draws, as a user does: the pointer on a mark shows the axis tooltip,
 * whose rows name each series and its value as drawn.
 */
import type { Locator, Page } from "playwright-core";

/**
 * The tooltip's rows when the pointer rests on the rightmost of `chart`'s marks matching `selector` (the
 * last day's): `{ series label: value as shown }`.
 */
export async function lastMarkTooltip(
  page: Page,
  chart: Locator,
  selector: string,
): Promise<Record<string, string>> {
  await chart.scrollIntoViewIfNeeded();
  const centres = await chart.locator(selector).evaluateAll((marks) =>
    marks.map((mark) => {
      const box = mark.getBoundingClientRect();
      return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    }),
  );
  const last = centres.reduce<{ x: number; y: number } | undefined>(
    (found, centre) => (found && found.x >= centre.x ? found : centre),
    undefined,
  );
  if (!last) throw new Error(`The chart has no mark ${selector}`);
  // Across the plot to the mark, as a hand moves (the chart follows the pointer's moves over it); a pixel
  // left of the mark's centre stays inside the plot when the mark sits on its right edge.
  await page.mouse.move(last.x - 40, last.y, { steps: 4 });
  await page.mouse.move(last.x - 1, last.y, { steps: 4 });
  const tooltip = page.locator(".MuiChartsTooltip-root");
  await tooltip.waitFor();
  const rows = await tooltip
    .locator(".MuiChartsTooltip-row")
    .evaluateAll((found) =>
      found.map((row) => [
        row.querySelector(".MuiChartsTooltip-labelCell")?.textContent?.trim() ?? "",
        row.querySelector(".MuiChartsTooltip-valueCell")?.textContent?.trim() ?? "",
      ]),
    );
  await page.mouse.move(0, 0);
  await tooltip.waitFor({ state: "hidden" });
  return Object.fromEntries(rows);
}
