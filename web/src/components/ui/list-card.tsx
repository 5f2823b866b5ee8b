import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Card from "@mui/material/Card";
import LinearProgress from "@mui/material/LinearProgress";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";

/**
 * A card listing what an API call answered: its heading (the section's name) and intro, a loading bar
 * while the first answer is awaited, the call's error, the text for an empty answer, and the list.
 */
export function ListCard(props: {
  /** The section's id: its heading's id is `${id}-heading`, and it is the card's test id. */
  id: string;
  heading: string;
  intro?: string;
  loading: boolean;
  error: string | null;
  /** Shown when the answer came and holds nothing. */
  empty: string | null;
  emptyTestId?: string;
  children?: ReactNode;
}) {
  return (
    <Card
      variant="outlined"
      component="section"
      aria-labelledby={`${props.id}-heading`}
      data-testid={props.id}
    >
      <Box sx={{ p: 2, pb: 0 }}>
        <Typography variant="h6" component="h2" id={`${props.id}-heading`}>
          {props.heading}
        </Typography>
        {props.intro && (
          <Typography variant="body2" color="text.secondary">
            {props.intro}
          </Typography>
        )}
      </Box>
      <Box sx={{ height: 4, mt: 1 }}>{props.loading && <LinearProgress aria-label={props.heading} />}</Box>
      {props.error && (
        <Alert severity="warning" sx={{ mx: 2, mb: 2 }}>
          {props.error}
        </Alert>
      )}
      {props.empty !== null && (
        <Typography color="text.secondary" sx={{ px: 2, pb: 2 }} data-testid={props.emptyTestId}>
          {props.empty}
        </Typography>
      )}
      {props.children}
    </Card>
  );
}
