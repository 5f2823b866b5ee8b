import { registerFeatureTranslations } from "@/lib/i18n/feature-bundles";
import en from "./en.json";
import fr from "./fr.json";

/** The activity screen's and the backup history's strings (`activity.*`); imported by their modules. */
registerFeatureTranslations(en, fr);
