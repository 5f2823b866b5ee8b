import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import TextField from "@mui/material/TextField";
import { useFormik } from "formik";
import { useTranslation } from "react-i18next";
import { validateAuditRange } from "@alpvault/contracts/audit";

/** A date range as YYYY-MM-DD. */
interface AuditRange {
  start: string;
  end: string;
}

/** The range's start and end, checked with the API's rules and texts; Apply hands it on. */
export function AuditRangeForm({
  initial,
  onApply,
}: {
  initial: AuditRange;
  onApply: (range: AuditRange) => void;
}) {
  const { t } = useTranslation();
  const form = useFormik({
    initialValues: initial,
    validate: (values) => validateAuditRange(values.start, values.end),
    onSubmit: onApply,
  });
  const fieldError = (name: "start" | "end") =>
    (form.touched[name] || form.submitCount > 0) && form.errors[name] ? form.errors[name] : undefined;

  return (
    <Card
      component="form"
      noValidate
      onSubmit={form.handleSubmit}
      aria-label={t("auditLogs.range")}
      sx={{ p: 2, display: "flex", gap: 2, flexWrap: "wrap", alignItems: "flex-start" }}
    >
      {(["start", "end"] as const).map((name) => (
        <TextField
          key={name}
          id={`audit-${name}`}
          name={name}
          type="date"
          label={t(`auditLogs.${name}`)}
          value={form.values[name]}
          onChange={form.handleChange}
          onBlur={form.handleBlur}
          error={Boolean(fieldError(name))}
          helperText={fieldError(name) ?? " "}
          slotProps={{ inputLabel: { shrink: true } }}
          size="small"
        />
      ))}
      <Button type="submit" variant="contained" sx={{ mt: 0.25 }}>
        {t("auditLogs.apply")}
      </Button>
    </Card>
  );
}
