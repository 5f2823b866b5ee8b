import { registerFeatureTranslations } from "@/lib/i18n/feature-bundles";
import en from "./en.json";
import fr from "./fr.json";

/** The restore drills screen's strings (`drills.*`); imported by the screen's modules. */
registerFeatureTranslations(en, fr);
