import SearchOutlined from "@mui/icons-material/SearchOutlined";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import TextField from "@mui/material/TextField";
import { useFormik } from "formik";
import { useTranslation } from "react-i18next";
import { searchFormSchema } from "@alpvault/contracts/search";
import "../i18n/register";

/** What a search asks for: the fields as typed, trimmed; empty optional fields left out. */
export interface SearchCriteria {
  resource: string;
  date?: string;
  keyword?: string;
}

type FieldName = "resource" | "date" | "keyword";

/**
 * The search card (docs/requirements.md#screens-and-navigation, #validation): resource name or email, an optional MM-DD-YYYY date and an optional keyword,
 * checked with the rules and texts the API checks with; a rule's text shows under its field (as
 * `#search-<field>-helper-text`) once the field was left or the form submitted.
 */
export function SearchForm(props: { initialResource: string; onSearch: (criteria: SearchCriteria) => void }) {
  const { t } = useTranslation();
  const form = useFormik({
    initialValues: { resource: props.initialResource, date: "", keyword: "" },
    validationSchema: searchFormSchema,
    onSubmit: (values) => {
      const date = values.date.trim();
      const keyword = values.keyword.trim();
      props.onSearch({
        resource: values.resource.trim(),
        ...(date ? { date } : {}),
        ...(keyword ? { keyword } : {}),
      });
    },
  });
  const fieldError = (name: FieldName) =>
    (form.touched[name] || form.submitCount > 0) && form.errors[name] ? form.errors[name] : undefined;

  const field = (name: FieldName, extra: { placeholder?: string; grow: number; minWidth: number }) => (
    <TextField
      id={`search-${name}`}
      name={name}
      label={t(`search.form.${name}`)}
      placeholder={extra.placeholder}
      value={form.values[name]}
      onChange={form.handleChange}
      onBlur={form.handleBlur}
      error={Boolean(fieldError(name))}
      helperText={fieldError(name) ?? " "}
      slotProps={{
        inputLabel: extra.placeholder ? { shrink: true } : undefined,
      }}
      size="small"
      sx={{ flex: `${extra.grow} 1 0`, minWidth: extra.minWidth }}
    />
  );

  return (
    <Card
      component="form"
      variant="outlined"
      noValidate
      onSubmit={form.handleSubmit}
      aria-label={t("search.form.label")}
      sx={{ p: 2, display: "flex", gap: 2, flexWrap: "wrap", alignItems: "flex-start" }}
    >
      {field("resource", { grow: 3, minWidth: 240 })}
      {field("date", { placeholder: t("search.form.datePlaceholder"), grow: 1, minWidth: 150 })}
      {field("keyword", { grow: 2, minWidth: 180 })}
      <Button type="submit" variant="contained" startIcon={<SearchOutlined />} sx={{ mt: 0.25 }}>
        {t("search.form.submit")}
      </Button>
    </Card>
  );
}
