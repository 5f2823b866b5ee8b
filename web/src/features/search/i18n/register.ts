import { registerFeatureTranslations } from "@/lib/i18n/feature-bundles";
import en from "./en.json";
import fr from "./fr.json";

/** The search screen's strings (`search.*`); imported by the screen's modules. */
registerFeatureTranslations(en, fr);
