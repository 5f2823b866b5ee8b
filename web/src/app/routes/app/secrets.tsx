import { useTranslation } from "react-i18next";
import { ContentLayout } from "@/components/layouts/content-layout";
import { SecretsScreen } from "@/features/secrets/components/secrets-screen";

export default function SecretsRoute() {
  const { t } = useTranslation();
  return (
    <ContentLayout title={t("pages.secrets.title")}>
      <SecretsScreen />
    </ContentLayout>
  );
}
