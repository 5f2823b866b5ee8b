import { registerFeatureTranslations } from "@/lib/i18n/feature-bundles";
import en from "./en.json";
import fr from "./fr.json";

/** The secrets screen's strings (`secrets.*`); imported by the screen's modules. */
registerFeatureTranslations(en, fr);
