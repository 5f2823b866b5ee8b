import { useTranslation } from "react-i18next";
import { ContentLayout } from "@/components/layouts/content-layout";
import { ProfileScreen } from "@/features/billing/components/billing-screens";

export default function ProfileRoute() {
  const { t } = useTranslation();
  return (
    <ContentLayout title={t("pages.profile.title")}>
      <ProfileScreen />
    </ContentLayout>
  );
}
