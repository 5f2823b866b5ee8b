import { useTranslation } from "react-i18next";
import { ContentLayout } from "@/components/layouts/content-layout";
import { PoliciesScreen } from "@/features/policies/components/policies-screen";

export default function PoliciesRoute() {
  const { t } = useTranslation();
  return (
    <ContentLayout title={t("pages.policies.title")}>
      <PoliciesScreen />
    </ContentLayout>
  );
}
