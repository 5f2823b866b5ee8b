import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";

/** An item a job skipped, failed or left out, with why. */
export interface NamedProblem {
  itemKey: string;
  name: string;
  reason: string;
}

/**
 * The first items a finished job did not handle, each with why, and how many more its report lists. The
 * texts are the feature's, under `texts`: `.problems` (the list's name), `.problem` (`name`, `reason`),
 * `.unnamed` (an item without a name) and `.more` (`count`).
 */
export function NamedProblems({
  problems,
  more,
  texts,
  testId,
}: {
  problems: NamedProblem[];
  /** Items not named here. */
  more: number;
  texts: string;
  /** Each item's `data-testid`. */
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      {problems.length > 0 && (
        <Box component="ul" sx={{ m: 0, pl: 2.5 }} aria-label={t(`${texts}.problems`)}>
          {problems.map((problem) => (
            <Typography component="li" variant="body2" key={problem.itemKey} data-testid={testId}>
              {t(`${texts}.problem`, { name: problem.name || t(`${texts}.unnamed`), reason: problem.reason })}
            </Typography>
          ))}
        </Box>
      )}
      {more > 0 && problems.length > 0 && (
        <Typography variant="body2">{t(`${texts}.more`, { count: more })}</Typography>
      )}
    </>
  );
}
