import { registerFeatureTranslations } from "@/lib/i18n/feature-bundles";
import en from "./page.en.json";

/** A resource's page's strings (`resources.page.*`), apart from the resources screen's first load. */
registerFeatureTranslations(en, {});
