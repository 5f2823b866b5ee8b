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

/**
 * The value where `chart` draws the mark of series `series` at data index `index`, read off the y axis as a
 * user does: the mark's centre against the axis's ticks (their lines' positions and their labels' numbers).
 */
export async function markValue(chart: Locator, series: string, index: number): Promise<number> {
  await chart.scrollIntoViewIfNeeded();
  const mark = chart.locator(`.MuiLineChart-mark[data-series="${series}"][data-index="${index}"]`);
  await mark.waitFor();
  const markY = await mark.evaluate((element) => {
    const box = element.getBoundingClientRect();
    return box.y + box.height / 2;
  });
  const ticks = await chart
    .locator(".MuiChartsAxis-directionY .MuiChartsAxis-tickContainer")
    .evaluateAll((containers) =>
      containers.map((container) => {
        const line = container.querySelector(".MuiChartsAxis-tick")?.getBoundingClientRect();
        const label = container.querySelector(".MuiChartsAxis-tickLabel")?.textContent ?? "";
        return {
          y: line ? line.y + line.height / 2 : Number.NaN,
          value: Number(label.replace(/[^\d.-]/g, "")),
        };
      }),
    );
  const [low, high] = [ticks[0], ticks.at(-1)];
  if (!low || !high || ticks.length < 2) throw new Error("The chart has no y axis ticks to read");
  return low.value + ((markY - low.y) / (high.y - low.y)) * (high.value - low.value);
}

/**
 * The x axis's tick labels as `chart` shows them, and whether each lies whole inside the chart (a label cut
 * at the chart's edge ends with "…" or sticks out).
 */
export async function xTickLabels(chart: Locator): Promise<{ text: string; inside: boolean }[]> {
  await chart.scrollIntoViewIfNeeded();
  return chart.locator(".MuiChartsAxis-directionX .MuiChartsAxis-tickLabel").evaluateAll((labels) =>
    labels.map((label) => {
      const svg = label.closest("svg")?.getBoundingClientRect();
      const box = label.getBoundingClientRect();
      const text = label.textContent ?? "";
      const inside = !!svg && box.left >= svg.left && box.right <= svg.right && !text.endsWith("…");
      return { text, inside };
    }),
  );
}
