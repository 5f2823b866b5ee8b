import KeyboardArrowLeft from "@mui/icons-material/KeyboardArrowLeft";
import KeyboardArrowRight from "@mui/icons-material/KeyboardArrowRight";
import Box from "@mui/material/Box";
import IconButton from "@mui/material/IconButton";
import NativeSelect from "@mui/material/NativeSelect";
import Typography from "@mui/material/Typography";
import { useId } from "react";
import { useTranslation } from "react-i18next";

/**
 * A table's pager: rows per page (a native select), "1–25 of 120", previous and next. Lighter than MUI's
 * TablePagination, whose menu-based select brings MUI's menu, popover and modal into the first load.
 */
export function TablePager({
  count,
  page,
  pageSize,
  pageSizes,
  rowsPerPageLabel,
  onPageChange,
  onPageSizeChange,
}: {
  count: number;
  /** 1-based. */
  page: number;
  pageSize: number;
  pageSizes: readonly number[];
  rowsPerPageLabel: string;
  onPageChange: (page: number) => void;
  onPageSizeChange: (pageSize: number) => void;
}) {
  const { t } = useTranslation();
  const labelId = useId();
  const from = count === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(count, page * pageSize);
  const last = Math.max(1, Math.ceil(count / pageSize));
  return (
    <Box
      sx={{
        display: "flex",
        alignItems: "center",
        justifyContent: "flex-end",
        flexWrap: "wrap",
        gap: 2,
        px: 2,
        py: 1,
      }}
      data-testid="table-pager"
    >
      <Box sx={{ display: "flex", alignItems: "center", gap: 1 }}>
        <Typography variant="body2" id={labelId}>
          {rowsPerPageLabel}
        </Typography>
        <NativeSelect
          value={pageSize}
          onChange={(event) => onPageSizeChange(Number(event.target.value))}
          inputProps={{ "aria-labelledby": labelId }}
          disableUnderline
          sx={{ fontSize: "0.875rem" }}
        >
          {pageSizes.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </NativeSelect>
      </Box>
      <Typography variant="body2">{t("pager.displayed", { from, to, count })}</Typography>
      <Box>
        <IconButton
          aria-label={t("pager.previous")}
          title={t("pager.previous")}
          disabled={page <= 1}
          onClick={() => onPageChange(page - 1)}
        >
          <KeyboardArrowLeft />
        </IconButton>
        <IconButton
          aria-label={t("pager.next")}
          title={t("pager.next")}
          disabled={page >= last}
          onClick={() => onPageChange(page + 1)}
        >
          <KeyboardArrowRight />
        </IconButton>
      </Box>
    </Box>
  );
}
