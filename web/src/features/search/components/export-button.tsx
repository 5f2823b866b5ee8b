import ArrowDropDown from "@mui/icons-material/ArrowDropDown";
import DownloadOutlined from "@mui/icons-material/DownloadOutlined";
import Button from "@mui/material/Button";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import { useState, type MouseEvent } from "react";
import { useTranslation } from "react-i18next";
import {
  EXPORT_FORMATS,
  EXPORT_MESSAGES,
  type ExportFormat,
  type ExportPlaceField,
} from "@alpvault/contracts/exports";
import type { SearchResponse } from "@alpvault/contracts/search";
import { useSnackbar } from "@/lib/snackbar";
import { asApiError } from "@/lib/query";
import { useStartExport } from "../api/start-export";

/**
 * The place a browse shows (a label, a folder, a calendar, a contact group): what its Export all exports
 * (the request's field and value), and the name it says it by.
 */
export interface ExportPlace {
  field: ExportPlaceField;
  value: string;
  name: string;
}

/**
 * Export all / Export selected: starts an export job of the answer's resource and service (the selected
 * rows; else the place a browse shows, every page of it, and the button names it; else
 * everything), as of the search's date. Mail asks for its format first (MBOX or .eml files in a ZIP);
 * files export as a ZIP.
 */
export function ExportButton({
  organizationId,
  answer,
  selected,
  date,
  place,
}: {
  organizationId: string | null;
  answer: SearchResponse | undefined;
  selected: ReadonlySet<string>;
  date: string | undefined;
  place?: ExportPlace | undefined;
}) {
  const { t } = useTranslation();
  const { show } = useSnackbar();
  const startExport = useStartExport();
  /** The Gmail export's format menu (mail exports as MBOX or as .eml files in a ZIP). */
  const [formatMenu, setFormatMenu] = useState<HTMLElement | null>(null);
  const exportItems = async (format: ExportFormat) => {
    setFormatMenu(null);
    if (!answer || organizationId === null || startExport.pending) return;
    const { resource, service } = answer;
    try {
      await startExport.run(organizationId, {
        resourceId: resource.resourceId,
        service,
        format,
        ...(selected.size > 0 ? { itemIds: [...selected] } : place ? { [place.field]: place.value } : {}),
        ...(date ? { date } : {}),
      });
      show({ text: EXPORT_MESSAGES.started, isError: false });
    } catch (error) {
      show({ text: asApiError(error).message, isError: true });
    }
  };
  // A service with several export formats offers them in a menu; one with a single format exports in it.
  const formats: readonly ExportFormat[] = answer ? EXPORT_FORMATS[answer.service] : [];
  const choosesFormat = formats.length > 1;
  const onExport = (event: MouseEvent<HTMLElement>) => {
    if (choosesFormat) setFormatMenu(event.currentTarget);
    else if (formats[0]) void exportItems(formats[0]);
  };
  return (
    <>
      <Button
        variant="outlined"
        startIcon={<DownloadOutlined />}
        endIcon={choosesFormat ? <ArrowDropDown /> : undefined}
        disabled={!answer || answer.total === 0 || startExport.pending}
        onClick={onExport}
        aria-haspopup={choosesFormat ? "menu" : undefined}
        aria-controls={formatMenu ? "export-format-menu" : undefined}
      >
        {selected.size > 0
          ? t("search.exportSelected")
          : place
            ? t("search.exportPlace", { name: place.name })
            : t("search.exportAll")}
      </Button>
      <Menu
        id="export-format-menu"
        anchorEl={formatMenu}
        open={formatMenu !== null}
        onClose={() => setFormatMenu(null)}
      >
        {formats.map((format) => (
          <MenuItem key={format} onClick={() => void exportItems(format)}>
            {t(`search.exportAs.${format}`)}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
