import { useTranslation } from "react-i18next";
import { ContentLayout } from "@/components/layouts/content-layout";
import { SubscriptionScreen } from "@/features/billing/components/billing-screens";

export default function SubscriptionRoute() {
  const { t } = useTranslation();
  return (
    <ContentLayout title={t("pages.subscription.title")}>
      <SubscriptionScreen />
    </ContentLayout>
  );
}
