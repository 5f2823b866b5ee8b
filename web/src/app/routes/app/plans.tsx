import { useTranslation } from "react-i18next";
import { ContentLayout } from "@/components/layouts/content-layout";
import { PlansScreen } from "@/features/billing/components/billing-screens";

export default function PlansRoute() {
  const { t } = useTranslation();
  return (
    <ContentLayout title={t("pages.plans.title")}>
      <PlansScreen />
    </ContentLayout>
  );
}
