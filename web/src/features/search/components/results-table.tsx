import Checkbox from "@mui/material/Checkbox";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import "../i18n/register";

export interface ResultColumn<T> {
  id: string;
  label: string;
  render: (row: T) => ReactNode;
  /** Dates and sizes stay on one line. */
  noWrap?: boolean;
  align?: "right";
}

/**
 * One page of search results with a checkbox per row and one for the whole page; the columns depend on the
 * service (emails or Drive files).
 */
export function ResultsTable<T extends { itemId: string }>(props: {
  label: string;
  columns: ResultColumn<T>[];
  rows: T[];
  /** How a row is named for its checkbox ("Select …"). */
  rowName: (row: T) => string;
  /** What tells rows apart (absent: the item; a series' occurrences are rows of one item). */
  rowKey?: (row: T) => string;
  selected: ReadonlySet<string>;
  onSelectedChange: (selected: Set<string>) => void;
  busy: boolean;
  empty: string;
}) {
  const { t } = useTranslation();
  const { rows, selected } = props;
  const selectedOnPage = rows.filter((row) => selected.has(row.itemId)).length;

  const toggle = (itemId: string) => {
    const next = new Set(selected);
    if (!next.delete(itemId)) next.add(itemId);
    props.onSelectedChange(next);
  };
  const togglePage = () =>
    props.onSelectedChange(
      selectedOnPage === rows.length ? new Set() : new Set(rows.map((row) => row.itemId)),
    );

  return (
    <TableContainer>
      <Table size="small" aria-label={props.label} aria-busy={props.busy} data-testid="search-results">
        <TableHead>
          <TableRow>
            <TableCell padding="checkbox">
              <Checkbox
                checked={rows.length > 0 && selectedOnPage === rows.length}
                indeterminate={selectedOnPage > 0 && selectedOnPage < rows.length}
                disabled={rows.length === 0}
                onChange={togglePage}
                slotProps={{ input: { "aria-label": t("search.table.selectPage") } }}
              />
            </TableCell>
            {props.columns.map((column) => (
              <TableCell key={column.id} align={column.align} sx={{ whiteSpace: "nowrap" }}>
                {column.label}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow
              key={props.rowKey?.(row) ?? row.itemId}
              hover
              selected={selected.has(row.itemId)}
              data-testid="search-result"
            >
              <TableCell padding="checkbox">
                <Checkbox
                  checked={selected.has(row.itemId)}
                  onChange={() => toggle(row.itemId)}
                  slotProps={{
                    input: { "aria-label": t("search.table.select", { item: props.rowName(row) }) },
                  }}
                />
              </TableCell>
              {props.columns.map((column) => (
                <TableCell
                  key={column.id}
                  align={column.align}
                  sx={column.noWrap ? { whiteSpace: "nowrap" } : undefined}
                >
                  {column.render(row)}
                </TableCell>
              ))}
            </TableRow>
          ))}
          {rows.length === 0 && (
            <TableRow>
              <TableCell colSpan={props.columns.length + 1}>
                <Typography color="text.secondary" data-testid="search-empty">
                  {props.empty}
                </Typography>
              </TableCell>
            </TableRow>
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
