import { registerFeatureTranslations } from "@/lib/i18n/feature-bundles";
import en from "./en.json";
import fr from "./fr.json";

/** The recovery modal's and progress strings (`recovery.*`); imported by the feature's modules. */
registerFeatureTranslations(en, fr);
