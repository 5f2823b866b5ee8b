import { registerFeatureTranslations } from "@/lib/i18n/feature-bundles";
import en from "./en.json";
import fr from "./fr.json";

/** The plans, subscription and payment strings (`billing.*`); imported by the feature's modules. */
registerFeatureTranslations(en, fr);
