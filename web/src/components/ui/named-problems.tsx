import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";

/** An item a job skipped, failed or left out, with why. */
export interface NamedProblem {
  itemKey: string;
  name: string;
  reason: string;
}

/**
 * The first items a finished job did not handle, each with why, and how many more its report lists.
 * The texts are the caller's (each feature words them its own way).
 */
export function NamedProblems({
  problems,
  more,
  label,
  testId,
  text,
  moreText,
}: {
  problems: NamedProblem[];
  /** Items not named here. */
  more: number;
  /** The list's accessible name. */
  label: string;
  /** Each item's `data-testid`. */
  testId: string;
  text: (problem: NamedProblem) => string;
  moreText: string;
}) {
  return (
    <>
      {problems.length > 0 && (
        <Box component="ul" sx={{ m: 0, pl: 2.5 }} aria-label={label}>
          {problems.map((problem) => (
            <Typography component="li" variant="body2" key={problem.itemKey} data-testid={testId}>
              {text(problem)}
            </Typography>
          ))}
        </Box>
      )}
      {more > 0 && problems.length > 0 && <Typography variant="body2">{moreText}</Typography>}
    </>
  );
}
