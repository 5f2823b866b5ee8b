import Box from "@mui/material/Box";
import Tab from "@mui/material/Tab";
import Tabs from "@mui/material/Tabs";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { COMING_SOON_SEARCH_SERVICES, SEARCH_SERVICES, type SearchService } from "@alpvault/contracts/search";

/** A tab per searchable service, then the services coming soon (disabled). */
export function SearchTabs({
  service,
  onChange,
}: {
  service: SearchService;
  onChange: (service: SearchService) => void;
}) {
  const { t } = useTranslation();
  return (
    <Box sx={{ borderBottom: 1, borderColor: "divider" }}>
      <Tabs
        value={service}
        onChange={(_, next: SearchService) => onChange(next)}
        aria-label={t("search.tabs.label")}
        variant="scrollable"
        allowScrollButtonsMobile
      >
        {SEARCH_SERVICES.map((name) => (
          <Tab
            key={name}
            value={name}
            label={t(`search.tabs.${name}`)}
            id={`search-tab-${name}`}
            aria-controls="search-panel"
          />
        ))}
        {COMING_SOON_SEARCH_SERVICES.map((name) => (
          <Tab
            key={name}
            value={name}
            disabled
            data-testid="search-tab-coming-soon"
            label={
              <Box component="span" sx={{ display: "flex", flexDirection: "column", lineHeight: 1.2 }}>
                <span>{t(`search.tabs.${name}`)}</span>
                <Typography component="span" variant="caption" sx={{ textTransform: "none" }}>
                  {t("search.tabs.comingSoon")}
                </Typography>
              </Box>
            }
          />
        ))}
      </Tabs>
    </Box>
  );
}
