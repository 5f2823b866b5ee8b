import Box from "@mui/material/Box";
import Tab from "@mui/material/Tab";
import Tabs from "@mui/material/Tabs";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { SEARCH_SERVICES, SEARCH_TABS, type SearchService } from "@alpvault/contracts/search";

const isSearchService = (name: string): name is SearchService => SEARCH_SERVICES.some((id) => id === name);

/** A tab per service in the spec's order, those not searchable yet disabled as coming soon. */
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
        {SEARCH_TABS.map((name) =>
          isSearchService(name) ? (
            <Tab
              key={name}
              value={name}
              label={t(`search.tabs.${name}`)}
              id={`search-tab-${name}`}
              aria-controls="search-panel"
            />
          ) : (
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
          ),
        )}
      </Tabs>
    </Box>
  );
}
